// A client of the V8 inspector protocol over its WebSocket (the `ws` package: Node 20 has a
// WebSocket client only behind --experimental-websocket). Loopback only: the host is checked here,
// whatever the caller passes. Every call has a time limit, and the answers are capped in size.
import { get } from 'node:http';
import WebSocket from 'ws';

/** A stop answer holds every thread's profile: as large as a .cpuprofile may be. */
const MAX_MESSAGE_BYTES = 512 * 1024 * 1024;
const MAX_LIST_BYTES = 1024 * 1024;

export class InspectorError extends Error {
  /** The socket's error code when the connection itself failed (ECONNRESET, ECONNREFUSED...). */
  readonly code: string | undefined;

  constructor(message: string, code?: string) {
    super(message);
    this.name = 'InspectorError';
    this.code = code;
  }
}

/** True for a host name that means this machine over loopback. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  return bare === 'localhost' || bare === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

/** `host:port` for a URL (brackets around IPv6). */
export function hostPort(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * The WebSocket URL of the Node target listening at `host:port`, from its /json/list. Only the
 * target's id is taken from the answer: the URL is rebuilt on the host we asked, so an answer
 * cannot send us elsewhere.
 */
export function targetUrl(host: string, port: number, timeoutMs: number): Promise<string> {
  if (!isLoopbackHost(host)) return Promise.reject(new InspectorError(`${host}: not a loopback address (Hotframe connects to inspectors on this machine only)`));
  return new Promise((resolve, reject) => {
    const request = get({ host: host.replace(/^\[|\]$/g, ''), port, path: '/json/list', timeout: timeoutMs, headers: { host: hostPort('localhost', port) } }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
        if (text.length > MAX_LIST_BYTES) request.destroy(new InspectorError('the inspector\'s target list is too large'));
      });
      response.on('end', () => {
        try {
          const list = JSON.parse(text) as { id?: unknown; type?: unknown }[];
          const target = Array.isArray(list) ? list.find((t) => typeof t?.id === 'string' && /^[\w-]{1,100}$/.test(t.id)) : undefined;
          if (!target) throw new Error('no target');
          resolve(`ws://${hostPort(host.replace(/^\[|\]$/g, ''), port)}/${target.id as string}`);
        } catch {
          reject(new InspectorError(`${hostPort(host, port)} does not answer as a Node inspector`));
        }
      });
    });
    request.on('timeout', () => request.destroy(new InspectorError(`${hostPort(host, port)}: the inspector did not answer within ${timeoutMs} ms`)));
    request.on('error', (error) => {
      const code = (error as NodeJS.ErrnoException).code;
      reject(error instanceof InspectorError ? error : new InspectorError(`${hostPort(host, port)}: ${code ?? error.message}`, code));
    });
  });
}

/** Socket errors of an inspector whose server is still starting: its first connections are refused or reset. */
const STARTING_CODES = new Set(['ECONNRESET', 'ECONNREFUSED']);

/**
 * targetUrl of an inspector SIGUSR1 has just opened: its port is listening before its server
 * answers, and under load the first requests were reset (a CI run: ECONNRESET on the first
 * /json/list). Such a refusal or reset is asked again every 50 ms for up to `settleMs`; any
 * other answer, or the last refusal, is final.
 */
