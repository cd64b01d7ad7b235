// Where a recording is saved (issue 24): the editor's folder setting kept inside the workspace,
// names made of the command and its start time, and the temporary folder removed once saved.
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

import { processThreadOf } from '../profile/model/mergeProfiles';
import { captureTarget, commandSlug, keepRecording, recordingFileName, recordingsFolderIn } from './recordingFiles';
import { makeTemporaryFolder, TEMPORARY_MARKER } from './temporaryFolders';

describe('recordingsFolderIn (hotframe.recordingsFolder)', () => {
  const workspace = '/home/me/app';

  it('resolves the folder inside the workspace, profiles/ by default', () => {
    assert.deepEqual(recordingsFolderIn(workspace, undefined), { dir: '/home/me/app/profiles' });
    assert.deepEqual(recordingsFolderIn(workspace, '  '), { dir: '/home/me/app/profiles' });
    assert.deepEqual(recordingsFolderIn(workspace, 'out/recordings'), { dir: '/home/me/app/out/recordings' });
    assert.deepEqual(recordingsFolderIn(workspace, '.'), { dir: '/home/me/app' });
  });

  it('refuses a folder outside the workspace, saying which setting and why', () => {
    for (const value of ['/tmp/p', '../p', 'a/../../p', 'a/..', '~/p', 'C:\\p', '\\\\server\\share', 'a\u0000b']) {
      const out = recordingsFolderIn(workspace, value);
      assert.ok('error' in out, `${JSON.stringify(value)} was accepted: ${JSON.stringify(out)}`);
      assert.match(out.error, /^hotframe\.recordingsFolder .* it must be a folder inside the workspace/);
    }
  });
});

describe('recording file names', () => {
  it('are made of the command words, sanitized, never hidden or empty', () => {
    assert.equal(commandSlug(['npm', 'run', 'start']), 'npm-run-start');
    assert.equal(commandSlug(['/usr/bin/node', '/srv/app/server.js', '--port', '3000']), 'node-server.js-port-3000');
    assert.equal(commandSlug(['node', '../x/$(id) `a`;b.js']), 'node-id-a-b.js');
    assert.equal(commandSlug(['.hidden']), 'hidden');
    assert.equal(commandSlug(['//', '...']), 'recording');
    assert.ok(commandSlug(['node', 'x'.repeat(500)]).length <= 60);
  });

  it('say when it started and which process (and thread) each profile is', () => {
    const at = new Date(2026, 10, 28, 2, 32, 26).getTime();
    assert.equal(recordingFileName(['npm', 'start'], at, 'CPU.20261128.023226.4242.0.001.cpuprofile'), 'npm-start.20261128.023226.4242.0.001.cpuprofile');
    assert.equal(recordingFileName(['node', 'a.js'], at, 'Heap.20261128.023226.7.3.001.heapprofile', 2), 'node-a.js.20261128.023226.7.3.002.heapprofile');
    // hotframe profile FOLDER reads the process and thread of each.
    assert.equal(processThreadOf(recordingFileName(['node', 'a.js'], at, 'Heap.20261128.023226.7.3.001.heapprofile')), '7:3');
    assert.equal(recordingFileName(['node'], at, 'other.cpuprofile'), 'node.20261128.023226.0.0.001.cpuprofile');
  });
});

describe('keepRecording', () => {
  let root = '';
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'hotframe-keep-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** A temporary recording folder as startRecording leaves it: the preload and two profiles. */
  function recorded(): { dir: string; paths: string[] } {
    const dir = makeTemporaryFolder('record', root);
    writeFileSync(join(dir, 'hotframe-recorder.cjs'), '');
    const paths = ['CPU.20261128.023226.11.0.001.cpuprofile', 'CPU.20261128.023227.12.0.001.cpuprofile'].map((name, i) => {
      writeFileSync(join(dir, name), `{"n":${i}}`);
      return join(dir, name);
    });
    return { dir, paths };
  }

  it('copies the profiles into the folder, never over a file, and removes the temporary folder', () => {
    const workspace = join(root, 'ws');
    mkdirSync(workspace);
    const outDir = join(workspace, 'profiles');
    const first = recorded();
    const target = { outDir, argv: ['node', 'server.js'], startedAt: new Date(2026, 10, 28, 2, 32, 26).getTime(), workspace };
    const saved = keepRecording(first.dir, first.paths, target);
    assert.deepEqual(saved, [join(outDir, 'node-server.js.20261128.023226.11.0.001.cpuprofile'), join(outDir, 'node-server.js.20261128.023227.12.0.001.cpuprofile')]);
    assert.equal(readFileSync(saved[1], 'utf8'), '{"n":1}');
    assert.equal(existsSync(first.dir), false);
    const second = recorded();
    const again = keepRecording(second.dir, second.paths, target);
    assert.deepEqual(again, saved.map((path) => path.replace('.001.cpuprofile', '.002.cpuprofile')));
    assert.equal(readdirSync(outDir).length, 4);
  });

  it('removes the temporary folder when nothing was recorded', () => {
    const { dir } = recorded();
    assert.deepEqual(keepRecording(dir, [], { outDir: join(root, 'p'), argv: ['x'], startedAt: 0 }), []);
    assert.equal(existsSync(dir), false);
  });

  it('keeps the profiles where they are, and says where, when the folder leads out of the workspace through a link', () => {
    const workspace = join(root, 'ws');
    const outside = join(root, 'elsewhere');
    mkdirSync(workspace);
    mkdirSync(outside);
    symlinkSync(outside, join(workspace, 'profiles'));
    const { dir, paths } = recorded();
    assert.throws(() => keepRecording(dir, paths, { outDir: join(workspace, 'profiles'), argv: ['node'], startedAt: 0, workspace }), (error: Error) => error.message.includes('leads out of the workspace') && error.message.includes(`they are still in ${dir}`));
    assert.deepEqual(readdirSync(outside), []);
    assert.equal(existsSync(paths[0]), true);
    // The user is told to find them there: no longer marked temporary, so no later sweep removes them.
    assert.equal(existsSync(join(dir, TEMPORARY_MARKER)), false);
    // Nothing is created out there either, for a folder below the link.
    assert.throws(() => keepRecording(dir, paths, { outDir: join(workspace, 'profiles', 'today'), argv: ['node'], startedAt: 0, workspace }), /leads out of the workspace/);
    assert.deepEqual(readdirSync(outside), []);
  });

  it('keeps a capture of running processes in a folder of its own, its parts still naming their pid and thread', () => {
    const workspace = join(root, 'ws');
    mkdirSync(workspace);
    const { dir, paths } = recorded();
    const startedAt = new Date(2026, 10, 28, 9, 30, 0).getTime();
    const saved = keepRecording(dir, paths, captureTarget(join(workspace, 'profiles'), 4242, startedAt, workspace));
    const folder = join(workspace, 'profiles', 'attach-4242.20261128.093000');
    assert.deepEqual(saved, [join(folder, 'attach-4242.20261128.023226.11.0.001.cpuprofile'), join(folder, 'attach-4242.20261128.023227.12.0.001.cpuprofile')]);
    assert.deepEqual(saved.map((path) => processThreadOf(basename(path))), ['11:0', '12:0']);
    assert.equal(existsSync(dir), false);
  });
});
