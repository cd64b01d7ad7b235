// Opening the inspector of a local Node process by its pid: checks that it is a Node process that
// catches SIGUSR1 (the signal would kill any other), sends SIGUSR1, and finds the port the
// inspector opened among the process's listening sockets (whatever port its --inspect-port or
// NODE_OPTIONS chose), on loopback only. A port already open before is used as is and left open.
// Every refusal is one line: not a Node process, no permission, no such process, the port taken,
// a platform without SIGUSR1 or /proc.
import { basename } from 'node:path';
import { InputError } from '../shared/errors';
import {
  catchesSignal,
  commandLineOf,
  environmentOf,
  executableOf,
  hasProcfs,
  isLoopbackOrAny,
  listeningSocketsOf,
  listeningSocketsSeenBy,
  loopbackHostFor,
  ownerOfSocket,
  readStatus,
  SIGUSR1_NUMBER,
  type ListeningSocket,
} from './procfs';

export const DEFAULT_INSPECTOR_PORT = 9229;

export interface OpenedInspector {
  host: string;
  port: number;
  /** True when Hotframe's SIGUSR1 opened it: Hotframe closes it again. */
  openedByUs: boolean;
}

/** A process's command line for a message: one line, cut short (it is the process's own text). */
export function commandText(pid: number, max = 80): string {
  const words = commandLineOf(pid);
  // eslint-disable-next-line no-control-regex
  const text = words.join(' ').replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text || '?';
}

/** Executable names of Node: node, nodejs, node20, node-18.19... */
export function looksLikeNode(executable: string): boolean {
  const name = executable.replace(/ \(deleted\)$/, '').split(/[\\/]/).at(-1) ?? '';
  return /^node(js)?([-_]?v?\d[\d.]*)?(\.exe)?$/i.test(name);
}

/**
 * The inspector port a Node command line asks for (`--inspect-port=N`, `--inspect[-brk]=[host:]N`),
 * in its options or NODE_OPTIONS; null when it names none (then Node uses 9229).
 */
export function inspectPortOf(options: readonly string[]): number | null {
  let port: number | null = null;
  for (let i = 0; i < options.length; i++) {
    const match = /^--(?:inspect-port|debug-port|inspect|inspect-brk|inspect-wait)(?:=(.*))?$/.exec(options[i]);
    if (!match) continue;
    let value = match[1];
    if (value === undefined && /^--(?:inspect-port|debug-port)$/.test(options[i])) value = options[++i];
    const digits = value === undefined ? null : /(?:^|:)(\d{1,5})$/.exec(value);
    if (digits) port = Number(digits[1]);
  }
  return port;
}

function nodeOptionsOf(pid: number): string[] {
  // NODE_OPTIONS may set the port; the environment is readable by the process's own user (and root).
  const entry = environmentOf(pid).find((e) => e.startsWith('NODE_OPTIONS='));
  return entry ? entry.slice('NODE_OPTIONS='.length).split(/\s+/) : [];
}

/** The port this process's inspector uses when SIGUSR1 opens it. */
export function expectedInspectorPort(pid: number): number {
  // Options come before the script; after it, words are the program's own.
  const words = commandLineOf(pid).slice(1);
  const script = words.findIndex((w) => !w.startsWith('-'));
  const options = script === -1 ? words : words.slice(0, script);
  return inspectPortOf([...nodeOptionsOf(pid), ...options]) ?? DEFAULT_INSPECTOR_PORT;
}

/** Refuses, in one line, what attaching by pid cannot do here, before any signal is sent. */
/** Why this platform cannot attach by pid (no SIGUSR1, no /proc), in one line; null when it can. */
export function checkPlatform(): string | null {
  if (process.platform === 'win32') return 'attaching by pid needs SIGUSR1, which Windows does not have: start the process with --inspect and pass --inspector URL';
  if (!hasProcfs()) return `attaching by pid reads /proc, which ${process.platform} does not have: start the process with --inspect and pass --inspector URL`;
  return null;
}

