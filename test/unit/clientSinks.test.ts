// Every place the extension shows text where VS Code renders markdown links (notifications,
// progress titles, quick picks, tree items, the status bar) passes it through noLinks
// (client/presentation/plainText.ts): file names, paths, profiles and the server's words are
// text from anywhere. This reads the glue files of client/ for the shapes that bypass it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const CLIENT = path.join(__dirname, '..', '..', 'client');
const glue = fs.readdirSync(CLIENT).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));

/** `what` at 1-based line numbers of `text` where `pattern` matches. */
function hits(file: string, text: string, pattern: RegExp): string[] {
  return [...text.matchAll(pattern)].map((m) => `${file}:${text.slice(0, m.index).split('\n').length}: ${m[0]}`);
}

describe('client sinks: text shown where VS Code renders links goes through noLinks', () => {
  it('finds the glue files', () => assert.ok(glue.includes('commands.ts') && glue.includes('recording.ts'), glue.join(', ')));

  it('no message, title, label, description, detail, placeholder or tooltip is built in place from a template', () => {
    const found = glue.flatMap((f) => hits(f, fs.readFileSync(path.join(CLIENT, f), 'utf8'), /\b(title|label|description|detail|placeHolder|prompt|tooltip|message)\s*:\s*`[^`]*\$\{/g));
    assert.deepEqual(found, []);
  });

  it('every notification message is noLinks(...) or a literal', () => {
    const found = glue.flatMap((f) => hits(f, fs.readFileSync(path.join(CLIENT, f), 'utf8'), /\bshow(Error|Warning|Information)Message(<[^>]*>)?\(\s*(?!noLinks\(|'[^'$]*'\s*[,)])[^\n]{0,40}/g));
    assert.deepEqual(found, []);
  });

  // recordingStatus shows the elapsed time only; a MarkdownString's appendText escapes markdown.
  it('every status bar text and tooltip, tree label and description is noLinks(...) or a literal', () => {
    const found = glue.flatMap((f) =>
      hits(f, fs.readFileSync(path.join(CLIENT, f), 'utf8'), /\.(text|tooltip|description) = (?!noLinks\(|'[^'$]*';|recordingStatus\(|[^\n;]*MarkdownString\(\)\.appendText\()[^\n]{0,40}|new vscode\.TreeItem\((?!noLinks\()[^\n]{0,40}/g),
    );
    assert.deepEqual(found, []);
  });
});
