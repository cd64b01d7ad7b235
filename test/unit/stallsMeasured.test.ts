// Event-loop stalls measured, not asserted: a real Express server (test/fixtures/stalls/server.js)
// on loopback, recorded with node --cpu-prof, with stalls injected at known lines (an execSync
// that sleeps in a timer, JSON.parse of a large body, pbkdf2Sync, a backtracking regular
// expression) while this test keeps a bounded stream of light requests going. The server measures
// itself (process.hrtime, the clock of the profile's timestamps): each blocking call, and how long
// its loop was blocked around it (a 1 ms timer's gap). The profile's stalls must name the right line
// for >= 95% of the calls, with durations within 10% of the blocked time the server saw (for >= 85%
// of them: see the note at the assertion).
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { buildDiagnostics, STALL_CODE } from '../../server/lsp/diagnostics';
import { analyzeProfileFile, type AnalyzedProfile } from '../../server/profile/analysis/report';
import { analyzeSource } from '../../server/static/engine';
import type { StallReport } from '../../server/profile/analysis/stalls';
import { nodeRoutesFor } from '../../server/cli/routesOutput';
import { sendRequest } from './loopbackRequest';
import { tempFolders } from './tempFolders';

const FIXTURE = resolve(__dirname, '../fixtures/stalls/server.js');
const NODE_MODULES = resolve(__dirname, '../../node_modules');
const ROUNDS = 6;
/** Background requests: at most this many, one every PING_MS, while the stalls are driven. */
const MAX_PINGS = 1500;
const PING_MS = 10;

interface Timing {
  kind: string;
  startUs: number;
  durationMs: number;
}


const get = (port: number, path: string, body?: string): Promise<string> =>
  sendRequest(port, body === undefined ? 'GET' : 'POST', path, body === undefined ? undefined : { text: body, contentType: 'application/json' });

const pause = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

/** The line of the fixture marked `// stall: <kind>`. */
function markedLine(kind: string): number {
  const lines = readFileSync(FIXTURE, 'utf8').split('\n');
  const index = lines.findIndex((l) => l.includes(`// stall: ${kind}`));
  assert.ok(index >= 0, kind);
  return index + 1;
}

