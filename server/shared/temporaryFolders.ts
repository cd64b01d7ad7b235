// Hotframe's temporary folders in the system's temp folder: a recording's (`hotframe-record-XXXXXX`,
// the profiles its processes write), a capture's (the same name, the profiles of the processes
// attached to, until the editor moves them into the workspace) and a capture's scratch folder
// (`hotframe-attach-XXXXXX`, where a target writes its profile if it exits during the capture).
//
// Each is removed by whoever made it once its files are saved, and by the process that made it when
// that process ends (an editor window closed during a recording or a capture: the extension's
// deactivate, the language server's exit). A process that is killed removes nothing, so the next
// activation of the extension removes what such a process left: only folders it can prove Hotframe
// made and nobody uses any more. Each folder holds a marker file naming the process that made it;
// a folder is removed only when its name is one of ours as `mkdtemp` makes it, it and its marker
// are ours (not links, this user's), the marker is older than the process sweeping, and the
// process the marker names has ended. A folder the user was told to find (a capture that could not
// be moved) loses its marker: it is no longer temporary, and nothing removes it.
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { lstat, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

/** What each kind of folder's name starts with (`mkdtemp` adds six letters or digits). */
export const TEMPORARY_PREFIXES = { record: 'hotframe-record-', attach: 'hotframe-attach-' } as const;
export type TemporaryKind = keyof typeof TEMPORARY_PREFIXES;

/** The marker's name in each folder: it says Hotframe made the folder, and which process. */
export const TEMPORARY_MARKER = '.hotframe-temporary';
/** A marker is a line of JSON; anything longer is not one of ours. */
const MAX_MARKER_BYTES = 256;
const OWN_NAME = new RegExp(`^(?:${Object.values(TEMPORARY_PREFIXES).join('|')})[A-Za-z0-9]{6}$`);

/** The folders this process made and still removes when it ends. */
const own = new Set<string>();
let removedAtExit = false;

/**
 * A fresh folder `<root>/<prefix>XXXXXX` (root: the system's temp folder) with the marker naming
 * this process; removed by removeOwnTemporaryFolders unless handed over or kept.
 */
export function makeTemporaryFolder(kind: TemporaryKind, root = tmpdir()): string {
  const dir = mkdtempSync(join(root, TEMPORARY_PREFIXES[kind]));
  try {
    writeFileSync(join(dir, TEMPORARY_MARKER), JSON.stringify({ pid: process.pid }) + '\n', { flag: 'wx', mode: 0o600 });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  own.add(dir);
  return dir;
}

/** Removes one of our temporary folders (a folder named as makeTemporaryFolder names them, nothing else). */
export function removeTemporaryFolder(dir: string): void {
  own.delete(dir);
  if (!OWN_NAME.test(basename(dir))) return;
  rmSync(dir, { recursive: true, force: true });
}

/**
 * The folder now belongs to another process (the language server answers the client with it):
 * this one no longer removes it when it ends. Its marker stays, so that once neither process
 * lives, the sweep removes what the other did not.
 */
export function handOverTemporaryFolder(dir: string): void {
  own.delete(dir);
}

/** The folder stays where it is and the user was told so: it is no longer temporary (its marker goes). */
export function keepTemporaryFolder(dir: string): void {
  own.delete(dir);
  try {
    unlinkSync(join(dir, TEMPORARY_MARKER));
  } catch {
    // already without one
  }
}

/** Removes every folder this process made and still holds (the extension's deactivate, a process's exit). */
export function removeOwnTemporaryFolders(): void {
  for (const dir of [...own]) {
    try {
      removeTemporaryFolder(dir);
    } catch {
      // at exit, nothing to tell; the next activation's sweep tries again
    }
  }
}

/** Removes this process's folders when it exits (process.exit, the end of its work), not when it is killed. */
export function removeOwnTemporaryFoldersAtExit(): void {
  if (removedAtExit) return;
  removedAtExit = true;
  process.on('exit', removeOwnTemporaryFolders);
}

/** Whether the process `pid` has ended (a process of another user, or one we may not signal, lives). */
function ended(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** The pid a marker names, when the marker is a small regular file of this user written before `before` (ms). */
async function makerOf(marker: string, uid: number | undefined, before: number): Promise<number | null> {
  const stat = await lstat(marker);
  if (!stat.isFile() || stat.size > MAX_MARKER_BYTES || (uid !== undefined && stat.uid !== uid) || stat.mtimeMs >= before) return null;
  // The folder is this user's and mkdtemp made it 0700: no one else can swap the file since lstat.
  const value: unknown = JSON.parse(await readFile(marker, 'utf8'));
  const pid = (value as { pid?: unknown } | null)?.pid;
  return typeof pid === 'number' && Number.isInteger(pid) && pid > 0 ? pid : null;
}

/**
 * Removes the temporary folders in `root` (the system's temp folder) that a Hotframe process which
 * has since ended made and left, and answers which. `startedAt` (ms since the epoch; this process's
 * start) bounds what may go: a folder whose marker is younger is left alone. Anything that cannot be
 * proved ours is left alone, and a failure is only a folder not removed.
 */
export async function removeLeftTemporaryFolders(root = tmpdir(), startedAt = performance.timeOrigin): Promise<string[]> {
  const uid = process.getuid?.();
  let names: string[];
  try {
    names = await readdir(root);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!OWN_NAME.test(name)) continue;
    const dir = join(root, name);
    try {
      const stat = await lstat(dir);
      if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid)) continue;
      const pid = await makerOf(join(dir, TEMPORARY_MARKER), uid, startedAt);
      if (pid === null || !ended(pid)) continue;
      await rm(dir, { recursive: true, force: true });
      removed.push(dir);
    } catch {
      // no marker, not JSON, gone meanwhile: not provably ours, or nothing left to do
    }
  }
  return removed;
}

