// Maps the paths a profile recorded (on a server, in a container, on Windows) onto local files.
// Explicit `{from, to}` prefixes win; otherwise the longest suffix of the recorded path that
// exists under one of the roots. Existence checks are cached: a profile names each file many
// times and a suffix search probes several candidates per file. A big profile recorded elsewhere
// names thousands of files that do not exist here (128 MB .cpuprofile: 8,749); each folder is
// stat'ed once, and a file in a missing folder is not looked for at all (the probes cost 0.45 s
// of a 2.5 s load when each candidate file was resolved and stat'ed).
import { statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { ReadScope } from '../../shared/readScope';

import type { PathMapping } from '../model/types';

export interface ResolvedPath {
  /** Absolute local path when resolved; otherwise the recorded path, normalized. */
  file: string;
  resolved: boolean;
}

/** The recorded url as a slash-separated path: file:// URLs decoded, backslashes and drive letters normalized. */
export function normalizeRecordedPath(url: string): string {
  let path = url;
  if (path.startsWith('file://')) {
    try {
      path = fileURLToPath(path);
    } catch {
      // A Windows file URL on POSIX (file:///C:/...) is rejected by fileURLToPath: decode it by hand.
      path = decodeURIComponent(path.slice('file://'.length));
    }
  }
  path = path.replace(/\\/g, '/');
  // '/C:/app' (from a file URL) and 'C:/app' both become 'C:/app'.
  path = path.replace(/^\/([A-Za-z]:\/)/, '$1');
  return path.replace(/\/{2,}/g, '/');
}

/** True when the url names something that can never be a local file (node internals, natives, VM states). */
export function isLocalCandidate(url: string): boolean {
  if (url === '') return false;
  if (url.startsWith('node:') || url.startsWith('internal/')) return false;
  if (/^(https?|webpack|evalmachine|wasm):/.test(url)) return false;
  return url.includes('/') || url.includes('\\');
}

function stripTrailingSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

export class PathResolver {
  private readonly roots: string[];
  private readonly mappings: PathMapping[];
  private readonly existence = new Map<string, boolean>();
  /** Folders inside the scope: false when known missing (or not a folder), true when they may hold files. */
  private readonly folders = new Map<string, boolean>();
  private readonly results = new Map<string, ResolvedPath>();
  /** Where a recorded path may resolve to: the roots, the mapping targets and `extraFolders` (the profile's folder). */
  readonly scope: ReadScope;

  constructor(roots: readonly string[], mappings: readonly PathMapping[] = [], extraFolders: readonly string[] = []) {
    this.roots = roots.map((root) => resolve(root));
    // Longest prefix first, so '/app/lib' wins over '/app'.
    this.mappings = mappings
      .map((m) => ({ from: stripTrailingSlash(normalizeRecordedPath(m.from)), to: resolve(m.to) }))
      .sort((a, b) => b.from.length - a.from.length);
    // Package files are looked for where Node would find them (below), so the node_modules
    // folders of the roots and of the folders above them are readable too: installed packages.
    const packages = this.roots.flatMap((root) => {
      const folders: string[] = [];
      for (let dir = root; ; dir = dirname(dir)) {
        folders.push(join(dir, 'node_modules'));
        if (dirname(dir) === dir) break;
      }
      return folders;
    });
    this.scope = new ReadScope([...this.roots, ...this.mappings.map((m) => m.to), ...extraFolders, ...packages]);
  }

  resolve(url: string): ResolvedPath {
    const cached = this.results.get(url);
    if (cached !== undefined) return cached;
    const result = this.compute(url);
    this.results.set(url, result);
    return result;
  }

  private compute(url: string): ResolvedPath {
    if (!isLocalCandidate(url)) return { file: url, resolved: false };
    const path = normalizeRecordedPath(url);
    for (const { from, to } of this.mappings) {
      if (path === from || path.startsWith(from + '/')) {
        const local = join(to, path.slice(from.length));
        return { file: local, resolved: this.isFile(local) };
      }
    }
    if (isAbsolute(path) && this.isFile(path)) return { file: path, resolved: true };
    const segments = path.split('/').filter((s) => s !== '' && !/^[A-Za-z]:$/.test(s));
    for (let start = 0; start < segments.length; start++) {
      const suffix = segments.slice(start).join('/');
      for (const root of this.roots) {
        // A suffix in a folder the root does not hold names no file: not joined and probed
        // (a profile recorded elsewhere tries several suffixes for each of thousands of files).
        // Only a folder inside the scope is looked at ('..' leads out: isFile refuses it below).
        const top = start < segments.length - 1 ? join(root, segments[start]) : null;
        if (top !== null && this.scope.contains(top) && !this.mayHoldFiles(top)) continue;
        const candidate = join(root, suffix);
        if (this.isFile(candidate)) return { file: candidate, resolved: true };
      }
    }
    // A package file: where Node would find that package from a root (its node_modules, or an
    // ancestor's, as in a monorepo or a demo folder inside a checkout), before the recording
    // machine's own path, which may exist here too but is not the code the user opened.
    const inPackages = path.lastIndexOf('/node_modules/');
    if (inPackages !== -1) {
      const packaged = path.slice(inPackages + 1);
      for (const root of this.roots) {
        for (let dir = root; ; dir = dirname(dir)) {
          const candidate = join(dir, packaged);
          if (this.isFile(candidate)) return { file: candidate, resolved: true };
          if (dirname(dir) === dir) break;
        }
      }
    }
    // A file outside the roots, the mappings and the profile's folder is never read: the profile
    // is untrusted and could name /etc/passwd (a profile of another checkout needs a mapping).
    return { file: path, resolved: false };
  }

  /** Whether a local file exists inside the scope (cached). */
  exists(path: string): boolean {
    return this.isFile(path);
  }

  private isFile(path: string): boolean {
    let known = this.existence.get(path);
    if (known === undefined) {
      try {
        known = this.scope.contains(path) && this.mayHoldFiles(dirname(resolve(path))) && this.scope.allows(path) && statSync(path, { throwIfNoEntry: false })?.isFile() === true;
      } catch {
        known = false;
      }
      this.existence.set(path, known);
    }
    return known;
  }

  /**
   * False when `folder`, or a folder above it inside the scope, does not exist: each folder is
   * stat'ed once, from the top down (iteratively: a recorded path may have any number of segments).
   * Only a filter: a file whose folder may exist is still resolved and stat'ed itself.
   */
  private mayHoldFiles(folder: string): boolean {
    const unknown: string[] = [];
    let answer: boolean | undefined;
    for (let dir = folder; ; ) {
      answer = this.folders.get(dir);
      if (answer !== undefined) break;
      unknown.push(dir);
      const parent = dirname(dir);
      if (parent === dir || !this.scope.contains(parent)) break;
      dir = parent;
    }
    // From the topmost unknown folder down; a missing one makes every folder below it missing.
    for (let i = unknown.length - 1; i >= 0; i--) {
      if (answer !== false) {
        try {
          answer = statSync(unknown[i], { throwIfNoEntry: false })?.isDirectory() === true;
        } catch {
          answer = true; // cannot tell (no permission to look): the file's own check decides
        }
      }
      this.folders.set(unknown[i], answer);
    }
    return answer !== false;
  }
}
