// Where a recording's files live, and where they end up (issue 24).
//
// While a command runs, its profiles are written into a fresh temporary folder
// (`<tmp>/hotframe-record-XXXXXX`) beside the recorder's preload (`hotframe-recorder.cjs`). When it
// ends, `saveRecording` copies them into the folder the user keeps them in (the CLI's `--out`, the
// editor's `hotframe.recordingsFolder` inside the workspace) under names that say what was run and
// when, and the temporary folder is removed, whatever happened (a failed or stopped command too;
// an editor closed meanwhile: temporaryFolders.ts).
//
// The recorder's own frames are recognised in any profile by the preload's path: its file name in
// a folder named as `mkdtemp` names ours. A user's file of the same name elsewhere is not ours.
import { constants, copyFileSync, existsSync, mkdirSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { SERVING_SUFFIX } from './servingRecorder';
import { keepTemporaryFolder, removeTemporaryFolder, TEMPORARY_PREFIXES } from './temporaryFolders';

/** What the temporary folder's name starts with (`mkdtemp` adds six letters or digits). */
export const RECORD_DIR_PREFIX = TEMPORARY_PREFIXES.record;
/** The preload's file name in that folder. */
export const RECORDER_FILE = 'hotframe-recorder.cjs';

/** The preload's path, as a frame's URL gives it (a path, or a file: URL; `/` or `\`), ends so. */
const RECORDER_PATH = new RegExp(`(?:^|[\\\\/])${RECORD_DIR_PREFIX}[A-Za-z0-9]{6}[\\\\/]${RECORDER_FILE.replace('.', '\\.')}$`);

/** Whether a frame's script is Hotframe's recorder preload (not the user's code). */
export function isRecorderScript(url: string): boolean {
  return url.endsWith(RECORDER_FILE) && RECORDER_PATH.test(url);
}

/** The default of `hotframe.recordingsFolder`, relative to the workspace folder. */
export const DEFAULT_RECORDINGS_FOLDER = 'profiles';

/**
 * The folder the editor saves recordings in: `setting` relative to `workspace`, which it must stay
 * inside (no absolute path, no `..`, no symbolic link leading out once created). An error says
 * why in one line, naming the setting.
 */
export function recordingsFolderIn(workspace: string, setting: string | undefined): { dir: string } | { error: string } {
  const value = (setting ?? '').trim() || DEFAULT_RECORDINGS_FOLDER;
  const invalid = (why: string): { error: string } => ({ error: `hotframe.recordingsFolder ${JSON.stringify(value)} ${why}; it must be a folder inside the workspace, such as "profiles"` });
  if (isAbsolute(value) || /^[A-Za-z]:/.test(value) || value.startsWith('\\') || value.startsWith('~')) return invalid('is not relative to the workspace');
  if (value.split(/[\\/]/).some((part) => part === '..')) return invalid('leads out of the workspace (..)');
  if ([...value].some((c) => c.charCodeAt(0) < 0x20)) return invalid('holds a control character');
  const dir = resolve(workspace, value);
  const inside = (root: string, path: string): boolean => {
    const rel = relative(root, path);
    return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
  };
  if (!inside(resolve(workspace), dir)) return invalid('leads out of the workspace');
  return { dir };
}

/**
 * Creates the folder, checking first that what exists of it (links resolved) is inside the
 * workspace, so that nothing is created through a link that leads out, and after, the folder itself.
 */
function createInside(workspace: string | undefined, dir: string): void {
  if (workspace === undefined) {
    mkdirSync(dir, { recursive: true });
    return;
  }
  const root = realpathSync(workspace);
  const check = (path: string): void => {
    const real = realpathSync(path);
    const rel = relative(root, real);
    if (rel.startsWith('..') || isAbsolute(rel)) throw new Error(`${dir} leads out of the workspace (a symbolic link to ${real})`);
  };
  let existing = resolve(dir);
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  check(existing);
  mkdirSync(dir, { recursive: true });
  check(dir);
}

/** Characters kept in a file name made of a command; the others become `-`. */
const UNSAFE = /[^A-Za-z0-9._-]+/g;
const MAX_NAME_CHARS = 60;

/**
 * What a command looks like in a file name: each word's last path segment, joined by `-`, with
 * anything but letters, digits, `.`, `_` and `-` replaced (`npm run start` → `npm-run-start`,
 * `node /srv/app/server.js --port 3000` → `node-server.js--port-3000`), never hidden, never empty.
 */
export function commandSlug(argv: readonly string[]): string {
  const words = argv.map((word) => word.split(/[\\/]/).filter((part) => part.length > 0).pop() ?? '');
  const slug = words
    .join('-')
    .replace(UNSAFE, '-')
    .replace(/-{2,}/g, '-')
    .slice(0, MAX_NAME_CHARS)
    .replace(/^[-.]+|[-.]+$/g, '');
  return slug.length > 0 ? slug : 'recording';
}

/** `20261128.023226`: a time as Node's own profile names write it (local time). */
export function recordingStamp(at: number): string {
  const date = new Date(at);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${date.getFullYear()}${pad(date.getMonth() + 1)}${pad(date.getDate())}.${pad(date.getHours())}${pad(date.getMinutes())}${pad(date.getSeconds())}`;
}

/** A name as the preload (and `node --cpu-prof`) writes it: kind, date, time, pid, thread, sequence. */
const RECORDED_NAME = /^(?:CPU|Heap)\.(\d{8}\.\d{6}\.\d+\.\d+)\.(\d+)(\.(?:cpuprofile|heapprofile))$/;

/**
 * The saved name of one recorded file: the command in place of Node's `CPU`/`Heap`, then the
 * rest of the name as recorded (when its process started, its pid and thread, a sequence number),
 * `npm-run-start.20261128.023226.4242.0.001.cpuprofile`: the profiles of one run sort together,
 * say which process each was, and `hotframe profile FOLDER` still reads their pid and thread.
 * `sequence` > 1 gives another name when the first is taken.
 */
export function recordingFileName(argv: readonly string[], startedAt: number, recordedName: string, sequence = 1): string {
  const recorded = RECORDED_NAME.exec(recordedName);
  const slug = commandSlug(argv);
  const seq = (first: number): string => String(first + sequence - 1).padStart(3, '0');
  if (recorded !== null) return `${slug}.${recorded[1]}.${seq(Number(recorded[2]))}${recorded[3]}`;
  const extension = /\.[a-z]+$/.exec(recordedName)?.[0] ?? '';
  return `${slug}.${recordingStamp(startedAt)}.0.0.${seq(1)}${extension}`;
}

/**
 * Copies each profile into `outDir` (created) under `recordingFileName`, never over an existing
 * file (the sequence number goes up), and returns the new paths in the same order. `workspace`,
 * when given, is the folder `outDir` must stay inside once links are resolved.
 */
export function saveRecording(paths: readonly string[], outDir: string, argv: readonly string[], startedAt: number, workspace?: string): string[] {
  createInside(workspace, outDir);
  return paths.map((path) => {
    for (let sequence = 1; ; sequence++) {
      const target = join(outDir, recordingFileName(argv, startedAt, basename(path), sequence));
      try {
        copyFileSync(path, target, constants.COPYFILE_EXCL);
        // The notes of what the process served go with its profile, under its new name.
        if (existsSync(path + SERVING_SUFFIX)) copyFileSync(path + SERVING_SUFFIX, target + SERVING_SUFFIX);
        return target;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || sequence >= 999) throw error;
      }
    }
  });
}

/** Where a finished recording is kept: the folder, what was run and when, and the workspace it must stay in. */
export interface KeepTarget {
  outDir: string;
  argv: readonly string[];
  startedAt: number;
  workspace?: string;
}

/**
 * Where a capture of running processes (Hotframe: Profile Running Process…) is kept: a folder of
 * its own inside the recordings folder, `attach-<pid>.<stamp>`, since a capture is several files
 * (one per process and thread) that open together and `hotframe profile FOLDER` merges everything
 * a folder holds. Its files are named as recordings are (`attach-4242.20261128.093000.4243.0.001.cpuprofile`).
 */
export function captureTarget(recordingsDir: string, pid: number, startedAt: number, workspace?: string): KeepTarget {
  return { outDir: join(recordingsDir, `attach-${pid}.${recordingStamp(startedAt)}`), argv: ['attach', String(pid)], startedAt, ...(workspace !== undefined ? { workspace } : {}) };
}

/**
 * Saves a finished recording's profiles (`paths`, in `dir`) into the target and removes `dir`.
 * Nothing recorded: `dir` is removed and the answer is empty. Saving failed (a folder that cannot
 * be written, a link out of the workspace): the error says why and where the profiles still are,
 * since removing them would lose the recording.
 */
export function keepRecording(dir: string, paths: readonly string[], target: KeepTarget): string[] {
  if (paths.length === 0) {
    removeTemporaryFolder(dir);
    return [];
  }
  let saved: string[];
  try {
    saved = saveRecording(paths, target.outDir, target.argv, target.startedAt, target.workspace);
  } catch (error) {
    const why = error instanceof Error ? ((error as NodeJS.ErrnoException).code ?? error.message) : String(error);
    // The user is sent there: it is no longer a temporary folder that anything removes.
    keepTemporaryFolder(dir);
    throw new Error(`cannot save the profiles in ${target.outDir} (${why}); they are still in ${dir}`);
  }
  removeTemporaryFolder(dir);
  return saved;
}
