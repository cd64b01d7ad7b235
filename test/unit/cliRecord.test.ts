// `hotframe record -- <command>` as a process: a real Node command that starts a child Node
// process is recorded (both processes), stopped by Ctrl+C (SIGINT to the foreground process
// group), and reported; a command that writes no profile is one line and exit 2.
import { strict as assert } from 'node:assert';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { ProfileReport } from '../../server/profile/model/types';
import { bundles } from './bundles';
import { tempFolders } from './tempFolders';

// A parent that runs a child Node process doing the CPU work: both are recorded.
/** Each `record` run is bounded: a run that hangs fails its test instead of the whole suite. */
const RUN_TIMEOUT_MS = 120_000;

const PARENT_AND_CHILD = `const { spawnSync } = require('node:child_process');
function burnInChild(ms) { const end = Date.now() + ms; let x = 0; while (Date.now() < end) x += Math.sqrt(x + 1); return x; }
if (process.argv[2] === 'child') burnInChild(400);
else spawnSync(process.execPath, [__filename, 'child'], { stdio: 'inherit' });
`;

// A service that runs until stopped, without a SIGINT handler of its own. It says 'serving' only
// after 30 ticks of a few ms each have run, so tick outweighs start-up work in the report's top 3
// however slow the machine is.
const SERVICE = `let ticks = 0;
function tick() { let x = 0; for (let i = 0; i < 2e6; i++) x += Math.sqrt(i); if (++ticks === 30) console.log('serving'); return x; }
setInterval(tick, 5);
`;

const temp = tempFolders();

function project(): string {
  const dir = temp.make('hotframe-record-test-');
  writeFileSync(join(dir, 'work.js'), PARENT_AND_CHILD);
  writeFileSync(join(dir, 'service.js'), SERVICE);
  return dir;
}

