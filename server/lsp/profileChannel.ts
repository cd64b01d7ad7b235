// The language server's end of the profile worker channel: typed requests (server/protocol/
// worker.ts) over vscode-jsonrpc on the worker's message port, each with an AbortSignal for
// cancellation and a progress callback. A worker that does not answer a cancel is replaced.
import { MessageChannel, Worker } from 'node:worker_threads';
import { CancellationTokenSource, createMessageConnection, PortMessageReader, PortMessageWriter, type MessageConnection, type RequestType } from 'vscode-jsonrpc/node';

import { oneLine } from '../profile/analysis/session';
import { WorkerProgress, type WorkerParams } from '../protocol/worker';
import { serveProfileSession } from './profileWorker';

/**
 * How long a cancelled request may go unanswered before the worker is taken for stuck and
 * replaced: a cancel is checked between reads, so a healthy worker answers within milliseconds.
 */
const CANCEL_GRACE_MS = 2000;

/** One running session: the connection to it, and how to end it. */
interface Host {
  connection: MessageConnection;
  stop(): Promise<void>;
}

/** A request until it is answered; `send` (re)sends it, to a fresh worker after a restart. */
interface Pending {
  signal?: AbortSignal;
  send(host: Host): void;
  fail(error: Error): void;
}

/** The session in a worker thread (dist/profileWorker.js); `lost` runs when the thread dies. */
function workerHost(script: string, lost: (reason: string) => void): Host {
  const worker = new Worker(script);
  worker.unref(); // never keeps the server process alive after `exit`
  const connection = createMessageConnection(new PortMessageReader(worker), new PortMessageWriter(worker));
  worker.on('error', (error) => lost(`profile worker failed: ${oneLine(error)}`));
  worker.on('exit', (code) => lost(`profile worker stopped (exit code ${code})`));
  connection.listen();
  return {
    connection,
    stop: async () => {
      connection.dispose();
      await worker.terminate();
    },
  };
}

/** The session on this thread, over a MessageChannel: no built worker beside this module (under tsx). */
function inThreadHost(): Host {
  const { port1, port2 } = new MessageChannel();
  const served = serveProfileSession(port2);
  const connection = createMessageConnection(new PortMessageReader(port1), new PortMessageWriter(port1));
  connection.listen();
  port1.unref();
  port2.unref();
  return {
    connection,
    stop: async () => {
      connection.dispose();
      served.dispose();
      port1.close();
    },
  };
}

export class ProfileChannel {
  private host: Host | null = null;
  private readonly pending = new Set<Pending>();
  private nextProgressToken = 1;

  /**
   * `script` is the built worker, or null to serve the session on this thread. `onLost` runs
   * when the worker dies or is replaced: the profiles it held are gone.
   */
  constructor(
    private readonly script: string | null,
    private readonly onLost: (reason: string) => void = () => undefined,
  ) {}

  /** Sends a request; `signal` cancels it (the previous state stays), `onProgress` gets fractions 0..1. */
  request<P extends WorkerParams, R>(type: RequestType<P, R, void>, params: P, signal?: AbortSignal, onProgress?: (fraction: number) => void): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      let settled = false;
      const settle = (): boolean => {
        if (settled) return false;
        settled = true;
        this.pending.delete(pending);
        return true;
      };
      const pending: Pending = {
        signal,
        fail: (error) => {
          if (settle()) reject(error);
        },
        send: (host) => {
          const cancel = new CancellationTokenSource();
          const progressToken = onProgress === undefined ? undefined : this.nextProgressToken++;
          const progress = progressToken === undefined || onProgress === undefined ? undefined : host.connection.onProgress(WorkerProgress, progressToken, onProgress);
          const onAbort = (): void => {
            if (this.host !== host || settled) return;
            cancel.cancel();
            // A worker stuck in a read or a loop never sees the cancel: replace it, so the next load runs.
            setTimeout(() => {
              if (this.host === host && !settled) this.restart(host);
            }, CANCEL_GRACE_MS).unref();
          };
          signal?.addEventListener('abort', onAbort, { once: true });
          const done = (): boolean => {
            progress?.dispose();
            signal?.removeEventListener('abort', onAbort);
            cancel.dispose();
            // An answer from a replaced worker is not the answer: the request went to the new one.
            return this.host === host;
          };
          const sent = progressToken === undefined ? params : { ...params, progressToken };
          host.connection.sendRequest(type, sent, cancel.token).then(
            (result) => {
              if (done() && settle()) resolve(result);
            },
            (error: unknown) => {
              if (done()) pending.fail(new Error(oneLine(error)));
            },
          );
        },
      };
      this.pending.add(pending);
      pending.send(this.ensure());
    });
  }

  /** Stops the worker (its listeners keep a process alive despite unref); pending requests fail. */
  async stop(): Promise<void> {
    const host = this.host;
    this.host = null;
    for (const pending of [...this.pending]) pending.fail(new Error('profile worker stopped'));
    await host?.stop();
  }

  /** Stops a stuck worker; cancelled requests end, the others go to a fresh worker. */
  private restart(host: Host): void {
    this.host = null;
    void host.stop();
    this.onLost('profile worker did not answer a cancel and was restarted');
    for (const pending of [...this.pending]) {
      if (pending.signal?.aborted === true) pending.fail(new Error('cancelled'));
      else pending.send(this.ensure());
    }
  }

  private ensure(): Host {
    if (this.host !== null) return this.host;
    if (this.script === null) {
      this.host = inThreadHost();
      return this.host;
    }
    const host = workerHost(this.script, (reason) => {
      if (this.host !== host) return;
      this.host = null;
      host.connection.dispose();
      for (const pending of [...this.pending]) pending.fail(new Error(reason));
      this.onLost(reason);
    });
    this.host = host;
    return host;
  }
}
