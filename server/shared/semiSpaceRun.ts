// One run of seed 001's experiment: the command with --max-semi-space-size=N in NODE_OPTIONS, a CPU
// profile recorded in every Node process (recordProfile.ts) and --trace-gc switched on by the
// recorder's preload (Node refuses --trace-gc in NODE_OPTIONS). The command's stdout, where V8
// prints the trace, is kept (bounded) and saved beside the profiles under the recording's name
// (recordingFiles.ts). `hotframe record --semi-space` and the editor's sweep both run through here;
// reading and comparing the runs is server/profile/gcTrace/.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { startRecording, type Recording } from './recordProfile';
import { keepRecording } from './recordingFiles';
import { removeTemporaryFolder } from './temporaryFolders';

/** The name the command's stdout (with the trace) is saved under, before the recording's own name is given. */
export const SEMI_SPACE_TRACE_FILE = 'trace-gc.log';
/** The stdout kept per run: as much as the trace reader reads (server/profile/gcTrace/gcTraceFile.ts). */
export const MAX_SEMI_SPACE_STDOUT = 64 * 1024 * 1024;

// The sizes to try, read the same way for `--semi-space` and the editor's prompt.
/** Sizes V8 accepts for --max-semi-space-size, in MB. */
const MAX_SIZE_MB = 1024;
const MAX_SIZES = 12;

/** "16,32,64,128" → [16, 32, 64, 128] (sorted, each once); a one-line error for anything else. */
export function parseSemiSpaceSizes(text: string): number[] | { error: string } {
  const words = text.split(',').map((w) => w.trim());
  const sizes: number[] = [];
  for (const word of words) {
    if (!/^\d{1,4}$/.test(word) || Number(word) < 1 || Number(word) > MAX_SIZE_MB) {
      return { error: `--semi-space ${text.slice(0, 80)}: expected sizes in MB from 1 to ${MAX_SIZE_MB}, separated by commas (16,32,64,128)` };
    }
    sizes.push(Number(word));
  }
  const unique = [...new Set(sizes)].sort((a, b) => a - b);
  if (unique.length < 2) return { error: `--semi-space ${text.slice(0, 80)}: give at least two sizes to compare (16,32,64,128)` };
  if (unique.length > MAX_SIZES) return { error: `--semi-space: at most ${MAX_SIZES} sizes (each one is a run of the workload)` };
  return unique;
}

export interface SemiSpaceRunOptions {
  command: readonly string[];
  cwd: string;
  env?: Record<string, string>;
  /** Where the run's files are saved, and the workspace that folder must stay inside (the editor's). */
  outDir: string;
  workspace?: string;
  /** The command's stderr as it comes (its stdout is the trace). */
  onStderr?: (text: string) => void;
  /** Called once the command runs, with the recording (to stop it). */
  onStart?: (recording: Recording) => void;
}

export interface SemiSpaceRunResult {
  sizeMb: number;
  /** From the command's start to its end, ms. */
  wallMs: number;
  /** The exit code, or null when a signal ended it. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** The command's stdout (the trace among it), at most MAX_SEMI_SPACE_STDOUT. */
  stdout: string;
  /** More was printed than was kept. */
  truncated: boolean;
  /** The saved trace, absolute. */
  tracePath: string;
  /** The saved CPU profiles, busiest first, absolute. */
  profilePaths: string[];
}

/** Runs the command once at `sizeMb`; throws (one line) when it cannot start or its files cannot be saved. */
export async function runAtSemiSpaceSize(sizeMb: number, options: SemiSpaceRunOptions): Promise<SemiSpaceRunResult> {
  const chunks: string[] = [];
  let kept = 0;
  let truncated = false;
  const started = performance.now();
  const recording = startRecording({
    command: options.command,
    cwd: options.cwd,
    ...(options.env !== undefined ? { env: options.env } : {}),
    kind: 'cpu',
    stdio: 'pipe',
    traceGc: true,
    nodeOptions: [`--max-semi-space-size=${sizeMb}`],
    onOutput: (text, stream) => {
      if (stream === 'stderr') {
        options.onStderr?.(text);
        return;
      }
      // Bounded like the trace reader: a command printing without end is not kept without end.
      if (kept + text.length > MAX_SEMI_SPACE_STDOUT) truncated = true;
      else {
        chunks.push(text);
        kept += text.length;
      }
    },
  });
  options.onStart?.(recording);
  const result = await recording.done;
  const wallMs = performance.now() - started;
  const stdout = chunks.join('');
  const tracePath = join(result.dir, SEMI_SPACE_TRACE_FILE);
  try {
    writeFileSync(tracePath, stdout);
  } catch (error) {
    // The trace is what the run is for: without it nothing is kept, and the temporary folder goes
    // as it does after any other failed run (recordingFiles.ts).
    removeTemporaryFolder(result.dir);
    throw new Error(`cannot save the trace of the run (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  // Named by the command and the size, so the runs of one sweep sort together and say which is which.
  const files = keepRecording(result.dir, [...result.profiles.map((p) => p.path), tracePath], {
    outDir: options.outDir,
    argv: [...options.command, `semi-space-${sizeMb}MB`],
    startedAt: recording.startedAt,
    ...(options.workspace !== undefined ? { workspace: options.workspace } : {}),
  });
  return {
    sizeMb,
    wallMs,
    exitCode: result.signal !== null ? null : result.code,
    signal: result.signal,
    stdout,
    truncated,
    tracePath: files[files.length - 1],
    profilePaths: files.slice(0, -1),
  };
}
