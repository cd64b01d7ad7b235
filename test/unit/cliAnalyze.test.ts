// `hotframe analyze` as a process on a small project written to a temp folder: exact JSON,
// the text layout, exit codes 0/1/2 with one-line errors, and which files are read.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

import { tempFolders } from './tempFolders';
import { LEAN_HANDLER, LEAN_MESSAGE, SPAWN_TIMER, analyze, writeLeanProfile, writeProject, writeSpawnProfile } from './analyzeFixture';
import type { Insight } from '../../server/profile/model/types';
import { formatMs } from '../../server/shared/format';

interface SarifRun {
  runs: {
    tool: { driver: { rules: { id: string }[] } };
    results: { ruleId: string; ruleIndex: number; message: { text: string }; locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[] }[];
  }[];
}
import { REPO_ROOT, bundles } from './bundles';

const lean = (file: string, severity = 'warning') => ({
  ruleId: 'mongoose-missing-lean',
  severity,
  message: LEAN_MESSAGE,
  file,
  line: 6,
  column: 18,
  endLine: 6,
  endColumn: 31,
});

describe('hotframe analyze', function () {
  this.timeout(60_000);
  let root: string;

  before(async () => {
    await bundles();
    root = writeProject({
      '.git/HEAD': 'ref: refs/heads/main\n',
      '.gitignore': 'generated/\n*.gen.js\n',
      'routes/tasks.js': LEAN_HANDLER,
      'routes/clean.mjs': 'export const answer = 42;\n',
      'src/.gitignore': '*.local.js\n',
      'src/scratch.local.js': LEAN_HANDLER,
      'src/tasks.ts': LEAN_HANDLER,
      'src/tasks.gen.js': LEAN_HANDLER,
      'src/types.d.ts': 'export type T = string;\n',
      'generated/tasks.js': LEAN_HANDLER,
      'node_modules/dep/index.js': LEAN_HANDLER,
      'notes.txt': LEAN_HANDLER,
      'broken.js': LEAN_HANDLER + 'const broken;\n',
      'bundle.min.js': 'var a=' + JSON.stringify('x'.repeat(12_000)) + ';\n',
    });
  });

  // Each test's own project too, whatever the test did.
  const temp = tempFolders();
  const project = (files: Record<string, string>): string => temp.adopt(writeProject(files));
  after(() => {
    rmSync(root, { recursive: true, force: true });
    temp.removeAll();
  });

  it('prints the documented JSON: 1-based lines and columns, cwd-relative paths, skipped files with reasons', async () => {
    const run = await analyze(root, '--format', 'json');
    assert.equal(run.stderr, '');
    assert.equal(run.status, 1);
    assert.deepEqual(JSON.parse(run.stdout), {
      findings: [lean('broken.js'), lean('routes/tasks.js'), lean('src/tasks.ts')],
      filesAnalyzed: 4,
      skipped: [
        { file: 'broken.js', reason: 'parse-error: Missing initializer in const declaration. (9:13)' },
        { file: 'bundle.min.js', reason: 'minified' },
      ],
    });
  });

  it('walks only the folders given, relative to cwd, and always reads files named explicitly', async () => {
    const run = await analyze(join(root, 'routes'), '--format', 'json', '.', '../generated/tasks.js', '../notes.txt');
    const json = JSON.parse(run.stdout) as { findings: { file: string }[]; filesAnalyzed: number };
    // notes.txt is not a source file by name, but a file named on the command line is always analyzed.
    assert.deepEqual(
      json.findings.map((f) => f.file),
      ['../generated/tasks.js', '../notes.txt', 'tasks.js'],
    );
    assert.equal(json.filesAnalyzed, 4);
  });

  it('applies the .gitignore files of enclosing folders up to the repository root', async () => {
    const run = await analyze(join(root, 'src'), '--format', 'json');
    const json = JSON.parse(run.stdout) as { findings: { file: string }[]; filesAnalyzed: number };
    assert.deepEqual(json.findings.map((f) => f.file), ['tasks.ts']); // not tasks.gen.js (../.gitignore) nor scratch.local.js (./.gitignore)
    assert.equal(json.filesAnalyzed, 1);
  });

  it('prints text grouped per file with a summary line', async () => {
    const run = await analyze(root, 'routes', 'src');
    assert.equal(run.status, 1);
    assert.equal(
      run.stdout,
      [
        `routes/tasks.js:6:18  warning  ${LEAN_MESSAGE}  [mongoose-missing-lean]`,
        '',
        `src/tasks.ts:6:18  warning  ${LEAN_MESSAGE}  [mongoose-missing-lean]`,
        '',
        '2 findings (2 warnings) in 2 files; 3 files analyzed',
        '',
      ].join('\n'),
    );
  });

  it('prints control characters of file names as escapes, not as terminal commands or line breaks', async () => {
    const dir = project({ 'odd\u001b[2J\nname.js': LEAN_HANDLER });
    const run = await analyze(dir);
    assert.equal(run.stdout.split('\n')[0], `odd\\u001b[2J\\u000aname.js:6:18  warning  ${LEAN_MESSAGE}  [mongoose-missing-lean]`);
    assert.equal(JSON.parse((await analyze(dir, '--format', 'json')).stdout).findings[0].file, 'odd\u001b[2J\nname.js');
  });

  it('reports parse errors as lines of their own and counts them in the exit code', async () => {
    const run = await analyze(root, 'broken.js', '--rule', 'mongoose-missing-lean=off');
    assert.equal(run.status, 1);
    assert.equal(run.stdout, 'broken.js:9:13  error  Missing initializer in const declaration.  [parse-error]\n\n0 findings in 0 files; 1 file analyzed, 1 parse error\n');
  });

  it('exits 0 when nothing is found', async () => {
    const run = await analyze(root, 'routes/clean.mjs', '--format', 'json');
    assert.equal(run.status, 0);
    assert.deepEqual(JSON.parse(run.stdout), { findings: [], filesAnalyzed: 1, skipped: [] });
  });

  it('applies --rule levels, repeated, last one wins', async () => {
    const raised = await analyze(root, 'routes/tasks.js', '--format', 'json', '--rule', 'mongoose-missing-lean=off', '--rule=mongoose-missing-lean=error');
    assert.deepEqual(JSON.parse(raised.stdout).findings, [lean('routes/tasks.js', 'error')]);
    const off = await analyze(root, 'routes/tasks.js', '--rule', 'mongoose-missing-lean=off');
    assert.equal(off.status, 0);
    assert.equal(off.stdout, '0 findings in 0 files; 1 file analyzed\n');
  });

  it("prints the command's help and exits 0 for --help or -h after a command", async () => {
    for (const flag of ['--help', '-h']) {
      const run = await analyze(root, 'routes/tasks.js', flag);
      assert.equal(run.status, 0);
      assert.equal(run.stderr, '');
      assert.match(run.stdout, /^usage: hotframe analyze \[paths\.\.\] [^]*\noptions:\n {2}--format text\|json\|sarif [^]*\nexamples:\n {2}hotframe analyze /);
    }
  });

  const usageErrors: [string, string[], string][] = [
    ['an unknown rule id', ['--rule', 'no-such-rule=error'], "hotframe: --rule: unknown rule 'no-such-rule' (rules: "],
    ['an unknown level', ['--rule', 'mongoose-missing-lean=loud'], "hotframe: --rule mongoose-missing-lean: unknown level 'loud' (off|hint|information|warning|error)\n"],
    ['a --rule without =', ['--rule', 'mongoose-missing-lean'], "hotframe: --rule expects <id>=<level>, got 'mongoose-missing-lean'\n"],
    ['an unknown format', ['--format', 'xml'], "hotframe: --format: unknown format 'xml' (text|json|sarif)\n"],
    ['a missing path', ['nowhere/app.js'], 'hotframe: no such file or folder: nowhere/app.js\n'],
    ['a missing profile', ['--profile', 'missing.cpuprofile'], 'hotframe: --profile: no such file: missing.cpuprofile\n'],
    ['a missing root', ['--root', 'nowhere'], 'hotframe: --root: no such folder: nowhere\n'],
    ['an unknown option', ['--fix'], 'hotframe: unknown option --fix\n'],
    ['--alloc without --profile', ['--alloc', 'heap.heapprofile'], 'hotframe: --alloc: joins an allocation profile to the CPU profile given with --profile (alone, give it as --profile)\n'],
  ];
  for (const [what, args, stderr] of usageErrors) {
    it(`exits 2 with one line on stderr for ${what}`, async () => {
      const run = await analyze(root, ...args);
      assert.equal(run.status, 2);
      assert.equal(run.stdout, '');
      assert.ok(run.stderr.startsWith(stderr), run.stderr);
      assert.equal(run.stderr.split('\n').length, 2, 'exactly one line');
    });
  }

  it('with --profile, gives each finding its measured cost (or null) and ranks by it', async () => {
    const dir = project({ 'routes/a.js': LEAN_HANDLER, 'routes/b.js': LEAN_HANDLER });
    writeLeanProfile(join(dir, 'app.cpuprofile'), join(dir, 'routes/b.js'), join(dir, 'routes/a.js'));
    const run = await analyze(dir, 'routes', '--profile', 'app.cpuprofile', '--format', 'json');
    assert.equal(run.stderr, '');
    // b.js comes first although a.js sorts first by name: its line cost 30 of 100 samples.
    assert.deepEqual(JSON.parse(run.stdout).findings, [
      // 30 ms of 99 ms CPU time (the reader gives the last sample no time): hot, so raised one step as in the editor.
      // The percent to 1e-6, as `hotframe profile --format json` gives every share.
      { ...lean('routes/b.js', 'error'), cost: { selfMs: 30, totalMs: 30, percent: 30.30303, basis: 'line' } },
      { ...lean('routes/a.js'), cost: null },
    ]);
    // A CPU profile is no allocation profile to join.
    const joined = await analyze(dir, 'routes', '--profile', 'app.cpuprofile', '--alloc', 'app.cpuprofile');
    assert.deepEqual([joined.status, joined.stdout, joined.stderr], [2, '', 'hotframe: --alloc app.cpuprofile: not an allocation profile (it measures CPU time)\n']);
    const text = await analyze(dir, 'routes', '--profile', 'app.cpuprofile');
    assert.deepEqual(
      text.stdout.split('\n').slice(0, 2).map((line) => line.slice(0, 16) + ' ... ' + line.slice(line.indexOf('[mongoose'))),
      ['routes/b.js:6:18 ... [mongoose-missing-lean]  (30.0 ms on this line, 30.3% of CPU time, idle excluded)', 'routes/a.js:6:18 ... [mongoose-missing-lean]  (not in profile)'],
    );
  });

  it("with --profile, prints the profile's insights with the figures `hotframe profile` gives (text, JSON, SARIF)", async () => {
    const dir = project({ 'stats.js': SPAWN_TIMER });
    writeSpawnProfile(join(dir, 'spawn.cpuprofile'), join(dir, 'stats.js'));
    const { cli } = await bundles();
    const profiled = spawnSync(process.execPath, [cli, 'profile', 'spawn.cpuprofile', '--format', 'json'], { cwd: dir, encoding: 'utf8' });
    const fromProfile = (JSON.parse(profiled.stdout) as { cpuMs: number; shareOf: string; insights: Insight[] });
    const walk = fromProfile.insights.find((i) => i.id === 'spawn-env-walk');
    assert.ok(walk !== undefined && walk.location !== null, profiled.stdout);
    const json = await analyze(dir, '.', '--profile', 'spawn.cpuprofile', '--format', 'json');
    const { profile } = JSON.parse(json.stdout) as { profile: { file: string; unit: string; shareOf: string; cpuMs: number; insights: Insight[] } };
    assert.deepEqual(
      { ...profile, insights: profile.insights.map((i) => ({ ...i, location: i.location && { ...i.location, file: join(dir, i.location.file) } })) },
      { file: 'spawn.cpuprofile', unit: 'ms', shareOf: fromProfile.shareOf, cpuMs: fromProfile.cpuMs, insights: fromProfile.insights },
    );
    assert.equal(profile.insights.find((i) => i.id === 'spawn-env-walk')?.location?.file, 'stats.js');
    const text = (await analyze(dir, '.', '--profile', 'spawn.cpuprofile')).stdout.split('\n');
    const header = text.findIndex((l) => l.startsWith('Insights from spawn.cpuprofile'));
    assert.equal(text[header], `Insights from spawn.cpuprofile (every % is % of CPU time, idle excluded: ms / ${formatMs(fromProfile.cpuMs)})`);
    assert.equal(text[header + 1], `  stats.js:${walk.location.line}  [spawn-env-walk] ${walk.title}`);
    assert.equal(text[header + 2], `    ${walk.message}`);
    const sarif = JSON.parse((await analyze(dir, '.', '--profile', 'spawn.cpuprofile', '--format', 'sarif')).stdout) as SarifRun;
    const [run] = sarif.runs;
    const result = run.results.find((r) => r.ruleId === 'insight/spawn-env-walk');
    assert.deepEqual([result?.message.text, result?.locations[0].physicalLocation.artifactLocation.uri, result?.locations[0].physicalLocation.region.startLine], [walk.message, 'stats.js', walk.location.line]);
    assert.equal(run.tool.driver.rules[result!.ruleIndex].id, 'insight/spawn-env-walk');
  });

  it('with an allocation profile, names a finding\'s cost in bytes (selfBytes, totalBytes, unit), not ms', async () => {
    const dir = project({ 'routes/b.js': LEAN_HANDLER });
    // The handler (the arrow on line 5) allocates 3 MiB itself; the rest is the module's top level.
    const frame = (functionName: string, lineNumber: number, columnNumber: number) => ({ functionName, scriptId: '1', url: pathToFileURL(join(dir, 'routes/b.js')).href, lineNumber, columnNumber });
    const head = {
      callFrame: { functionName: '(root)', scriptId: '0', url: '', lineNumber: -1, columnNumber: -1 },
      selfSize: 0,
      id: 1,
      children: [{ callFrame: frame('', 0, 0), selfSize: 1024 * 1024, id: 2, children: [{ callFrame: frame('', 4, 24), selfSize: 3 * 1024 * 1024, id: 3, children: [] }] }],
    };
    writeFileSync(join(dir, 'alloc.heapprofile'), JSON.stringify({ head, samples: [{ size: 1024 * 1024, nodeId: 2, ordinal: 1 }, { size: 3 * 1024 * 1024, nodeId: 3, ordinal: 2 }] }));
    const run = await analyze(dir, 'routes', '--profile', 'alloc.heapprofile', '--format', 'json');
    assert.equal(run.stderr, '');
    const [finding] = JSON.parse(run.stdout).findings;
    assert.deepEqual(finding.cost, { selfBytes: 3 * 1024 * 1024, totalBytes: 3 * 1024 * 1024, percent: 75, unit: 'bytes', basis: 'function', function: '(anonymous)' });
    const text = await analyze(dir, 'routes', '--profile', 'alloc.heapprofile');
    assert.match(text.stdout.split('\n')[0], /\(allocates 3\.00 MiB in its function \(anonymous\), 75\.0% of allocated bytes\)$/);
  });

  it('exits 2 with one line when the profile cannot be read', async () => {
    const dir = project({ 'app.js': LEAN_HANDLER, 'bad.cpuprofile': '{"nodes": "not a profile"' });
    const run = await analyze(dir, '--profile', 'bad.cpuprofile');
    assert.equal(run.status, 2);
    assert.match(run.stderr, /^hotframe: --profile bad\.cpuprofile: .+\n$/);
  });
});

