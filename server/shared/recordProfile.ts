// Records profiles of a command the user gives (`hotframe record -- …`, and the editor's
// "Record CPU Profile…" / "Record Allocation Profile…"): a small preload given through NODE_OPTIONS (`--require`) starts V8's
// profiler in every Node process the command starts (npm, the service, its child processes) and
// writes each one's profile into one fresh folder when that process exits: the same file
// `node --cpu-prof` writes. (Node 20 refuses `--cpu-prof` itself in NODE_OPTIONS: "is not allowed
// in NODE_OPTIONS"; `--require` is allowed everywhere.)
//
// The command is the user's own and runs as given: a file and its arguments, never through a
// shell by us (an npm script runs in npm's shell, as it always does). Stopping signals the whole
// process group (SIGINT, then SIGTERM, then SIGKILL), like Ctrl+C in a terminal.
//
// A profile kind is the preload code that records it and the extension of what it writes: CPU
// profiles (.cpuprofile), and allocation profiles (.heapprofile) sampled with the objects GC
// collected kept, so that they show the garbage (what `node --heap-prof` cannot: it keeps only
// objects alive at exit).
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readGuardedText } from './guardedRead';
import { RECORDER_FILE } from './recordingFiles';
import { SERVING_PRELOAD, SERVING_SUFFIX, SERVING_SWITCH } from './servingRecorder';
import { makeTemporaryFolder, removeTemporaryFolder } from './temporaryFolders';

export interface ProfileKind {
  /** Shown to people: "CPU profile". */
  label: string;
  /**
   * CommonJS run first in every Node process: starts recording with `session` (a connected
   * node:inspector Session) and returns a function that writes the profile to the path it is
   * given (called synchronously at exit; the in-process inspector answers synchronously). A CPU
   * profile's function returns the profile's startTime (µs), which the serving notes are placed by.
   */
  preload: string;
  /** Whether the process's requests and event-loop gaps are noted beside each profile (servingRecorder.ts). */
  servingNotes: boolean;
  /** The extension of the files written, and what their names start with (as Node names them). */
  extension: string;
  filePrefix: string;
  /** How busy the recorded process was (larger is busier): picks the profile opened first. */
  weight(file: string): number;
}

/** The CPU-time index the preload appends to: a line per recorded process. */
const MAX_INDEX_BYTES = 16 * 1024 * 1024;
/** A .cpuprofile larger than this is not read to rank it (it still is listed and can be opened). */
const MAX_RANKED_BYTES = 512 * 1024 * 1024;

/** Samples that are not `(idle)`: how much the process ran while it was recorded. */
export function busySamples(file: string): number {
  try {
    const profile = JSON.parse(readGuardedText(file, MAX_RANKED_BYTES)) as { nodes?: { id: number; callFrame?: { functionName?: string } }[]; samples?: number[] };
    const idle = new Set((profile.nodes ?? []).filter((n) => n.callFrame?.functionName === '(idle)').map((n) => n.id));
    return (profile.samples ?? []).filter((id) => !idle.has(id)).length;
  } catch {
    return 0;
  }
}

/** µs between CPU samples: 1 ms, as --cpu-prof (recording here, attaching in server/attach/). */
export const CPU_SAMPLING_INTERVAL_US = 1000;
/**
 * Allocation sampling: every allocated object is a candidate (16 kB between samples on average);
 * collected objects stay in the profile (recording here, attaching in server/attach/).
 */
export const ALLOCATION_SAMPLING = { samplingInterval: 16384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true };

