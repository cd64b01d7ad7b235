// `hotframe attach PID… [--duration S] [--kind cpu|allocation] [--inspector URL] [--out DIR] [--root DIR] [--top N] [--format text|json]`
// Profiles running Node processes without restarting them (server/attach/): each PID with every
// Node process below it (cluster and pm2 workers) and every worker thread, over one window; or a
// process already listening (--inspector URL, loopback only). Writes one profile per thread into
// --out, named as Node names them (kind.date.time.pid.thread.001), and prints the report (of them all, merged, when several).
import { basename, resolve } from 'node:path';

import { capture, type CapturedThread, type Target } from '../attach/capture';
import { writeCapture } from '../attach/captureFiles';
import { InputError } from '../shared/errors';
import { formatMs } from '../shared/format';
import { flagValue, parseCommandArgs } from './args';
import { optionNames } from './commandSpecs';
import { displayPath } from './fileAnalysis';
import { analyzeMergedForCli } from './mergedProfiles';
import { mergedPartsJson, mergedPartsText } from './mergedText';
import { printable } from './printable';
import { analyzeProfileForCli, profileCliOptions, reportJson } from './profileCommand';
import { profileText } from './profileText';

const USAGE = 'usage: hotframe attach PID... [--duration S] [--kind cpu|allocation] [--inspector URL] [--out DIR] [--root DIR] [--top N] [--format text|json]';
const DEFAULT_DURATION_S = 10;
const MAX_DURATION_S = 3600;

export async function runAttach(argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, optionNames('attach'));
  const targets: Target[] = [];
  for (const word of args.positionals) {
    if (!/^[1-9]\d{0,9}$/.test(word)) throw new InputError(`attach: '${word}' is not a process id (${USAGE})`);
    targets.push({ pid: Number(word) });
  }
  for (const url of args.flags.get('inspector') ?? []) targets.push({ url });
  if (targets.length === 0) throw new InputError(`attach: no process (${USAGE})`);
  const durationText = flagValue(args, 'duration') ?? String(DEFAULT_DURATION_S);
  const duration = Number(durationText);
  if (!/^\d+(\.\d+)?$/.test(durationText) || duration <= 0 || duration > MAX_DURATION_S) throw new InputError(`--duration ${durationText}: expected seconds, more than 0 and at most ${MAX_DURATION_S}`);
  const kind = flagValue(args, 'kind') ?? 'cpu';
  if (kind !== 'cpu' && kind !== 'allocation') throw new InputError(`--kind ${kind}: expected cpu or allocation`);
  const options = profileCliOptions(args);
  const cwd = process.cwd();
  const out = resolve(cwd, flagValue(args, 'out') ?? 'profiles');

  // Ctrl+C ends the window early: the capture stops and keeps what it has.
  const abort = new AbortController();
  const stopEarly = (): void => abort.abort();
  process.on('SIGINT', stopEarly);
  process.on('SIGTERM', stopEarly);
  let result;
  try {
    process.stderr.write(`hotframe: attaching for ${duration} s (Ctrl+C stops early)\n`);
    result = await capture({ targets, kind, durationMs: duration * 1000, signal: abort.signal, onProgress: process.env.HOTFRAME_DEBUG ? (line) => process.stderr.write(`${Date.now() % 100000} ${line}\n`) : undefined });
  } finally {
    process.off('SIGINT', stopEarly);
    process.off('SIGTERM', stopEarly);
  }
  for (const problem of result.problems) process.stderr.write(`hotframe: ${printable(problem)}\n`);
  if (result.threads.length === 0) throw new InputError('attach: no profile was captured');

  const files = writeCapture(result.threads, kind, out);
  process.stderr.write(`hotframe: ${files.length} profile${files.length === 1 ? '' : 's'} in ${displayPath(cwd, out) || '.'}:\n`);
  for (const { file, thread } of files) {
    // The request monitor runs in each process's main thread only (a diagnostics channel is per thread).
    const what = thread.threadId === 0 ? '' : `, thread ${thread.threadId}; requests its own servers received are not counted when attached (record to count them)`;
    const pause = thread.threadId !== 0 ? '' : `; paused its main thread ${formatMs(thread.pauseMs.start)} to start${thread.pauseMs.stop === null ? '' : `, ${formatMs(thread.pauseMs.stop)} to stop`}${workText(thread.workMs)}`;
    process.stderr.write(`  ${displayPath(cwd, file)} (${printable(thread.command)}${what}; started at +${thread.startedAt} ms${pause}${thread.partial ? `; ${thread.partial}` : ''})\n`);
  }
  if (files.length === 1) {
    const { report } = await analyzeProfileForCli(files[0].file, options.root);
    process.stdout.write(options.format === 'json' ? JSON.stringify(reportJson(report, options.top), null, 2) + '\n' : profileText(basename(files[0].file), report, options.top, options.root));
    return 0;
  }
  // Several processes or threads: one view of them all, as `hotframe profile FOLDER` gives it.
  const { analyzed, inputs } = await analyzeMergedForCli(files.map((f) => f.file), options.root, []);
  const { report } = analyzed;
  process.stdout.write(
    options.format === 'json'
      ? JSON.stringify({ ...reportJson(report, options.top), parts: mergedPartsJson(inputs, report) }, null, 2) + '\n'
      : mergedPartsText(inputs, report) + profileText(`${inputs.length} profiles`, report, options.top, options.root),
  );
  return 0;
}

/** The main thread's own work in the pauses; the rest of the wall time was its wait for a CPU. */
function workText(work: CapturedThread['workMs']): string {
  const known = [work.start, work.stop].filter((ms): ms is number => ms !== null);
  if (known.length === 0) return '';
  return ` (${known.map((ms) => formatMs(ms)).join(' and ')} of it on its CPU, the rest waiting for one)`;
}
