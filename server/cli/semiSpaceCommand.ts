// `hotframe record --semi-space 16,32,64,128 -- <command>`: seed 001's experiment in one step.
// The command runs once per size, one after another, each time with --max-semi-space-size=N in
// NODE_OPTIONS, a CPU profile and --trace-gc recorded (server/shared/semiSpaceRun.ts, which the
// editor's sweep runs too); the command's stderr passes through. Then the runs are compared
// (server/profile/gcTrace/semiSpace.ts) and printed side by side.
import { readGcTrace, summarizeGcTrace } from '../profile/gcTrace/gcTrace';
import { compareSemiSpaceRuns, type SemiSpaceRun } from '../profile/gcTrace/semiSpace';
import { MAX_SEMI_SPACE_STDOUT, runAtSemiSpaceSize, type SemiSpaceRunResult } from '../shared/semiSpaceRun';
import { InputError } from '../shared/errors';
import { displayPath } from './fileAnalysis';
import { analyzeProfileForCli } from './profileCommand';
import { semiSpaceJson, semiSpaceText } from './semiSpaceText';

export interface SweepOptions {
  command: string[];
  cwd: string;
  out: string;
  root: string;
  format: 'text' | 'json';
}

interface OneRun {
  run: SemiSpaceRun;
  files: string[];
}

async function runOnce(size: number, options: SweepOptions, stopped: () => boolean, onStart: (stop: () => void) => void): Promise<OneRun> {
  let ran: SemiSpaceRunResult;
  try {
    ran = await runAtSemiSpaceSize(size, {
      command: options.command,
      cwd: options.cwd,
      outDir: options.out,
      onStderr: (text) => process.stderr.write(text),
      onStart: (recording) => {
        onStart(() => recording.stop());
        if (stopped()) recording.stop();
      },
    });
  } catch (error) {
    throw new InputError(`record: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (ran.truncated) process.stderr.write(`hotframe: the ${size} MB run printed over ${MAX_SEMI_SPACE_STDOUT / 1024 / 1024} MiB; only the first part was kept and read\n`);
  const gc = summarizeGcTrace(readGcTrace(ran.stdout));
  const files = [...ran.profilePaths, ran.tracePath];
  let cpuProfileGcPercent: number | null = null;
  if (ran.profilePaths.length > 0) {
    try {
      cpuProfileGcPercent = (await analyzeProfileForCli(ran.profilePaths[0], options.root)).report.categories.gc.percent;
    } catch {
      // A profile cut short (a process killed): the trace's figures stand alone.
    }
  }
  return { run: { sizeMb: size, wallMs: ran.wallMs, exitCode: ran.exitCode, gc, cpuProfileGcPercent }, files };
}

export async function runSemiSpaceSweep(sizes: readonly number[], options: SweepOptions): Promise<number> {
  // The command has its own process group here (its stdout is read): Ctrl+C stops the current run
  // through us, and no further size is started.
  let stopRequested = false;
  let stopCurrent: (() => void) | null = null;
  const stop = (): void => {
    stopRequested = true;
    stopCurrent?.();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const done: OneRun[] = [];
  try {
    for (const size of sizes) {
      if (stopRequested) break;
      process.stderr.write(`hotframe: running the command with --max-semi-space-size=${size} (${done.length + 1} of ${sizes.length})\n`);
      done.push(await runOnce(size, options, () => stopRequested, (s) => (stopCurrent = s)));
      stopCurrent = null;
    }
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
  if (done.length < 2) throw new InputError(`record: stopped after ${done.length} of ${sizes.length} runs; nothing to compare`);
  if (done.every((d) => d.run.gc.collections === 0)) {
    throw new InputError('record: no --trace-gc line in the command\'s output (is it a Node program, and does it leave its stdout to Node?)');
  }
  const comparison = compareSemiSpaceRuns(done.map((d) => d.run));
  const saved = new Map(done.map((d) => [d.run.sizeMb, d.files.map((f) => displayPath(options.cwd, f))]));
  process.stdout.write(options.format === 'json' ? JSON.stringify(semiSpaceJson(comparison, saved), null, 2) + '\n' : semiSpaceText(comparison, saved));
  return 0;
}
