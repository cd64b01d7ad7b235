// A capture of running Node processes over one window: each target's profiler is started in turn
// (open its inspector, run the agent's start, close the port Hotframe opened), then, after the
// duration, stopped in the same order (open, stop and take every thread's profile, close). Each
// process is thus recorded for the duration, the windows shifted by the few ms each start takes
// (`startedAt` of each result says by how much).
//
// Targets: a pid is the process and every Node process below it (a cluster primary's or a pm2
// daemon's workers: children, their children...); `--inspector URL` is one process already
// listening, whose port stays open. A target that fails says why in one line and the others go on.
import { chownSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../shared/errors';
import { readGuardedText } from '../shared/guardedRead';
import { printable } from '../shared/printable';
import { makeTemporaryFolder, removeTemporaryFolder } from '../shared/temporaryFolders';
import { closeExpression, startExpression, stopExpression, type CaptureKind, type StartAnswer, type StopAnswer } from './agent';
import { InspectorSession, targetUrl, targetUrlOfStarting } from './inspectorClient';
import { checkAttachable, commandText, expectedInspectorPort, looksLikeNode, openInspector, waitClosed, type OpenedInspector } from './openInspector';
import { childrenByParent, executableOf, listeningSocketsOf, readStatus, uidOf } from './procfs';
import { withObserverStarted, withObserverStopped, withServingNotes, type RawServingNotes } from './servingObserver';

const OPEN_TIMEOUT_MS = 3000;
const CALL_TIMEOUT_MS = 10_000;
/** The stop carries every thread's profile back. */
const STOP_TIMEOUT_MS = 60_000;
/**
 * How long the stop waits for a worker thread's profile. The thread answers between its own
 * statements and serialises its profile first: on a machine short of CPU that took over 5 s
 * (a CI run lost a thread's profile so). The wait runs off the target's main thread.
 */
const WORKER_STOP_TIMEOUT_MS = 20_000;
/**
 * When the target closes the port it opened for us: once no connection to it is left, looked at
 * every POLL ms; left open when one stays past GIVE_UP ms (another client); without /proc, after
 * FALLBACK ms (agent.ts, closeExpression). Hotframe disconnects as soon as it is answered.
 */
const CLOSE_TIMING = { pollMs: 20, giveUpMs: 10_000, fallbackMs: 500 };
/** How long Hotframe waits for the port to close after it disconnected. */
const CLOSE_WAIT_MS = 5000;
const MAX_EXIT_PROFILE_BYTES = 512 * 1024 * 1024;
/** A cluster of more is not a cluster: a pid given by mistake (pid 1) must not signal a machine. */
export const MAX_PROCESSES = 64;

export type Target = { pid: number } | { url: string };

export interface CapturedThread {
  pid: number;
  /** 0 for the main thread, as node:worker_threads numbers them. */
  threadId: number;
  /** "main" or the worker's title ("[worker 1]"). */
  title: string;
  /** The command line of its process (untrusted text, for display). */
  command: string;
  /** The profile as V8 gave it (.cpuprofile or .heapprofile JSON). */
  profile: unknown;
  /** ms since the capture began when this process's profiler started. */
  startedAt: number;
  /** How long the start and the stop held its process's main thread, measured in the process (null: not known). */
  pauseMs: { start: number; stop: number | null };
  /** The main thread's CPU time in those pauses, the rest being the wait for a CPU (null: not known, as on a system without /proc). */
  workMs: { start: number | null; stop: number | null };
  /** Set when the process ended during the capture and this holds what it had recorded. */
  partial?: string;
  /** A CPU capture's main thread: the requests and loop gaps observed over its window (servingObserver.ts), written beside its profile. */
  serving?: RawServingNotes;
}

export interface CaptureResult {
  threads: CapturedThread[];
  /** One line per target or thread that gave no profile. */
  problems: string[];
}

/** The process and its Node descendants, parents first. */
export function processTree(pid: number): number[] {
  const children = childrenByParent();
  const found: number[] = [];
  const seen = new Set<number>();
  const queue = [pid];
  while (queue.length > 0 && found.length <= MAX_PROCESSES) {
    const next = queue.shift()!;
    if (seen.has(next)) continue;
    seen.add(next);
    // Only Node processes are targets: a shell or a helper binary below a service is not ours to
    // signal, but its own children may be (npm -> sh -> node).
    const executable = next === pid ? null : executableOf(next);
    if (next === pid || executable === null || looksLikeNode(executable)) found.push(next);
    queue.push(...(children.get(next) ?? []));
  }
  return found;
}

export interface Running {
  target: Target;
  pid: number | null;
  command: string;
  startedAt: number;
  startPauseMs: number;
  startWorkMs: number | null;
  exitFile: string | null;
  /** Whether the request counter and loop monitor run in it (servingObserver.ts). */
  serving?: boolean;
}

/**
 * The loopback ports each process listened on before the capture began. A port found open later
 * that is not among them was opened by this capture (by Hotframe's SIGUSR1, or by a cluster
 * primary passing its debug signal on to its workers, as node:cluster does) and is closed again.
 */
type PortsBefore = Map<number, Set<number>>;

/**
 * Runs `use` in a session with the target, its port opened by SIGUSR1 when needed and closed after.
 * A port that stays open (another client is connected to it, agent.ts closeExpression) is an
 * error, or with `problems` a line there: the stop's answer is not lost for it.
 */
async function withInspector<T>(target: Target, before: PortsBefore, use: (session: InspectorSession, opened: OpenedInspector | null) => Promise<T>, problems: string[] | null = null): Promise<T> {
  let opened: OpenedInspector | null = null;
  let url: string;
  if ('url' in target) {
    url = await resolveUrl(target.url);
  } else {
    opened = await openInspector(target.pid, OPEN_TIMEOUT_MS, before.get(target.pid) ?? new Set());
    url = opened.openedByUs ? await targetUrlOfStarting(opened.host, opened.port, CALL_TIMEOUT_MS, OPEN_TIMEOUT_MS) : await targetUrl(opened.host, opened.port, CALL_TIMEOUT_MS);
  }
  const session = await InspectorSession.connect(url, CALL_TIMEOUT_MS);
  let result: T;
  try {
    result = await use(session, opened);
    if (opened?.openedByUs) await session.evaluateString(closeExpression(CLOSE_TIMING), CALL_TIMEOUT_MS);
  } finally {
    await session.close();
  }
  if (opened?.openedByUs && 'pid' in target && !(await waitClosed(target.pid, opened, CLOSE_WAIT_MS))) {
    const line = `process ${target.pid}: its inspector port ${opened.port} stays open: another client is connected to it (the port Hotframe opened is closed only once nobody is)`;
    if (problems === null) throw new InputError(line);
    problems.push(line);
  }
  return result;
}

/** `--inspector URL`: ws://host:port/id as is, or host:port / http://host:port (its /json/list). */
export async function resolveUrl(text: string): Promise<string> {
  const withScheme = /^[a-z]+:\/\//i.test(text) ? text : `http://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new InputError(`--inspector ${text}: not a URL (expected ws://127.0.0.1:9229/<id> or 127.0.0.1:9229)`);
  }
  if (url.protocol === 'ws:' && url.pathname.length > 1) return url.href;
  if (url.protocol !== 'http:' && url.protocol !== 'ws:') throw new InputError(`--inspector ${text}: expected a ws:// or http:// URL`);
  return targetUrl(url.hostname, Number(url.port || 9229), CALL_TIMEOUT_MS);
}

