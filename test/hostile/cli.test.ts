// Hostile inputs through `hotframe` as a process: special files where files are expected (as
// arguments, as the profile, named by a profile, as a source map), files outside the workspace,
// deep nesting, control characters. Each probe ends within the timeout, under the memory bound,
// with exit 2 and one line when the input cannot be used.
import { strict as assert } from 'node:assert';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { assertBounded, assertRefused, mkfifo, nativeLog, runCli, tempDir } from './probe';

/** A .cpuprofile with one sampled function `work` in `url`. */
function cpuprofile(url: string): string {
  return JSON.stringify({
    nodes: [
      { id: 1, callFrame: { functionName: '(root)', scriptId: '0', url: '', lineNumber: -1, columnNumber: -1 }, children: [2] },
      { id: 2, callFrame: { functionName: 'work', scriptId: '1', url, lineNumber: 0, columnNumber: 9 }, children: [] },
    ],
    startTime: 0,
    endTime: 10_000,
    samples: [2, 2, 2, 2],
    timeDeltas: [0, 2500, 2500, 2500],
  });
}

// Two findings on line 2, whatever the rules' quiet-without-evidence policy: a synchronous exec per
// request (blocking-sync-call, warning) and its spawn without env (spawn-without-env, information).
const SPAWN = "const { execSync } = require('child_process');\nrequire('http').createServer((req, res) => res.end(execSync('free -m')));\n";

/** `link` 100,000 times, 100 a line. */
function chain(link: string): string {
  return Array.from({ length: 1000 }, () => link.repeat(100)).join('\n');
}

