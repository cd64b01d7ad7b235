// Which files are source files, and how a document URI becomes a path: one list and one rule,
// for the command line's walk, the language server, its file watcher and the project index.
import { fileURLToPath } from 'node:url';

/**
 * The extensions of the files the rules read, in the order a resolver tries them for an
 * extensionless specifier (`require('./user')`: user.js before user.ts, as Node and tsc do).
 */
export const SOURCE_EXTENSIONS: readonly string[] = ['.js', '.ts', '.mjs', '.cjs', '.jsx', '.tsx', '.mts', '.cts'];

/** A source file by its name: one of SOURCE_EXTENSIONS, and not a `.d.ts` (it declares types only: nothing in it runs). */
export function isSourceFile(name: string): boolean {
  const dot = name.lastIndexOf('.');
  return dot > 0 && SOURCE_EXTENSIONS.includes(name.slice(dot)) && !/\.d\.[cm]?ts$/.test(name);
}

/** file:///a/b.js -> /a/b.js; other schemes (untitled:...) keep their URI as the path. */
export function uriToPath(uri: string): string {
  if (!uri.startsWith('file:')) return uri;
  try {
    return fileURLToPath(uri);
  } catch {
    return uri;
  }
}
