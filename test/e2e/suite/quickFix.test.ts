import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { diagnosticCode, expectedFindings, openInEditor, waitFor, waitForDiagnostics } from './workbench';

describe('quick fix', () => {
  it('adds .lean() to a mongoose read and the finding goes away', async () => {
    const target = (await expectedFindings()).find((e) => e.rule === 'mongoose-missing-lean');
    assert.ok(target, 'the demo has no `// expect: mongoose-missing-lean` line');
    const editor = await openInEditor(target.file);
    const uri = editor.document.uri;
    const onLine = (l: vscode.Diagnostic[]) => l.find((d) => diagnosticCode(d) === 'mongoose-missing-lean' && d.range.start.line === target.line - 1);
    const [diagnostic] = [onLine(await waitForDiagnostics(uri, 'the mongoose-missing-lean finding', (l) => onLine(l) !== undefined))!];
    const before = editor.document.lineAt(target.line - 1).text;

    // The server answers ContentModified (surfacing as "Canceled") while a validation of the file is
    // still running; the lightbulb would simply ask again, and so does this test.
    const actions = await waitFor('quick fixes for the finding', async () => {
      const list = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, diagnostic!.range, vscode.CodeActionKind.QuickFix.value);
      return list && list.length > 0 ? list : undefined;
    });
    const titles = actions.map((a) => a.title);
    const fix = actions.find((a) => a.title === 'Add .lean() to the query');
    assert.ok(fix?.edit, `no "Add .lean() to the query" action among ${JSON.stringify(titles)}`);
    assert.ok(titles.includes('Disable mongoose-missing-lean for this line'), `no disable-comment action among ${JSON.stringify(titles)}`);

    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    // The call `Task.find({...})` gains `.lean()` right after its closing parenthesis; nothing else changes.
    const call = /Task\.find\(\{[^}]*\}\)/.exec(before);
    assert.ok(call, `unexpected line under test: ${before}`);
    const end = call.index + call[0].length;
    assert.equal(editor.document.lineAt(target.line - 1).text, `${before.slice(0, end)}.lean()${before.slice(end)}`);
    await waitForDiagnostics(uri, 'the fixed finding to disappear', (l) => onLine(l) === undefined);
    await editor.document.save();
  });
});
