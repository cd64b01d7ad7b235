// The browser-code guard reads only the lines that name `window` or `document` (issue 26: it ran
// over every line at every edit). The lines it reads must be those of the first 50,000 lines
// that hold either word, in order, as splitting the text would give them.
import assert from 'node:assert/strict';
import { fileSkipOf, linesMentioningBrowserGlobals } from './fileGuards';
import { randomFrom } from '../../test/editSessions';

/** The plain reading: split, keep the lines holding either word. */
function byLines(text: string): string[] {
  return text.split('\n', 50_000).filter((line) => line.includes('window') || line.includes('document'));
}

describe('file guards: browser code', () => {
  it('reads the lines naming window or document, as splitting the text gives them', () => {
    const random = randomFrom(26);
    const pieces = ['window.x = 1;', 'document', 'const a = 1;', '', '\r', '// document.title', 'windowdocument', ' $(document)', 'x', '\n', '\n\n'];
    for (let run = 0; run < 300; run++) {
      let text = '';
      const count = Math.floor(random() * 40);
      for (let i = 0; i < count; i++) text += pieces[Math.floor(random() * pieces.length)] + (random() < 0.6 ? '\n' : '');
      assert.deepEqual([...linesMentioningBrowserGlobals(text)], byLines(text), JSON.stringify(text));
    }
  });

  it('stops at the 50,000th line', () => {
    const text = `${'x\n'.repeat(49_999)}document.body\ndocument.title\n`;
    assert.deepEqual([...linesMentioningBrowserGlobals(text)], ['document.body']);
    assert.deepEqual([...linesMentioningBrowserGlobals(text)], byLines(text));
  });

  it('skips a file using the globals on three lines of code, not in comments or a mongoose document', () => {
    const dom = 'window.onload = init;\ndocument.body.append(x);\nwindow.scrollTo(0, 0);\n';
    assert.equal(fileSkipOf(dom, '/app/src/page.js')?.reason, 'browser');
    assert.equal(fileSkipOf(`// window.onload\n// document.body\n${dom.split('\n')[0]}\n`, '/app/src/page.js'), null);
    assert.equal(fileSkipOf(`const document = await Model.findOne();\n${dom}`, '/app/src/page.js'), null);
    assert.equal(fileSkipOf('document.title = 1;\n', '/app/public/page.js')?.reason, 'browser');
  });
});
