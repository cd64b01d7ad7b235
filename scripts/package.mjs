// `npm run package`: builds hotframe-<version>.vsix with vsce. Everything the extension needs is
// bundled into dist/ by esbuild (scripts/build.mjs, run first by the npm script), so vsce runs
// with --no-dependencies and .vscodeignore ships only dist/, media/ and docs/ (the pages every rule links).
//
// The same package.json is also the npm package (`files` lists what `npm pack` ships: the CLI and
// the ESLint plugin). vsce refuses a package.json with `files` beside a .vscodeignore, so it runs
// in a staging folder holding what .vscodeignore lets through and package.json without `files`.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const missing = ['dist/extension.js', 'dist/server.js', 'dist/webview.js'].filter((f) => !existsSync(join(root, f)));
if (missing.length > 0) {
  console.error(`package: missing ${missing.join(', ')}; run \`npm run build\` first`);
  process.exit(2);
}
const out = join(root, `hotframe-${manifest.version}.vsix`);
const vsce = join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
const stage = mkdtempSync(join(tmpdir(), 'hotframe-vsix-'));
try {
  // A superset of what .vscodeignore keeps; vsce applies .vscodeignore to it.
  for (const name of ['README.md', 'CHANGELOG.md', 'LICENSE', '.vscodeignore', 'media', 'docs']) cpSync(join(root, name), join(stage, name), { recursive: true });
  for (const name of readdirSync(join(root, 'dist'))) {
    // The ESLint plugin is for the npm package; the editor has the language server.
    if (/\.(js|css)$/.test(name) && name !== 'eslint-plugin.js') cpSync(join(root, 'dist', name), join(stage, 'dist', name));
  }
  const { files: _npmFiles, ...extensionManifest } = manifest;
  writeFileSync(join(stage, 'package.json'), JSON.stringify(extensionManifest, null, 2) + '\n');
  // No repository is published: the README's relative links (docs/, images) stay relative, to
  // the docs shipped inside the VSIX, instead of being rewritten to a web address that does not exist.
  execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', '--no-rewrite-relative-links', '--allow-missing-repository', '--out', out], { cwd: stage, stdio: 'inherit' });
} catch {
  console.error('package: vsce failed (see above)');
  process.exitCode = 1;
} finally {
  rmSync(stage, { recursive: true, force: true });
}
if (process.exitCode !== 1) console.log(`package: ${out} (${(statSync(out).size / 1024).toFixed(0)} KiB)`);
