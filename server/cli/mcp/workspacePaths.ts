// What an MCP client may name, and how answers name files: every path a tool takes is relative to
// the workspace (the folder `hotframe mcp` serves) and stays inside it, symbolic links resolved;
// every local path in an answer is given relative to it, as the CLI gives paths relative to its cwd.
import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';

import { InputError } from '../../shared/errors';

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** The absolute path of `given` (relative to `root`), refused when it leads outside `root`. */
export function workspacePath(root: string, given: string): string {
  if (isAbsolute(given)) throw new InputError(`${given}: give a path relative to the workspace`);
  const path = resolve(root, given);
  if (!inside(root, path)) throw new InputError(`${given}: outside the workspace`);
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    throw new InputError(`${given}: no such file or folder in the workspace`);
  }
  if (!inside(realpathSync(root), real)) throw new InputError(`${given}: leads outside the workspace`);
  return path;
}

/**
 * `value` with every `file` field that names a local path under `root` made relative to it (forward
 * slashes), and the same paths within texts (an insight's message names its call site's file).
 */
export function relativeFiles<T>(value: T, root: string): T {
  const prefix = root.endsWith(sep) ? root : root + sep;
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (typeof node === 'string') return node.split(prefix).join('');
    if (node === null || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(node)) {
      out[key] = key === 'file' && typeof inner === 'string' && isAbsolute(inner) && inside(root, inner) ? relative(root, inner).split(sep).join('/') : visit(inner);
    }
    return out;
  };
  return visit(value) as T;
}
