// Source maps within their 64 MiB cap whose mappings become far more: segments and strings are
// counted on the text (server/profile/location/sourceMapBudget.ts) before JSON.parse and
// decoding; a map past the budget is not applied (its frames stay unmapped, one warning line)
// and the rest of the profile is reported, within a memory bound.
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { MAX_PEAK_MB, runCli, tempDir } from './probe';

/** What a report with three refused maps may cost: their text is read (60 MB), never decoded. */
// Main decoded all three (a 60 s timeout under the probe's 1 GiB heap; 60 MB maps: an out-of-memory abort, exit 134). Now 178 MB.
const REFUSED_PEAK_MB = 700;

describe('hostile input: budgets on what source maps become', function () {
  this.timeout(180_000);
  const dir = tempDir('sourcemap-budgets');

  it('three bundles with 20 MB maps of 10 M one-field segments each: the profile is reported, each map refused in one warning line', async () => {
    const files = ['a.js', 'b.js', 'c.js'];
    // "A," is a segment in 2 bytes: 10 M segments, over the 8 Mi budget (a real segment is 5-8 bytes).
    const mappings = 'A,'.repeat(10_000_000) + 'A';
    const frame = (i: number) => ({ functionName: `f${i}`, scriptId: String(i + 1), url: pathToFileURL(join(dir, files[i])).href, lineNumber: 0, columnNumber: 0 });
    const nodes = [{ id: 1, callFrame: { functionName: '(root)', scriptId: '0', url: '', lineNumber: -1, columnNumber: -1 }, hitCount: 0, children: [2, 3, 4] }];
    files.forEach((file, i) => {
      writeFileSync(join(dir, file), `function f${i}() {}\n//# sourceMappingURL=${file}.map\n`);
      writeFileSync(join(dir, `${file}.map`), JSON.stringify({ version: 3, sources: [`src/${file}`], names: [], mappings }));
      nodes.push({ id: i + 2, callFrame: frame(i), hitCount: 10, children: [] });
    });
    const samples = [2, 3, 4].flatMap((id) => Array<number>(10).fill(id));
    writeFileSync(join(dir, 'app.cpuprofile'), JSON.stringify({ nodes, startTime: 0, endTime: 30_000, samples, timeDeltas: samples.map(() => 1000) }));
    const run = await runCli(['profile', 'app.cpuprofile', '--format', 'json'], dir);
    assert.equal(run.code, 0, `exit code (stderr: ${run.stderr.slice(0, 300)})`);
    assert.equal(run.stderr, '');
    const report = JSON.parse(run.stdout) as { warnings: string[] };
    const refused = report.warnings.filter((w) => /source map of .* is not applied: more than [\d,]+ mapping segments/.test(w));
    assert.equal(refused.length, 3, report.warnings.join('\n'));
    for (const w of refused) assert.doesNotMatch(w, /\n/);
    assert.ok(run.peakMb < Math.min(REFUSED_PEAK_MB, MAX_PEAK_MB), `peak ${Math.round(run.peakMb)} MB`);
  });
});