describe('event-loop stalls of a real Express server (measured)', function () {
  this.timeout(120_000);
  const temp = tempFolders();
  let dir = '';
  let child: ChildProcess | undefined;
  /** The server runs from a temporary folder (the static rules treat files under test/ as tooling). */
  let SERVER = '';
  let timings: Timing[] = [];
  let gaps: Timing[] = [];
  let profileStartUs = 0;
  let stalls: StallReport;
  let analyzed: AnalyzedProfile;

  before(async () => {
    dir = temp.make('hotframe-stalls-');
    SERVER = join(dir, 'server.js');
    copyFileSync(FIXTURE, SERVER);
    const timingFile = join(dir, 'timings.json');
    const serverProcess = spawn(process.execPath, ['--cpu-prof', '--cpu-prof-dir', join(dir, 'prof'), SERVER, timingFile], {
      cwd: dir,
      env: { ...process.env, NODE_PATH: NODE_MODULES },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child = serverProcess;
    const exited = new Promise<number | null>((done) => serverProcess.on('exit', done));
    const port = await new Promise<number>((done, fail) => {
      serverProcess.stdout.once('data', (chunk: Buffer) => done(JSON.parse(chunk.toString()).port as number));
      serverProcess.once('exit', () => fail(new Error('the server exited before listening')));
    });
    let driving = true;
    let pings = 0;
    const background = (async () => {
      while (driving && pings < MAX_PINGS) {
        pings++;
        await get(port, '/ping');
        await pause(PING_MS);
      }
    })();
    const body = JSON.stringify(Array.from({ length: 200_000 }, (_, i) => ({ id: i, title: `task ${i}`, done: i % 3 === 0 })));
    try {
      for (let round = 0; round < ROUNDS; round++) {
        await get(port, '/import', body);
        await pause(150);
        await get(port, '/login?rounds=100000');
        await pause(150);
        await get(port, '/validate?n=23');
        await pause(150);
        await get(port, '/stats');
        await pause(500);
      }
    } finally {
      driving = false;
      await background;
      await get(port, '/exit').catch(() => '');
    }
    assert.equal(await exited, 0);
    ({ timings, gaps } = JSON.parse(readFileSync(timingFile, 'utf8')) as { timings: Timing[]; gaps: Timing[] });
    const file = join(dir, 'prof', readdirSync(join(dir, 'prof'))[0]!);
    profileStartUs = (JSON.parse(readFileSync(file, 'utf8')) as { startTime: number }).startTime;
    analyzed = await analyzeProfileFile(file, { root: dir });
    stalls = analyzed.stalls(50)!;
  });

  after(async () => {
    // A server left running by a failed start is stopped (bounded) before its folder goes.
    if (child !== undefined && child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((done) => child!.once('exit', done));
      child.kill('SIGKILL');
      await Promise.race([gone, pause(10_000)]);
    }
    temp.removeAll();
  });

  it('names the injected line for >= 95% of the stalls, with durations within 10% of what the server measured for >= 85%', () => {
    assert.equal(timings.length, 4 * ROUNDS);
    let named = 0;
    let withinTenPercent = 0;
    const rows: string[] = [];
    const toProfile = (t: Timing) => ({ startMs: (t.startUs - profileStartUs) / 1000, durationMs: t.durationMs });
    /** The span of `among` that overlaps `span` most. */
    const overlapping = <T extends { startMs: number; durationMs: number }>(span: { startMs: number; durationMs: number }, among: T[]): T | undefined => {
      const overlap = (s: T): number => Math.min(s.startMs + s.durationMs, span.startMs + span.durationMs) - Math.max(s.startMs, span.startMs);
      return among.filter((s) => overlap(s) > 0).sort((a, b) => overlap(b) - overlap(a))[0];
    };
    const blocked = gaps.map(toProfile);
    // The injected calls that blocked the loop clearly longer than the 50 ms threshold (a machine
    // quicker than expected can make one shorter: it is then not a stall to find).
    const expected = timings.filter((t) => (overlapping(toProfile(t), blocked)?.durationMs ?? 0) > 60);
    assert.ok(expected.length >= 0.75 * timings.length, `only ${expected.length} of ${timings.length} injected calls blocked the loop over 60 ms`);
    for (const t of expected) {
      const call = toProfile(t);
      const stall = overlapping(call, stalls.stalls);
      const gap = overlapping(call, blocked);
      const line = markedLine(t.kind);
      const right = stall?.at?.file === SERVER && stall.at.line === line;
      const error = stall === undefined || gap === undefined ? Infinity : (stall.durationMs - gap.durationMs) / gap.durationMs;
      if (right) named++;
      if (Math.abs(error) <= 0.1) withinTenPercent++;
      rows.push(
        `${t.kind}: call ${t.durationMs.toFixed(1)} ms, loop blocked ${gap?.durationMs.toFixed(1) ?? '?'} ms; ` +
          `profile: ${stall === undefined ? 'no stall' : `${stall.durationMs.toFixed(1)} ms (${(100 * error).toFixed(1)}%) at line ${stall.at?.line ?? 'unnamed'}`}`,
      );
    }
    const report = rows.join('\n');
    assert.ok(named >= 0.95 * expected.length, `right line for ${named}/${expected.length}:\n${report}`);
    // On a shared 2-core machine the sampler thread is sometimes starved for 20-40 ms, which moves a
    // stall's first or last sample by as much: 21-22 of 24 were within 10% in development runs, the
    // others within 20%.
    assert.ok(withinTenPercent >= 0.85 * expected.length, `within 10% for ${withinTenPercent}/${expected.length}:\n${report}`);
    console.log(`      ${named}/${expected.length} named right, ${withinTenPercent}/${expected.length} within 10%\n      ${rows.join('\n      ')}`);
  });

  it('sums the stalls per line: one line per injected kind, its count, longest and total', () => {
    for (const kind of ['execSync', 'JSON.parse', 'pbkdf2Sync', 'regex']) {
      const line = stalls.lines.find((l) => l.file === SERVER && l.line === markedLine(kind));
      assert.ok(line !== undefined, `${kind}: ${JSON.stringify(stalls.lines)}`);
      const mine = stalls.stalls.filter((s) => s.at?.file === SERVER && s.at.line === line.line && s.startup !== true);
      assert.equal(line.count, mine.length);
      assert.equal(line.longestMs, Math.max(...mine.map((s) => s.durationMs)));
      assert.ok(Math.abs(line.totalMs - mine.reduce((sum, s) => sum + s.durationMs, 0)) < 1e-6);
      const injected = timings.filter((t) => t.kind === kind && t.durationMs > 60).length;
      assert.ok(line.count >= 0.95 * injected, `${kind}: ${line.count} stalls for ${injected} injected over 60 ms`);
    }
  });

  it('names the route each stall served, from the registrations in the source; a stall in a timer serves none', () => {
    const routed = analyzed.stalls(50, nodeRoutesFor(analyzed, dir))!;
    const routesOf = (kind: string): Set<string | undefined> => new Set(routed.stalls.filter((s) => s.at?.line === markedLine(kind)).map((s) => s.route));
    assert.deepEqual(routesOf('JSON.parse'), new Set(['POST /import']));
    assert.deepEqual(routesOf('pbkdf2Sync'), new Set(['GET /login']));
    assert.deepEqual(routesOf('regex'), new Set(['GET /validate']));
    assert.deepEqual(routesOf('execSync'), new Set([undefined]));
    const line = routed.lines.find((l) => l.line === markedLine('pbkdf2Sync'))!;
    assert.deepEqual(line.routes, ['GET /login']);
  });

  it('in the editor: the blocking-sync-call finding carries its line\'s stalls, and a stall line without a finding gets a note of its own', () => {
    const table = analyzed.costTable();
    assert.equal(table.stallThresholdMs, 50);
    const lines = table.files[SERVER]?.stalls ?? [];
    const { findings } = analyzeSource({ filePath: SERVER, text: readFileSync(SERVER, 'utf8') });
    const diagnostics = buildDiagnostics(SERVER, findings, [], { costOf: () => null, hotThresholdPercent: () => 1, insightsFor: () => [], stallsFor: () => ({ thresholdMs: 50, lines }) }, () => 80);
    const pbkdf2 = lines.find((l) => l.line === markedLine('pbkdf2Sync'))!;
    const onPbkdf2 = diagnostics.filter((d) => d.range.start.line === pbkdf2.line - 1);
    assert.deepEqual(onPbkdf2.map((d) => d.code), ['blocking-sync-call']);
    assert.match(onPbkdf2[0]!.message, new RegExp(`in this profile it stalled the event loop ${pbkdf2.count} times \\(stalls over 50\\.0 ms\\): longest `));
    const regex = diagnostics.filter((d) => d.range.start.line === markedLine('regex') - 1);
    assert.deepEqual(regex.map((d) => d.code), [STALL_CODE]);
    assert.match(regex[0]!.message, /stalled the event loop \d+ times/);
  });
});
