import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { browserAction, debugState, demoFile, demoRoot, hotframeApi, openInEditor, screenshot, waitFor, type DebugState, type HotFunction } from './workbench';

const STATUS = /^\$\(flame\) (\S+) · \d+(\.\d+)? (s|ms) · GC \d+(\.\d+)?% CPU$/;

async function stateWhen(what: string, ready: (s: DebugState) => boolean, timeoutMs = 30_000): Promise<DebugState> {
  return waitFor(what, async () => {
    const state = await debugState();
    return ready(state) ? state : undefined;
  }, [], timeoutMs);
}

/** A synthetic .cpuprofile: a root with `functions` children sampled `samples` times (100 µs apart). */
function writeLargeProfile(file: string, functions: number, samples: number): void {
  const fd = fs.openSync(file, 'w');
  const write = (text: string): void => void fs.writeSync(fd, text);
  write('{"nodes":[{"id":1,"callFrame":{"functionName":"(root)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1},"children":[');
  write(Array.from({ length: functions }, (_, i) => i + 2).join(','));
  write(']}');
  for (let i = 0; i < functions; i += 1000) {
    const chunk: string[] = [];
    for (let j = i; j < Math.min(functions, i + 1000); j++) {
      chunk.push(`,{"id":${j + 2},"callFrame":{"functionName":"f${j}","scriptId":"1","url":"file:///app/x${j % 50}.js","lineNumber":${j % 900},"columnNumber":0}}`);
    }
    write(chunk.join(''));
  }
  write(`],"startTime":0,"endTime":${samples * 100},"samples":[`);
  write(Array.from({ length: samples }, (_, i) => 2 + ((i * 7919) % functions)).join(','));
  write(`],"timeDeltas":[${new Array<number>(samples).fill(100).join(',')}]}`);
  fs.closeSync(fd);
}

