// Bundles every entry point with esbuild. One bundle per process: the extension host client,
// the language server, the CLI, the profile worker, the webview script, and the e2e suite; and
// the ESLint plugin (loaded into ESLint's process; `eslint` itself stays outside the bundle).
import { build } from 'esbuild';
import { existsSync, mkdirSync, copyFileSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI_PARTS, cliPartEntry, cliPartsPlugin } from './cliParts.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;

const node = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  logLevel: 'warning',
  define: { VERSION: JSON.stringify(version) },
  external: ['vscode'],
};

const entries = [
  { ...node, entryPoints: ['client/extension.ts'], outfile: 'dist/extension.js' },
  { ...node, entryPoints: ['server/lsp/main.ts'], outfile: 'dist/server.js' },
  // `hotframe profile` and `diff`; what needs Babel is in bundles beside it, loaded by what uses it (scripts/cliParts.mjs).
  { ...node, entryPoints: ['server/cli/main.ts'], outfile: 'dist/cli.js', plugins: [cliPartsPlugin(root)] },
  ...CLI_PARTS.map((part) => ({ ...node, stdin: cliPartEntry(root, part), outfile: `dist/${part.file}` })),
  // `hotframe mcp`, loaded by dist/cli.js for that command only: the MCP SDK stays out of the others' start-up.
  { ...node, entryPoints: ['server/cli/mcp/mcpCommand.ts'], outfile: 'dist/mcp.js' },
  { ...node, entryPoints: ['server/lsp/profileWorker.ts'], outfile: 'dist/profileWorker.js' },
  { ...node, entryPoints: ['server/eslint/plugin.ts'], outfile: 'dist/eslint-plugin.js', external: ['eslint'],
    // `require('hotframe/eslint-plugin')` and `import hotframe from …` both get the plugin itself.
    footer: { js: 'module.exports = module.exports.default;' } },
  {
    bundle: true,
    platform: 'browser',
    target: 'chrome114',
    format: 'iife',
    sourcemap: false,
    logLevel: 'warning',
    entryPoints: ['webview/main.ts'],
    outfile: 'dist/webview.js',
  },
  // The e2e suite runs inside the extension host; mocha stays external (loaded from node_modules).
  { ...node, entryPoints: ['test/e2e/suite/index.ts'], outfile: 'dist/test/e2e/index.js', external: ['vscode', 'mocha'] },
  // What bench/editor.bench.mjs runs in the extension host: timings of a big profile in the editor.
  { ...node, entryPoints: ['bench/editor/inEditor.ts'], outfile: 'dist/bench/editor.js' },
];

mkdirSync(join(root, 'dist'), { recursive: true });
const present = entries.filter((e) => e.stdin !== undefined || existsSync(join(root, e.entryPoints[0])));
await Promise.all(present.map((options) => build({ ...options, absWorkingDir: root })));
for (const css of ['webview/flame.css', 'node_modules/d3-flame-graph/dist/d3-flamegraph.css']) {
  if (existsSync(join(root, css))) copyFileSync(join(root, css), join(root, 'dist', css.split('/').pop()));
}

console.log(`built ${present.map((e) => e.outfile).join(', ')}`);
