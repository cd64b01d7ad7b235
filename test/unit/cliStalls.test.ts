// `hotframe profile --stalls` as a process, over the demo's recordings of seed 003's shape (an
// execSync in a stats timer while the service serves requests and Redis messages).
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

import type { StallReport } from '../../server/profile/analysis/stalls';
import { bundles, REPO_ROOT } from './bundles';

const DEMO = join(REPO_ROOT, 'examples', 'demo-app');
const STATS = join(DEMO, 'routes', 'stats.js');

async function hotframe(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const { cli } = await bundles();
  const run = spawnSync(process.execPath, [cli, ...args], { cwd: REPO_ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

async function stallsOf(profile: string, ...args: string[]): Promise<StallReport> {
  const run = await hotframe('profile', join(DEMO, 'profiles', profile), '--root', DEMO, '--stalls', '--format', 'json', ...args);
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as StallReport;
}

describe('hotframe profile --stalls', function () {
  this.timeout(60_000);

  it('names the stats timer execSync line with its stalls, from the .cpuprofile (call line read from source) and from the V8 log (recorded)', async () => {
    for (const [profile, line] of [
      ['before.cpuprofile', 14],
      ['before.v8.log.gz', 17],
    ] as const) {
      const report = await stallsOf(profile);
      assert.equal(report.thresholdMs, 50);
      const stats = report.lines.find((l) => l.file === STATS && l.line === line);
      assert.ok(stats !== undefined, `${profile}: ${JSON.stringify(report.lines.map((l) => [l.file, l.line]))}`);
      assert.equal(stats.call, 'execSync');
      const mine = report.stalls.filter((s) => s.at?.file === STATS && s.at.line === line);
      assert.equal(stats.count, mine.length);
      assert.ok(stats.longestMs > 50);
      // Every stall is longer than the threshold, in time order, and none overlaps the next.
      for (let i = 0; i < report.stalls.length; i++) {
        assert.ok(report.stalls[i]!.durationMs > 50);
        if (i > 0) assert.ok(report.stalls[i]!.startMs >= report.stalls[i - 1]!.startMs + report.stalls[i - 1]!.durationMs - 1e-3);
      }
      // The main module's run is start-up, not counted against any line.
      assert.ok(report.stalls[0]!.startup === true, JSON.stringify(report.stalls[0]));
    }
  });

  it('a higher threshold keeps only the longer stalls', async () => {
    const low = await stallsOf('before.cpuprofile');
    const high = await stallsOf('before.cpuprofile', '--stall-ms', '300');
    assert.ok(high.count < low.count);
    assert.deepEqual(
      high.stalls.map((s) => s.startMs),
      low.stalls.filter((s) => s.durationMs > 300).map((s) => s.startMs),
    );
  });

  it('prints the lines as text, and refuses a threshold that is not a positive number in one line', async () => {
    const text = await hotframe('profile', join(DEMO, 'profiles', 'before.cpuprofile'), '--root', DEMO, '--stalls');
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /event-loop stall\(s\) over 50\.0 ms while serving/);
    assert.match(text.stdout, /routes\/stats\.js:14 {2}\(sampleHostStats → execSync\)/);
    for (const bad of ['0', '-5', 'abc']) {
      const run = await hotframe('profile', join(DEMO, 'profiles', 'before.cpuprofile'), '--stalls', `--stall-ms=${bad}`);
      assert.equal(run.status, 2);
      assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
      assert.match(run.stderr, /--stall-ms/);
    }
  });
});
