// The recorder's own frames (its preload, and what it calls in Node) leave the profile as it is
// loaded, so that no view shows them: checked on a profile recorded here with the real preload
// (which holds them before), and on small constructed trees for what is kept and where it goes.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { buildReport } from '../analysis/report';
import { loadProfile } from '../readers/load';
import { readCpuprofile } from '../readers/readCpuprofile';
import { startRecording } from '../../shared/recordProfile';
import { isRecorderScript, RECORDER_FILE } from '../../shared/recordingFiles';
import { removeTemporaryFolder } from '../../shared/temporaryFolders';
import { profileOf } from './constructedProfiles.test';
import { withoutRecorderFrames } from './recorderFrames';
import type { FlameNode, NormalizedProfile } from './types';

const WORK = `function burn(ms) { const end = Date.now() + ms; let x = 0; while (Date.now() < end) x += Math.sqrt(x + 1); return x; }
burn(300);
`;

function recorderUrls(profile: NormalizedProfile): string[] {
  const used = new Set<number>();
  for (let n = 1; n < profile.tree.count; n++) used.add(profile.tree.func[n]);
  return [...used].map((f) => profile.functions[f]?.url ?? '').filter((url) => url.endsWith(RECORDER_FILE));
}

function flameNames(node: FlameNode, into: string[] = []): string[] {
  into.push(`${node.name} ${node.file ?? ''}`);
  for (const child of node.children ?? []) flameNames(child, into);
  return into;
}

describe('the recorder frames left out of a recorded profile', () => {
  let project = '';
  let recorded = '';
  let recordingDir = '';

  before(async function () {
    this.timeout(60_000);
    project = mkdtempSync(join(tmpdir(), 'hotframe-recorder-frames-'));
    writeFileSync(join(project, 'work.js'), WORK);
    const recording = startRecording({ command: [process.execPath, 'work.js'], cwd: project, stdio: 'pipe' });
    recordingDir = recording.dir;
    const result = await recording.done;
    assert.equal(result.profiles.length, 1, `profiles: ${result.profiles.map((p) => p.path).join(', ')}`);
    recorded = result.profiles[0].path;
  });

  after(() => {
    removeTemporaryFolder(recordingDir);
    rmSync(project, { recursive: true, force: true });
  });

  it('holds the preload frames as recorded, and none once loaded, in any view', async () => {
    const raw = readCpuprofile(JSON.parse(readFileSync(recorded, 'utf8')), recorded);
    // Before: the preload is in the profile (its start-up code and its exit handler).
    assert.ok(recorderUrls(raw).length > 0, 'the recorded profile has no frame of the preload: nothing to leave out');
    assert.ok(recorderUrls(raw).every(isRecorderScript));

    const loaded = await loadProfile(recorded);
    assert.deepEqual(recorderUrls(loaded), []);
    assert.ok(!loaded.functions.some((f) => f.url.endsWith(RECORDER_FILE)), 'a recorder function is still listed');
    assert.match(loaded.notes?.join('\n') ?? '', /Hotframe's recorder \(its preload and what it called: [\d.]+ ms\) is left out of every figure/);

    const analyzed = buildReport(loaded, { root: project });
    const { report } = analyzed;
    const mentions = (text: string): boolean => text.includes(RECORDER_FILE);
    assert.ok(!report.functions.some((f) => mentions(f.file)), 'hot functions');
    assert.ok(!report.lines.some((l) => mentions(l.file)), 'heat (lines)');
    assert.ok(!report.callLines.some((c) => mentions(JSON.stringify(c))), 'call lines');
    assert.ok(!report.callSites.some((c) => mentions(JSON.stringify(c))), 'call sites');
    assert.ok(!report.unresolvedFiles.some(mentions), 'unresolved files');
    assert.ok(!flameNames(analyzed.flame('normal', false, 0)).some(mentions), 'flame graph');
    // The program's own work is all there.
    const burn = report.functions.find((f) => f.name === 'burn');
    assert.ok(burn && burn.file === join(project, 'work.js') && burn.selfMs > 100, JSON.stringify(burn));
    // Every figure left is the program's: the totals lost exactly the recorder's share.
    const rawReport = buildReport(raw, { root: project }).report;
    const rawRecorderMs = rawReport.functions.filter((f) => mentions(f.file)).reduce((max, f) => Math.max(max, f.totalMs), 0);
    // What left is the preload's own time at least, and exactly what the note says: the preload's
    // subtree and Node's loader frames that ran nothing but the preload (their samples fall either way).
    const removed = rawReport.cpuMs - report.cpuMs;
    const noted = /what it called: ([\d.]+) (µs|ms|s)\)/.exec(loaded.notes?.join('\n') ?? '');
    assert.ok(noted, loaded.notes?.join('\n'));
    const notedMs = Number(noted[1]) * (noted[2] === 's' ? 1000 : noted[2] === 'µs' ? 0.001 : 1);
    assert.ok(removed >= rawRecorderMs - 1e-6, `${report.cpuMs} of ${rawReport.cpuMs}, recorder ${rawRecorderMs}`);
    assert.ok(Math.abs(removed - notedMs) <= Math.max(0.01, notedMs * 0.01), `removed ${removed} ms, the note says ${noted[0]}`);
  });
});

