// The temporary folders of one test file, removed by its `after` hook whatever the tests did:
//
//   const temp = tempFolders();
//   after(() => temp.removeAll());
//   ... const dir = temp.make('hotframe-thing-');
//
// One set per file (or per describe), never one list for the whole run: mocha loads every file
// before it runs any, so a folder made while a file loads would be removed by an earlier file's
// hook before its own tests use it. A hook at a file's top level is a root hook: it runs once,
// after every file, which is what folders made while the file loads need.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TempFolders {
  /** A new empty folder under the OS temporary folder, named `prefix` and six characters. */
  make(prefix: string): string;
  /** Takes a folder made elsewhere (a recording's, a capture's) to remove with the others. */
  adopt(dir: string): string;
  /** Removes every folder made or adopted so far (an `after` or `afterEach` hook). */
  removeAll(): void;
}

export function tempFolders(): TempFolders {
  const dirs: string[] = [];
  return {
    make(prefix) {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      dirs.push(dir);
      return dir;
    },
    adopt(dir) {
      dirs.push(dir);
      return dir;
    },
    removeAll() {
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}