/** True when the process listens on its inspector port and did not before the capture. */
function strayInspectorPort(pid: number, before: PortsBefore): boolean {
  const port = expectedInspectorPort(pid);
  try {
    return listeningSocketsOf(pid).some((s) => s.port === port) && !(before.get(pid)?.has(port) ?? false);
  } catch {
    return false;
  }
}

function exitFileFor(pid: number, dir: string): string {
  const sub = mkdtempSync(join(dir, `${pid}-`));
  // A target of another user (we run as root) writes there only if the folder is its own.
  if (process.getuid?.() === 0) {
    try {
      const uid = uidOf(readStatus(pid));
      if (uid !== null && uid !== 0) chownSync(sub, uid, -1);
    } catch {
      // it stays ours: a profile at exit is then not kept
    }
  }
  return join(sub, 'exit-profile.json');
}

function targetName(target: Target): string {
  return 'pid' in target ? `process ${target.pid}` : target.url;
}

function errorLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0];
}

async function start(target: Target, before: PortsBefore, kind: CaptureKind, began: number, scratch: string, durationMs: number): Promise<Running> {
  const exitFile = 'pid' in target ? exitFileFor(target.pid, scratch) : null;
  const pidShown = 'pid' in target ? target.pid : null;
  // A CPU capture counts requests too: the monitor starts before the profiler and stops after it.
  return withInspector(target, before, (session) => withObserverStarted(session, kind === 'cpu', durationMs, CALL_TIMEOUT_MS, async () => {
    const answer = JSON.parse(await session.evaluateString(startExpression({ kind, exitFile, workerStopTimeoutMs: WORKER_STOP_TIMEOUT_MS }), CALL_TIMEOUT_MS)) as StartAnswer;
    if (answer.busy) throw new InputError(`${targetName(target)}: another Hotframe capture is running in it`);
    if ('pid' in target && !samePid(target.pid, answer.pid)) throw new InputError(`process ${target.pid}: the inspector that opened belongs to process ${answer.pid}`);
    const command = pidShown !== null ? commandText(pidShown, 200) : Array.isArray(answer.argv) ? answer.argv.join(' ').slice(0, 200) : '?';
    return { target, pid: 'pid' in target ? target.pid : Number(answer.pid), command, startedAt: Date.now() - began, startPauseMs: Number(answer.pauseMs) || 0, startWorkMs: knownMs(answer.workMs), exitFile };
  }));
}