describe('profiles', () => {
  const before = (): string => demoFile('profiles', 'before.cpuprofile');
  const after = (): string => demoFile('profiles', 'after.cpuprofile');
  // The demo may ship the raw log gzipped; the server reads both.
  const v8log = (): string => ['before.v8.log', 'before.v8.log.gz'].map((n) => demoFile('profiles', n)).find((f) => fs.existsSync(f)) ?? demoFile('profiles', 'before.v8.log');
  let hot: HotFunction;

  it('opens a profile in the summary editor (Open With…)', async () => {
    await vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(after()), 'hotframe.profileSummary');
    const state = await stateWhen('the summary editor to load after.cpuprofile', (s) => s.profile?.name === 'after.cpuprofile');
    assert.equal(STATUS.exec(state.statusBar ?? '')?.[1], 'after.cpuprofile');
    assert.equal(vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputCustom, true);
    if (process.env.HOTFRAME_E2E_ACTIONS) {
      // The page's button is a command link: the only command the summary webview may run.
      await browserAction('clickInWebview', { text: 'Show Flame Graph' });
      await stateWhen('the flame graph from the summary page', (s) => s.flame !== null);
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('opens a profile from the explorer context menu (Uri argument)', async () => {
    const summary = await vscode.commands.executeCommand<{ name: string } | null>('hotframe.openWithHotframe', vscode.Uri.file(before()));
    assert.equal(summary?.name, 'before.cpuprofile');
  });

  it('takes a relative path from the workspace folder', async () => {
    const summary = await vscode.commands.executeCommand<{ path: string } | null>('hotframe.openProfile', 'profiles/after.cpuprofile');
    assert.equal(summary?.path, after());
  });

  it('opens a recorded .cpuprofile through the command', async () => {
    assert.ok(fs.existsSync(before()), `${before()} is missing (recorded by the demo)`);
    const summary = await vscode.commands.executeCommand<{ name: string } | null>('hotframe.openProfile', before());
    assert.equal(summary?.name, 'before.cpuprofile');
    const state = await stateWhen('the overview of the loaded profile', (s) => s.overview !== null);
    assert.equal(state.profile?.name, 'before.cpuprofile');
    assert.ok(state.profile!.samples > 0 && state.profile!.durationMs > 0);
    assert.match(state.statusBar ?? '', STATUS);
    assert.equal(STATUS.exec(state.statusBar!)![1], 'before.cpuprofile');
    assert.ok(state.overview!.hotFunctions > 0, 'no hot functions in the tree');
    const inDemo = state.overview!.top.find((f) => f.file.startsWith(demoRoot() + path.sep) && f.line > 0);
    assert.ok(inDemo, `no hot function in the demo's files: ${JSON.stringify(state.overview!.top)}`);
    hot = inDemo;
  });

  it('draws heat and a note on the hot function declaration', async () => {
    const editor = await openInEditor(hot.file);
    const at = new vscode.Position(hot.line - 1, 0);
    editor.revealRange(new vscode.Range(at, at), vscode.TextEditorRevealType.InCenter);
    const key = editor.document.uri.toString();
    const state = await stateWhen(`heat on ${hot.file}`, (s) => (s.heat[key]?.lines.length ?? 0) > 0);
    // The activity-bar view beside the heat, for the screenshot.
    await vscode.commands.executeCommand('workbench.view.extension.hotframe');
    const heat = state.heat[key]!;
    const note = heat.notes.find((n) => n.line === hot.line);
    assert.ok(note, `no note on ${hot.name}'s line ${hot.line}: ${JSON.stringify(heat.notes)}`);
    assert.match(note.text, new RegExp(`^${hot.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: self \\d+(\\.\\d+)? (ms|s) · total \\d+(\\.\\d+)? (ms|s) · \\d+(\\.\\d+)?% CPU`));
    for (const l of heat.lines) assert.ok(l.bucket >= 1 && l.bucket <= 8 && l.line >= 1 && l.line <= editor.document.lineCount);
    await screenshot('2-heat');
  });

  it('gives a call line its own heat, and each call on it its own figure in the note and hover (a .cpuprofile call line found in the source)', async () => {
    // messages.js:40 `for (const event of parseEvents(message)) tally(event, getTimestamp());` makes three calls.
    const file = demoFile('messages.js');
    const editor = await openInEditor(file);
    const at = new vscode.Position(39, 0);
    editor.revealRange(new vscode.Range(at, at), vscode.TextEditorRevealType.InCenter);
    const key = editor.document.uri.toString();
    const state = await stateWhen(`a call line on ${file}:40`, (s) => (s.heat[key]?.callLines ?? []).some((c) => c.line === 40));
    const call = state.heat[key]!.callLines!.find((c) => c.line === 40)!;
    assert.ok(call.bucket >= 1 && call.bucket <= 8);
    const notes = state.heat[key]!.notes;
    const note = notes.find((n) => n.line === 40)?.text ?? '';
    // Each call its own figure (not the line's 933 ms charged to parseEvents), the hottest two named.
    const figure = '(\\d+(?:\\.\\d+)? (?:ms|s)) · \\d+(?:\\.\\d+)?% CPU';
    const calls = new RegExp(`^parseEvents\\(\\): ${figure}, getTimestamp\\(\\): ${figure}, \\+1 more call$`).exec(note);
    assert.ok(calls, note);
    // Each function is called from this line only: its call's figure is its own total (its note on
    // its declaration), plus the time V8 ran it inlined into this line's function, which the
    // .cpuprofile leaves as the caller's self time and the call line takes back (issue 23.4).
    const totalOf = (name: string): string | undefined => new RegExp(`^${name}: self [^·]+ · total (\\S+ (?:ms|s))`).exec(notes.find((n) => n.text.startsWith(`${name}: `))?.text ?? '')?.[1];
    const msOf = (figure: string | undefined): number => (figure === undefined ? NaN : Number(figure.split(' ')[0]) * (figure.endsWith(' s') ? 1000 : 1));
    for (const [i, name] of [[1, 'parseEvents'], [2, 'getTimestamp']] as const) {
      assert.ok(msOf(calls[i]) >= msOf(totalOf(name)) - 0.5, `${name}: call ${calls[i]}, function total ${totalOf(name)}`);
    }
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', editor.document.uri, new vscode.Position(39, 10));
    const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    const share = '\\d+(\\.\\d+)? (ms|s) \\(\\d+(\\.\\d+)?% of CPU time[^)]*\\)';
    assert.match(text, new RegExp(`calls on this line: \\*\\*parseEvents\\*\\* ${share}, \\*\\*getTimestamp\\*\\* ${share}, \\*\\*tally\\*\\* ${share}; together ${share}`));
    await screenshot('5-call-line');
  });

  it('opens a hot function clicked in the Hotframe view', async function () {
    if (!process.env.HOTFRAME_E2E_ACTIONS) this.skip(); // needs the browser to click the tree
    // Once in CI (never in 12 runs here, 11 under extra CPU load) the row was not clickable for
    // 15 s. One retry; a miss prints what the view showed and Playwright's log to the CI output.
    this.retries(1);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.view.extension.hotframe');
    await browserAction('clickTreeItem', { view: 'Profile', label: hot.name });
    const editor = await waitFor('the clicked function to open', () => {
      const e = vscode.window.activeTextEditor;
      return e && e.document.uri.fsPath === hot.file ? e : undefined;
    }, [vscode.window.onDidChangeActiveTextEditor]);
    assert.equal(editor.selection.active.line, hot.line - 1);
  });

  it('re-applies heat when the file is shown again', async () => {
    const key = vscode.Uri.file(hot.file).toString();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await stateWhen('heat to be dropped with the hidden editor', (s) => s.heat[key] === undefined);
    await openInEditor(hot.file);
    await stateWhen('heat after reopening', (s) => (s.heat[key]?.notes.length ?? 0) > 0);
  });

  it('turns heat off with hotframe.heat.enabled and back on', async () => {
    const editor = await openInEditor(hot.file);
    const key = editor.document.uri.toString();
    const config = vscode.workspace.getConfiguration('hotframe');
    await config.update('heat.enabled', false, vscode.ConfigurationTarget.Workspace);
    try {
      await stateWhen('heat to be removed', (s) => s.heat[key] === undefined);
    } finally {
      await config.update('heat.enabled', undefined, vscode.ConfigurationTarget.Workspace);
    }
    await stateWhen('heat to come back', (s) => (s.heat[key]?.lines.length ?? 0) > 0);
  });

  it('shows the flame graph, drawn with frames', async () => {
    await vscode.commands.executeCommand('hotframe.showFlameGraph');
    const state = await stateWhen('the flame graph data', (s) => s.flame !== null);
    assert.equal(state.flame!.mode, 'normal');
    assert.ok(state.flame!.frames > 1, `flame graph with ${state.flame!.frames} frames`);
    const drawn = await browserAction<{ frames: number; names: string[] }>('flameFrames');
    if (drawn) {
      assert.ok(drawn.frames > 1, 'the webview drew no frames');
      assert.ok(drawn.names.some((n) => n.includes(hot.name)), `no frame for ${hot.name} among ${drawn.names.slice(0, 20).join(', ')}`);
    }
    await screenshot('3-flame');
  });

  it('inverted: small functions merged into their callers, not one "(N small frames)" root block', async () => {
    // before.cpuprofile's bottom-up view had "(6998 small frames)" of 6% among its roots.
    await vscode.commands.executeCommand('hotframe.showFlameGraph', 'inverted');
    const api = await hotframeApi();
    const flame = await waitFor('the inverted flame graph', async () => {
      const shown = (await api.state()).flame;
      return shown?.mode === 'inverted' ? shown : undefined;
    });
    assert.deepEqual(flame.root.children.map((c) => c.name).filter((n) => /^\(\d+ small frames\)$/.test(n)), []);
    assert.ok(flame.root.children.some((c) => (c.smallCalleesMs ?? 0) > 0), 'no root says what was merged into it');
    await screenshot('3-flame-inverted');
    await vscode.commands.executeCommand('hotframe.showFlameGraph', 'normal');
    await stateWhen('the flame graph back to normal', (s) => s.flame?.mode === 'normal');
  });

  it('opens the source of a double-clicked frame', async function () {
    if (!process.env.HOTFRAME_E2E_ACTIONS) this.skip(); // needs the browser (code-server launcher)
    // The file may be open already, from the tests before: its cursor is put on another line first,
    // so that only the double-click can move it (in one CI run the check read the cursor left there).
    const elsewhere = hot.line - 1 === 0 ? 1 : 0;
    for (const e of vscode.window.visibleTextEditors) {
      if (e.document.uri.fsPath === hot.file) e.selection = new vscode.Selection(elsewhere, 0, elsewhere, 0);
    }
    await browserAction('dblclickFrame', { name: hot.name });
    const editor = await waitFor('the frame source to open', () => {
      const e = vscode.window.activeTextEditor;
      return e && e.document.uri.fsPath === hot.file && e.selection.active.line !== elsewhere ? e : undefined;
    }, [vscode.window.onDidChangeActiveTextEditor, vscode.window.onDidChangeTextEditorSelection]);
    assert.equal(editor.selection.active.line, hot.line - 1);
  });

  it('shows one function with the same numbers in the hover, the Hotframe view and the flame graph', async function () {
    if (!process.env.HOTFRAME_E2E_ACTIONS) this.skip(); // the tree row and the tooltip are read in the browser
    this.retries(1);
    const number = String.raw`\d+(?:\.\d+)? (?:ms|s)`;
    const share = String.raw`\d+(?:\.\d+)?%`;
    // The hover on the function's declaration: "**name**: self A (p% of CPU time, idle excluded), total B (q% …)".
    const editor = await openInEditor(hot.file);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', editor.document.uri, new vscode.Position(hot.line - 1, 0));
    // Markdown source: drop the escapes that keep names literal, to read what the hover renders.
    const hoverText = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n').replace(/\\(.)/g, '$1');
    const inHover = new RegExp(`\\*\\*${hot.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\*\\*: self (${number}) \\((${share}) of CPU time, idle excluded\\), total (${number}) \\((${share}) of CPU time, idle excluded\\)`).exec(hoverText);
    assert.ok(inHover, `no function line for ${hot.name} in the hover: ${hoverText}`);
    const [, selfMs, selfShare, totalMs, totalShare] = inHover;
    // The Hotframe view's row, as drawn: "self A · total B · q% CPU".
    await vscode.commands.executeCommand('workbench.view.extension.hotframe');
    const row = await browserAction<{ label: string; description: string }>('treeItemText', { view: 'Profile', label: hot.name });
    assert.equal(row?.description, `self ${selfMs} · total ${totalMs} · ${totalShare} CPU`);
    // The flame graph, bottom-up: the function's own row under the root holds its self time.
    await vscode.commands.executeCommand('hotframe.showFlameGraph', 'inverted');
    await stateWhen('the inverted flame graph', (s) => s.flame?.mode === 'inverted');
    const tip = await browserAction<{ lines: string[] }>('frameTooltip', { name: hot.name });
    assert.equal(tip?.lines[0], hot.name);
    // Small functions it called (under 1/2000 of the samples each) are merged into its row, and the tooltip says how much.
    const merged = /includes (\S+ (?:ms|s)) in small functions it called/.exec(tip?.lines.join(' ') ?? '')?.[1];
    if (merged === undefined) {
      assert.match(tip?.lines[1] ?? '', new RegExp(`^total ${selfMs.replace('.', '\\.')} \\(${selfShare.replace('.', '\\.')} CPU\\) · `), JSON.stringify(tip));
    } else {
      const msOf = (figure: string): number => Number(figure.split(' ')[0]) * (figure.endsWith(' s') ? 1000 : 1);
      const total = msOf(/^total (\S+ (?:ms|s))/.exec(tip?.lines[1] ?? '')?.[1] ?? 'NaN ms');
      // Three significant digits each: within 1%.
      assert.ok(Math.abs(total - msOf(selfMs) - msOf(merged)) <= total * 0.01, `${JSON.stringify(tip)} vs self ${selfMs}`);
    }
    await vscode.commands.executeCommand('hotframe.showFlameGraph', 'normal');
  });

  it('keeps the loaded profile and shows one error for a broken file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hotframe-broken-'));
    const broken = path.join(dir, 'broken.cpuprofile');
    fs.writeFileSync(broken, '{"nodes": [{"id": 1, "callFrame": ');
    const previous = (await debugState()).lastError;
    let result: unknown;
    try {
      result = await vscode.commands.executeCommand('hotframe.openProfile', broken);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    assert.equal(result, null);
    const state = await debugState();
    assert.notEqual(state.lastError, previous);
    assert.ok(state.lastError?.startsWith('Hotframe: '), String(state.lastError));
    assert.ok(!state.lastError!.includes('\n'));
    assert.equal(state.profile?.name, 'before.cpuprofile', 'the previous profile was replaced');
  });

  it('loads the profile again when hotframe.pathMappings changes', async () => {
    // Where the demo was recorded, read from the profile itself (e.g. /work/main/examples/demo-app).
    const profile = JSON.parse(fs.readFileSync(before(), 'utf8')) as { nodes: { callFrame: { url: string } }[] };
    const recorded = profile.nodes.map((n) => n.callFrame.url.replace(/^file:\/\//, '')).find((u) => u.endsWith(`${path.sep}messages.js`));
    assert.ok(recorded, 'messages.js is not in the recorded profile');
    const prefix = path.dirname(recorded);
    const initial = (await debugState()).profile!.unresolvedFiles.length;
    const config = vscode.workspace.getConfiguration('hotframe');
    try {
      // An explicit mapping wins over the suffix match: pointing it nowhere unresolves the demo files.
      await config.update('pathMappings', [{ from: prefix, to: path.join(os.tmpdir(), 'hotframe-nowhere') }], vscode.ConfigurationTarget.Workspace);
      const mapped = await stateWhen('the profile reloaded with the mapping', (s) => (s.profile?.unresolvedFiles ?? []).some((f) => f.endsWith('hotframe-nowhere/messages.js') || f.endsWith(`${path.sep}messages.js`)) && s.profile!.unresolvedFiles.length > initial);
      assert.equal(mapped.profile?.name, 'before.cpuprofile');
    } finally {
      await config.update('pathMappings', undefined, vscode.ConfigurationTarget.Workspace);
    }
    await stateWhen('the profile reloaded without the mapping', (s) => s.profile?.unresolvedFiles.length === initial);
  });

  it('loads a raw --prof log', async () => {
    assert.ok(fs.existsSync(v8log()), `${v8log()} is missing (recorded by the demo)`);
    const summary = await vscode.commands.executeCommand<{ name: string; format: string } | null>('hotframe.openProfile', v8log());
    assert.equal(summary?.format, 'v8log');
    const state = await debugState();
    assert.equal(state.profile?.name, path.basename(v8log()));
    assert.equal(STATUS.exec(state.statusBar ?? '')?.[1], path.basename(v8log()));
  });

  it('cancels a load from the progress notification and keeps the loaded profile', async function () {
    if (!process.env.HOTFRAME_E2E_ACTIONS) this.skip(); // needs the browser to press Cancel
    const previous = await debugState();
    assert.ok(previous.profile, 'a profile is loaded before this test');
    // A valid profile big enough (35 MB) that loading takes a second or two, so Cancel lands
    // mid-load. On a busy machine the load can still win the race: then both sides hold the new
    // profile (checked), the previous one is reopened and a profile twice as large is tried.
    let cancelled = false;
    let missed = '';
    for (let samples = 1_500_000; !cancelled && samples <= 6_000_000; samples *= 2) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hotframe-large-'));
      const large = path.join(dir, 'large.cpuprofile');
      try {
        writeLargeProfile(large, 150_000, samples);
        const pending = vscode.commands.executeCommand<{ path: string } | null>('hotframe.openProfile', large);
        // The toast closes when the load ends: a finished load can leave nothing to click.
        const clicked = await browserAction<{ message: string }>('clickNotificationButton', { text: 'Hotframe: loading large.cpuprofile', button: 'Cancel' }).catch((error: unknown) => error);
        const loaded = await pending;
        cancelled = loaded === null;
        if (cancelled) {
          if (clicked instanceof Error) throw clicked; // cancelled without a click: not ours
          assert.match((clicked as { message: string }).message, /^Hotframe: loading large\.cpuprofile/);
        } else {
          missed += ` ${samples} samples: ${clicked instanceof Error ? clicked.message : 'clicked too late'};`;
          assert.equal(loaded?.path, large);
          assert.equal((await debugState()).profile?.path, large, 'a load that finished before Cancel is shown');
          await vscode.commands.executeCommand('hotframe.openProfile', previous.profile.path);
        }
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
    assert.ok(cancelled, `every load finished before its Cancel landed:${missed}`);
    const state = await debugState();
    assert.equal(state.profile?.path, previous.profile.path);
    assert.equal(state.lastError, previous.lastError, 'a cancelled load must not show an error');
  });

  it('compares with a BEFORE profile in a differential flame graph', async () => {
    assert.ok(fs.existsSync(after()), `${after()} is missing (recorded by the demo)`);
    const baseline = await vscode.commands.executeCommand<{ name: string } | null>('hotframe.compareProfile', before(), after());
    assert.equal(baseline?.name, 'before.cpuprofile');
    const state = await stateWhen('the diff flame graph', (s) => s.flame?.mode === 'diff');
    assert.equal(state.profile?.name, 'after.cpuprofile');
    assert.equal(state.baseline?.name, 'before.cpuprofile');
    assert.ok(state.flame!.frames > 1);
    // The loaded profile is "after", the picked one "before": the title reads before → after.
    assert.equal(state.flame!.title, 'before.cpuprofile → after.cpuprofile');
    assert.match(state.statusBarTooltip ?? '', /Comparing: before\.cpuprofile \(before\) → after\.cpuprofile \(after\)/);
    const drawn = await browserAction<{ frames: number }>('flameFrames');
    if (drawn) assert.ok(drawn.frames > 1, 'the webview drew no frames in diff mode');
    // Earlier tests' error toasts would cover the graph (this shot is docs/images/compare.png).
    await vscode.commands.executeCommand('notifications.clearAll');
    await screenshot('4-diff');
  });

  it('ends the comparison when another profile is opened', async () => {
    await vscode.commands.executeCommand('hotframe.openProfile', before());
    const state = await stateWhen('before.cpuprofile loaded alone', (s) => s.profile?.name === 'before.cpuprofile' && s.baseline === null);
    assert.doesNotMatch(state.statusBarTooltip ?? '', /Comparing/);
    // The open flame graph follows, as the plain graph of the new profile.
    await stateWhen('the flame graph of the new profile', (s) => s.flame?.mode === 'normal' && s.flame.title === 'before.cpuprofile');
  });

  it('clears the profile and its heat', async () => {
    await vscode.commands.executeCommand('hotframe.clearProfile');
    const state = await stateWhen('no heat', (s) => Object.keys(s.heat).length === 0);
    assert.equal(state.profile, null);
    assert.equal(state.baseline, null);
    assert.equal(state.statusBar, null);
  });
});
