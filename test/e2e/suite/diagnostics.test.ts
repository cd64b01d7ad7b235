import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { demoRoot, diagnosticCode, expectedFindings, openInEditor, screenshot, waitForDiagnostics, type ExpectedFinding } from './workbench';

const RULES = [
  'date-now-hot-path',
  'spawn-without-env',
  'blocking-sync-call',
  'mongoose-missing-lean',
  'mongoose-count-by-loading',
  'serial-heavy-middleware',
  'connection-per-request',
];

const key = (line: number, rule: string): string => `${line}:${rule}`;

describe('diagnostics on the demo workspace', () => {
  let expected: ExpectedFinding[] = [];

  before(async () => {
    expected = await expectedFindings();
  });

  it('the demo marks a finding of every rule', () => {
    const marked = new Set(expected.map((e) => e.rule));
    assert.deepEqual(RULES.filter((r) => !marked.has(r)), [], 'rules without an `// expect:` marker in examples/demo-app');
  });

  it('reports exactly the marked findings, on their lines, with code = rule id and source hotframe', async () => {
    const files = [...new Set(expected.map((e) => e.file))];
    for (const file of files) {
      const uri = vscode.Uri.file(file);
      const want = new Set(expected.filter((e) => e.file === file).map((e) => key(e.line, e.rule)));
      await openInEditor(file);
      const list = await waitForDiagnostics(uri, `${path.relative(demoRoot(), file)}: ${[...want].join(' ')}`, (l) => [...want].every((w) => l.some((d) => key(d.range.start.line + 1, diagnosticCode(d)) === w)));
      const got = new Set(list.filter((d) => RULES.includes(diagnosticCode(d))).map((d) => key(d.range.start.line + 1, diagnosticCode(d))));
      assert.deepEqual([...got].sort(), [...want].sort(), `findings in ${path.relative(demoRoot(), file)}`);
      for (const d of list) assert.equal(d.source, 'hotframe');
    }
  });

  // A clock read needs frequency to matter (issue 11): it shows one step below the rule's level.
  it('follows hotframe.rules.<id> (off removes the finding, a level moves it; a frequency finding stays a hint without a profile)', async () => {
    // What the code alone proves takes the rule's level: the stats timer's execSync.
    const target = expected.find((e) => e.rule === 'blocking-sync-call');
    assert.ok(target, 'no blocking-sync-call marker');
    const uri = (await openInEditor(target.file)).document.uri;
    const onLine = (l: vscode.Diagnostic[]) => l.find((d) => diagnosticCode(d) === 'blocking-sync-call' && d.range.start.line === target.line - 1);
    // What matters only when code runs often is a hint until a profile measures it hot, whatever the level.
    const clock = expected.find((e) => e.rule === 'date-now-hot-path');
    assert.ok(clock, 'no date-now-hot-path marker');
    const clockUri = (await openInEditor(clock.file)).document.uri;
    const clockOnLine = (l: vscode.Diagnostic[]) => l.find((d) => diagnosticCode(d) === 'date-now-hot-path' && d.range.start.line === clock.line - 1);
    const config = vscode.workspace.getConfiguration('hotframe');
    try {
      await config.update('rules.blocking-sync-call', 'off', vscode.ConfigurationTarget.Workspace);
      await waitForDiagnostics(uri, 'blocking-sync-call to be turned off', (l) => onLine(l) === undefined);
      await config.update('rules.blocking-sync-call', 'error', vscode.ConfigurationTarget.Workspace);
      const list = await waitForDiagnostics(uri, 'blocking-sync-call at error', (l) => onLine(l)?.severity === vscode.DiagnosticSeverity.Error);
      assert.ok(onLine(list));
      await config.update('rules.date-now-hot-path', 'error', vscode.ConfigurationTarget.Workspace);
      await waitForDiagnostics(clockUri, 'date-now-hot-path at error, still a hint without a profile', (l) => clockOnLine(l)?.severity === vscode.DiagnosticSeverity.Hint);
    } finally {
      await config.update('rules.blocking-sync-call', undefined, vscode.ConfigurationTarget.Workspace);
      await config.update('rules.date-now-hot-path', undefined, vscode.ConfigurationTarget.Workspace);
    }
    await waitForDiagnostics(uri, 'blocking-sync-call back at its default (warning)', (l) => onLine(l)?.severity === vscode.DiagnosticSeverity.Warning);
  });

  it('shows the squiggles in the editor', async () => {
    const first = expected.find((e) => e.rule === 'spawn-without-env') ?? expected[0];
    assert.ok(first, 'no expected finding');
    const editor = await openInEditor(first.file);
    const list = await waitForDiagnostics(editor.document.uri, `the squiggle on line ${first.line}`, (l) => l.some((d) => d.range.start.line === first.line - 1));
    // The cursor on the finding with its hover open: what a reviewer reads.
    const shown = list.find((d) => d.range.start.line === first.line - 1)!;
    const at = shown.range.start;
    // The message is short (issue 24): what runs how often, what it costs, the fix; the incident
    // is the hover's paragraph under it, with the rule's page.
    assert.ok(shown.message.split(/(?<=[.!?])\s+(?=['"(]?[A-Z])/).length <= 2, shown.message);
    assert.doesNotMatch(shown.message, /\bseed\b|\bticks\b|TestEnv/i);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', editor.document.uri, at);
    const hoverText = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    assert.match(hoverText, /`spawn-without-env`: In a production incident, .*\[Rule documentation\]\(/s);
    editor.selection = new vscode.Selection(at, at);
    editor.revealRange(new vscode.Range(at, at), vscode.TextEditorRevealType.InCenter);
    await vscode.commands.executeCommand('editor.action.showHover');
    await screenshot('1-squiggles');
  });
});
