// `hotframe profile A B ..` and `hotframe profile FOLDER`: the profiles of one capture (every
// process and thread `hotframe attach` or `hotframe record` wrote) read as one
// (server/profile/model/mergeProfiles.ts). `--thread pid:tid` (repeatable) keeps some of them.
import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

import { buildReport, type AnalyzedProfile } from '../profile/analysis/report';
import { mergeProfiles, MERGED_SHARE_OF, processThreadOf, type MergeInput } from '../profile/model/mergeProfiles';
import { loadProfile } from '../profile/readers/load';
import { ProfileInputError } from '../profile/readers/profileInputError';
import { InputError } from '../shared/errors';

/** At most this many profiles are merged: a folder of thousands is not one capture. */
const MAX_MERGED = 256;
const PROFILE_EXTENSIONS = /\.(cpuprofile|heapprofile)(\.gz)?$/;

/** The files the arguments name: files as given, a folder's profiles (not its sub-folders). */
export function profileFilesOf(paths: readonly string[]): string[] {
  const files: string[] = [];
  for (const path of paths) {
    let isDirectory = false;
    try {
      isDirectory = statSync(path).isDirectory();
    } catch {
      // a missing file: the loader says so in one line
    }
    if (!isDirectory) {
      files.push(path);
      continue;
    }
    const inside = readdirSync(path).filter((name) => PROFILE_EXTENSIONS.test(name)).sort();
    if (inside.length === 0) throw new InputError(`${path}: no .cpuprofile or .heapprofile in this folder`);
    files.push(...inside.map((name) => join(path, name)));
  }
  if (files.length > MAX_MERGED) throw new InputError(`${files.length} profiles: at most ${MAX_MERGED} are merged`);
  return files;
}

/** Loads the files, keeps the `--thread` ones (every one without), merges and analyzes them. */
export async function analyzeMergedForCli(files: readonly string[], root: string, threads: readonly string[]): Promise<{ analyzed: AnalyzedProfile; inputs: MergeInput[] }> {
  const inputs: MergeInput[] = [];
  for (const file of files) {
    const name = basename(file);
    const id = processThreadOf(name) ?? name;
    if (threads.length > 0 && !threads.includes(id)) continue;
    try {
      inputs.push({ id, name, profile: await loadProfile(resolve(file)) });
    } catch (error) {
      if (error instanceof ProfileInputError) throw new InputError(error.message);
      throw error;
    }
  }
  if (inputs.length === 0) throw new InputError(`--thread ${threads.join(', ')}: none of the profiles is of that process and thread (ids: ${files.map((f) => processThreadOf(basename(f)) ?? basename(f)).join(', ')})`);
  let merged;
  try {
    merged = mergeProfiles(inputs);
  } catch (error) {
    throw new InputError(error instanceof Error ? error.message : String(error));
  }
  const analyzed = buildReport(merged, { root, profileFolder: dirname(resolve(files[0])) });
  // Every percent is of the CPU time of all of them: the header says so.
  if (analyzed.report.unit === 'ms') analyzed.report.shareOf = MERGED_SHARE_OF;
  return { analyzed, inputs };
}