export const PROFILE_KINDS = {
  cpu: {
    label: 'CPU profile',
    // 1 ms between samples, as --cpu-prof.
    preload: `session.post('Profiler.enable');
session.post('Profiler.setSamplingInterval', { interval: ${CPU_SAMPLING_INTERVAL_US} });
session.post('Profiler.start');
return (file) => {
  let startUs = null;
  session.post('Profiler.stop', (error, result) => {
    if (error) return;
    require('node:fs').writeFileSync(file, JSON.stringify(result.profile));
    startUs = result.profile.startTime;
  });
  return startUs;
};`,
    servingNotes: true,
    extension: '.cpuprofile',
    filePrefix: 'CPU',
    weight: busySamples,
  },
  allocation: {
    label: 'allocation profile',
    // Every allocated object is a candidate (16 kB between samples on average); collected
    // objects stay in the profile. The file says so in a \`$hotframe\` member, since the format
    // itself cannot (readHeapProfile.ts).
    preload: `const options = ${JSON.stringify(ALLOCATION_SAMPLING)};
session.post('HeapProfiler.enable');
session.post('HeapProfiler.startSampling', options);
return (file) => session.post('HeapProfiler.stopSampling', (error, result) => {
  if (!error) require('node:fs').writeFileSync(file, JSON.stringify({ ...result.profile, $hotframe: options }));
});`,
    servingNotes: false,
    extension: '.heapprofile',
    filePrefix: 'Heap',
    weight: allocatedBytes,
  },
} satisfies Record<string, ProfileKind>;

/** Bytes an allocation profile holds: how much its process allocated while recorded. */
export function allocatedBytes(file: string): number {
  try {
    const profile = JSON.parse(readGuardedText(file, MAX_RANKED_BYTES)) as { head?: unknown };
    let total = 0;
    const stack: unknown[] = [profile.head];
    while (stack.length > 0) {
      const node = stack.pop() as { selfSize?: unknown; children?: unknown } | undefined;
      if (node === undefined || node === null) continue;
      if (typeof node.selfSize === 'number') total += node.selfSize;
      if (Array.isArray(node.children)) stack.push(...(node.children as unknown[]));
    }
    return total;
  } catch {
    return 0;
  }
}

export type ProfileKindName = keyof typeof PROFILE_KINDS;

export interface RecordOptions {
  /** The program and its arguments, run without a shell. */
  command: readonly string[];
  cwd: string;
  kind?: ProfileKindName;
  /** Extra environment (an editor's `FOO=1 node x.js` assignments). */
  env?: Record<string, string>;
  /**
   * 'inherit': the command shares the terminal (the CLI; Ctrl+C reaches it with us in one group).
   * 'pipe': output is passed to `onOutput` and the command gets its own process group (the editor).
   */
  stdio: 'inherit' | 'pipe';
  onOutput?: (text: string, stream: 'stdout' | 'stderr') => void;
  /** More Node options for every process (`--max-semi-space-size=64`): only those NODE_OPTIONS allows. */
  nodeOptions?: readonly string[];
  /**
   * Every process also prints `--trace-gc` lines to its stdout (switched on by the preload: Node
   * refuses --trace-gc in NODE_OPTIONS). With 'pipe', they reach `onOutput` as 'stdout'.
   */
  traceGc?: boolean;
}

export interface RecordedProfile {
  path: string;
  /** CPU time its process used (user + system; all threads of the process), recorded at exit. */
  cpuMs: number | null;
  /** The kind's own measure of how busy it was (CPU profiles: samples not idle), when it was needed. */
  weight: number | null;
}

function cpuTimesIn(dir: string): Map<string, number> {
  const times = new Map<string, number>();
  let text = '';
  try {
    text = readGuardedText(join(dir, CPU_INDEX), MAX_INDEX_BYTES);
  } catch {
    return times;
  }
  for (const line of text.split('\n')) {
    try {
      const entry = JSON.parse(line) as { file?: unknown; cpuMicros?: unknown };
      if (typeof entry.file === 'string' && typeof entry.cpuMicros === 'number') times.set(entry.file, entry.cpuMicros / 1000);
    } catch {
      // a line cut short by a process killed while writing it
    }
  }
  return times;
}

export interface RecordingResult {
  /** The temporary folder the profiles were written to. */
  dir: string;
  /** Exit code, or null when a signal ended the command. */
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Busiest first. */
  profiles: RecordedProfile[];
}

export interface Recording {
  readonly dir: string;
  readonly pid: number | undefined;
  readonly startedAt: number;
  /** Asks the command to end (SIGINT to its group, then SIGTERM and SIGKILL if it lingers). */
  stop(): void;
  readonly done: Promise<RecordingResult>;
}

/** Grace before escalating a stop: a service closes its connections, Node writes its profile. */
const STOP_ESCALATION_MS = [10_000, 5_000];

/** One JSON line per process that wrote a profile: its file name and the CPU time it used. */
const CPU_INDEX = 'hotframe-cpu.jsonl';

