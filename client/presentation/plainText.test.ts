import * as assert from 'node:assert/strict';
import { ICON_SYNTAX, LINKED_TEXT, noLinks, plainLabel } from './plainText';

function links(text: string): string[] {
  return [...text.matchAll(LINKED_TEXT)].map((m) => m[0]);
}

describe('noLinks: text from files and the server shown where VS Code renders links', () => {
  const hostile = [
    'Hotframe: Recorded on Node 18, [click here](command:hotframe.recordProfile?%5B%7B%22command%22%3A%5B%22sh%22%5D%7D%5D).cpuprofile: not a profile',
    '/home/u/[x](command:workbench.action.terminal.new)/a.cpuprofile',
    '[[nested](command:a)](https://example.com)',
    '[a](file:///etc/passwd) and [b](http://x.test/) and [c](HTTPS://x.test "title")',
    '[a](command:x)[b](command:y)',
  ];

  it('leaves no link VS Code would render', () => {
    for (const text of hostile) {
      assert.ok(links(text).length > 0, `the probe has a link: ${text}`);
      assert.deepEqual(links(noLinks(text)), [], text);
    }
  });

  it('changes nothing a person reads: only zero-width spaces are added', () => {
    for (const text of hostile) assert.equal(noLinks(text).replace(/\u200b/g, ''), text);
    assert.equal(noLinks('Hotframe: loading a [1].cpuprofile (2 MB)'), 'Hotframe: loading a [1].cpuprofile (2 MB)');
  });
});

describe('plainLabel: text from another process in a quick pick', () => {
  it('renders no icon and no link, and reads the same', () => {
    const text = 'node server.js $(zap) $(sync~spin) [x](command:hotframe.recordProfile)';
    assert.ok([...text.matchAll(ICON_SYNTAX)].length === 2);
    const shown = plainLabel(text);
    assert.deepEqual([...shown.matchAll(ICON_SYNTAX)], []);
    assert.deepEqual(links(shown), []);
    assert.equal(shown.replace(/\u200b/g, ''), text);
  });
});
