// Which files `hotframe analyze` reads: the source files under the given folders, minus
// node_modules, .git and whatever .gitignore files ignore (git's nesting rules, including the
// .gitignore files of enclosing folders up to the repository root), plus the extensionless scripts
// whose first line runs them with node (`bin/www`, a service's own start script: an entry point that
// wires the modules together). A file named explicitly is always analyzed, whatever its extension.
import { closeSync, existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import ignore from 'ignore';
import type { Ignore } from 'ignore';

import { errnoReason, InputError } from './errors';
import { openRegularFile, readHead, tryReadGuardedText } from './guardedRead';
import { isSourceFile } from './paths';

/** A .gitignore is a few KB; a FIFO or /dev/zero in its place must not stall the walk. */
const MAX_GITIGNORE_BYTES = 1024 * 1024;

const ALWAYS_SKIPPED = new Set(['node_modules', '.git']);

/** The rules of one .gitignore, which speak about paths relative to its folder. */
interface IgnoreScope {
  dir: string;
  rules: Ignore;
}

function scopeOf(dir: string): IgnoreScope | null {
  const file = join(dir, '.gitignore');
  const text = tryReadGuardedText(file, MAX_GITIGNORE_BYTES);
  return text === null ? null : { dir, rules: ignore().add(text) };
}

/** .gitignore scopes of the folders above `dir`, outermost first, when `dir` is inside a git work tree. */
function enclosingScopes(dir: string): IgnoreScope[] {
  const chain: string[] = [];
  let current = dirname(dir);
  let repository = existsSync(join(dir, '.git'));
  while (!repository) {
    chain.push(current);
    if (existsSync(join(current, '.git'))) repository = true;
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  if (!repository) return [];
  return chain
    .reverse()
    .map(scopeOf)
    .filter((scope): scope is IgnoreScope => scope !== null);
}

function isIgnored(scopes: readonly IgnoreScope[], path: string, isDirectory: boolean): boolean {
  for (const scope of scopes) {
    const rel = relative(scope.dir, path).split(sep).join('/');
    if (rel === '' || rel === '..' || rel.startsWith('..')) continue;
    if (scope.rules.ignores(isDirectory ? rel + '/' : rel)) return true;
  }
  return false;
}

/** A shebang line is short; this many bytes hold it (a longer first line is no node shebang we read). */
const SHEBANG_BYTES = 256;

/** `#!/usr/bin/env node`, `#!/usr/local/bin/node --max-old-space-size=…`, `#!/usr/bin/env -S node --flags`. */
const NODE_SHEBANG = /^#![^\n]*?[/\s]node(?:js)?(?:\s|$)/;

/**
 * An extensionless file whose first line runs it with node: a script the project starts (`bin/app`),
 * often the one that wires its modules together (`global.X = require('./x')`). Read through the
 * guarded reader: only the first bytes of a regular file.
 */
export function isNodeScript(path: string): boolean {
  if (extname(path) !== '') return false;
  let head: string;
  try {
    const file = openRegularFile(path);
    try {
      head = readHead(file, SHEBANG_BYTES).toString('utf8');
    } finally {
      closeSync(file.fd);
    }
  } catch {
    return false;
  }
  const newline = head.indexOf('\n');
  return NODE_SHEBANG.test(newline === -1 ? head : head.slice(0, newline).replace(/\r$/, ''));
}

function walk(dir: string, scopes: readonly IgnoreScope[], out: string[]): void {
  const own = scopeOf(dir);
  const inScope = own === null ? scopes : [...scopes, own];
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    throw new InputError(`cannot read folder ${dir}: ${errnoReason(error)}`);
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = join(dir, entry.name);
    // Symbolic links are neither directories nor files here: not followed, so a link cycle cannot trap the walk.
    if (entry.isDirectory()) {
      if (!ALWAYS_SKIPPED.has(entry.name) && !isIgnored(inScope, path, true)) walk(path, inScope, out);
    } else if (entry.isFile()) {
      // An extensionless file is opened (to read its first line) only when nothing ignores it.
      const wanted = isSourceFile(entry.name)
        ? !isIgnored(inScope, path, false)
        : extname(entry.name) === '' && !isIgnored(inScope, path, false) && isNodeScript(path);
      if (wanted) out.push(path);
    }
  }
}

/**
 * Absolute paths of the files to analyze, each once, folders expanded in name order.
 * A path that does not exist, or is neither a folder nor a regular file, is an InputError (exit 2).
 */
export function collectSourceFiles(paths: readonly string[], cwd: string): string[] {
  const files: string[] = [];
  for (const given of paths) {
    const path = resolve(cwd, given);
    let stats;
    try {
      stats = statSync(path);
    } catch {
      throw new InputError(`no such file or folder: ${given}`);
    }
    if (stats.isDirectory()) walk(path, enclosingScopes(path), files);
    else if (stats.isFile()) files.push(path);
    // /dev/zero, a FIFO, /dev/stdin or a link to one: reading it would never end.
    else throw new InputError(`${given}: not a regular file or folder`);
  }
  return [...new Set(files)];
}