/** The environment variable naming the folder, read by the preload (no path is pasted into code). */
const DIR_VARIABLE = 'HOTFRAME_PROFILE_DIR';

/**
 * The preload: the kind's recorder, then the file name (as --cpu-prof names it: kind, date, time,
 * pid, thread, sequence). On SIGINT/SIGTERM a Node process without handlers dies without running
 * 'exit' handlers, so the profile would be lost: the preload exits normally on those signals, but
 * only when the program itself has no handler (a service's own shutdown stays its own).
 */
function preloadSource(kind: ProfileKind, traceGc: boolean): string {
  return `'use strict';
(() => {
  const dir = process.env.${DIR_VARIABLE};
  if (!dir) return;
  ${traceGc ? "require('node:v8').setFlagsFromString('--trace-gc');" : ''}
  const session = new (require('node:inspector').Session)();
  session.connect();
  const write = (() => {
${kind.preload}
  })();
  ${kind.servingNotes ? `${SERVING_PRELOAD}
  let writeServing = null;
  try {
    if (process.env.${SERVING_SWITCH} !== 'off') writeServing = startServingMonitor();
  } catch {}` : ''}
  const pad = (n) => String(n).padStart(2, '0');
  const now = new Date();
  const stamp = now.getFullYear() + pad(now.getMonth() + 1) + pad(now.getDate()) + '.' + pad(now.getHours()) + pad(now.getMinutes()) + pad(now.getSeconds());
  const file = require('node:path').join(dir, ${JSON.stringify(kind.filePrefix)} + '.' + stamp + '.' + process.pid + '.' + require('node:worker_threads').threadId + '.001${kind.extension}');
  process.once('exit', () => {
    try {
      const startUs = write(file);
      ${kind.servingNotes ? `try {
        if (writeServing !== null && typeof startUs === 'number') writeServing(file + ${JSON.stringify(SERVING_SUFFIX)}, startUs);
      } catch {}` : ''}
      // The CPU time this process used, to rank the profiles: samples cannot tell a process
      // blocked in spawnSync or a syscall from one computing.
      const { user, system } = process.cpuUsage();
      require('node:fs').appendFileSync(require('node:path').join(dir, ${JSON.stringify(CPU_INDEX)}), JSON.stringify({ file: require('node:path').basename(file), cpuMicros: user + system }) + '\\n');
    } catch {}
  });
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]]) {
    process.on(signal, function hotframeExitOnSignal() {
      if (process.listeners(signal).every((listener) => listener === hotframeExitOnSignal)) process.exit(code);
    });
  }
})();
`;
}

