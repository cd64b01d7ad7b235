import assert from 'node:assert/strict';

import { escapeHtml } from './html';

describe('html: the one escaper', () => {
  it('turns what could end a text run or a double-quoted attribute into references', () => {
    assert.equal(escapeHtml('<img src=x onerror=alert(1)>'), '&#60;img src=x onerror=alert(1)&#62;');
    assert.equal(escapeHtml('"quoted" & <b>'), '&#34;quoted&#34; &#38; &#60;b&#62;');
    assert.equal(escapeHtml('&#60;'), '&#38;#60;', 'an entity in the input is shown, not decoded');
  });

  it('leaves everything else as written', () => {
    assert.equal(escapeHtml("default-src 'none'; ü → ✓"), "default-src 'none'; ü → ✓");
  });
});
