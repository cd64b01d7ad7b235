// Where Hotframe's own documentation is, as a link that opens offline: docs/ ships inside the
// VSIX (.vscodeignore) and the npm package (package.json `files`), next to the bundle that runs
// (dist/*.js), so a rule's page is a file of the installed package. Nothing is published on the
// web: a link there would lead nowhere (test/unit/links.test.ts follows every link we emit).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

let root: string | undefined;

/**
 * The folder holding docs/: the package root above dist/ (bundles), or the repository root above
 * server/shared/ (sources run by the tests). Falls back to the bundle's parent, where a package has it.
 */
export function packageRoot(): string {
  if (root !== undefined) return root;
  let dir = __dirname;
  for (let depth = 0; depth < 4; depth++) {
    if (existsSync(join(dir, 'docs', 'rules'))) return (root = dir);
    dir = dirname(dir);
  }
  return (root = dirname(__dirname));
}

/** A `file:` URL of one page of the package's docs (`docs/rules/<id>.md`, `docs/profiles.md`). */
export function docUrl(relativePath: string): string {
  return pathToFileURL(join(packageRoot(), relativePath)).href;
}
