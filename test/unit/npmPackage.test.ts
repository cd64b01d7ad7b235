// The npm package as a user gets it: `npm pack` of this checkout, installed into a temporary
// project (offline-capable: --prefer-offline on npm's cache), then `npx hotframe analyze`,
// `npx hotframe profile` and a real `eslint` run with `hotframe/eslint-plugin` on the demo app.
import { strict as assert } from 'node:assert';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { REPO_ROOT } from './bundles';

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const QUIET = ['--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'];

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function npx(cwd: string, ...args: string[]): Run {
  const run = spawnSync(NPM, ['exec', '--offline', '--', ...args], { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('the npm package (npm pack, installed into a project)', function () {
  this.timeout(240_000);
  let work: string;
  let app: string;
  let packed: { name: string; filename: string; files: { path: string }[] };

  before(function () {
    // dist/ is built by `npm test` before the unit tests; `npm pack` would build it (prepack).
    if (!existsSync(join(REPO_ROOT, 'dist', 'cli.js')) || !existsSync(join(REPO_ROOT, 'dist', 'eslint-plugin.js'))) {
      throw new Error('dist/cli.js or dist/eslint-plugin.js missing: run `npm run build` first');
    }
    work = mkdtempSync(join(tmpdir(), 'hotframe-pack-'));
    const out = execFileSync(NPM, ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: REPO_ROOT, encoding: 'utf8' });
    packed = (JSON.parse(out) as (typeof packed)[])[0];
    app = join(work, 'app');
    cpSync(join(REPO_ROOT, 'examples', 'demo-app'), app, { recursive: true, filter: (src) => !src.includes('node_modules') });
    // A project of its own (not the demo's private manifest), with ESLint's flat config.
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'some-service', version: '1.0.0', private: true, type: 'commonjs' }));
    writeFileSync(
      join(app, 'eslint.config.mjs'),
      `import hotframe from 'hotframe/eslint-plugin';\nexport default [{ ignores: ['profiles/**', 'fake-mongo/**'] }, { files: ['**/*.js'], languageOptions: { sourceType: 'commonjs' } }, hotframe.configs.recommended];\n`,
    );
    execFileSync(NPM, ['install', '--save-dev', ...QUIET, join(work, packed.filename), `eslint@${readEslintVersion()}`], { cwd: app, stdio: ['ignore', 'ignore', 'pipe'] });
  });

  after(() => {
    if (work && !process.env.HOTFRAME_KEEP_PACK) rmSync(work, { recursive: true, force: true });
  });

  it('is named hotframe, ships the CLI and the ESLint plugin, and needs no other package', () => {
    assert.equal(packed.name, 'hotframe');
    assert.match(packed.filename, /^hotframe-\d+\.\d+\.\d+\.tgz$/);
    const files = packed.files.map((f) => f.path).sort();
    for (const bundle of ['dist/cli.js', 'dist/cli-engine.js', 'dist/cli-spans.js', 'dist/mcp.js', 'dist/eslint-plugin.js']) assert.ok(files.includes(bundle), `${bundle} not in ${files.join(', ')}`);
    assert.ok(!files.some((f) => f === 'dist/extension.js' || f === 'dist/server.js' || f.startsWith('server/') || f.endsWith('.map')), files.join(', '));
    const installed = JSON.parse(readFileSync(join(app, 'node_modules', 'hotframe', 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    assert.deepEqual(installed.dependencies ?? {}, {});
    // Nothing of VS Code came along: only ESLint's own tree and hotframe are installed.
    assert.ok(!existsSync(join(app, 'node_modules', 'vscode-languageclient')));
    assert.ok(!existsSync(join(app, 'node_modules', '@babel', 'traverse')));
  });

  it('npx hotframe analyze finds the demo app\'s findings', () => {
    const run = npx(app, 'hotframe', 'analyze', '.', '--format', 'json');
    assert.equal(run.status, 1, run.stderr);
    const report = JSON.parse(run.stdout) as { findings: { ruleId: string; file: string }[] };
    const rules = new Set(report.findings.map((f) => f.ruleId));
    assert.ok(rules.has('spawn-without-env') && rules.has('mongoose-missing-lean'), [...rules].join(', '));
  });

  it('npx hotframe profile reads the demo\'s recorded profile', () => {
    const profile = readdirSync(join(app, 'profiles')).find((name) => name === 'before.cpuprofile');
    assert.ok(profile, 'examples/demo-app/profiles/before.cpuprofile is missing');
    const run = npx(app, 'hotframe', 'profile', join('profiles', profile), '--top', '5');
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^before\.cpuprofile: cpuprofile, \d+ samples/);
    assert.match(run.stdout, /Top 5 by self time/);
  });

  it('eslint with hotframe.configs.recommended reports the engine\'s findings on the demo app', () => {
    const run = npx(app, 'eslint', '--format', 'json', '.');
    assert.equal(run.status, 0, `warnings only, exit 0: ${run.stderr}`);
    const results = JSON.parse(run.stdout) as { filePath: string; messages: { ruleId: string | null; line: number; message: string; fatal?: boolean }[] }[];
    const messages = results.flatMap((r) => r.messages.map((m) => ({ ...m, file: r.filePath.slice(app.length + 1) })));
    assert.ok(!messages.some((m) => m.fatal), JSON.stringify(messages.filter((m) => m.fatal)));
    // The same as the CLI on the same files, rule and line.
    const cli = JSON.parse(npx(app, 'hotframe', 'analyze', '.', '--format', 'json').stdout) as { findings: { ruleId: string; file: string; line: number }[] };
    const fromCli = cli.findings.filter((f) => !f.file.startsWith('fake-mongo/')).map((f) => `${f.file}:${f.line} hotframe/${f.ruleId}`).sort();
    const fromEslint = messages.map((m) => `${m.file}:${m.line} ${m.ruleId}`).sort();
    assert.deepEqual(fromEslint, fromCli);
    assert.ok(fromEslint.length >= 7, fromEslint.join('\n'));
  });
});

function readEslintVersion(): string {
  return (JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules', 'eslint', 'package.json'), 'utf8')) as { version: string }).version;
}
