// Hotframe's temporary folders over a real folder and real processes: what a process made goes
// when it exits, what a killed one left goes at the next sweep (run, as the extension runs it, by
// a process started afterwards), and nothing the sweep cannot prove Hotframe's and abandoned goes.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { keepTemporaryFolder, makeTemporaryFolder, removeLeftTemporaryFolders, removeOwnTemporaryFolders, removeTemporaryFolder, TEMPORARY_MARKER } from './temporaryFolders';

const MODULE = join(__dirname, 'temporaryFolders.ts');

/** Runs `code` in a new Node process with the module as `folders`; its stdout, and how it ended. */
function inNewProcess(code: string, root: string): { out: string; pid: number; signal: NodeJS.Signals | null } {
  const script = `const folders = require(${JSON.stringify(MODULE)}); const root = ${JSON.stringify(root)}; const say = (s) => require('node:fs').writeSync(1, s + '\\n'); say(String(process.pid));\n${code}`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(run.error, undefined);
  assert.equal(run.stderr.trim(), '');
  const [pid, ...out] = run.stdout.trim().split('\n');
  return { out: out.join('\n'), pid: Number(pid), signal: run.signal };
}

describe('temporary folders (a recording\'s, a capture\'s)', function () {
  this.timeout(120_000);
  let root = '';
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'hotframe-folders-test-'))));
  afterEach(() => {
    removeOwnTemporaryFolders();
    rmSync(root, { recursive: true, force: true });
  });

  it('are made with a marker naming their process, and removed by it', () => {
    const dir = makeTemporaryFolder('record', root);
    assert.match(dir, /[/\\]hotframe-record-[A-Za-z0-9]{6}$/);
    assert.deepEqual(JSON.parse(readFileSync(join(dir, TEMPORARY_MARKER), 'utf8')), { pid: process.pid });
    const scratch = makeTemporaryFolder('attach', root);
    assert.match(scratch, /[/\\]hotframe-attach-[A-Za-z0-9]{6}$/);
    removeTemporaryFolder(dir);
    assert.equal(existsSync(dir), false);
    removeOwnTemporaryFolders();
    assert.deepEqual(readdirSync(root), []);
  });

  it('go when their process exits, except a folder handed over (kept marked) or kept for the user (unmarked); a killed process leaves its own', () => {
    const exited = inNewProcess(
      `folders.removeOwnTemporaryFoldersAtExit();
const gone = folders.makeTemporaryFolder('attach', root);
const handed = folders.makeTemporaryFolder('record', root); folders.handOverTemporaryFolder(handed);
const kept = folders.makeTemporaryFolder('record', root); folders.keepTemporaryFolder(kept);
say(JSON.stringify({ gone, handed, kept }));
process.exit(0);`,
      root,
    );
    const { gone, handed, kept } = JSON.parse(exited.out) as Record<string, string>;
    assert.equal(existsSync(gone), false);
    assert.equal(existsSync(join(handed, TEMPORARY_MARKER)), true);
    assert.equal(existsSync(kept), true);
    assert.equal(existsSync(join(kept, TEMPORARY_MARKER)), false);
    const killed = inNewProcess(`folders.removeOwnTemporaryFoldersAtExit(); say(folders.makeTemporaryFolder('record', root)); process.kill(process.pid, 'SIGKILL');`, root);
    assert.equal(killed.signal, 'SIGKILL');
    assert.equal(existsSync(join(killed.out, TEMPORARY_MARKER)), true);
  });

  it('left by a process that has ended are removed by a later sweep, and nothing else is', async () => {
    const left = inNewProcess(`say(folders.makeTemporaryFolder('record', root)); say(folders.makeTemporaryFolder('attach', root)); process.kill(process.pid, 'SIGKILL');`, root);
    const [leftRecord, leftScratch] = left.out.split('\n');
    writeFileSync(join(leftScratch, 'exit-profile.json'), '{}');
    const deadMarker = JSON.stringify({ pid: left.pid });
    // Alive: this process made it (and is older than the sweeping process).
    const live = makeTemporaryFolder('record', root);
    // Named as ours, no marker (an older Hotframe's, or anyone's).
    const unmarked = mkdtempSync(join(root, 'hotframe-record-'));
    // A marker of an ended process in folders not named as mkdtemp names ours.
    const misnamed = ['hotframe-record-abc', 'hotframe-record-abcdefg', 'hotframe-recorded-abcdef', 'other-abcdef'].map((name) => {
      mkdirSync(join(root, name));
      writeFileSync(join(root, name, TEMPORARY_MARKER), deadMarker);
      return join(root, name);
    });
    // A link named as ours, to a folder marked as left: neither followed nor removed.
    const elsewhere = join(root, 'elsewhere');
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, TEMPORARY_MARKER), deadMarker);
    symlinkSync(elsewhere, join(root, 'hotframe-record-linked'));
    // A marker that is a link, or is not ours in its content.
    const linkedMarker = mkdtempSync(join(root, 'hotframe-attach-'));
    symlinkSync(join(elsewhere, TEMPORARY_MARKER), join(linkedMarker, TEMPORARY_MARKER));
    const badMarkers = ['not json', '{"pid":"1"}', '{"pid":-3}', '{}', JSON.stringify({ pid: left.pid, pad: 'x'.repeat(300) })].map((text) => {
      const dir = mkdtempSync(join(root, 'hotframe-record-'));
      writeFileSync(join(dir, TEMPORARY_MARKER), text);
      return dir;
    });

    // A sweeping process that started before the folders were made leaves them all.
    assert.deepEqual(await removeLeftTemporaryFolders(root, performance.timeOrigin), []);
    // A process started afterwards (the next activation) removes exactly the two left behind.
    const swept = inNewProcess(`folders.removeLeftTemporaryFolders(root).then((removed) => say(JSON.stringify(removed.sort())));`, root);
    assert.deepEqual(JSON.parse(swept.out), [leftRecord, leftScratch].sort());
    assert.equal(existsSync(leftRecord), false);
    assert.equal(existsSync(leftScratch), false);
    for (const dir of [live, unmarked, ...misnamed, elsewhere, join(root, 'hotframe-record-linked'), linkedMarker, ...badMarkers]) assert.equal(existsSync(dir), true, `${dir} was removed`);
    assert.equal(existsSync(join(elsewhere, TEMPORARY_MARKER)), true);
    // A folder kept for the user has no marker: it stays after its process ended too.
    keepTemporaryFolder(live);
    assert.equal(existsSync(join(live, TEMPORARY_MARKER)), false);
  });
});
