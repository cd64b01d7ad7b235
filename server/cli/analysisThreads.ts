// Analysis on several threads, opt-in with HOTFRAME_ANALYZE_THREADS=N: the file list is split by
// size into one share per thread; this thread takes the first share while worker threads (this
// same bundle, started as `analyze` with workerData) take the others.
// Not the default: on the 2-core machine it was measured on (shared, load 13-18), 2 threads cost
// ~1.1 s more CPU (each worker loads and warms up the bundle and builds its own project index)
// and were not faster in wall time: 3 interleaved pairs on 667 files / 159k lines gave 1 thread
// 10.1, 25.7, 30.0 s (4.2-4.4 s CPU) and 2 threads 26.0, 28.4, 35.6 s (5.5-5.6 s CPU).
// bench/static.bench.mjs measures both, so the default can follow the numbers.
import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

import { analyzeFileList } from './fileAnalysis';
import type { FileOutcome, RuleLevels } from './fileAnalysis';

const THREAD_FLAG = 'hotframeAnalysisThread';
const MAX_THREADS = 8;

interface ThreadInput {
  [THREAD_FLAG]: true;
  paths: string[];
  cwd: string;
  levels: RuleLevels;
}

function threadInput(): ThreadInput | null {
  if (isMainThread) return null;
  const data = workerData as Partial<ThreadInput> | null;
  return data?.[THREAD_FLAG] === true ? (data as ThreadInput) : null;
}

/** True inside a worker started by `analyzeInThreads`. */
export function isAnalysisThread(): boolean {
  return threadInput() !== null;
}

/** The worker side: analyze the share, post the outcomes back. */
export function runAnalysisThread(): void {
  const input = threadInput();
  if (input === null || parentPort === null) return;
  parentPort.postMessage(analyzeFileList(input.paths, input.cwd, input.levels));
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0; // unreadable: reported by the analysis itself
  }
}

/** HOTFRAME_ANALYZE_THREADS (a number, or `auto` for one per core), never more threads than files. */
export function threadCount(fileCount: number): number {
  const setting = process.env.HOTFRAME_ANALYZE_THREADS;
  const wanted = setting === 'auto' ? availableParallelism() : Number(setting);
  if (!Number.isInteger(wanted) || wanted < 1) return 1;
  return Math.max(1, Math.min(wanted, MAX_THREADS, fileCount));
}

/** Largest file first into the lightest share, so the shares finish together. */
function shares(paths: readonly string[], sizes: readonly number[], count: number): string[][] {
  const result = Array.from({ length: count }, () => ({ bytes: 0, paths: [] as string[] }));
  const order = paths.map((_, i) => i).sort((a, b) => sizes[b] - sizes[a]);
  for (const i of order) {
    const lightest = result.reduce((min, share) => (share.bytes < min.bytes ? share : min));
    lightest.bytes += sizes[i] + 1;
    lightest.paths.push(paths[i]);
  }
  return result.map((share) => share.paths);
}

function inWorker(paths: string[], cwd: string, levels: RuleLevels): Promise<FileOutcome[]> {
  const input: ThreadInput = { [THREAD_FLAG]: true, paths, cwd, levels };
  return new Promise((resolve, reject) => {
    const worker = new Worker(__filename, { argv: ['analyze'], workerData: input, stdout: false, stderr: false });
    let outcomes: FileOutcome[] | null = null;
    worker.once('message', (message: FileOutcome[]) => (outcomes = message));
    worker.once('error', reject);
    worker.once('exit', (code) => (outcomes !== null ? resolve(outcomes) : reject(new Error(`analysis thread exited with ${code}`))));
  });
}

/** Outcomes in the order of `paths`, whatever thread produced them. */
export async function analyzeInThreads(paths: readonly string[], cwd: string, levels: RuleLevels): Promise<FileOutcome[]> {
  const count = threadCount(paths.length);
  if (count === 1) return analyzeFileList(paths, cwd, levels);
  const sizes = paths.map(sizeOf);
  const [mine, ...theirs] = shares(paths, sizes, count);
  const pending = theirs.map((share) =>
    // A thread that fails (out of memory...) costs time, never results; but say so.
    inWorker(share, cwd, levels).catch((error: unknown) => {
      process.stderr.write(`hotframe: an analysis thread failed (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); analyzing its ${share.length} files here\n`);
      return analyzeFileList(share, cwd, levels);
    }),
  );
  const outcomes = [analyzeFileList(mine, cwd, levels), ...(await Promise.all(pending))].flat();
  const byPath = new Map(outcomes.map((outcome) => [outcome.path, outcome]));
  return paths.map((path) => byPath.get(path)!);
}
