// A server started under Hotframe's own recorder (`hotframe record`'s startRecording and its
// preload) for the measured tests: the server prints `{"port":N}` on stdout once it listens;
// the answer is that port and the recording, or an error with what the server printed when it
// exits first. `stopAndRemove` is the measured tests' `after`: the recording stopped (bounded
// wait) and the folders removed.
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';

import { startRecording, type Recording } from '../../server/shared/recordProfile';
import { sleep } from './attachService';

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

/** Stops a recording still running (waiting at most 20 s for it to end) and removes the folders named ('' is none). */
export async function stopAndRemove(recording: Recording | undefined, ...dirs: string[]): Promise<void> {
  if (recording !== undefined) {
    recording.stop();
    await Promise.race([recording.done, sleep(20_000)]);
  }
  for (const dir of dirs) if (dir !== '') rmSync(dir, { recursive: true, force: true });
}
