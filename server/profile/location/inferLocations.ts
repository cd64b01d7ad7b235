// Places JavaScript frames that a profile recorded without a script URL (Node 20 heap profiles
// leave it, and the line, out for CommonJS functions) by their name: when exactly one source file
// under the roots declares a function of that name exactly once, the frame is taken to be that
// declaration and marked inferred. Two declarations, or none, leave the frame unplaced: a guess
// between files would put heat on code that may never have run.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

import { tryReadGuardedText } from '../../shared/guardedRead';

const SOURCE = /\.(c|m)?(j|t)sx?$/;
const SKIP_DIRS = new Set(['node_modules', '.git', 'dist', 'out', 'build', 'coverage']);
/** Bounds on the walk: a workspace bigger than this is searched only this far. */
const MAX_FILES = 5000;
const MAX_FILE_BYTES = 2 * 1024 * 1024;

export interface InferredLocation {
  file: string;
  line: number;
  column: number;
}

const escape = (name: string): string => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Declarations of `name` on one line: `function name(`, `name = function / (...) =>`, `name(...) {` (methods). */
function declarationPattern(name: string): RegExp {
  const n = escape(name);
  return new RegExp(
    `(?:\\bfunction\\s*\\*?\\s*${n}\\s*\\()|(?:(?:^|[^\\w$.])${n}\\s*[:=]\\s*(?:async\\s+)?(?:function\\b|\\([^)]*\\)\\s*=>|[\\w$]+\\s*=>))|(?:^\\s*(?:static\\s+)?(?:async\\s+)?${n}\\s*\\([^)]*\\)\\s*\\{)`,
  );
}

/** Source files under the roots, bounded, skipping dependencies and build output. */
function sourceFiles(roots: string[]): string[] {
  const files: string[] = [];
  const stack = [...roots];
  const seen = new Set<string>();
  while (stack.length > 0 && files.length < MAX_FILES) {
    const dir = stack.pop() as string;
    if (seen.has(dir)) continue;
    seen.add(dir);
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      // Symbolic links are not followed: the walk stays inside what the user opened.
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name) && !entry.name.startsWith('.')) stack.push(join(dir, entry.name));
      } else if (entry.isFile() && SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) {
        files.push(join(dir, entry.name));
        if (files.length >= MAX_FILES) break;
      }
    }
  }
  return files.sort();
}

/** For each name, its one declaration under the roots, when there is exactly one. */
export function inferLocations(names: Iterable<string>, roots: string[]): Map<string, InferredLocation> {
  const wanted = [...new Set(names)].filter((name) => /^[A-Za-z_$][\w$]*$/.test(name));
  const found = new Map<string, InferredLocation | null>();
  if (wanted.length === 0) return new Map();
  const patterns = wanted.map((name) => ({ name, pattern: declarationPattern(name) }));
  for (const file of sourceFiles(roots)) {
    // The one guarded read: a regular file within the cap, else skipped.
    const text = tryReadGuardedText(file, MAX_FILE_BYTES);
    if (text === null) continue;
    const lines = text.split('\n');
    for (const { name, pattern } of patterns) {
      if (!text.includes(name)) continue;
      for (let i = 0; i < lines.length; i++) {
        const match = pattern.exec(lines[i]);
        if (match === null) continue;
        // A second declaration anywhere makes the name ambiguous.
        found.set(name, found.has(name) ? null : { file, line: i + 1, column: lines[i].indexOf(name) + 1 });
      }
    }
  }
  const result = new Map<string, InferredLocation>();
  for (const [name, location] of found) if (location !== null) result.set(name, location);
  return result;
}
