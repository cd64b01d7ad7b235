// Issue 29 in the editor, over stdio JSON-RPC with the real language server: a `node --trace-gc`
// output recorded now opens beside the profiles with the figures `hotframe profile gc.log` prints,
// is set beside the CPU profile of the same run (same folder, the profile's name carrying a traced
// pid) and not beside another run's; and the semi-space sweep's runs, recorded now through the
// runner the editor uses, are compared with GC shares counted here from the raw trace text.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MessageConnection } from 'vscode-jsonrpc/node';

import type { GcTraceView, OverviewResult, ProfileSummary, SemiSpaceSweepResult } from '../../server/protocol/wire';
import { runAtSemiSpaceSize } from '../../server/shared/semiSpaceRun';
import { bundles } from './bundles';
import { plainNodeEnv } from './plainNodeEnv';
import { startStdioServer, type StdioServer } from './stdioServer';

const GARBAGE = `let kept = [];
for (let r = 0; r < 40; r++) {
  const batch = [];
  for (let i = 0; i < 40000; i++) batch.push({ id: i, name: 'item-' + i, tags: [r, i] });
  if (r % 10 === 0) kept.push(batch);
}
globalThis.kept = kept;`;

/** This test's own reading of --trace-gc lines: "... ms: <Kind> a (b) -> c (d) MB, <pause> / <background> ms ...". */
function countPauses(text: string): { collections: number; pauseMs: number } {
  let collections = 0;
  let pauseMs = 0;
  for (const line of text.split('\n')) {
    const afterTime = line.split(' ms: ')[1];
    if (afterTime === undefined || !afterTime.includes(' MB, ')) continue;
    collections++;
    pauseMs += parseFloat(afterTime.split(' MB, ')[1]);
  }
  return { collections, pauseMs };
}

