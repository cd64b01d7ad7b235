// `hotframe attach` as a process, on real targets: the cases that must answer in one line (not a
// Node process, no such process, no permission, the port taken, the process exiting during the
// capture with what it recorded kept), a process already listening (--inspector URL, and by pid)
// whose port stays open, and an allocation capture.
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, copyFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';

import { listeningSocketsOf } from '../../server/attach/procfs';
import { freePort, functionNames, runCli } from './attachService';
import { CLI_PARTS } from '../../scripts/cliParts.mjs';
import { bundles } from './bundles';
import { tempFolders } from './tempFolders';

// A small service: busy in a named function every few ms, until killed.
const BUSY = `function attachTargetWork() { let x = 0; for (let i = 0; i < 2e6; i++) x += Math.sqrt(i); return x; }
setInterval(attachTargetWork, 10);
// EXIT_AFTER_ATTACH_MS: exits that long after its inspector first opened (a capture began), however slow the machine.
if (process.env.EXIT_AFTER_ATTACH_MS) {
  const watch = setInterval(() => {
    if (require('node:inspector').url() === undefined) return;
    clearInterval(watch);
    setTimeout(() => process.exit(0), Number(process.env.EXIT_AFTER_ATTACH_MS));
  }, 1);
}
console.log('ready');`;

const started: ChildProcess[] = [];

/** Starts a Node target and resolves once it has printed 'ready' (its stderr is kept). */
function startTarget(args: string[], env: Record<string, string> = {}): Promise<{ child: ChildProcess; stderr: () => string }> {
  const child = spawn(process.execPath, [...args, '-e', BUSY], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.stdout!.once('data', () => resolve({ child, stderr: () => stderr })));
}

function oneLine(stderr: string): string {
  const lines = stderr.trim().split('\n').filter((l) => !l.startsWith('hotframe: attaching'));
  assert.equal(lines.length, 1, `one line: ${stderr}`);
  return lines[0];
}

