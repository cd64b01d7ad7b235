// `hotframe record --semi-space 16,32,64,128 -- <command>`: seed 001's experiment in one step.
// The command runs once per size, one after another, each time with --max-semi-space-size=N in
// NODE_OPTIONS, a CPU profile recorded (server/shared/recordProfile.ts) and --trace-gc switched on
// by the recorder's preload (Node refuses --trace-gc in NODE_OPTIONS). The command's stdout, where
// V8 prints the trace, is saved beside the profiles; its stderr passes through. Then the runs are
// compared (server/profile/gcTrace/semiSpace.ts) and printed side by side.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { readGcTrace, summarizeGcTrace } from '../profile/gcTrace/gcTrace';
import { compareSemiSpaceRuns, type SemiSpaceRun } from '../profile/gcTrace/semiSpace';
import { startRecording, type RecordingResult } from '../shared/recordProfile';
import { keepRecording } from '../shared/recordingFiles';
import { InputError } from '../shared/errors';
import { displayPath } from './fileAnalysis';
import { MAX_GC_TRACE_BYTES } from './gcTraceText';
import { analyzeProfileForCli } from './profileCommand';
import { semiSpaceJson, semiSpaceText } from './semiSpaceText';

/** The name the command's stdout (with the trace) is saved under, in the recording's folder. */
const TRACE_FILE = 'trace-gc.log';

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
  const chunks: string[] = [];
  let kept = 0;
  let truncated = false;
  const started = performance.now();
  let recording;
  try {
    recording = startRecording({
      command: options.command,
      cwd: options.cwd,
      kind: 'cpu',
      stdio: 'pipe',
      traceGc: true,
      nodeOptions: [`--max-semi-space-size=${size}`],
      onOutput: (text, stream) => {
        if (stream === 'stderr') {
          process.stderr.write(text);
          return;
        }
        // Bounded like the trace reader: a command printing without end is not kept without end.
        if (kept + text.length > MAX_GC_TRACE_BYTES) truncated = true;
        else {
          chunks.push(text);
          kept += text.length;
        }
      },
    });
  } catch (error) {
    throw new InputError(`record: ${error instanceof Error ? error.message : String(error)}`);
  }
  onStart(() => recording.stop());
  if (stopped()) recording.stop();
  let result: RecordingResult;
  try {
    result = await recording.done;
  } catch (error) {
    throw new InputError(`record: ${error instanceof Error ? error.message : String(error)}`);
  }
  const wallMs = performance.now() - started;
  const text = chunks.join('');
  if (truncated) process.stderr.write(`hotframe: the ${size} MB run printed over ${MAX_GC_TRACE_BYTES / 1024 / 1024} MiB; only the first part was kept and read\n`);
  const tracePath = join(result.dir, TRACE_FILE);
  writeFileSync(tracePath, text);
  const gc = summarizeGcTrace(readGcTrace(text));
  // Named by the command and the size, so the runs of one sweep sort together and say which is which.
  let files: string[];
  try {
    files = keepRecording(result.dir, [...result.profiles.map((p) => p.path), tracePath], { outDir: options.out, argv: [...options.command, `semi-space-${size}MB`], startedAt: recording.startedAt });
  } catch (error) {
    throw new InputError(`record: ${error instanceof Error ? error.message : String(error)}`);
  }
  let cpuProfileGcPercent: number | null = null;
  if (result.profiles.length > 0) {
    try {
      cpuProfileGcPercent = (await analyzeProfileForCli(files[0], options.root)).report.categories.gc.percent;
    } catch {
      // A profile cut short (a process killed): the trace's figures stand alone.
    }
  }
  return { run: { sizeMb: size, wallMs, exitCode: result.signal !== null ? null : result.code, gc, cpuProfileGcPercent }, files };
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