describe('GC trace and semi-space sweep in the editor (language server over stdio, recorded now)', function () {
  this.timeout(180_000);
  let dir: string;
  let trace: string;
  let traceText: string;
  let sameRunProfile: string;
  let otherRunProfile: string;
  let server: StdioServer | undefined;
  let connection: MessageConnection;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hotframe-lsp-gctrace-'));
    const run = join(dir, 'run');
    const other = join(dir, 'other');
    mkdirSync(run);
    mkdirSync(other);
    // One run writes both: the trace on stdout, the CPU profile under Node's own name (with its pid).
    const recorded = spawnSync(process.execPath, ['--trace-gc', '--max-semi-space-size=1', '--cpu-prof', '--cpu-prof-dir', run, '-e', GARBAGE], { env: plainNodeEnv(), encoding: 'utf8' });
    assert.equal(recorded.status, 0, recorded.stderr);
    traceText = recorded.stdout;
    trace = join(run, 'gc.log');
    writeFileSync(trace, traceText);
    sameRunProfile = join(run, readdirSync(run).find((f) => f.endsWith('.cpuprofile'))!);
    const another = spawnSync(process.execPath, ['--cpu-prof', '--cpu-prof-dir', other, '-e', GARBAGE], { env: plainNodeEnv(), encoding: 'utf8' });
    assert.equal(another.status, 0, another.stderr);
    otherRunProfile = join(other, readdirSync(other).find((f) => f.endsWith('.cpuprofile'))!);

    server = await startStdioServer();
    connection = server.connection;
  });

  after(() => {
    server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const load = (path: string): Promise<ProfileSummary | null> => connection.sendRequest('hotframe/loadProfile', { path, role: 'primary', pathMappings: [], roots: [dir] });

  it('reads a --trace-gc output by its content (a profile is not one) with the figures of `hotframe profile`', async () => {
    assert.equal(await connection.sendRequest('hotframe/loadGcTrace', { path: sameRunProfile }), null);
    assert.equal(await connection.sendRequest('hotframe/loadGcTrace', { path: dir }), null, 'a folder is not a trace');
    const view = (await connection.sendRequest('hotframe/loadGcTrace', { path: trace })) as GcTraceView;
    const mine = countPauses(traceText);
    assert.ok(mine.collections > 20, `${mine.collections} collections`);
    assert.equal(view.summary.collections, mine.collections);
    assert.ok(Math.abs(view.summary.totalPauseMs - mine.pauseMs) < 1e-6, `${view.summary.totalPauseMs} vs ${mine.pauseMs}`);
    assert.equal(view.name, 'gc.log');
    assert.equal(view.cpuProfile, null, 'no CPU profile loaded yet');
    // The CLI's JSON for the same file: the same summary (rounded to the microsecond there).
    const { cli } = await bundles();
    const printed = spawnSync(process.execPath, [cli, 'profile', trace, '--format', 'json'], { encoding: 'utf8' });
    assert.equal(printed.status, 0, printed.stderr);
    const json = JSON.parse(printed.stdout) as { collections: number; pausePercent: number; meanPauseMs: number; p99PauseMs: number; maxPauseMs: number; byKind: { kind: string; count: number }[] };
    assert.equal(json.collections, view.summary.collections);
    for (const key of ['pausePercent', 'meanPauseMs', 'p99PauseMs', 'maxPauseMs'] as const) assert.ok(Math.abs(json[key] - view.summary[key]) < 0.01, `${key}: ${json[key]} vs ${view.summary[key]}`);
    assert.deepEqual(json.byKind.map((k) => [k.kind, k.count]), view.summary.byKind.map((k) => [k.kind, k.count]));
  });

  it('sets the CPU profile of the same run beside the trace, and not another run\'s', async () => {
    const same = await load(sameRunProfile);
    assert.ok(same !== null);
    const paired = (await connection.sendRequest('hotframe/overview')) as OverviewResult;
    assert.deepEqual(paired.gcTrace?.cpuProfile, { name: same.name, gcPercent: same.gcPercent });
    assert.ok(paired.hotFunctions.length > 0, 'the profile stays loaded beside the trace');
    assert.ok(await load(otherRunProfile));
    const unpaired = (await connection.sendRequest('hotframe/overview')) as OverviewResult;
    assert.equal(unpaired.gcTrace?.name, 'gc.log');
    assert.equal(unpaired.gcTrace?.cpuProfile, null);
    await connection.sendRequest('hotframe/clearProfile');
    assert.equal(((await connection.sendRequest('hotframe/overview')) as OverviewResult).gcTrace, undefined, 'clearing ends the trace too');
  });

  it('refuses a trace request without an absolute path in one line', async () => {
    await assert.rejects(connection.sendRequest('hotframe/loadGcTrace', { path: 'gc.log' }), /loadGcTrace: path must be an absolute file path/);
  });

  it('compares the sweep\'s runs (recorded now by the editor\'s runner) with the GC share counted from their traces', async () => {
    const workload = join(dir, 'garbage.js');
    writeFileSync(workload, GARBAGE);
    const out = join(dir, 'profiles');
    const runs = [];
    for (const size of [1, 8]) {
      const ran = await runAtSemiSpaceSize(size, { command: [process.execPath, workload], cwd: dir, env: {}, outDir: out });
      assert.equal(ran.exitCode, 0);
      runs.push({ sizeMb: size, wallMs: ran.wallMs, exitCode: ran.exitCode, tracePath: ran.tracePath, profilePath: ran.profilePaths[0] ?? null, files: [...ran.profilePaths, ran.tracePath] });
    }
    const result = (await connection.sendRequest('hotframe/semiSpaceSweep', { runs, root: dir })) as SemiSpaceSweepResult;
    assert.deepEqual(result.rows.map((r) => r.sizeMb), [1, 8]);
    for (const [i, row] of result.rows.entries()) {
      const text = readFileSync(runs[i].tracePath, 'utf8');
      const mine = countPauses(text);
      const isolates = new Set(text.split('\n').map((l) => /\[(\d+:0x[0-9a-f]+)\]/.exec(l)?.[1]).filter((x) => x !== undefined)).size;
      // No incremental marking steps in this small run's trace (else they would count too).
      if (!/\(\+ [\d.]+ ms in \d+ steps/.test(text)) assert.ok(Math.abs(row.gcPercent - (mine.pauseMs / (runs[i].wallMs * isolates)) * 100) < 1e-6, `${row.sizeMb} MB: ${row.gcPercent}`);
      assert.ok(row.cpuProfileGcPercent !== null, 'each run recorded a CPU profile');
    }
    // A smaller young generation makes more scavenges.
    assert.ok(result.rows[0].scavenges > result.rows[1].scavenges, JSON.stringify(result.rows));
    assert.match(result.text, /^--max-semi-space-size, one run of the command per size/);
    assert.match(result.text, /\n {2}1 MB .*\n {2}8 MB /);
    assert.match(result.text, /profiles\/node-garbage\.js-semi-space-1MB\.\d{8}\.\d{6}\.\d+\.0\.001\.cpuprofile/);
  });
});