describe('hostile input: the command line', function () {
  this.timeout(120_000);
  const dir = tempDir('cli');

  describe('special files', () => {
    before(() => {
      mkfifo(join(dir, 'pipe.js'));
      mkfifo(join(dir, 'pipe.cpuprofile'));
      symlinkSync('/dev/zero', join(dir, 'zero.js'));
      symlinkSync('/dev/zero', join(dir, 'zero.cpuprofile.gz'));
    });

    for (const arg of ['pipe.js', 'zero.js', '/dev/zero', '/dev/stdin']) {
      it(`analyze ${arg}: exit 2, one line`, async () => {
        assertRefused(await runCli(['analyze', arg], dir), /not a regular file/);
      });
    }

    for (const arg of ['pipe.cpuprofile', 'zero.cpuprofile.gz', '/dev/zero']) {
      it(`profile ${arg}: exit 2, one line`, async () => {
        assertRefused(await runCli(['profile', arg], dir), /not a regular file \((a FIFO|a character device)\)/);
      });
    }

    it('a folder with a FIFO, a link to /dev/zero and a FIFO .gitignore is analyzed without them', async () => {
      const project = join(dir, 'project');
      mkdirSync(project);
      writeFileSync(join(project, 'ok.js'), SPAWN);
      mkfifo(join(project, 'fifo.js'));
      mkfifo(join(project, '.gitignore'));
      symlinkSync('/dev/zero', join(project, 'zero.js'));
      const run = await runCli(['analyze', 'project', '--format', 'json'], dir);
      assert.equal(run.code, 1, run.stderr);
      assertBounded(run);
      const report = JSON.parse(run.stdout) as { findings: { file: string }[] };
      assert.deepEqual([...new Set(report.findings.map((f) => f.file))], ['project/ok.js']);
    });

    it('a script whose sourceMappingURL is /dev/zero or a FIFO, and a log naming a script at /dev/zero, load with warnings', async () => {
      const app = join(dir, 'app');
      mkdirSync(app);
      writeFileSync(join(app, 'zero.js'), 'function work() {}\n//# sourceMappingURL=/dev/zero\n');
      writeFileSync(join(app, 'fifo.js'), 'function work() {}\n//# sourceMappingURL=fifo.js.map\n');
      mkfifo(join(app, 'fifo.js.map'));
      for (const script of ['zero.js', 'fifo.js']) {
        writeFileSync(join(app, 'p.cpuprofile'), cpuprofile(join(app, script)));
        const run = await runCli(['profile', join(app, 'p.cpuprofile'), '--root', app, '--format', 'json'], dir);
        assert.equal(run.code, 0, run.stderr);
        assertBounded(run);
        const report = JSON.parse(run.stdout) as { warnings: string[] };
        assert.ok(report.warnings.some((w) => /outside the workspace|not a regular file/.test(w)), report.warnings.join('\n'));
      }
      writeFileSync(join(app, 'zero.v8.log'), nativeLog('/usr/bin/true', { url: '/dev/zero' }));
      const run = await runCli(['profile', join(app, 'zero.v8.log'), '--root', app, '--format', 'json'], dir);
      assert.equal(run.code, 0, run.stderr);
      assertBounded(run);
    });
  });

  describe('files outside the workspace and the profile folder', () => {
    it('are not read: not as a script, not as a source map, not as a map source; warnings quote no content', async () => {
      const app = join(dir, 'outside');
      mkdirSync(app);
      // A secret next to the workspace, reached by ../ from a map and by an absolute sourceMappingURL.
      writeFileSync(join(dir, 'secret.txt'), 'TOP-SECRET-CONTENT\n');
      writeFileSync(join(app, 'a.js'), `function work() {}\n//# sourceMappingURL=${join(dir, 'secret.txt')}\n`);
      writeFileSync(join(app, 'b.js'), 'function work() {}\n//# sourceMappingURL=b.js.map\n');
      writeFileSync(join(app, 'b.js.map'), JSON.stringify({ version: 3, sources: ['../secret.txt', '../../../../etc/passwd'], names: [], mappings: 'AAAA;AACA' }));
      const profiles = join(app, 'profiles');
      mkdirSync(profiles);
      for (const [script, expected] of [
        ['a.js', /source map .*secret\.txt named by .*a\.js is outside the workspace/],
        ['b.js', null],
        [join(dir, 'secret.txt'), null],
        ['/etc/passwd', null],
      ] as const) {
        writeFileSync(join(profiles, 'p.cpuprofile'), cpuprofile(script.startsWith('/') ? script : join(app, script)));
        const run = await runCli(['profile', join(profiles, 'p.cpuprofile'), '--root', app, '--format', 'json'], dir);
        assert.equal(run.code, 0, run.stderr);
        assert.doesNotMatch(run.stdout + run.stderr, /TOP-SECRET|root:x:/, 'no content of a file outside is shown');
        const report = JSON.parse(run.stdout) as { warnings: string[]; unresolvedFiles: string[]; functions: { name: string; file: string }[] };
        if (expected !== null) assert.ok(report.warnings.some((w) => expected.test(w)), report.warnings.join('\n'));
        const work = report.functions.find((f) => f.name === 'work');
        if (script === 'b.js') assert.deepEqual(report.unresolvedFiles, [join(dir, 'secret.txt')], 'the map source outside is not taken as local');
        if (script.startsWith('/')) assert.ok(report.unresolvedFiles.includes(work?.file ?? '?'), `${script} is not resolved: ${JSON.stringify(report.unresolvedFiles)}`);
      }
    });

    it('an explicit --root makes a folder readable', async () => {
      const other = join(dir, 'other');
      mkdirSync(other);
      writeFileSync(join(other, 'w.js'), 'function work() {}\n');
      writeFileSync(join(dir, 'p2.cpuprofile'), cpuprofile(join(other, 'w.js')));
      mkdirSync(join(dir, 'elsewhere'));
      const withoutRoot = JSON.parse((await runCli(['profile', join(dir, 'p2.cpuprofile'), '--root', join(dir, 'elsewhere'), '--format', 'json'], dir)).stdout) as { unresolvedFiles: string[] };
      // The profile's own folder (dir) holds `other/`: move the profile away to see the refusal.
      assert.deepEqual(withoutRoot.unresolvedFiles, [], 'the profile folder is readable');
      writeFileSync(join(dir, 'elsewhere', 'p3.cpuprofile'), cpuprofile(join(other, 'w.js')));
      const refused = JSON.parse((await runCli(['profile', join(dir, 'elsewhere', 'p3.cpuprofile'), '--root', join(dir, 'elsewhere'), '--format', 'json'], dir)).stdout) as { unresolvedFiles: string[] };
      assert.deepEqual(refused.unresolvedFiles, [join(other, 'w.js')]);
      const mapped = JSON.parse((await runCli(['profile', join(dir, 'elsewhere', 'p3.cpuprofile'), '--root', other, '--format', 'json'], dir)).stdout) as { unresolvedFiles: string[] };
      assert.deepEqual(mapped.unresolvedFiles, []);
    });
  });

  describe('a profile that is a link to an outside file', () => {
    // A link named like a profile, to a file holding a token: the "not a profile" error is one
    // line that says what the file is not, never its first bytes (they land in CI logs).
    for (const [what, content] of [
      ['text', 'ghp_TOKENPREFIX0123456789abcdef\n'],
      ['binary data', Buffer.concat([Buffer.from([0x00, 0x01]), Buffer.from('TOKENPREFIX-BINARY')])],
    ] as const) {
      it(`${what}: refused without echoing it`, async () => {
        const outside = tempDir('outside-secret');
        writeFileSync(join(outside, 'token'), content);
        const link = join(dir, `linked-${what.replace(' ', '-')}.cpuprofile`);
        symlinkSync(join(outside, 'token'), link);
        const run = await runCli(['profile', link], dir);
        assertRefused(run, /is neither JSON, a V8 log, perf script output, folded stacks nor pprof \(it starts with (other text|binary data)\)/);
        assert.doesNotMatch(run.stderr, /TOKEN|ghp_|00 01/);
      });
    }
  });

  describe('perf text that goes wrong after its first lines', () => {
    // A file that starts as perf script output or folded stacks and then holds anything (a token):
    // refused by line number, one line, the text never quoted.
    for (const [what, content] of [
      ['perf script', 'node 42 1.000001: 1000000 cpu-clock: \n\t 7f00 main (/usr/bin/node)\n\nghp_TOKENPREFIX0123456789abcdef\n'],
      ['folded', 'node;main;handler 3\nghp_TOKENPREFIX0123456789abcdef\n'],
    ] as const) {
      it(`${what}: exit 2, one line naming the line, nothing quoted`, async () => {
        const path = join(dir, `bad-${what.replace(' ', '-')}.txt`);
        writeFileSync(path, content);
        const run = await runCli(['profile', path], dir);
        assertRefused(run, /line [0-9]+: .*; not (perf script output|folded stacks)\n/);
        assert.doesNotMatch(run.stderr, /TOKEN|ghp_/);
      });
    }
  });

  describe('text', () => {
    it('escapes U+2028, U+2029 and bidi controls in text output', async () => {
      const name = 'evil\u202Egnp.js\u2028x\u2066';
      writeFileSync(join(dir, name), SPAWN);
      const run = await runCli(['analyze', name], dir);
      assert.equal(run.code, 1, run.stderr);
      assert.doesNotMatch(run.stdout, /[\u2028\u2029\u202a-\u202e\u2066-\u2069]/u);
      assert.ok(run.stdout.includes('evil\\u202egnp.js\\u2028x\\u2066:2:52'), run.stdout);
    });

    it('takes -- as the end of options', async () => {
      writeFileSync(join(dir, '--format'), SPAWN);
      const run = await runCli(['analyze', '--format', 'json', '--', '--format'], dir);
      assert.equal(run.code, 1, run.stderr);
      assert.equal((JSON.parse(run.stdout) as { findings: { file: string }[] }).findings[0].file, '--format');
    });
  });

  describe('deep nesting', () => {
    for (const [shape, statement] of [
      ['100,000 nested parentheses', `const x = ${'(\n'.repeat(100_000)}1${')\n'.repeat(100_000)};\n`],
      ['a 100,000-term sum', `const y = ${'a +\n'.repeat(100_000)}1;\n`],
      ['100,000 nested arrays in a function', `function f() { return ${'[\n'.repeat(100_000)}${']\n'.repeat(100_000)}; }\n`],
      // Chains that nest without brackets around them: each call, member, tag or `new` is a level.
      // 100 links a line (a longer line reads as minified and skips the file on purpose).
      ['a 100,000-call chain f()()()…', `const c = f${chain('()')};\n`],
      ['a 100,000-member chain a[0][0]…', `const m = a${chain('[0]')};\n`],
      ['100,000 tagged templates f``…', `const t = f${chain('``')};\n`],
      ['100,000 news new new … X', `const n = ${chain('new ')}X;\n`],
    ]) {
      it(`${shape}: the statement is left out, the file's other findings stay`, async () => {
        writeFileSync(join(dir, 'deep.js'), SPAWN + statement + SPAWN.replace('const { execSync }', 'const { execSync: run2 }').replace("execSync('free", "run2('free"));
        const run = await runCli(['analyze', 'deep.js', '--format', 'json'], dir);
        assert.equal(run.code, 1, run.stderr);
        assertBounded(run);
        const report = JSON.parse(run.stdout) as { findings: { line: number }[]; skipped: { reason?: string; message?: string; line?: number }[] };
        // Both copies of SPAWN keep their two findings: line 2, and line 2 of the copy after the statement.
        const secondCopyLine = (SPAWN + statement).split('\n').length + 1;
        assert.equal(report.findings.length, 4, JSON.stringify(report).slice(0, 500));
        assert.deepEqual([...new Set(report.findings.map((f) => f.line))], [2, secondCopyLine], JSON.stringify(report.findings));
        assert.match(JSON.stringify(report.skipped), /nested too deeply \(lines 3-/);
      });
    }
  });
});
