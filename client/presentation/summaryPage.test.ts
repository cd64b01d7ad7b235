import * as assert from 'node:assert/strict';
import { profileSummary } from '../../test/unit/profileSummary';
import { summaryHtml } from './summaryPage';

const summary = profileSummary();

describe('profile summary page (client/presentation/summaryPage.ts)', () => {
  it('escapes profile strings in the summary page', () => {
    const html = summaryHtml('/p/x.cpuprofile', { ...summary, name: '<img src=x onerror=alert(1)>', warnings: ['"quoted" & <b>'] }, null);
    assert.ok(!html.includes('<img'));
    assert.ok(html.includes('&#60;img src=x onerror=alert(1)&#62;'));
    assert.ok(html.includes('&#34;quoted&#34; &#38; &#60;b&#62;'));
    assert.ok(html.includes("default-src 'none'"));
  });

  it('lists the figures and links the flame graph, the only command the page may run', () => {
    const html = summaryHtml('/p/before.cpuprofile', summary, null);
    assert.match(html, /<tr><th>Samples<\/th><td>9000<\/td><\/tr>/);
    assert.match(html, /<tr><th>Duration<\/th><td>12\.3 s<\/td><\/tr>/);
    assert.match(html, /<tr><th>GC<\/th><td>8\.04% of CPU time, idle excluded<\/td><\/tr>/);
    assert.deepEqual(html.match(/href="[^"]*"/g), ['href="command:hotframe.showFlameGraph"']);
    assert.ok(!html.includes('<script'));
  });

  it('shows the error that stopped the load, escaped, under the file name', () => {
    const html = summaryHtml('/p/<broken>.cpuprofile', null, 'Hotframe: not a profile: <json>');
    assert.match(html, /<h1>\/p\/&#60;broken&#62;\.cpuprofile<\/h1><p class="error">Hotframe: not a profile: &#60;json&#62;<\/p>/);
    assert.ok(!html.includes('Show Flame Graph'));
  });
});
