// Which folders Hotframe may read from when a profile names a file: the workspace folders (or
// the CLI's --root), the profile's own folder, and the targets of explicit path mappings.
// A profile is untrusted input: without this, `/etc/passwd` as a script URL, a map's
// `sources: ["../../etc/shadow"]` or a sourceMappingURL of `/home/me/.ssh/id_rsa` would be read.
// Paths are compared after resolving symbolic links, so a link inside a folder cannot point out.
import { realpathSync } from 'node:fs';
import { resolve, sep } from 'node:path';

function real(path: string): string | null {
  try {
    return realpathSync.native(path);
  } catch {
    return null;
  }
}

function within(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

export class ReadScope {
  private readonly folders: string[];

  constructor(folders: readonly string[]) {
    const all = new Set<string>();
    for (const folder of folders) {
      if (folder === '') continue;
      all.add(resolve(folder));
      const resolved = real(folder);
      if (resolved !== null) all.add(resolved);
    }
    this.folders = [...all];
  }

  /** True when `path` lies inside one of the folders as written (links not resolved: no file system access). */
  contains(path: string): boolean {
    const absolute = resolve(path);
    return this.folders.some((folder) => within(absolute, folder));
  }

  /** True when `path` (and the file it finally names, links resolved) lies inside one of the folders. */
  allows(path: string): boolean {
    const absolute = resolve(path);
    if (!this.folders.some((folder) => within(absolute, folder))) return false;
    const resolved = real(absolute);
    // A file that does not exist cannot be read; its absence is reported by the reader.
    return resolved === null || this.folders.some((folder) => within(resolved, folder));
  }

  /** The folders, for messages. */
  describe(): string {
    return this.folders.join(', ');
  }
}