export async function targetUrlOfStarting(host: string, port: number, timeoutMs: number, settleMs: number): Promise<string> {
  const deadline = Date.now() + settleMs;
  for (;;) {
    try {
      return await targetUrl(host, port, timeoutMs);
    } catch (error) {
      const starting = error instanceof InspectorError && error.code !== undefined && STARTING_CODES.has(error.code);
      if (!starting || Date.now() >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

interface Pending {
  resolve(result: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

export class InspectorSession {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private closedBecause: string | null = null;

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data: WebSocket.RawData) => this.receive(data));
    socket.on('close', () => this.fail('the inspector connection closed (did the process exit?)'));
    socket.on('error', (error) => this.fail(`inspector connection: ${error.message.split('\n')[0]}`));
  }

  static connect(url: string, timeoutMs: number): Promise<InspectorSession> {
    const host = new URL(url).hostname;
    if (!isLoopbackHost(host)) return Promise.reject(new InspectorError(`${host}: not a loopback address (Hotframe connects to inspectors on this machine only)`));
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { handshakeTimeout: timeoutMs, maxPayload: MAX_MESSAGE_BYTES, perMessageDeflate: false, followRedirects: false });
      socket.once('open', () => resolve(new InspectorSession(socket)));
      socket.once('error', (error) => reject(new InspectorError(`cannot connect to the inspector at ${url}: ${(error as NodeJS.ErrnoException).code ?? error.message.split('\n')[0]}`)));
    });
  }

  private receive(data: WebSocket.RawData): void {
    let message: { id?: unknown; result?: unknown; error?: { message?: unknown } };
    try {
      message = JSON.parse(data.toString()) as typeof message;
    } catch {
      return;
    }
    if (typeof message.id !== 'number') return; // an event: not asked for
    const pending = this.pending.get(message.id);
    if (!pending) return;
    this.pending.delete(message.id);
    clearTimeout(pending.timer);
    if (message.error) pending.reject(new InspectorError(String(message.error.message ?? 'inspector error')));
    else pending.resolve(message.result);
  }

  private fail(reason: string): void {
    this.closedBecause ??= reason;
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.reject(new InspectorError(reason));
      this.pending.delete(id);
    }
  }

  send(method: string, params: Record<string, unknown>, timeoutMs: number): Promise<unknown> {
    if (this.closedBecause !== null) return Promise.reject(new InspectorError(this.closedBecause));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new InspectorError(`${method}: no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  /**
   * Runs an expression in the target and returns the string it gives (or its promise gives). The
   * command line API is included: `require` is the one defined while the evaluation starts.
   */
  async evaluateString(expression: string, timeoutMs: number): Promise<string> {
    const result = (await this.send('Runtime.evaluate', { expression: atCheckpoint(expression), includeCommandLineAPI: true, awaitPromise: true, returnByValue: true }, timeoutMs)) as {
      result?: { type?: string; value?: unknown };
      exceptionDetails?: { exception?: { description?: string }; text?: string };
    };
    if (result.exceptionDetails) {
      const text = result.exceptionDetails.exception?.description ?? result.exceptionDetails.text ?? 'exception';
      throw new InspectorError(`the target threw: ${text.split('\n')[0]}`);
    }
    if (typeof result.result?.value === 'string') return result.result.value;
    if (result.result?.value === true) return 'true';
    throw new InspectorError('the target gave no answer');
  }

  /** Disconnects, and resolves once the socket is closed (or after a moment). */
  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.socket.readyState === WebSocket.CLOSED) return resolve();
      const timer = setTimeout(() => {
        this.socket.terminate();
        resolve();
      }, 1000);
      this.socket.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      this.socket.close();
    });
  }
}

/**
 * The expression wrapped to run at the target's next microtask checkpoint instead of where the
 * evaluation lands. Node hands an inspector command to a busy main thread through a V8 interrupt,
 * which runs it between any two of the target's own statements, Node's included: code that then
 * calls into Node (an 'exit' listener, a channel subscription, an inspector session) can find the
 * process's queues half-updated. On a cluster under load, attached with the code run in place,
 * 4 of 8 captures left a worker whose `process.nextTick` callbacks never ran again (its IPC and
 * its sockets stalled for good); run at a checkpoint, 0 of 10 (attachCluster.test.ts holds every
 * process to answering after the capture). `require` of the command line API is taken while the
 * evaluation starts, since it exists only then.
 */
export function atCheckpoint(expression: string): string {
  return `((require) => Promise.resolve().then(() => (${expression})))(require)`;
}
