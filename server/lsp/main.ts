// Entry of the language server process (dist/server.js). The transport comes from the command
// line, as vscode-languageclient passes it: --stdio, --node-ipc, --socket=N or --pipe=NAME, then
// --clientProcessId=PID (vscode-languageserver reads that one itself when it is loaded, and exits
// when that process is gone). Other words are ignored, as vscode-languageserver does.
import { parseArgs } from 'node:util';
import {
  IPCMessageReader,
  IPCMessageWriter,
  StreamMessageReader,
  StreamMessageWriter,
  createServerPipeTransport,
  createServerSocketTransport,
} from 'vscode-languageserver/node';
import type { MessageReader, MessageWriter } from 'vscode-languageserver/node';

import { removeOwnTemporaryFoldersAtExit } from '../shared/temporaryFolders';
import { startServer } from './server';

const TRANSPORT_OPTIONS = {
  stdio: { type: 'boolean' },
  'node-ipc': { type: 'boolean' },
  socket: { type: 'string' },
  pipe: { type: 'string' },
  clientProcessId: { type: 'string' },
} as const;

function transportOf(argv: readonly string[]): [MessageReader, MessageWriter] | string {
  // Not strict: a flag a newer client adds must not keep the server from starting.
  const { values } = parseArgs({ args: [...argv], options: TRANSPORT_OPTIONS, strict: false, allowPositionals: true });
  if (values.stdio === true) return [new StreamMessageReader(process.stdin), new StreamMessageWriter(process.stdout)];
  if (values['node-ipc'] === true) return [new IPCMessageReader(process), new IPCMessageWriter(process)];
  if (typeof values.socket === 'string') {
    const port = Number(values.socket);
    if (!Number.isInteger(port) || port <= 0 || port > 65535) return `--socket: '${values.socket}' is not a port number`;
    return createServerSocketTransport(port);
  }
  if (typeof values.pipe === 'string' && values.pipe !== '') return createServerPipeTransport(values.pipe);
  return 'usage: node dist/server.js --stdio | --node-ipc | --socket=PORT | --pipe=NAME';
}

const transport = transportOf(process.argv.slice(2));
if (typeof transport === 'string') {
  process.stderr.write(`hotframe language server: ${transport}\n`);
  process.exitCode = 2;
} else {
  const [reader, writer] = transport;
  // A capture's folders, when the editor closes during it (the client's `exit`, its stream closed,
  // its process gone: each ends this process by process.exit).
  removeOwnTemporaryFoldersAtExit();
  let shutdown = false;
  const connection = startServer(reader, writer);
  connection.onShutdown(() => {
    shutdown = true;
  });
  // The client went away without `exit`: do not linger as an orphan process.
  reader.onClose(() => process.exit(shutdown ? 0 : 1));
}
