// The event-loop monitor of a Hotframe recording joined with the stalls from samples (issue 25):
// the Express server of test/fixtures/stalls (stalls injected at known lines: an execSync that
// sleeps in a timer, pbkdf2Sync in a route) recorded by Hotframe's own recorder (startRecording
// and its preload), driven on loopback by a bounded request loop. The server measures its own
// loop with a 1 ms timer (process.hrtime). Every injected stall the server saw must be one stall
// of the report (from the samples, named by its line) that carries the monitor's gap, the
// monitor's delay within 10% of what the server measured; no injected stall may show again as a
// gap of the monitor alone.
import { strict as assert } from 'node:assert';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { analyzeProfileFile } from '../../server/profile/analysis/report';
import type { StallReport } from '../../server/profile/analysis/stalls';
import { stallsJson, stallsText, withLoopNotes } from '../../server/cli/stallsOutput';
import { removeTemporaryFolder } from '../../server/shared/temporaryFolders';
import { sendRequest } from './loopbackRequest';
import { startRecordedServer } from './recordedServer';

const FIXTURE = resolve(__dirname, '../fixtures/stalls/server.js');
const ROUNDS = 3;
const MAX_PINGS = 600;
const PING_MS = 10;

interface Timing {
  kind: string;
  startUs: number;
  durationMs: number;
}

const pause = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

function markedLine(kind: string): number {
  return readFileSync(FIXTURE, 'utf8').split('\n').findIndex((l) => l.includes(`// stall: ${kind}`)) + 1;
}

describe('event-loop monitor of a Hotframe recording, joined with the stalls from samples (measured)', function () {
  this.timeout(180_000);
  let dir = '';
  let server = '';
  let timings: Timing[] = [];
  let gaps: Timing[] = [];
  let profileStartUs = 0;
  let profile = '';
  let report: StallReport;
  let recordingDir = '';

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hotframe-loop-'));
    server = join(dir, 'server.js');
    copyFileSync(FIXTURE, server);
    const timingFile = join(dir, 'timings.json');
    const { port, recording } = await startRecordedServer([server, timingFile], dir);
    recordingDir = recording.dir;
    // Start-up first: on a loaded machine its last samples can run late, and a stall injected
    // into them would read as start-up.
    await pause(1000);
    let driving = true;
    let pings = 0;
    const background = (async () => {
      while (driving && pings < MAX_PINGS) {
        pings++;
        await sendRequest(port, 'GET', '/ping');
        await pause(PING_MS);
      }
    })();
    try {
      for (let round = 0; round < ROUNDS; round++) {
        await sendRequest(port, 'GET', '/login?rounds=100000');
        await pause(150);
        await sendRequest(port, 'GET', '/stats');
        await pause(500);
      }
    } finally {
      driving = false;
      await background;
      await sendRequest(port, 'GET', '/exit').catch(() => '');
    }
    const result = await recording.done;
    assert.equal(result.code, 0);
    ({ timings, gaps } = JSON.parse(readFileSync(timingFile, 'utf8')) as { timings: Timing[]; gaps: Timing[] });
    profile = result.profiles[0]!.path;
    profileStartUs = (JSON.parse(readFileSync(profile, 'utf8')) as { startTime: number }).startTime;
    const analyzed = await analyzeProfileFile(profile, { root: dir });
    report = withLoopNotes(analyzed.stalls(50), profile)!;
  });

  after(() => {
    rmSync(dir, { recursive: true, force: true });
    // Read where it was recorded (not saved as `hotframe record` would): the temporary folder goes too.
    if (recordingDir !== '') removeTemporaryFolder(recordingDir);
  });

  it('joins each injected stall with the monitor: one stall, its line from the samples, its delay within 10% of what the server measured', () => {
    assert.ok(report.monitor !== undefined, 'the recording notes the event loop beside the profile');
    const toProfile = (t: Timing) => ({ startMs: (t.startUs - profileStartUs) / 1000, durationMs: t.durationMs });
    const overlap = (a: { startMs: number; durationMs: number }, b: { startMs: number; durationMs: number }): number => Math.min(a.startMs + a.durationMs, b.startMs + b.durationMs) - Math.max(a.startMs, b.startMs);
    const blocked = gaps.map(toProfile);
    const expected = timings.filter((t) => blocked.some((g) => overlap(g, toProfile(t)) > 0 && g.durationMs > 60));
    assert.ok(expected.length >= timings.length - 1, `only ${expected.length} of ${timings.length} injected calls blocked the loop over 60 ms`);
    const rows: string[] = [];
    let within = 0;
    for (const t of expected) {
      const call = toProfile(t);
      const gap = blocked.filter((g) => overlap(g, call) > 0).sort((a, b) => b.durationMs - a.durationMs)[0]!;
      const stalls = report.stalls.filter((s) => overlap(s, call) > 0);
      assert.equal(stalls.length, 1, `${t.kind} at ${call.startMs.toFixed(0)} ms: ${JSON.stringify(stalls)}`);
      const stall = stalls[0]!;
      assert.equal(stall.at?.line, markedLine(t.kind), `${t.kind}: ${JSON.stringify(stall)}`);
      assert.ok(stall.loop !== undefined, `${t.kind}: not seen by the monitor: ${JSON.stringify(stall)}`);
      // The monitor saw it once, joined: never again as a gap of the monitor alone.
      assert.ok(!report.monitor.monitorOnly.some((g) => overlap({ startMs: g.fromMs, durationMs: g.toMs - g.fromMs }, call) > 0));
      const error = (stall.loop.delayMs - gap.durationMs) / gap.durationMs;
      if (Math.abs(error) <= 0.1) within++;
      rows.push(`${t.kind}: server's 1 ms timer ${gap.durationMs.toFixed(1)} ms; monitor ${stall.loop.delayMs.toFixed(1)} ms (${(100 * error).toFixed(1)}%); samples ${stall.durationMs.toFixed(1)} ms`);
    }
    console.log(`      ${rows.join('\n      ')}`);
    assert.equal(within, expected.length, rows.join('\n'));
    assert.ok(report.monitor.confirmed >= expected.length);
  });

  it('shows the monitor in the CLI text and JSON', () => {
    const text = stallsText('p.cpuprofile', report, 20, dir);
    assert.match(text, /^ +at +lasted +monitor  line$/m);
    assert.match(text, /^Event-loop monitor \(a 10\.0 ms timer of the recording; "monitor" = how long it saw the loop held over the stall\): \d+ stall\(s\) confirmed, \d+ not seen by it\.$/m);
    const json = stallsJson(report) as { monitor: { tickMs: number }; stalls: { loop?: { delayMs: number } }[] };
    assert.equal(json.monitor.tickMs, 10);
    assert.ok(json.stalls.some((s) => s.loop !== undefined));
  });
});
