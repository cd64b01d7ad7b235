// An allocation profile next to a CPU profile in the real editor (issue 16, "Join"): a GC-heavy
// route is recorded here twice, CPU and allocations (test/fixtures/recordGcJoin.mjs), the CPU
// profile is opened and the allocation profile added with the public command; the GC insight must
// then name the allocating function (in the view and as a diagnostic on its line), the finding in
// the allocating handler must say how much it allocates, while heat, status bar and flame graph
// stay the CPU profile's; opening a CPU profile again ends the join.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { debugState, demoRoot, diagnosticCode, EXTENSION_ID, hotframeApi, openInEditor, screenshot, waitFor, waitForDiagnostics, type DebugState } from './workbench';

async function stateWhen(what: string, ready: (s: DebugState) => boolean, timeoutMs = 30_000): Promise<DebugState> {
  return waitFor(what, async () => {
    const state = await debugState();
    return ready(state) ? state : undefined;
  }, [], timeoutMs);
}

/** The GC insight's message in the Hotframe view, or undefined. */
async function gcInsight(): Promise<string | undefined> {
  const { overview } = await (await hotframeApi()).state();
  return overview?.insights.find((i) => i.id === 'gc-pressure')?.message;
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('an allocation profile joined to a CPU profile', function () {
  this.timeout(120_000);
  let workload = '';
  let out = '';
  let lines: string[] = [];

  before(() => {
    const repo = vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath;
    const dir = path.join(demoRoot(), 'gcjoin');
    fs.mkdirSync(dir, { recursive: true });
    workload = path.join(dir, 'garbageRoute.js');
    fs.copyFileSync(path.join(repo, 'test', 'fixtures', 'workloads', 'garbageRoute.js'), workload);
    lines = fs.readFileSync(workload, 'utf8').split('\n');
    out = path.join(dir, 'profiles');
    // The machine's node, not the editor's.
    const env = { ...process.env };
    delete env.ELECTRON_RUN_AS_NODE;
    const run = spawnSync('node', [path.join(repo, 'test', 'fixtures', 'recordGcJoin.mjs'), out, workload], { encoding: 'utf8', env });
    assert.equal(run.status, 0, `recording failed: ${run.stderr}`);
  });

  after(async () => {
    await vscode.commands.executeCommand('hotframe.clearProfile');
  });

  it('names who makes the garbage in the GC insight, says what a finding allocates, and ends when a CPU profile is opened', async () => {
    const line = (needle: string): number => lines.findIndex((l) => l.includes(needle));
    const editor = await openInEditor(workload);
    const uri = editor.document.uri;
    const plain = (await waitForDiagnostics(uri, 'the blocking-sync-call finding', (list) => list.some((d) => diagnosticCode(d) === 'blocking-sync-call'))).find((d) => diagnosticCode(d) === 'blocking-sync-call')!;
    assert.equal(plain.range.start.line, line('fs.readFileSync('));

    // Adding an allocation profile needs a CPU profile to join.
    assert.equal(await vscode.commands.executeCommand('hotframe.addAllocationProfile', path.join(out, 'garbage.heapprofile')), null);
    assert.match((await debugState()).lastError ?? '', /^Hotframe: open a CPU profile first/);

    const cpu = await vscode.commands.executeCommand<{ name: string; unit: string } | null>('hotframe.openProfile', path.join(out, 'gc.cpuprofile'));
    assert.deepEqual([cpu?.name, cpu?.unit], ['gc.cpuprofile', 'ms']);
    const gcAlone = await waitFor('the GC insight of the CPU profile', gcInsight);
    assert.doesNotMatch(gcAlone, /Who makes the garbage/);
    const cpuState = await debugState();

    // A CPU profile is no allocation profile: one line, the join does not start.
    assert.equal(await vscode.commands.executeCommand('hotframe.addAllocationProfile', path.join(out, 'gc.cpuprofile')), null);
    assert.match((await debugState()).lastError ?? '', /gc\.cpuprofile measures CPU time, not allocations/);

    const added = await vscode.commands.executeCommand<{ name: string; unit: string } | null>('hotframe.addAllocationProfile', path.join(out, 'garbage.heapprofile'));
    assert.deepEqual([added?.name, added?.unit], ['garbage.heapprofile', 'bytes']);
    const joined = await stateWhen('the join in the state', (s) => s.allocation?.name === 'garbage.heapprofile');
    assert.equal(joined.profile?.name, 'gc.cpuprofile');

    // (1) The GC insight, in the Hotframe view and on the allocating function's line.
    const who = new RegExp(`Who makes the garbage \\(garbage\\.heapprofile\\): copyTasksPerTag at ${escape(workload)}:${line('function copyTasksPerTag') + 1} allocates [\\d.]+ [KMG]iB \\([\\d.]+% of bytes\\)`);
    const message = await waitFor('the GC insight naming who allocates', async () => ((await gcInsight()) ?? '').match(who) ? await gcInsight() : undefined);
    assert.ok(message.startsWith(gcAlone), 'the CPU profile\'s GC figures come first');
    const diagnostics = await waitForDiagnostics(uri, 'the GC insight on copyTasksPerTag', (list) =>
      list.some((d) => diagnosticCode(d) === 'profile-insight' && who.test(d.message)) && list.some((d) => diagnosticCode(d) === 'blocking-sync-call'));
    const insight = diagnostics.find((d) => diagnosticCode(d) === 'profile-insight' && who.test(d.message))!;
    assert.equal(insight.range.start.line, line('function copyTasksPerTag'));
    assert.ok(insight.message.endsWith(message), 'the diagnostic says what the view says');

    // (2) The finding in the allocating handler says how much it allocates, beside its CPU cost.
    // (The one join takes the readFileSync line's own bytes when the sampler caught them, a small
    // share: with no CPU sample there either, the finding is cold and shows no cost, as with one
    // profile. Which of the two happens depends on the recording; test/unit/lsp.test.ts checks both
    // against the CLI.)
    const finding = diagnostics.find((d) => diagnosticCode(d) === 'blocking-sync-call')!;
    assert.ok(finding.message.startsWith(plain.message), finding.message);
    if (finding.message !== plain.message) {
      assert.match(finding.message.slice(plain.message.length), /^ — [\d.]+ (µs|ms|s)(?: (?:on|in) [^,]+)?, [\d.]+% of CPU time, idle excluded; allocates [\d.]+ [KMG]iB(?: (?:on|in) [^,]+)?, [\d.]+% of allocated bytes in the loaded profiles$/);
      if (/, (?:[1-9]\d|100|[1-9])(?:\.\d+)?% of allocated bytes/.test(finding.message)) {
        assert.equal(finding.severity, vscode.DiagnosticSeverity.Warning, 'raised one step: its code allocates at least the hot share of the bytes');
      }
    }

    // Heat, status bar and flame graph stay the CPU profile's.
    const after = await debugState();
    assert.equal(after.statusBar, cpuState.statusBar);
    assert.match(after.statusBarTooltip ?? '', /Allocations: garbage\.heapprofile \([\d.]+ [KMG]iB allocated, sampled\)/);
    const notes = after.heat[uri.toString()]?.notes ?? [];
    assert.ok(notes.length > 0 && notes.every((n) => !/[KMG]iB|bytes/.test(n.text)), JSON.stringify(notes));
    await vscode.commands.executeCommand('hotframe.showFlameGraph');
    const flame = await stateWhen('the flame graph of the CPU profile', (s) => s.flame?.title === 'gc.cpuprofile');
    assert.equal(flame.flame?.unit, 'ms');
    await openInEditor(workload);
    await screenshot('6-alloc-join');

    // Opening a CPU profile ends the join, as it ends a comparison.
    await vscode.commands.executeCommand('hotframe.openProfile', path.join(out, 'gc.cpuprofile'));
    const ended = await stateWhen('the join ended', (s) => s.allocation === null);
    assert.equal(ended.profile?.name, 'gc.cpuprofile');
    await waitForDiagnostics(uri, 'the finding without allocations', (list) => list.some((d) => diagnosticCode(d) === 'blocking-sync-call' && !d.message.includes('allocates')) && !list.some((d) => who.test(d.message)));
    assert.doesNotMatch((await gcInsight()) ?? '', /Who makes the garbage/);
  });
});