function knownMs(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
}

/** process.pid inside the target is its pid in its own namespace (a container): the last NSpid. */
function samePid(pid: number, inner: number): boolean {
  if (pid === inner) return true;
  try {
    const match = /^NSpid:\s*([\d\s]+)$/m.exec(readStatus(pid));
    return match !== null && Number(match[1].trim().split(/\s+/).at(-1)) === inner;
  } catch {
    return false;
  }
}

/** Each thread's profile from a process's stop answer, and a line for each thread that gave none. */
export function threadsOf(running: Running, answer: StopAnswer): { threads: CapturedThread[]; problems: string[] } {
  const pid = running.pid ?? 0;
  const threads: CapturedThread[] = [];
  const problems: string[] = [];
  const main = answer.main as { error?: unknown } | null;
  const pauseMs = { start: running.startPauseMs, stop: Number(answer.pauseMs) || 0 };
  const workMs = { start: running.startWorkMs, stop: knownMs(answer.workMs) };
  if (main && typeof main === 'object' && 'error' in main) problems.push(`process ${pid}: its main thread gave no profile (${String(main.error)})`);
  else threads.push({ pid, threadId: Number(answer.threadId) || 0, title: 'main', command: running.command, profile: answer.main, startedAt: running.startedAt, pauseMs, workMs });
  for (const worker of answer.workers ?? []) {
    const profile = worker.response?.result?.profile;
    if (profile !== undefined) {
      threads.push({ pid, threadId: Number(worker.workerId), title: String(worker.title), command: running.command, profile, startedAt: running.startedAt, pauseMs, workMs });
    } else {
      const refused = worker.response?.error?.message;
      const why = worker.gone ? 'it ended during the capture' : refused !== undefined ? `${printable(String(refused).slice(0, 200))}; ${answeredStart(worker, true)}` : `it did not answer within ${WORKER_STOP_TIMEOUT_MS / 1000} s; ${answeredStart(worker, false)}`;
      problems.push(`process ${pid}, thread ${worker.workerId}: no profile (${String(why)})`);
    }
  }
  return { threads, problems };
}

/**
 * How far a thread that gave no profile got: whether it answered the commands that started its
 * profiler (and with an error), and, when it did not answer the stop, whether it sent anything at
 * all once the stop was sent (silent, or an answer not recognised as the stop's).
 */
function answeredStart(worker: StopAnswer['workers'][number], stopAnswered: boolean): string {
  const started = Number(worker.started) || 0;
  const answered = Math.min(Number(worker.answered) || 0, started);
  // The target's own text: cut, and its control characters escaped, before it joins a message.
  const startError = typeof worker.startError === 'string' ? `, one of them with an error (${printable(worker.startError.slice(0, 120))})` : '';
  const start = `it had answered ${answered} of the ${started} commands that started its profiler${startError}`;
  if (stopAnswered) return start;
  const afterStop = Math.max(0, Number(worker.afterStop) || 0);
  const since = afterStop === 0 ? 'nothing since the stop was sent' : `${afterStop} message${afterStop === 1 ? '' : 's'} since the stop was sent, none of them its answer`;
  return `${start}, and sent ${since}`;
}