describe('hotframe analyze on the demo service', function () {
  this.timeout(60_000);

  it('finds exactly what its `// expect: <rule>` markers announce', async () => {
    const run = await analyze(REPO_ROOT, 'examples/demo-app', '--format', 'json');
    assert.equal(run.stderr, '');
    const json = JSON.parse(run.stdout) as { findings: { file: string; line: number; ruleId: string }[]; filesAnalyzed: number; skipped: unknown[] };
    const sources = (readdirSync(join(REPO_ROOT, 'examples/demo-app'), { recursive: true }) as string[])
      .filter((path) => /\.[cm]?[jt]s$/.test(path) && !path.split(sep).includes('node_modules'))
      .map((path) => `examples/demo-app/${path.split(sep).join('/')}`);
    const expected: string[] = [];
    for (const file of sources) {
      readFileSync(join(REPO_ROOT, file), 'utf8')
        .split('\n')
        .forEach((text, i) => {
          const marker = /\/\/ expect: ([\w-]+(?:, [\w-]+)*)\s*$/.exec(text);
          for (const rule of marker?.[1].split(', ') ?? []) expected.push(`${file}:${i + 1} ${rule}`);
        });
    }
    const found = json.findings.map((f) => `${f.file}:${f.line} ${f.ruleId}`);
    assert.deepEqual([...new Set(found)].sort(), [...new Set(expected)].sort());
    assert.equal(found.length, new Set(found).size, 'one finding per rule and line');
    assert.deepEqual(json.skipped, []);
    assert.ok(json.filesAnalyzed >= 10, `filesAnalyzed ${json.filesAnalyzed}`);
  });
});
