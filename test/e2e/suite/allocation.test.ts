// Allocation profiles and pprof in the real editor: a workload copied into the workspace is
// recorded here (test/fixtures/recordAllocation.mjs: the inspector's heap sampling with collected
// objects kept, and @datadog/pprof), each profile is opened with the command, and the heat on the
// allocating function and the flame graph must be in bytes.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { browserAction, debugState, demoRoot, EXTENSION_ID, hotframeApi, openInEditor, screenshot, waitFor, type DebugState } from './workbench';

async function stateWhen(what: string, ready: (s: DebugState) => boolean, timeoutMs = 30_000): Promise<DebugState> {
  return waitFor(what, async () => {
    const state = await debugState();
    return ready(state) ? state : undefined;
  }, [], timeoutMs);
}

const BYTES = '\\d+(\\.\\d+)? (B|KiB|MiB|GiB)';

describe('allocation profiles and pprof', function () {
  this.timeout(120_000);
  let workload = '';
  let out = '';
  let declaration = 0;

  before(() => {
    const repo = vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath;
    const dir = path.join(demoRoot(), 'alloc');
    fs.mkdirSync(dir, { recursive: true });
    workload = path.join(dir, 'allocate.js');
    fs.copyFileSync(path.join(repo, 'test', 'fixtures', 'workloads', 'allocate.js'), workload);
    declaration = fs.readFileSync(workload, 'utf8').split('\n').findIndex((l) => l.startsWith('function buildGarbage')) + 1;
    out = path.join(dir, 'profiles');
    // The machine's node (the one the unit tests use), not the editor's: @datadog/pprof loads a native addon.
    const env = { ...process.env };
    delete env.ELECTRON_RUN_AS_NODE;
    const run = spawnSync('node', [path.join(repo, 'test', 'fixtures', 'recordAllocation.mjs'), out, '400', workload], { encoding: 'utf8', env });
    assert.equal(run.status, 0, `recording failed: ${run.stderr}`);
  });

  async function heatOnGarbage(): Promise<{ text: string; buckets: number }> {
    const editor = await openInEditor(workload);
    const key = editor.document.uri.toString();
    const state = await stateWhen(`heat on ${workload}`, (s) => (s.heat[key]?.notes.length ?? 0) > 0);
    const heat = state.heat[key]!;
    const note = heat.notes.find((n) => n.line === declaration);
    assert.ok(note, `no note on buildGarbage's line ${declaration}: ${JSON.stringify(heat.notes)}`);
    return { text: note.text, buckets: heat.lines.find((l) => l.line === declaration)?.bucket ?? 0 };
  }

  for (const [name, pattern] of [
    ['an allocation profile (inspector sampling with collected objects)', 'inspector.heapprofile'],
    ['a pprof heap profile from @datadog/pprof', 'heap.pb.gz'],
  ] as const) {
    it(`opens ${name}: heat in bytes on the allocating function, a flame graph in bytes`, async () => {
      const file = path.join(out, pattern);
      const summary = await vscode.commands.executeCommand<{ name: string; unit: string } | null>('hotframe.openProfile', file);
      assert.equal(summary?.name, pattern);
      assert.equal(summary?.unit, 'bytes');
      const state = await debugState();
      assert.match(state.statusBar ?? '', new RegExp(`^\\$\\(flame\\) ${pattern.replace('.', '\\.')} · ${BYTES} allocated$`));
      const { text, buckets } = await heatOnGarbage();
      assert.match(text, new RegExp(`^buildGarbage: allocates ${BYTES} · \\d+(\\.\\d+)?% of bytes \\(self ${BYTES}\\)`));
      assert.ok(buckets >= 1, 'the declaration line has a heat background');
      await vscode.commands.executeCommand('hotframe.showFlameGraph');
      const flame = await stateWhen('the flame graph in bytes', (s) => s.flame?.unit === 'bytes' && s.flame.title === pattern);
      assert.ok(flame.flame!.frames > 1);
      const drawn = await browserAction<{ frames: number; names: string[] }>('flameFrames');
      if (drawn) assert.ok(drawn.names.some((n) => n.includes('buildGarbage')), `no buildGarbage frame among ${drawn.names.slice(0, 20).join(', ')}`);
      await screenshot(`5-alloc-${pattern.split('.')[0]}`);
    });
  }

  it('says what mongoose hydration allocated, in bytes of allocated bytes, and shows no time insight (real mongoose, recorded here)', async function () {
    this.timeout(180_000);
    const repo = vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath;
    const dir = path.join(demoRoot(), 'alloc-hydrate');
    fs.mkdirSync(dir, { recursive: true });
    const hydrate = path.join(dir, 'hydrate.js');
    fs.copyFileSync(path.join(repo, 'test', 'fixtures', 'workloads', 'hydrate.js'), hydrate);
    // The workspace is a copy without node_modules: the workload finds mongoose in the repository's.
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_PATH: path.join(repo, 'node_modules') };
    delete env.ELECTRON_RUN_AS_NODE;
    const run = spawnSync('node', [path.join(repo, 'test', 'fixtures', 'recordAllocation.mjs'), path.join(dir, 'profiles'), '600', hydrate], { encoding: 'utf8', env });
    assert.equal(run.status, 0, `recording failed: ${run.stderr}`);
    await vscode.commands.executeCommand('hotframe.openProfile', path.join(dir, 'profiles', 'inspector.heapprofile'));
    const insights = await waitFor('the hydration insight in the Hotframe view', async () => {
      const list = (await (await hotframeApi()).state()).overview?.insights;
      return list?.some((i) => i.id === 'mongoose-hydration') ? list : undefined;
    });
    const hydration = insights.find((i) => i.id === 'mongoose-hydration')!;
    assert.match(hydration.message, new RegExp(`^Mongoose hydrating documents \\(completeMany/init/Document\\) allocated ${BYTES} \\(\\d+(\\.\\d+)?% of allocated bytes\\), called from hydrateTasks`));
    assert.doesNotMatch(hydration.message, /CPU time|took/);
    // The workload reads a file synchronously and the clock in a loop: neither is an allocation insight.
    assert.deepEqual(insights.map((i) => i.id).filter((id) => id === 'blocking-sync-io' || id === 'date-now-hot' || id === 'gc-pressure'), []);
    await screenshot('5-alloc-hydration-insight');
    await vscode.commands.executeCommand('hotframe.clearProfile');
  });

  it('opens a pprof time profile in ms', async () => {
    const summary = await vscode.commands.executeCommand<{ name: string; unit: string; sampleTypes?: { chosen: string } } | null>('hotframe.openProfile', path.join(out, 'time.pb.gz'));
    assert.equal(summary?.unit, 'ms');
    assert.equal(summary?.sampleTypes?.chosen, 'wall/nanoseconds');
    const { text } = await heatOnGarbage();
    assert.match(text, /^buildGarbage: self \d+(\.\d+)? (ms|s) · total \d+(\.\d+)? (ms|s) · \d+(\.\d+)?% CPU/);
    await vscode.commands.executeCommand('hotframe.clearProfile');
  });
});
