// `hotframe diff BEFORE AFTER [--root DIR] [--top N] [--format text|json] [--sample-type TYPE]`
import { basename } from 'node:path';

import { diffReports, type ProfileDiff } from '../profile/analysis/diff';
import { ProfileInputError } from '../profile/readers/profileInputError';
import { InputError } from '../shared/errors';
import { parseCommandArgs } from './args';
import { optionNames } from './commandSpecs';
import { analyzeProfileForCli, profileCliOptions } from './profileCommand';
import { diffText } from './profileText';

export async function runDiff(argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, optionNames('diff'));
  if (args.positionals.length !== 2) {
    throw new InputError(`diff: expected BEFORE and AFTER profiles, got ${args.positionals.length} (usage: hotframe diff BEFORE AFTER [--root DIR] [--top N] [--format text|json] [--sample-type TYPE])`);
  }
  const options = profileCliOptions(args);
  const [beforeFile, afterFile] = args.positionals;
  const before = await analyzeProfileForCli(beforeFile, options.root, { sampleType: options.sampleType });
  const after = await analyzeProfileForCli(afterFile, options.root, { sampleType: options.sampleType });
  let diff: ProfileDiff;
  try {
    diff = diffReports(before.report, after.report);
  } catch (error) {
    if (error instanceof ProfileInputError) throw new InputError(error.message);
    throw error;
  }
  if (options.format === 'json') {
    const cut: ProfileDiff = { ...diff, functions: diff.functions.slice(0, options.top), lines: diff.lines.slice(0, options.top) };
    process.stdout.write(JSON.stringify(cut, null, 2) + '\n');
  } else {
    process.stdout.write(diffText({ before: basename(beforeFile), after: basename(afterFile) }, diff, options.top, options.root));
  }
  return 0;
}