describe('withoutRecorderFrames', () => {
  const recorder = '/tmp/hotframe-record-Ab12Cd/hotframe-recorder.cjs';
  const app = '/srv/app/server.js';
  const loader = { name: 'Module._compile', url: 'node:internal/modules/cjs/loader', line: 1 };

  it('takes out the preload and what it calls in Node, with their time, and the loader left with none', () => {
    const profile = profileOf([
      { frames: [loader, { name: '', url: recorder, line: 1 }, { name: 'post', url: 'node:inspector', line: 111 }, { name: 'dispatch' }], samples: 3 },
      { frames: [loader, { name: 'handle', url: app, line: 4 }], samples: 10, line: 5 },
      { frames: [{ name: 'emit', url: 'node:events', line: 1 }, { name: 'hotframeExit', url: recorder, line: 20 }], samples: 2 },
      { frames: [{ name: '(garbage collector)' }], samples: 1 },
    ]);
    const out = withoutRecorderFrames(profile);
    assert.equal(out.samples, profile.samples - 5);
    const names = new Set<string>();
    for (let n = 1; n < out.tree.count; n++) names.add(out.functions[out.tree.func[n]].name);
    assert.deepEqual([...names].sort(), ['(garbage collector)', 'Module._compile', 'handle']);
    assert.ok(!out.functions.some((f) => f.url === recorder || f.name === 'post' || f.name === 'dispatch' || f.name === 'emit'));
    const self = Array.from(out.tree.selfSamples).reduce((a, b) => a + b, 0);
    assert.equal(self, 11);
    assert.equal(out.lineTicks.length, 1);
    assert.equal(out.functions[out.tree.func[out.lineTicks[0].node]].name, 'handle');
  });

  it('keeps the program code the recorder calls back, under the recorder frame\'s caller', () => {
    const profile = profileOf([
      { frames: [{ name: 'emit', url: 'node:_http_server', line: 1 }, { name: 'observe', url: recorder, line: 30 }, { name: 'apply', url: 'node:internal', line: 2 }, { name: 'handle', url: app, line: 4 }], samples: 7, line: 6 },
      { frames: [{ name: 'emit', url: 'node:_http_server', line: 1 }, { name: 'handle', url: app, line: 4 }], samples: 3, line: 6 },
      { frames: [{ name: 'emit', url: 'node:_http_server', line: 1 }, { name: 'observe', url: recorder, line: 30 }], samples: 1 },
    ]);
    const out = withoutRecorderFrames(profile);
    // One node for handle under emit: the path through the recorder and the direct one merged.
    const handles = [];
    for (let n = 1; n < out.tree.count; n++) if (out.functions[out.tree.func[n]].name === 'handle') handles.push(n);
    assert.equal(handles.length, 1);
    const handle = handles[0];
    assert.equal(out.functions[out.tree.func[out.tree.parent[handle]]].name, 'emit');
    assert.equal(out.tree.selfSamples[handle], 10);
    assert.deepEqual(out.lineTicks.map((t) => [t.node, t.line, t.samples]), [[handle, 6, 10]]);
    assert.equal(out.samples, 10);
  });

  it('keeps a sample taken in the recorder in the timeline, on its nearest caller left', () => {
    const profile: NormalizedProfile = {
      ...profileOf([
        { frames: [{ name: 'tick', url: app, line: 1 }], samples: 2 },
        { frames: [{ name: 'tick', url: app, line: 1 }, { name: 'count', url: recorder, line: 9 }], samples: 1 },
      ]),
    };
    const tick = 1;
    const count = 2;
    assert.equal(profile.functions[profile.tree.func[count]].url, recorder);
    profile.timeline = { node: Int32Array.from([tick, count, tick]), atMs: Float64Array.from([0, 1, 2]), endMs: 3 };
    const out = withoutRecorderFrames(profile);
    assert.equal(out.tree.count, 2);
    assert.deepEqual(Array.from(out.timeline!.node), [1, 1, 1]);
    assert.deepEqual(Array.from(out.timeline!.atMs), [0, 1, 2]);
  });

  it('leaves a profile without the recorder as it is, and a user\'s file of the same name is the user\'s', () => {
    const own = profileOf([{ frames: [{ name: 'main', url: app, line: 1 }], samples: 4 }]);
    assert.equal(withoutRecorderFrames(own), own);
    for (const url of ['/srv/app/hotframe-recorder.cjs', '/srv/app/hotframe-record-x/hotframe-recorder.cjs', 'file:///home/u/hotframe-record-abcdefg/hotframe-recorder.cjs']) {
      const named = profileOf([{ frames: [{ name: 'main', url, line: 1 }], samples: 4 }]);
      assert.equal(withoutRecorderFrames(named), named, url);
    }
    for (const url of [recorder, 'file:///var/folders/xy/T/hotframe-record-0aZ9yB/hotframe-recorder.cjs', 'C:\\Users\\u\\AppData\\Local\\Temp\\hotframe-record-q1W2e3\\hotframe-recorder.cjs']) {
      assert.ok(isRecorderScript(url), url);
    }
  });
});
