// The README's install steps as a new user runs them (issue 24): nothing is published, so they use
// the tarball `npm pack` builds. Every fenced block the README marks with `<!-- readme-recipe -->`
// runs here, as written, in a new project holding the demo service: shell blocks with bash, the
// `run:` steps of the CI workflow, and a JavaScript block under the file name its first comment
// gives (`// eslint.config.mjs`). The tarball's install needs no network (hotframe has no
// dependencies); ESLint comes from npm's cache or its registry. Then the links the installed
// package emits (SARIF helpUri, ESLint's meta.docs.url) must lead to its own files.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { REPO_ROOT } from './bundles';

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

export interface RecipeBlock {
  lang: string;
  code: string;
  /** 1-based line of the opening fence. */
  line: number;
}

/** The fenced blocks right after a `<!-- readme-recipe ... -->` line (blank lines between allowed). */
export function recipeBlocks(markdown: string): RecipeBlock[] {
  const lines = markdown.split('\n');
  const blocks: RecipeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^<!-- readme-recipe\b.*-->\s*$/.test(lines[i])) continue;
    let start = i + 1;
    while (start < lines.length && lines[start].trim() === '') start++;
    const fence = /^```(\w*)\s*$/.exec(lines[start] ?? '');
    if (fence === null) throw new Error(`README.md:${i + 1}: a readme-recipe mark without a fenced block after it`);
    const end = lines.indexOf('```', start + 1);
    if (end < 0) throw new Error(`README.md:${start + 1}: unclosed fence`);
    blocks.push({ lang: fence[1], code: lines.slice(start + 1, end).join('\n'), line: start + 1 });
  }
  return blocks;
}

/** The shell commands of a workflow's `- run: …` steps, in order. */
export function workflowRuns(yaml: string): string[] {
  return yaml.split('\n').flatMap((line) => {
    const run = /^\s*-\s+run:\s+(.+)$/.exec(line);
    return run === null ? [] : [run[1]];
  });
}

describe("the README's install steps, run as written in a new project", function () {
  this.timeout(300_000);
  let work: string;
  let app: string;

  before(function () {
    if (!existsSync(join(REPO_ROOT, 'dist', 'cli.js')) || !existsSync(join(REPO_ROOT, 'dist', 'eslint-plugin.js'))) {
      throw new Error('dist/cli.js or dist/eslint-plugin.js missing: run `npm run build` first');
    }
    work = mkdtempSync(join(tmpdir(), 'hotframe-readme-'));
    // What `npm pack` writes in a clone (dist/ is built by `npm test` first).
    const clone = join(work, 'clone');
    execFileSync('mkdir', ['-p', clone]);
    execFileSync(NPM, ['pack', '--ignore-scripts', '--pack-destination', clone], { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    app = join(work, 'app');
    cpSync(join(REPO_ROOT, 'examples', 'demo-app'), app, { recursive: true, filter: (src) => !src.includes('node_modules') && !src.includes('/profiles') });
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'some-service', version: '1.0.0', private: true }, null, 2));
    process.env.HOTFRAME_CLONE_FOR_TEST = clone;
  });

  after(() => {
    if (work && !process.env.HOTFRAME_KEEP_PACK) rmSync(work, { recursive: true, force: true });
  });

  function bash(command: string, where: string): string {
    const run = spawnSync('bash', ['-e', '-o', 'pipefail', '-c', command], {
      cwd: app,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      // npm from its cache first (ESLint); hotframe itself comes from the tarball.
      env: { ...process.env, HOTFRAME_CLONE: process.env.HOTFRAME_CLONE_FOR_TEST, npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' },
    });
    assert.equal(run.status, 0, `${where} failed (${run.status}):\n${command}\n${run.stdout}\n${run.stderr}`);
    return run.stdout;
  }

  it('marks the install, the CI workflow and the ESLint setup, and each runs', () => {
    const blocks = recipeBlocks(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8'));
    assert.deepEqual(blocks.map((b) => b.lang), ['sh', 'yaml', 'js', 'sh']);
    let eslintInstalled = false;
    for (const block of blocks) {
      const where = `README.md:${block.line}`;
      if (block.lang === 'sh') {
        if (/\beslint\b/.test(block.code) && !eslintInstalled) {
          // The README says: ESLint 9 in your project (`npm i -D eslint@9`).
          const said = /`(npm i -D eslint@9)`/.exec(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8'));
          assert.ok(said, 'the README no longer says how to install ESLint');
          bash(said[1], 'npm i -D eslint@9');
          eslintInstalled = true;
        }
        bash(block.code, where);
      } else if (block.lang === 'yaml') {
        const runs = workflowRuns(block.code);
        assert.ok(runs.some((r) => r.includes('hotframe analyze')), where);
        for (const run of runs) bash(run, `${where}: ${run}`);
        const sarif = JSON.parse(readFileSync(join(app, 'hotframe.sarif'), 'utf8')) as {
          runs: { results: { ruleId: string }[]; tool: { driver: { informationUri: string; rules: { helpUri: string }[] } } }[];
        };
        assert.ok(sarif.runs[0].results.length >= 7, `${sarif.runs[0].results.length} results`);
        // The links it carries are files of the installed package.
        const installed = join(app, 'node_modules', 'hotframe');
        for (const uri of [sarif.runs[0].tool.driver.informationUri, ...sarif.runs[0].tool.driver.rules.map((r) => r.helpUri)]) {
          const path = fileURLToPath(uri);
          assert.ok(path.startsWith(installed) && existsSync(path), `${uri} is not a file of the installed package`);
        }
      } else {
        const file = /^\/\/ ([\w.-]+)\n/.exec(block.code)?.[1];
        assert.ok(file, `${where}: the block does not name its file in its first line`);
        writeFileSync(join(app, file), block.code);
      }
    }
    assert.ok(eslintInstalled, 'the ESLint setup was not run');
    // The install used the tarball: package.json names it.
    const manifest = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    assert.equal(manifest.devDependencies.hotframe, 'file:vendor/hotframe-0.1.0.tgz');
  });

  it("the installed ESLint plugin's rules link pages of the installed package", () => {
    const urls = bash(`node --input-type=module -e "const p = (await import('hotframe/eslint-plugin')).default; console.log(JSON.stringify(Object.values(p.rules).map((r) => r.meta.docs.url)))"`, 'plugin urls');
    const list = JSON.parse(urls) as string[];
    assert.equal(list.length, 7);
    for (const url of list) {
      const path = fileURLToPath(url);
      assert.ok(path.startsWith(join(app, 'node_modules', 'hotframe', 'docs', 'rules')) && existsSync(path), url);
    }
  });
});
