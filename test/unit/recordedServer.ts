// A server started under Hotframe's own recorder (`hotframe record`'s startRecording and its
// preload) for the measured tests: the server prints `{"port":N}` on stdout once it listens;
// the answer is that port and the recording, or an error with what the server printed when it
// exits first.
import { resolve } from 'node:path';

import { startRecording, type Recording } from '../../server/shared/recordProfile';

const NODE_MODULES = resolve(__dirname, '../../node_modules');

export async function startRecordedServer(args: readonly string[], cwd: string): Promise<{ port: number; recording: Recording }> {
  let output = '';
  let portFound: (port: number) => void = () => {};
  const listening = new Promise<number>((done) => (portFound = done));
  const recording = startRecording({
    command: [process.execPath, ...args],
    cwd,
    env: { NODE_PATH: NODE_MODULES },
    stdio: 'pipe',
    onOutput: (text, stream) => {
      if (stream !== 'stdout') return;
      output += text;
      const line = /\{"port":\d+\}/.exec(output);
      if (line !== null) portFound((JSON.parse(line[0]) as { port: number }).port);
    },
  });
  const port = await Promise.race([listening, recording.done.then(() => Promise.reject(new Error(`the server exited before listening: ${output}`)))]);
  return { port, recording };
}
