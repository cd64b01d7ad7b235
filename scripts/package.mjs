// `npm run package`: builds hotframe-<version>.vsix with vsce. Everything the extension needs is
// bundled into dist/ by esbuild (scripts/build.mjs, run first by the npm script), so vsce runs
// with --no-dependencies and .vscodeignore ships only dist/, media/ and the docs.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const missing = ['dist/extension.js', 'dist/server.js', 'dist/webview.js'].filter((f) => !existsSync(join(root, f)));
if (missing.length > 0) {
  console.error(`package: missing ${missing.join(', ')}; run \`npm run build\` first`);
  process.exit(2);
}
const out = join(root, `hotframe-${version}.vsix`);
const vsce = join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
try {
  execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', '--out', out], { cwd: root, stdio: 'inherit' });
} catch {
  console.error('package: vsce failed (see above)');
  process.exit(1);
}
console.log(`package: ${out} (${(statSync(out).size / 1024).toFixed(0)} KiB)`);
