// `hotframe gate --before A... --after B... [--windows N] [--threshold 10%] [--min-ms N]
//   [--confidence 0.995] [--root DIR] [--format text|json|markdown|sarif] [--top N]`
// Several CPU profiles of each side (a workload recorded N times per side, or a folder of them, or
// each long recording cut into N windows of equal duration):
// exit 1 when a function or line got slower by more than the threshold and the noise between runs
// (server/profile/gate/gate.ts), 0 otherwise, 2 for usage or input errors.
import { readdirSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';

import type { Finding } from '../../rules/api';
import { DEFAULT_GATE_OPTIONS, runGate, type GateChange, type GateOptions } from '../profile/gate/gate';
import { runsNeeded, smallestP } from '../profile/gate/rankSum';
import type { ProfileReport } from '../profile/model/types';
import { ProjectIndex } from '../static/projectIndex';
import { InputError } from '../shared/errors';
import { flagValue, parseCommandArgs } from './args';
import { optionNames } from './commandSpecs';
import { analyzeFile } from './fileAnalysis';
import { gateMarkdown, gateSarif, gateText, gateJson, type GateReport } from './gateFormats';
import { analyzeProfileForCli, analyzeWindowsForCli, rootFolder } from './profileCommand';

const FORMATS = ['text', 'json', 'markdown', 'sarif'] as const;
type Format = (typeof FORMATS)[number];

/** More windows than this cuts a recording into slices too short to say anything. */
const MAX_WINDOWS = 100;

/** Names a profile file may have in a folder given to --before/--after (what `node --cpu-prof`, `--prof` and exporters write). */
const PROFILE_NAME = /\.(cpuprofile|log|pprof|pb|json)(\.gz)?$/i;

const USAGE = 'usage: hotframe gate --before FILE|DIR... --after FILE|DIR... [--windows N] [--threshold 10%] [--min-ms N] [--confidence 0.995] [--root DIR] [--format text|json|markdown|sarif] [--top N]';

/** The profiles a --before/--after value names: the file itself, or a folder's profiles by name. */
export function profilesOf(flag: string, value: string, cwd: string): string[] {
  const path = resolve(cwd, value);
  let stats;
  try {
    stats = statSync(path);
  } catch {
    throw new InputError(`--${flag} ${value}: no such file or folder`);
  }
  if (stats.isFile()) return [path];
  if (!stats.isDirectory()) throw new InputError(`--${flag} ${value}: not a file or a folder`);
  const files = readdirSync(path, { withFileTypes: true })
    .filter((entry) => entry.isFile() && PROFILE_NAME.test(entry.name))
    .map((entry) => join(path, entry.name))
    .sort();
  if (files.length === 0) throw new InputError(`--${flag} ${value}: the folder holds no profile (.cpuprofile, .log, .pprof, .pb.gz)`);
  return files;
}

/** "10%", "10" or "0.1" -> 0.1 (a number above 1 is a percentage). */
function parseThreshold(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(%?)$/.exec(text.trim());
  if (match === null) throw new InputError(`--threshold ${text}: expected a percentage such as 10%`);
  const value = Number(match[1]);
  return match[2] === '%' || value > 1 ? value / 100 : value;
}

function parseNumber(flag: string, text: string, check: (n: number) => boolean, expected: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || !check(value)) throw new InputError(`--${flag} ${text}: expected ${expected}`);
  return value;
}

/** Each changed line's findings (the static rules on that line) and each changed function's. */
function findingsAt(changes: readonly GateChange[], root: string, cwd: string): Map<GateChange, Finding[]> {
  const byFile = new Map<string, Finding[]>();
  const project = new ProjectIndex();
  const findingsOf = (file: string): Finding[] => {
    let found = byFile.get(file);
    if (found === undefined) {
      const outcome = analyzeFile(file, cwd, {}, project);
      found = outcome.findings.map((f) => f.finding);
      byFile.set(file, found);
    }
    return found;
  };
  const out = new Map<GateChange, Finding[]>();
  for (const change of changes) {
    // Only the workspace's own sources: a path the profile recorded elsewhere is never read.
    if (!isAbsolute(change.file) || relative(root, change.file).startsWith('..')) continue;
    const findings = findingsOf(change.file).filter((f) =>
      change.kind === 'line' ? f.range.loc.start.line === change.line : f.enclosingFunction !== null && f.enclosingFunction.line === change.line,
    );
    if (findings.length > 0) out.set(change, findings);
  }
  return out;
}