function keptAtExit(running: Running): CapturedThread | null {
  if (running.exitFile === null) return null;
  try {
    const profile = JSON.parse(readGuardedText(running.exitFile, MAX_EXIT_PROFILE_BYTES)) as unknown;
    return { pid: running.pid ?? 0, threadId: 0, title: 'main', command: running.command, profile, startedAt: running.startedAt, pauseMs: { start: running.startPauseMs, stop: null }, workMs: { start: running.startWorkMs, stop: null }, partial: 'the process exited during the capture: its main thread up to its exit' };
  } catch {
    return null;
  }
}

function exited(running: Running): boolean {
  if (running.pid === null || !('pid' in running.target)) return false;
  try {
    process.kill(running.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

export interface CaptureOptions {
  targets: Target[];
  kind: CaptureKind;
  durationMs: number;
  /** Progress lines (one per process started or stopped). */
  onProgress?: (line: string) => void;
  /** Ends the wait early (Ctrl+C): the capture then stops and keeps what it has. */
  signal?: AbortSignal;
}

/**
 * Captures every target over one window. Pids are checked before any signal; a pid's Node
 * descendants join it. Resolves with every thread's profile and a line per target that gave none;
 * rejects (one line) only when nothing could be started.
 */
export async function capture(options: CaptureOptions): Promise<CaptureResult> {
  const targets: Target[] = [];
  for (const target of options.targets) {
    if ('url' in target) {
      targets.push(target);
      continue;
    }
    checkAttachable(target.pid);
    for (const pid of processTree(target.pid)) if (!targets.some((t) => 'pid' in t && t.pid === pid)) targets.push({ pid });
  }
  if (targets.length > MAX_PROCESSES) throw new InputError(`more than ${MAX_PROCESSES} processes: Hotframe attaches to at most ${MAX_PROCESSES} at once`);
  const before: PortsBefore = new Map();
  for (const target of targets) {
    if (!('pid' in target)) continue;
    try {
      before.set(target.pid, new Set(listeningSocketsOf(target.pid).map((s) => s.port)));
    } catch {
      // refused when it is started, in one line
    }
  }
  const scratch = makeTemporaryFolder('attach');
  const problems: string[] = [];
  const running: Running[] = [];
  const began = Date.now();
  try {
    for (const target of targets) {
      try {
        if ('pid' in target) checkAttachable(target.pid);
        running.push(await start(target, before, options.kind, began, scratch, options.durationMs));
        options.onProgress?.(`started ${targetName(target)}`);
      } catch (error) {
        problems.push(errorLine(error).startsWith('process') ? errorLine(error) : `${targetName(target)}: ${errorLine(error)}`);
      }
    }
    if (running.length === 0) throw new InputError(problems.length === 1 ? problems[0] : `no process could be attached: ${problems.join('; ')}`);
    await wait(options.durationMs, options.signal);
    const threads: CapturedThread[] = [];
    for (const one of running) {
      try {
        if (exited(one)) throw new InputError('exited');
        const { answer, serving } = await withInspector(one.target, before, (session) => withObserverStopped(session, one.serving === true, CALL_TIMEOUT_MS, async () => JSON.parse(await session.evaluateString(stopExpression(), STOP_TIMEOUT_MS)) as StopAnswer), problems);
        if (answer.missing) throw new InputError(`${targetName(one.target)}: its capture was gone (restarted meanwhile?)`);
        const got = threadsOf(one, answer);
        threads.push(...withServingNotes(got.threads, serving));
        problems.push(...got.problems);
        options.onProgress?.(`stopped ${targetName(one.target)}`);
      } catch (error) {
        const kept = exited(one) ? keptAtExit(one) : null;
        if (kept) {
          threads.push(kept);
          problems.push(`${targetName(one.target)}: exited during the capture; kept its main thread's profile up to the exit`);
        } else if (exited(one)) {
          problems.push(`${targetName(one.target)}: exited during the capture, and left no profile (killed by a signal?)`);
        } else {
          problems.push(`${targetName(one.target)}: ${errorLine(error)}`);
        }
      }
    }
    // A worker whose port its primary opened after this worker's turn: closed too.
    for (const target of targets) {
      if (!('pid' in target) || exited({ target, pid: target.pid } as Running)) continue;
      try {
        if (strayInspectorPort(target.pid, before)) await withInspector(target, before, () => Promise.resolve(), problems);
      } catch (error) {
        problems.push(`${targetName(target)}: ${errorLine(error)}`);
      }
    }
    return { threads, problems };
  } finally {
    removeTemporaryFolder(scratch);
  }
}

function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done);
  });
}
