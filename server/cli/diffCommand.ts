// `hotframe diff BEFORE AFTER [--root DIR] [--top N] [--format text|json] [--sample-type TYPE]`
import { basename } from 'node:path';

import { diffReports, type ProfileDiff } from '../profile/analysis/diff';
import type { ProfileReport } from '../profile/model/types';
import { ProfileInputError } from '../profile/readers/profileInputError';
import { InputError } from '../shared/errors';
import { parseCommandArgs } from './args';
import { optionNames } from './commandSpecs';
import { analyzeProfileForCli, profileCliOptions } from './profileCommand';
import { diffText } from './profileText';

/** The diff as `--format json` gives it: its lists cut to `top`. */
export function diffJson(diff: ProfileDiff, top: number): ProfileDiff {
  return { ...diff, functions: diff.functions.slice(0, top), lines: diff.lines.slice(0, top) };
}

/** The diff of two analyzed profiles; profiles of different kinds are the user's input error. */
export function diffOf(before: ProfileReport, after: ProfileReport): ProfileDiff {
  try {
    return diffReports(before, after);
  } catch (error) {
    if (error instanceof ProfileInputError) throw new InputError(error.message);
    throw error;
  }
}

export async function runDiff(argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, optionNames('diff'));
  if (args.positionals.length !== 2) {
    throw new InputError(`diff: expected BEFORE and AFTER profiles, got ${args.positionals.length} (usage: hotframe diff BEFORE AFTER [--root DIR] [--top N] [--format text|json] [--sample-type TYPE])`);
  }
  const options = profileCliOptions(args);
  const [beforeFile, afterFile] = args.positionals;
  const before = await analyzeProfileForCli(beforeFile, options.root, { sampleType: options.sampleType });
  const after = await analyzeProfileForCli(afterFile, options.root, { sampleType: options.sampleType });
  const diff = diffOf(before.report, after.report);
  if (options.format === 'json') {
    process.stdout.write(JSON.stringify(diffJson(diff, options.top), null, 2) + '\n');
  } else {
    process.stdout.write(diffText({ before: basename(beforeFile), after: basename(afterFile) }, diff, options.top, options.root));
  }
  return 0;
}