/** A value inside NODE_OPTIONS: double-quoted, with `\\` and `"` escaped (Node's own rules). */
function nodeOptionValue(text: string): string {
  return /[\s"\\]/.test(text) ? `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"` : text;
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals, ownGroup: boolean): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    if (ownGroup && process.platform !== 'win32') process.kill(-child.pid, signal);
    else child.kill(signal);
  } catch {
    // already gone
  }
}

/**
 * The profiles of `kind` in `dir`, busiest first: by the CPU time their process used; threads of
 * one process (worker threads record too) and processes that did not say are ranked by the kind's
 * weight, read only for them (reading every profile would parse large files for nothing).
 */
export function profilesIn(dir: string, kindName: ProfileKindName): RecordedProfile[] {
  const kind: ProfileKind = PROFILE_KINDS[kindName];
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith(kind.extension));
  } catch {
    return [];
  }
  const cpu = cpuTimesIn(dir);
  const profiles: RecordedProfile[] = names.map((name) => ({ path: join(dir, name), cpuMs: cpu.get(name) ?? null, weight: null }));
  const weightOf = (profile: RecordedProfile): number => (profile.weight ??= kind.weight(profile.path));
  return profiles.sort((a, b) => (b.cpuMs ?? -1) - (a.cpuMs ?? -1) || weightOf(b) - weightOf(a) || a.path.localeCompare(b.path));
}

export function startRecording(options: RecordOptions): Recording {
  if (options.command.length === 0 || options.command[0].length === 0) throw new Error('no command to record');
  const kindName = options.kind ?? 'cpu';
  const kind: ProfileKind = PROFILE_KINDS[kindName];
  // A fresh folder: whatever profiles it holds afterwards are this run's.
  const dir = makeTemporaryFolder('record');
  const preload = join(dir, RECORDER_FILE);
  const nodeOptions = [process.env.NODE_OPTIONS ?? '', ...(options.nodeOptions ?? []).map(nodeOptionValue), `--require=${nodeOptionValue(preload)}`].filter((s) => s.length > 0).join(' ');
  const ownGroup = options.stdio === 'pipe';
  let child: ChildProcess;
  try {
    writeFileSync(preload, preloadSource(kind, options.traceGc === true));
    child = spawn(options.command[0], options.command.slice(1), {
      cwd: options.cwd,
      env: { ...process.env, ...options.env, NODE_OPTIONS: nodeOptions, [DIR_VARIABLE]: dir },
      stdio: options.stdio === 'inherit' ? 'inherit' : ['ignore', 'pipe', 'pipe'],
      // Its own process group, so a stop reaches every process it started (not needed with a
      // terminal: Ctrl+C already signals the whole foreground group).
      detached: ownGroup,
      shell: false,
      windowsHide: true,
    });
  } catch (error) {
    // Nothing ran: nothing of the temporary folder is kept.
    removeTemporaryFolder(dir);
    throw error;
  }
  child.stdout?.on('data', (chunk: Buffer) => options.onOutput?.(chunk.toString('utf8'), 'stdout'));
  child.stderr?.on('data', (chunk: Buffer) => options.onOutput?.(chunk.toString('utf8'), 'stderr'));
  const timers: NodeJS.Timeout[] = [];
  const done = new Promise<RecordingResult>((resolve, reject) => {
    child.once('error', (error) => {
      timers.forEach(clearTimeout);
      // The command could not start (a missing program): nothing of the temporary folder is kept.
      removeTemporaryFolder(dir);
      reject(new Error(`cannot run ${options.command[0]}: ${(error as NodeJS.ErrnoException).code ?? error.message}`));
    });
    child.once('close', (code, signal) => {
      timers.forEach(clearTimeout);
      resolve({ dir, code, signal, profiles: profilesIn(dir, kindName) });
    });
  });
  let stopping = false;
  return {
    dir,
    pid: child.pid,
    startedAt: Date.now(),
    done,
    stop() {
      if (stopping) return;
      stopping = true;
      signalGroup(child, 'SIGINT', ownGroup);
      timers.push(
        setTimeout(() => {
          signalGroup(child, 'SIGTERM', ownGroup);
          timers.push(setTimeout(() => signalGroup(child, 'SIGKILL', ownGroup), STOP_ESCALATION_MS[1]));
        }, STOP_ESCALATION_MS[0]),
      );
    },
  };
}

/**
 * A command line typed in the editor, as a program and its arguments, without a shell: quotes and
 * backslashes group words as in a shell, leading `NAME=value` words set the environment, and shell
 * syntax (pipes, `&&`, redirections, `$`, globs) is refused, so it never means more than it says.
 */
export interface ParsedCommandLine {
  argv: string[];
  env: Record<string, string>;
}

export function parseCommandLine(line: string): ParsedCommandLine | { error: string } {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === ' ' || c === '\t') {
      if (word !== null) words.push(word);
      word = null;
    } else if (c === "'" || c === '"') {
      const end = line.indexOf(c, i + 1);
      if (end === -1) return { error: `an unclosed ${c}` };
      let quoted = line.slice(i + 1, end);
      if (c === '"') {
        if (/[$`]/.test(quoted)) return { error: 'shell expansion ($, `) inside double quotes' };
        quoted = quoted.replace(/\\(["\\])/g, '$1');
      }
      word = (word ?? '') + quoted;
      i = end;
    } else if (c === '\\' && i + 1 < line.length) {
      word = (word ?? '') + line[++i];
    } else if ('|&;<>()$`*?~{}!#\n'.includes(c)) {
      return { error: `shell syntax (${c})` };
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== null) words.push(word);
  const env: Record<string, string> = {};
  while (words.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0])) {
    const assignment = words.shift()!;
    const eq = assignment.indexOf('=');
    env[assignment.slice(0, eq)] = assignment.slice(eq + 1);
  }
  if (words.length === 0) return { error: 'no command' };
  return { argv: words, env };
}