describe('hotframe record', () => {
  /** The recording stopped by Ctrl+C, stopped for good if the test ends before it does. */
  let interruptible: ChildProcess | undefined;
  after(async () => {
    const child = interruptible;
    if (child !== undefined && child.exitCode === null && child.signalCode === null) {
      const closed = new Promise((done) => child.once('close', done));
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
      await Promise.race([closed, new Promise((done) => setTimeout(done, 10_000))]);
    }
    temp.removeAll();
  });

  it('records the command and the Node processes it starts, and reports the busiest', async () => {
    const { cli } = await bundles();
    const dir = project();
    const run = spawnSync(process.execPath, [cli, 'record', '--out', 'p', '--format', 'json', '--', process.execPath, 'work.js'], { cwd: dir, encoding: 'utf8', timeout: RUN_TIMEOUT_MS });
    assert.equal(run.status, 0, run.stderr);
    const written = readdirSync(join(dir, 'p')).filter((name) => name.endsWith('.cpuprofile'));
    assert.equal(written.length, 2, `two processes, two profiles: ${written.join(', ')}`);
    assert.match(run.stderr, /exited with code 0; 2 CPU profiles in p:/);
    assert.match(run.stderr, /<- the busiest, reported below/);
    const report = JSON.parse(run.stdout) as ProfileReport;
    // The child did the work: its profile is the busiest, and its burn loop is in the report.
    const burn = report.functions.find((f) => f.name === 'burnInChild');
    assert.ok(burn && burn.file.endsWith('work.js'), JSON.stringify(report.functions.slice(0, 5).map((f) => f.name)));
  });

  it('stops on Ctrl+C (SIGINT to the process group) and still writes and reports the profile', async () => {
    const { cli } = await bundles();
    const dir = project();
    // Its own process group, as a terminal's foreground job.
    // The recorder's temporary folder goes to TMPDIR: a fresh one, to see that it is removed.
    const tmp = temp.make('hotframe-tmp-');
    const child = spawn(process.execPath, [cli, 'record', '--out', 'p', '--top', '3', '--', process.execPath, 'service.js'], { cwd: dir, detached: true, env: { ...process.env, TMPDIR: tmp } });
    interruptible = child;
    let stdout = '';
    let stderr = '';
    let interrupted = false;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (!interrupted && stdout.includes('serving')) {
        interrupted = true;
        process.kill(-child.pid!, 'SIGINT');
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    assert.equal(code, 0, stderr);
    assert.match(stderr, /exited with code 130; 1 CPU profile in p:/);
    assert.match(stdout, /tick \(user\)/);
    // The profile, and the notes of what its process served beside it (issue 25).
    const saved = readdirSync(join(dir, 'p')).sort();
    assert.equal(saved.length, 2, saved.join(', '));
    assert.equal(saved[1], `${saved[0]}.serving.json`);
    assert.deepEqual(readdirSync(tmp), [], 'no temporary folder after Ctrl+C');
  });

  it('says in one line when no Node process wrote a profile, and when the command is missing', async () => {
    const { cli } = await bundles();
    const dir = project();
    const none = spawnSync(process.execPath, [cli, 'record', '--', 'sh', '-c', 'exit 3'], { cwd: dir, encoding: 'utf8', timeout: RUN_TIMEOUT_MS });
    assert.equal(none.status, 2);
    assert.match(none.stderr, /^hotframe: record: the command exited with code 3 and no Node process wrote a CPU profile/);
    assert.equal(none.stderr.trim().split('\n').length, 1);
    const missing = spawnSync(process.execPath, [cli, 'record', '--out', 'p'], { cwd: dir, encoding: 'utf8', timeout: RUN_TIMEOUT_MS });
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /no command after `--`/);
    const notFound = spawnSync(process.execPath, [cli, 'record', '--', 'no-such-program-hotframe'], { cwd: dir, encoding: 'utf8', timeout: RUN_TIMEOUT_MS });
    assert.equal(notFound.status, 2);
    assert.match(notFound.stderr, /cannot run no-such-program-hotframe: ENOENT/);
  });

  it('saves the profiles named by the command and time, and leaves no temporary folder, whatever happened (issue 24)', async () => {
    const { cli } = await bundles();
    const dir = project();
    // The recorder's temporary folders go to TMPDIR: a fresh one, so nothing else writes there.
    const tmp = temp.make('hotframe-tmp-');
    const env = { ...process.env, TMPDIR: tmp };
    const leftovers = (): string[] => readdirSync(tmp).filter((name) => name.startsWith('hotframe-record-'));
    const ok = spawnSync(process.execPath, [cli, 'record', '--out', 'p', '--format', 'json', '--', process.execPath, 'work.js'], { cwd: dir, encoding: 'utf8', env, timeout: RUN_TIMEOUT_MS });
    assert.equal(ok.status, 0, ok.stderr);
    // Each profile with the notes of what its process served (issue 25) under the same name.
    const written = readdirSync(join(dir, 'p')).sort();
    assert.equal(written.length, 4, written.join(', '));
    for (const name of written) assert.match(name, /^node-work\.js\.\d{8}\.\d{6}\.\d+\.0\.001\.cpuprofile(\.serving\.json)?$/);
    assert.deepEqual(leftovers(), [], 'after a recording');
    // The report shows none of the recorder's own frames.
    const report = JSON.parse(ok.stdout) as ProfileReport;
    assert.ok(!report.functions.some((f) => f.file.includes('hotframe-recorder')), JSON.stringify(report.functions.map((f) => f.file)));
    assert.ok(!report.unresolvedFiles.some((file) => file.includes('hotframe-recorder')), report.unresolvedFiles.join(', '));
    // Recorded again in the same second: the second run's files are beside the first's, not over them.
    const again = spawnSync(process.execPath, [cli, 'record', '--out', 'p', '--', process.execPath, 'work.js'], { cwd: dir, encoding: 'utf8', env, timeout: RUN_TIMEOUT_MS });
    assert.equal(again.status, 0, again.stderr);
    assert.equal(readdirSync(join(dir, 'p')).filter((name) => name.endsWith('.cpuprofile')).length, 4);
    // A command that writes no profile, one that cannot start, one stopped by a signal.
    assert.equal(spawnSync(process.execPath, [cli, 'record', '--', 'sh', '-c', 'exit 3'], { cwd: dir, encoding: 'utf8', env, timeout: RUN_TIMEOUT_MS }).status, 2);
    assert.equal(spawnSync(process.execPath, [cli, 'record', '--', 'no-such-program-hotframe'], { cwd: dir, encoding: 'utf8', env, timeout: RUN_TIMEOUT_MS }).status, 2);
    const killed = spawnSync(process.execPath, [cli, 'record', '--out', 'k', '--', process.execPath, '-e', 'process.kill(process.pid, "SIGKILL")'], { cwd: dir, encoding: 'utf8', env, timeout: RUN_TIMEOUT_MS });
    assert.equal(killed.status, 2, killed.stderr);
    assert.deepEqual(leftovers(), [], 'after the failures');
  });
});