describe('hotframe attach: targets and one-line answers', function () {
  this.timeout(60_000);
  const temp = tempFolders();
  const cwd = temp.make('hotframe-attach-cases-');

  after(() => {
    for (const child of started) child.kill();
    temp.removeAll();
  });

  it('refuses a process that is not Node, without signalling it', async () => {
    const { cli } = await bundles();
    const sleeper = spawn('sleep', ['30']);
    started.push(sleeper);
    const run = await runCli(cli, ['attach', String(sleeper.pid), '--duration', '1'], cwd);
    assert.equal(run.code, 2);
    assert.match(oneLine(run.stderr), new RegExp(`^hotframe: process ${sleeper.pid} \\(sleep 30\\): not a Node process \\(it runs sleep\\)$`));
    assert.equal(sleeper.exitCode, null, 'the process still runs (SIGUSR1 would have ended it)');
    assert.equal(sleeper.signalCode, null);
  });

  it('says when there is no such process, and when the argument is not a pid', async () => {
    const { cli } = await bundles();
    const gone = spawn(process.execPath, ['-e', '0']);
    await new Promise((resolve) => gone.once('exit', resolve));
    const run = await runCli(cli, ['attach', String(gone.pid), '--duration', '1'], cwd);
    assert.equal(run.code, 2);
    assert.equal(oneLine(run.stderr), `hotframe: process ${gone.pid}: no such process`);
    const bad = await runCli(cli, ['attach', '12x'], cwd);
    assert.equal(bad.code, 2);
    assert.match(oneLine(bad.stderr), /^hotframe: attach: '12x' is not a process id/);
  });

  it('says when it has no permission (a process of another user)', async () => {
    const { cli } = await bundles();
    const target = await startTarget([]);
    let run;
    if (process.getuid?.() === 0) {
      // As root: the CLI runs as nobody against this root-owned Node process.
      const dir = temp.make('hotframe-attach-nobody-');
      chmodSync(dir, 0o755);
      // The CLI and the bundles it loads beside it (scripts/cliParts.mjs).
      copyFileSync(cli, join(dir, 'cli.js'));
      for (const part of CLI_PARTS) copyFileSync(join(dirname(cli), part.file), join(dir, part.file));
      run = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [join(dir, 'cli.js'), 'attach', String(target.child.pid), '--duration', '1'], { cwd: dir, uid: 65534, gid: 65534 });
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.on('close', (code) => resolve({ code, stderr }));
      });
    } else {
      run = await runCli(cli, ['attach', '1', '--duration', '1'], cwd);
    }
    assert.equal(run.code, 2);
    assert.match(oneLine(run.stderr), /no permission to signal it \(it runs as another user; attach as that user\)$/);
  });

  it('says which process holds the inspector port', async () => {
    const { cli } = await bundles();
    const port = await freePort();
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
    try {
      const target = await startTarget([`--inspect-port=${port}`]);
      const run = await runCli(cli, ['attach', String(target.child.pid), '--duration', '1'], cwd);
      assert.equal(run.code, 2);
      assert.match(oneLine(run.stderr), new RegExp(`^hotframe: process ${target.child.pid}: its inspector port ${port} is taken by process ${process.pid} \\(`));
      assert.equal(target.child.exitCode, null, 'the target still runs');
    } finally {
      holder.close();
    }
  });

  it('keeps what was recorded when the process exits during the capture', async () => {
    const { cli } = await bundles();
    const target = await startTarget([`--inspect-port=${await freePort()}`], { EXIT_AFTER_ATTACH_MS: '1500' });
    const run = await runCli(cli, ['attach', String(target.child.pid), '--duration', '8', '--out', 'exited', '--format', 'json'], cwd);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, new RegExp(`process ${target.child.pid}: exited during the capture; kept its main thread's profile up to the exit`));
    const files = readdirSync(join(cwd, 'exited'));
    assert.equal(files.length, 1, files.join(', '));
    assert.ok(functionNames(join(cwd, 'exited', files[0])).has('attachTargetWork'));
  });

  it('uses an inspector already listening (--inspector URL, and by pid) and leaves its port open', async () => {
    const { cli } = await bundles();
    const port = await freePort();
    const target = await startTarget([`--inspect=127.0.0.1:${port}`]);
    const byUrl = await runCli(cli, ['attach', '--inspector', `127.0.0.1:${port}`, '--duration', '1', '--out', 'url', '--format', 'json'], cwd);
    assert.equal(byUrl.code, 0, byUrl.stderr);
    assert.ok(functionNames(join(cwd, 'url', readdirSync(join(cwd, 'url')).find((f) => f.endsWith('.cpuprofile'))!)).has('attachTargetWork'));
    assert.ok(listeningSocketsOf(target.child.pid!).some((s) => s.port === port), 'still listening after --inspector');
    const byPid = await runCli(cli, ['attach', String(target.child.pid), '--duration', '1', '--out', 'pid', '--format', 'json'], cwd);
    assert.equal(byPid.code, 0, byPid.stderr);
    assert.ok(listeningSocketsOf(target.child.pid!).some((s) => s.port === port), 'still listening after attaching by pid');
    const far = await runCli(cli, ['attach', '--inspector', 'ws://10.0.0.1:9229/x', '--duration', '1'], cwd);
    assert.equal(far.code, 2);
    assert.match(far.stderr, /10\.0\.0\.1: not a loopback address/);
  });

  it('captures an allocation profile (--kind allocation) and closes the port it opened', async () => {
    const { cli } = await bundles();
    const port = await freePort();
    const target = await startTarget([`--inspect-port=${port}`]);
    const run = await runCli(cli, ['attach', String(target.child.pid), '--kind', 'allocation', '--duration', '1', '--out', 'alloc', '--format', 'json'], cwd);
    assert.equal(run.code, 0, run.stderr);
    const files = readdirSync(join(cwd, 'alloc'));
    assert.ok(files.length === 1 && files[0].endsWith('.heapprofile'), files.join(', '));
    const report = JSON.parse(run.stdout) as { unit: string };
    assert.equal(report.unit, 'bytes');
    assert.ok(!listeningSocketsOf(target.child.pid!).some((s) => s.port === port), 'the port Hotframe opened is closed');
  });
});