export function checkAttachable(pid: number): void {
  const unsupported = checkPlatform();
  if (unsupported !== null) throw new InputError(unsupported);
  try {
    process.kill(pid, 0);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ESRCH') throw new InputError(`process ${pid}: no such process`);
    if (code === 'EPERM') throw new InputError(`process ${pid} (${commandText(pid)}): no permission to signal it (it runs as another user; attach as that user)`);
    throw new InputError(`process ${pid}: cannot signal it (${code ?? 'error'})`);
  }
  const executable = executableOf(pid);
  if (executable === null) throw new InputError(`process ${pid} (${commandText(pid)}): no permission to inspect it (it runs as another user; attach as that user)`);
  if (!looksLikeNode(executable)) throw new InputError(`process ${pid} (${commandText(pid)}): not a Node process (it runs ${basename(executable)})`);
  let status: string;
  try {
    status = readStatus(pid);
  } catch {
    throw new InputError(`process ${pid}: exited`);
  }
  if (!catchesSignal(status, SIGUSR1_NUMBER)) {
    throw new InputError(`process ${pid} (${commandText(pid)}): runs Node but does not catch SIGUSR1 (started with --disable-sigusr1?), so it cannot open its inspector: start it with --inspect and pass --inspector URL`);
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function toOpened(socket: ListeningSocket, openedByUs: boolean, pid: number): OpenedInspector {
  if (!isLoopbackOrAny(socket.address)) {
    throw new InputError(`process ${pid}: its inspector listens on ${socket.address}, not on loopback; Hotframe connects on loopback only`);
  }
  return { host: loopbackHostFor(socket.address), port: socket.port, openedByUs };
}

/**
 * Opens the inspector of a checked process (checkAttachable) and says where it listens. Waits up to
 * `timeoutMs` for the port to appear. `portsBefore`: the ports it listened on before the capture.
 */
export async function openInspector(pid: number, timeoutMs: number, portsBefore: ReadonlySet<number>): Promise<OpenedInspector> {
  const expected = expectedInspectorPort(pid);
  let before: ListeningSocket[];
  try {
    before = listeningSocketsOf(pid);
  } catch {
    throw new InputError(`process ${pid} (${commandText(pid)}): no permission to read its sockets (it runs as another user; attach as that user)`);
  }
  // Open already: by someone else before the capture (left open), or during it (closed after).
  // A port that appeared since the capture began is the inspector its parent's signal opened (a
  // cluster primary, or the pm2 daemon, passes SIGUSR1 on to its workers, whose ports node:cluster
  // numbers after its own, not as their command line says): that one is used, and closed after.
  const already = before.find((s) => s.port === expected) ?? before.find((s) => !portsBefore.has(s.port));
  if (already) return toOpened(already, !portsBefore.has(already.port), pid);
  const known = new Set(before.map((s) => s.inode));
  try {
    process.kill(pid, 'SIGUSR1');
  } catch {
    throw new InputError(`process ${pid}: exited`);
  }
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await sleep(10);
    if (!alive(pid)) throw new InputError(`process ${pid}: exited`);
    let fresh: ListeningSocket[] = [];
    try {
      fresh = listeningSocketsOf(pid).filter((s) => !known.has(s.inode));
    } catch {
      // the process is exiting: checked above on the next turn
    }
    if (fresh.length > 0) return toOpened(fresh.find((s) => s.port === expected) ?? fresh[0], true, pid);
    if (Date.now() > deadline) break;
  }
  const taken = listeningSocketsSeenBy(pid).find((s) => s.port === expected);
  if (taken) {
    const owner = ownerOfSocket(taken.inode);
    const who = owner === null ? 'another process' : `process ${owner} (${commandText(owner, 60)})`;
    throw new InputError(`process ${pid}: its inspector port ${expected} is taken by ${who}; free it, or start the process with --inspect=127.0.0.1:<port> and pass --inspector URL`);
  }
  throw new InputError(`process ${pid} (${commandText(pid)}): its inspector did not open within ${timeoutMs} ms of SIGUSR1 (does the program handle SIGUSR1 itself?)`);
}

/** Waits until the port the inspector listened on is closed (a close is asked just before). */
export async function waitClosed(pid: number, opened: OpenedInspector, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let open = false;
    try {
      open = listeningSocketsOf(pid).some((s) => s.port === opened.port);
    } catch {
      return true; // gone
    }
    if (!open) return true;
    if (Date.now() > deadline) return false;
    await sleep(10);
  }
}
