// `hotframe record [--out DIR] [--root DIR] [--top N] [--format text|json] -- <command> [args..]`
// Runs the command with --cpu-prof in NODE_OPTIONS (every Node process it starts is recorded),
// waits for it to end (Ctrl+C stops it: the terminal signals the command with us), copies the
// profiles into --out and prints the report of the busiest one.
import { copyFileSync, mkdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';

import { PROFILE_KINDS, startRecording } from '../shared/recordProfile';
import { flagValue, parseArgs } from './args';
import { CliError } from './errors';
import { displayPath } from './fileAnalysis';
import { analyzeProfileForCli, profileCliOptions, reportJson } from './profileCommand';
import { profileText } from './profileText';

const USAGE = 'usage: hotframe record [--out DIR] [--root DIR] [--top N] [--format text|json] -- <command> [args..]';

export async function runRecord(argv: string[]): Promise<number> {
  // Everything after the first `--` is the command, untouched (its own flags are not ours).
  const split = argv.indexOf('--');
  if (split === -1 || split === argv.length - 1) throw new CliError(`record: no command after \`--\` (${USAGE})`);
  const command = argv.slice(split + 1);
  const args = parseArgs(argv.slice(0, split), ['out', 'root', 'top', 'format']);
  if (args.positionals.length > 0) throw new CliError(`record: unexpected '${args.positionals[0]}' before \`--\` (${USAGE})`);
  const options = profileCliOptions(args);
  const cwd = process.cwd();
  const out = resolve(cwd, flagValue(args, 'out') ?? 'profiles');
  const kind = PROFILE_KINDS.cpu;

  let recording;
  try {
    recording = startRecording({ command, cwd, kind: 'cpu', stdio: 'inherit' });
  } catch (error) {
    throw new CliError(`record: ${error instanceof Error ? error.message : String(error)}`);
  }
  // Ctrl+C reaches the command too (one foreground process group): we stay to collect the
  // profiles it writes on its way out. A SIGTERM for us is passed on.
  const ignore = (): void => {};
  const forward = (): void => recording.stop();
  process.on('SIGINT', ignore);
  process.on('SIGTERM', forward);
  let result;
  try {
    result = await recording.done;
  } catch (error) {
    throw new CliError(`record: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    process.off('SIGINT', ignore);
    process.off('SIGTERM', forward);
  }
  const ended = result.signal !== null ? `was ended by ${result.signal}` : `exited with code ${result.code}`;
  if (result.profiles.length === 0) {
    throw new CliError(`record: the command ${ended} and no Node process wrote a ${kind.label} (is it a Node program, and did it exit rather than get killed?)`);
  }
  mkdirSync(out, { recursive: true });
  const saved = result.profiles.map((profile) => {
    const target = join(out, basename(profile.path));
    copyFileSync(profile.path, target);
    return { ...profile, path: target };
  });
  const busiest = saved[0];
  process.stderr.write(`hotframe: the command ${ended}; ${saved.length} ${kind.label}${saved.length === 1 ? '' : 's'} in ${displayPath(cwd, out) || '.'}:\n`);
  for (const profile of saved) process.stderr.write(`  ${displayPath(cwd, profile.path)} (${profile.cpuMs === null ? `${profile.weight ?? '?'} busy samples` : `${Math.round(profile.cpuMs)} ms of CPU`})${profile === busiest ? ' <- the busiest, reported below' : ''}\n`);
  const { report } = await analyzeProfileForCli(busiest.path, options.root);
  process.stdout.write(options.format === 'json' ? JSON.stringify(reportJson(report, options.top), null, 2) + '\n' : profileText(basename(busiest.path), report, options.top, options.root));
  return 0;
}
