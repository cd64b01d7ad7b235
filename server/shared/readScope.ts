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

/** The folder as a prefix of the paths inside it (with its trailing separator). */
const prefixOf = (folder: string): string => (folder.endsWith(sep) ? folder : folder + sep);

export class ReadScope {
  private readonly folders: string[];
  /** Each folder with a trailing separator: a path is inside when it is the folder or starts with this. */
  private readonly prefixes: string[];

  constructor(folders: readonly string[]) {
    const all = new Set<string>();
    for (const folder of folders) {
      if (folder === '') continue;
      all.add(resolve(folder));
      const resolved = real(folder);
      if (resolved !== null) all.add(resolved);
    }
    this.folders = [...all];
    this.prefixes = this.folders.map(prefixOf);
  }

  private within(path: string): boolean {
    for (let i = 0; i < this.folders.length; i++) if (path === this.folders[i] || path.startsWith(this.prefixes[i])) return true;
    return false;
  }

  /** True when `path` lies inside one of the folders as written (links not resolved: no file system access). */
  contains(path: string): boolean {
    return this.within(resolve(path));
  }

  /** True when `path` (and the file it finally names, links resolved) lies inside one of the folders. */
  allows(path: string): boolean {
    const absolute = resolve(path);
    if (!this.within(absolute)) return false;
    const resolved = real(absolute);
    // A file that does not exist cannot be read; its absence is reported by the reader.
    return resolved === null || this.within(resolved);
  }

  /** The folders, for messages. */
  describe(): string {
    return this.folders.join(', ');
  }
}
