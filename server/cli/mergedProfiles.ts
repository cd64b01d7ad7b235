// `hotframe profile A B ..` and `hotframe profile FOLDER`: the profiles of one capture (every
// process and thread `hotframe attach` or `hotframe record` wrote) read as one, by the same merge
// the editor uses (server/profile/analysis/mergedAnalysis.ts). `--thread pid:tid` (repeatable)
// keeps some of them.
import type { MergeInput } from '../profile/model/mergeProfiles';
import { analyzeMerged, profileFilesOf as filesOf } from '../profile/analysis/mergedAnalysis';
import type { AnalyzedProfile } from '../profile/analysis/report';
import { ProfileInputError } from '../profile/readers/profileInputError';
import { InputError } from '../shared/errors';

function oneLineInput<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof ProfileInputError) throw new InputError(error.message);
    throw error;
  }
}

/** The files the arguments name: files as given, a folder's profiles (not its sub-folders). */
export function profileFilesOf(paths: readonly string[]): string[] {
  return oneLineInput(() => filesOf(paths));
}

/** Loads the files, keeps the `--thread` ones (every one without), merges and analyzes them. */
export async function analyzeMergedForCli(files: readonly string[], root: string, threads: readonly string[]): Promise<{ analyzed: AnalyzedProfile; inputs: MergeInput[] }> {
  try {
    return await analyzeMerged(files, { root }, threads);
  } catch (error) {
    if (error instanceof ProfileInputError) throw new InputError(error.message);
    throw error;
  }
}