/** Loads both sides' profiles, runs the gate, and finds the findings on what changed. */
export async function gateReport(before: string[], after: string[], options: GateOptions, root: string, cwd: string, top: number, windows = 1): Promise<GateReport> {
  const load = async (files: string[]): Promise<ProfileReport[]> => {
    const reports: ProfileReport[] = [];
    for (const file of files) {
      const analyzed = windows > 1 ? await analyzeWindowsForCli(file, windows, root) : [await analyzeProfileForCli(file, root)];
      for (const { report } of analyzed) {
        if (report.unit !== 'ms') throw new InputError(`${relative(cwd, file)}: not a CPU profile (it measures ${report.unit}); the gate compares CPU time`);
        reports.push(report);
      }
    }
    return reports;
  };
  const result = runGate(await load(before), await load(after), options);
  return {
    result,
    before: before.map((f) => relative(cwd, f)),
    after: after.map((f) => relative(cwd, f)),
    findings: findingsAt([...result.regressions, ...result.improvements], root, cwd),
    root,
    cwd,
    top,
  };
}

/**
 * Refuses, in one line, sides with too few runs to tell a change from noise: under two (no spread
 * to measure), or fewer than the exact test needs at `confidence` (a gate that cannot fail is worse
 * than none).
 */
export function checkRunCounts(beforeProfiles: number, afterProfiles: number, windows: number, confidence: number): void {
  const runs = { before: beforeProfiles * windows, after: afterProfiles * windows };
  if (runs.before < 2 || runs.after < 2) {
    const got = windows > 1 ? `${runs.before} windows before and ${runs.after} after` : `${beforeProfiles} before and ${afterProfiles} after`;
    throw new InputError(`gate: needs at least two profiles (or --windows) on each side to tell a change from noise, got ${got} (${USAGE})`);
  }
  const floor = smallestP(runs.before, runs.after);
  if (floor > 1 - confidence) {
    throw new InputError(
      `gate: ${runs.before} runs before and ${runs.after} after cannot show any change at confidence ${confidence} (the rank test's smallest p-value with them is ${floor.toPrecision(2)}): record more runs a side (${runsNeeded(confidence)} a side suffice for one function) or lower --confidence`,
    );
  }
}

export async function runGateCommand(argv: string[]): Promise<number> {
  const cwd = process.cwd();
  const args = parseCommandArgs(argv, optionNames('gate'));
  if (args.positionals.length > 0) throw new InputError(`gate: unexpected '${args.positionals[0]}': give each profile or folder after --before or --after (${USAGE})`);
  const before = (args.flags.get('before') ?? []).flatMap((value) => profilesOf('before', value, cwd));
  const after = (args.flags.get('after') ?? []).flatMap((value) => profilesOf('after', value, cwd));
  const windows = parseNumber('windows', flagValue(args, 'windows') ?? '1', (n) => Number.isInteger(n) && n >= 1 && n <= MAX_WINDOWS, `a whole number from 1 to ${MAX_WINDOWS}`);
  const root = rootFolder(args);
  const format = (flagValue(args, 'format') ?? 'text') as Format;
  if (!FORMATS.includes(format)) throw new InputError(`--format ${format}: expected ${FORMATS.join(', ')}`);
  const options: GateOptions = {
    ...DEFAULT_GATE_OPTIONS,
    threshold: parseThreshold(flagValue(args, 'threshold') ?? '10%'),
    minMs: parseNumber('min-ms', flagValue(args, 'min-ms') ?? String(DEFAULT_GATE_OPTIONS.minMs), (n) => n >= 0, 'ms of CPU per second, 0 or more'),
    confidence: parseNumber('confidence', flagValue(args, 'confidence') ?? String(DEFAULT_GATE_OPTIONS.confidence), (n) => n > 0.5 && n < 1, 'a confidence between 0.5 and 1, such as 0.995'),
  };
  checkRunCounts(before.length, after.length, windows, options.confidence);
  const top = parseNumber('top', flagValue(args, 'top') ?? '20', (n) => Number.isInteger(n) && n >= 1, 'a whole number of at least 1');

  const report = await gateReport(before, after, options, root, cwd, top, windows);
  const output = format === 'json' ? gateJson(report) : format === 'markdown' ? gateMarkdown(report) : format === 'sarif' ? gateSarif(report) : gateText(report);
  process.stdout.write(output.endsWith('\n') ? output : output + '\n');
  return report.result.failed ? 1 : 0;
}
