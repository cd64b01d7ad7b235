// The profiles of one capture (every process and thread `hotframe attach` or `hotframe record`
// wrote, or the editor's Profile Running Process…) read as one (model/mergeProfiles.ts), for the
// CLI (`hotframe profile A B…|FOLDER`) and the editor alike: one merge, one set of numbers.
// `threads` keeps some of them (the per-process/thread filter); the merged profile still lists
// every part, so a view can offer the others.
import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

import { mergeProfiles, processThreadOf, type MergeInput } from '../model/mergeProfiles';
import { loadProfile, type LoadOptions } from '../readers/load';
import { ProfileInputError } from '../readers/profileInputError';
import { buildReport, type AnalysisOptions, type AnalyzedProfile } from './report';

/** At most this many profiles are merged: a folder of thousands is not one capture. */
export const MAX_MERGED = 256;
const PROFILE_EXTENSIONS = /\.(cpuprofile|heapprofile)(\.gz)?$/;

/** True when `path` is a folder (a capture's folder, merged when opened). */
export function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The files the arguments name: files as given, a folder's profiles (not its sub-folders). */
export function profileFilesOf(paths: readonly string[]): string[] {
  const files: string[] = [];
  for (const path of paths) {
    if (!isFolder(path)) {
      files.push(path); // a missing file: the loader says so in one line
      continue;
    }
    const inside = readdirSync(path).filter((name) => PROFILE_EXTENSIONS.test(name)).sort();
    if (inside.length === 0) throw new ProfileInputError(`${path}: no .cpuprofile or .heapprofile in this folder`);
    files.push(...inside.map((name) => join(path, name)));
  }
  if (files.length > MAX_MERGED) throw new ProfileInputError(`${files.length} profiles: at most ${MAX_MERGED} are merged`);
  return files;
}

const idOf = (file: string): string => processThreadOf(basename(file)) ?? basename(file);

/**
 * Loads the files, keeps the `threads` ones (every one when empty), merges and analyzes them.
 * Every percent of a merged CPU profile is of all the processes kept (`shareOf` says so).
 */
export async function analyzeMerged(files: readonly string[], options: AnalysisOptions, threads: readonly string[] = [], load: Pick<LoadOptions, 'signal'> = {}): Promise<{ analyzed: AnalyzedProfile; inputs: MergeInput[] }> {
  const inputs: MergeInput[] = [];
  const parts: { id: string; name: string; samples: number }[] = [];
  for (const file of files) {
    const name = basename(file);
    const id = idOf(file);
    const profile = await loadProfile(resolve(file), load);
    load.signal?.throwIfAborted();
    parts.push({ id, name, samples: profile.samples });
    if (threads.length === 0 || threads.includes(id)) inputs.push({ id, name, profile });
  }
  if (inputs.length === 0) throw new ProfileInputError(`--thread ${threads.join(', ')}: none of the profiles is of that process and thread (ids: ${parts.map((p) => p.id).join(', ')})`);
  let merged;
  try {
    merged = mergeProfiles(inputs);
  } catch (error) {
    throw new ProfileInputError(error instanceof Error ? error.message : String(error));
  }
  // Every part stays listed, so a filtered view can offer the others; `thread` is the one kept.
  merged.threads = parts;
  if (inputs.length === 1 && parts.length > 1) merged.thread = inputs[0].id;
  // What every share is of: the kept ones together (the report names it in every figure's text).
  merged.capture = { kept: inputs.map((i) => i.id), of: parts.length };
  const analyzed = buildReport(merged, { profileFolder: dirname(resolve(files[0])), ...options });
  return { analyzed, inputs };
}
