// `hotframe record [--out DIR] [--root DIR] [--top N] [--format text|json] [--kind cpu|allocation] [--semi-space MB,MB..] -- <command> [args..]`
// Runs the command with --cpu-prof in NODE_OPTIONS (every Node process it starts is recorded),
// waits for it to end (Ctrl+C stops it: the terminal signals the command with us), copies the
// profiles into --out (named by the command and its start time) and prints the report of the
// busiest one. The temporary folder they were written to is removed, whatever happened.
import { basename, resolve } from 'node:path';

import { formatBytes, formatMs } from '../shared/format';
import { PROFILE_KINDS, startRecording, type ProfileKindName, type RecordedProfile } from '../shared/recordProfile';
import { keepRecording } from '../shared/recordingFiles';
import { InputError } from '../shared/errors';
import { flagValue, parseCommandArgs } from './args';
import { commandHelp, optionNames } from './commandSpecs';
import { displayPath } from './fileAnalysis';
import { analyzeProfileForCli, profileCliOptions, reportJson } from './profileCommand';
import { profileText } from './profileText';
import { parseSemiSpaceSizes } from '../profile/gcTrace/semiSpace';
import { runSemiSpaceSweep } from './semiSpaceCommand';

const USAGE = commandHelp('record').split('\n')[0];

/** What made a profile the busiest: its CPU time, else its busy samples or allocated bytes. */
function weightText(profile: RecordedProfile, kind: ProfileKindName): string {
  if (profile.cpuMs !== null) return `${formatMs(profile.cpuMs)} of CPU`;
  if (kind === 'cpu' || profile.weight === null) return `${profile.weight ?? '?'} ${kind === 'cpu' ? 'busy samples' : 'bytes allocated'}`;
  return `${formatBytes(profile.weight)} allocated`;
}

export async function runRecord(argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, optionNames('record'));
  // Everything after the first `--` is the command, untouched (its own flags are not ours).
  const command = args.afterDashes ?? [];
  if (command.length === 0) throw new InputError(`record: no command after \`--\` (${USAGE})`);
  if (args.positionals.length > command.length) throw new InputError(`record: unexpected '${args.positionals[0]}' before \`--\` (${USAGE})`);
  const options = profileCliOptions(args);
  const cwd = process.cwd();
  const out = resolve(cwd, flagValue(args, 'out') ?? 'profiles');
  const kindName = flagValue(args, 'kind') ?? 'cpu';
  if (kindName !== 'cpu' && kindName !== 'allocation') throw new InputError(`--kind ${kindName}: expected cpu or allocation`);
  const kind = PROFILE_KINDS[kindName];
  const semiSpace = flagValue(args, 'semi-space');
  if (semiSpace !== undefined) {
    if (kindName !== 'cpu') throw new InputError('--semi-space records CPU profiles and the GC trace: leave out --kind allocation');
    const sizes = parseSemiSpaceSizes(semiSpace);
    if ('error' in sizes) throw new InputError(sizes.error);
    return runSemiSpaceSweep(sizes, { command, cwd, out, root: options.root, format: options.format });
  }

  let recording;
  try {
    recording = startRecording({ command, cwd, kind: kindName, stdio: 'inherit' });
  } catch (error) {
    throw new InputError(`record: ${error instanceof Error ? error.message : String(error)}`);
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
    throw new InputError(`record: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    process.off('SIGINT', ignore);
    process.off('SIGTERM', forward);
  }
  const ended = result.signal !== null ? `was ended by ${result.signal}` : `exited with code ${result.code}`;
  if (result.profiles.length === 0) {
    keepRecording(result.dir, [], { outDir: out, argv: command, startedAt: recording.startedAt });
    throw new InputError(`record: the command ${ended} and no Node process wrote a ${kind.label} (is it a Node program, and did it exit rather than get killed?)`);
  }
  let paths: string[];
  try {
    paths = keepRecording(result.dir, result.profiles.map((profile) => profile.path), { outDir: out, argv: command, startedAt: recording.startedAt });
  } catch (error) {
    throw new InputError(`record: ${error instanceof Error ? error.message : String(error)}`);
  }
  const saved = result.profiles.map((profile, i): RecordedProfile => ({ ...profile, path: paths[i] }));
  const busiest = saved[0];
  process.stderr.write(`hotframe: the command ${ended}; ${saved.length} ${kind.label}${saved.length === 1 ? '' : 's'} in ${displayPath(cwd, out) || '.'}:\n`);
  for (const profile of saved) process.stderr.write(`  ${displayPath(cwd, profile.path)} (${weightText(profile, kindName)})${profile === busiest ? ' <- the busiest, reported below' : ''}\n`);
  const { report } = await analyzeProfileForCli(busiest.path, options.root);
  process.stdout.write(options.format === 'json' ? JSON.stringify(reportJson(report, options.top), null, 2) + '\n' : profileText(basename(busiest.path), report, options.top, options.root));
  return 0;
}
