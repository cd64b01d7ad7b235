// Entry of the language server process (dist/server.js). The transport comes from the command
// line, as vscode-languageclient passes it: --stdio, --node-ipc, --socket=N or --pipe=NAME.
import {
  IPCMessageReader,
  IPCMessageWriter,
  StreamMessageReader,
  StreamMessageWriter,
  createServerPipeTransport,
  createServerSocketTransport,
} from 'vscode-languageserver/node';
import type { MessageReader, MessageWriter } from 'vscode-languageserver/node';

import { startServer } from './server';

/** The value of `--name=value` or `--name value`, or undefined. */
function optionValue(argv: readonly string[], name: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === name) return argv[i + 1];
    if (argv[i].startsWith(name + '=')) return argv[i].slice(name.length + 1);
  }
  return undefined;
}

function transportOf(argv: readonly string[]): [MessageReader, MessageWriter] | string {
  if (argv.includes('--stdio')) return [new StreamMessageReader(process.stdin), new StreamMessageWriter(process.stdout)];
  if (argv.includes('--node-ipc')) return [new IPCMessageReader(process), new IPCMessageWriter(process)];
  const socket = optionValue(argv, '--socket');
  if (socket !== undefined) {
    const port = Number(socket);
    if (!Number.isInteger(port) || port <= 0 || port > 65535) return `--socket: '${socket}' is not a port number`;
    return createServerSocketTransport(port);
  }
  const pipe = optionValue(argv, '--pipe');
  if (pipe !== undefined && pipe !== '') return createServerPipeTransport(pipe);
  return 'usage: node dist/server.js --stdio | --node-ipc | --socket=PORT | --pipe=NAME';
}

const transport = transportOf(process.argv.slice(2));
if (typeof transport === 'string') {
  process.stderr.write(`hotframe language server: ${transport}\n`);
  process.exitCode = 2;
} else {
  const [reader, writer] = transport;
  let shutdown = false;
  const connection = startServer(reader, writer);
  connection.onShutdown(() => {
    shutdown = true;
  });
  // The client went away without `exit`: do not linger as an orphan process.
  reader.onClose(() => process.exit(shutdown ? 0 : 1));
}
