// The client's pure presentation logic, run inside VS Code because its modules import `vscode`.
import * as assert from 'node:assert/strict';
import { heatBucket, planHeat } from '../../../client/decorations';
import { statusText } from '../../../client/statusBar';
import { summaryHtml } from '../../../client/profileEditor';
import type { FileHeat, ProfileSummary } from '../../../server/protocol/wire';

const summary: ProfileSummary = {
  name: 'before.cpuprofile',
  path: '/p/before.cpuprofile',
  format: 'cpuprofile',
  unit: 'ms',
  notes: [],
  samples: 9000,
  durationMs: 12_345,
  gcPercent: 8.04,
  cpuMs: 9000,
  unresolvedFiles: [],
  warnings: [],
};

describe('presentation', () => {
  it('scales heat by the square root of the share, in 8 buckets', () => {
    assert.deepEqual([0, -1, Number.NaN, 0.01, 1, 1.6, 25, 100, 250].map(heatBucket), [0, 0, 0, 1, 1, 2, 4, 8, 8]);
  });

  it('plans backgrounds, hot-line notes above the threshold and function notes', () => {
    const heat: FileHeat = {
      profile: summary,
      lines: [
        { line: 3, selfMs: 340, selfSamples: 34, percent: 12.3 },
        { line: 4, selfMs: 2, selfSamples: 1, percent: 0.5 },
        { line: 99, selfMs: 500, selfSamples: 50, percent: 20 }, // past the end of the file: ignored
      ],
      functions: [
        { name: 'getTimestamp', line: 3, column: 1, selfMs: 340, totalMs: 1200, percent: 12 },
        { name: 'idle', line: 6, column: 1, selfMs: 0, totalMs: 0, percent: 0 },
      ],
      callSites: [],
      callLines: [
        { line: 5, callee: 'execSync', ms: 1200, percent: 14, found: 'fromSource' },
        { line: 12, callee: 'far', ms: 9, percent: 1, found: 'exactLine' }, // past the end of the file: ignored
      ],
    };
    assert.deepEqual(planHeat(heat, 1, 10), {
      lines: [
        { line: 3, bucket: 3 },
        { line: 4, bucket: 1 },
      ],
      // A call line has its own heat (sqrt(14%) of 8 buckets) and note.
      callLines: [{ line: 5, bucket: 3 }],
      notes: [
        { line: 3, text: 'getTimestamp: self 340 ms · total 1.20 s · 12.0% CPU  |  340 ms · 12.3% CPU' },
        { line: 5, text: 'this call (execSync): 1.20 s · 14.0% CPU' },
      ],
    });
    assert.deepEqual(planHeat(heat, 0.1, 10).notes.map((n) => n.line), [3, 4, 5]);
    assert.equal(planHeat(heat, 0.1, 10).notes[1]!.text, '2.00 ms · 0.50% CPU');
  });

  it('formats the status bar text with the shared formatter (GC as a share of CPU time)', () => {
    assert.equal(statusText(summary), '$(flame) before.cpuprofile · 12.3 s · GC 8.04% CPU');
    assert.equal(statusText({ ...summary, durationMs: 850, gcPercent: 27.4 }), '$(flame) before.cpuprofile · 850 ms · GC 27.4% CPU');
    assert.equal(statusText({ ...summary, gcPercent: 0.44 }), '$(flame) before.cpuprofile · 12.3 s · GC 0.44% CPU');
  });

  it('escapes profile strings in the summary page', () => {
    const html = summaryHtml('/p/x.cpuprofile', { ...summary, name: '<img src=x onerror=alert(1)>', warnings: ['"quoted" & <b>'] }, null);
    assert.ok(!html.includes('<img'));
    assert.ok(html.includes('&#60;img src=x onerror=alert(1)&#62;'));
    assert.ok(html.includes('&#34;quoted&#34; &#38; &#60;b&#62;'));
    assert.ok(html.includes("default-src 'none'"));
  });
});
