// The real language server (the test bundle of bundles.ts) started on stdio JSON-RPC the way an
// editor starts it: the handshake, the requests a client must answer (settings, capability
// registration, progress), and every diagnostics publish kept so a test can wait for the one it
// needs. One helper for every test that talks to the server, so the handshake is written once;
// `stop()` belongs in an `after`/`afterEach` hook (it runs even when a test times out).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import type { Diagnostic, PublishDiagnosticsParams } from 'vscode-languageserver';
import { bundles } from './bundles';

export interface StdioServerOptions {
  /** The workspace's root, as the `initialize` request's `rootUri` (none by default). */
  rootUri?: string | null;
  /** Sent as the `initialize` request's `initializationOptions` (e.g. `workspaceRoots`, `workspaceTrusted`). */
  initializationOptions?: Record<string, unknown>;
}

export interface StdioServer {
  connection: MessageConnection;
  child: ChildProcessWithoutNullStreams;
  /** Every `textDocument/publishDiagnostics` received so far, in order. */
  published: PublishDiagnosticsParams[];
  /** The diagnostics of the first publish for `uri` that `ok` accepts, received already or still to come; rejects after `timeoutMs`. */
  publishFor(uri: string, ok?: (params: PublishDiagnosticsParams) => boolean, timeoutMs?: number): Promise<Diagnostic[]>;
  /** Closes the connection and kills the server (safe to call twice, or before the start finished). */
  stop(): void;
}

/** Starts the server and completes the handshake; every setting answered with its default. */
export async function startStdioServer(options: StdioServerOptions = {}): Promise<StdioServer> {
  const { server } = await bundles();
  const child = spawn(process.execPath, [server, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  child.stderr.resume();
  const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const published: PublishDiagnosticsParams[] = [];
  const waiters = new Set<() => void>();
  connection.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) => {
    published.push(params);
    for (const wake of [...waiters]) wake();
  });
  connection.onNotification('window/logMessage', () => undefined);
  connection.onRequest('workspace/configuration', (params: { items: unknown[] }) => params.items.map(() => ({})));
  connection.onRequest('client/registerCapability', () => null);
  connection.onRequest('window/workDoneProgress/create', () => null);
  connection.listen();
  const stop = (): void => {
    connection.dispose();
    if (child.exitCode === null) child.kill();
  };
  try {
    await connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: options.rootUri ?? null,
      capabilities: { workspace: { configuration: true } },
      ...(options.initializationOptions !== undefined ? { initializationOptions: options.initializationOptions } : {}),
    });
    await connection.sendNotification('initialized', {});
  } catch (error) {
    stop();
    throw error;
  }
  const publishFor = (uri: string, ok: (params: PublishDiagnosticsParams) => boolean = () => true, timeoutMs = 90_000): Promise<Diagnostic[]> =>
    new Promise((resolve, reject) => {
      const check = (): boolean => {
        const found = published.find((p) => p.uri === uri && ok(p));
        if (found === undefined) return false;
        resolve(found.diagnostics);
        return true;
      };
      if (check()) return;
      const timer = setTimeout(() => {
        waiters.delete(wake);
        reject(new Error(`no diagnostics of ${uri} as the test waits for within ${timeoutMs / 1000} s`));
      }, timeoutMs);
      const wake = (): void => {
        if (!check()) return;
        clearTimeout(timer);
        waiters.delete(wake);
      };
      waiters.add(wake);
    });
  return { connection, child, published, publishFor, stop };
}
