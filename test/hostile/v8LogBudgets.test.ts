// Raw V8 logs (`--prof`) within the byte cap whose lines become far more: code-source-info
// tables (source positions, inlinings) and code-creation entries are counted against budgets
// proportional to the cap (server/profile/readers/budgets.ts) and the log is refused past them
// in one line, with the peak memory of the process asserted. The logs are gzipped (a V8 log may
// be): a few hundred KB on disk, each the budget plus a little after gunzip.
import { strict as assert } from 'node:assert';
import { createWriteStream, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { createGzip } from 'node:zlib';

import { v8LogCodeEntryBudget, v8LogInlinedFrameBudget, v8LogSourceElementBudget } from '../../server/profile/readers/budgets';
import { MAX_LOG_BYTES } from '../../server/profile/readers/byteCaps';
import { assertRefused, runCli, tempDir } from './probe';

/** What a refused log may cost, the process and what was read up to the budget included. */
const REFUSED_PEAK_MB = 900;

/** Writes `parts` (each a string or a repeated string) gzipped to `path`, without holding the log in memory. */
async function writeGzipped(path: string, parts: readonly (string | { repeat: string; times: number })[]): Promise<void> {
  const gzip = createGzip({ level: 1 });
  const out = gzip.pipe(createWriteStream(path));
  const write = (text: string) => (gzip.write(text) ? Promise.resolve() : new Promise<void>((resolve) => gzip.once('drain', () => resolve())));
  for (const part of parts) {
    if (typeof part === 'string') {
      await write(part);
      continue;
    }
    const block = part.repeat.repeat(64 * 1024);
    for (let left = part.times; left > 0; left -= 64 * 1024) await write(left >= 64 * 1024 ? block : part.repeat.repeat(left));
  }
  gzip.end();
  await finished(out);
}

describe('hostile input: budgets on what a V8 log becomes', function () {
  this.timeout(180_000);
  const dir = tempDir('v8log-budgets');

  it('an inlining chain 999 deep ticked at 20,000 offsets (an 840 KB log) is refused in one line before it builds the frames', async () => {
    // 20 M inlined frames asked for, the budget is 1 Mi: main built them all (a V8 out-of-memory
    // abort, exit 134, at 1.19 GB under the probe's 1 GiB heap; measured with /usr/bin/time).
    const offsets = 20_000;
    const depth = 999;
    assert.ok(offsets * depth > v8LogInlinedFrameBudget(MAX_LOG_BYTES) * 2);
    let table = '';
    for (let i = 0; i < offsets; i++) table += `C${i}O0I${depth - 1}`;
    let chain = 'F0O0';
    for (let j = 1; j < depth; j++) chain += `F0O${j}I${j - 1}`;
    const lines = [
      'v8-version,11,3,244,8,0,0',
      'code-creation,JS,0,1000,0x10000000,0x1000000,f /app/a.js:1:1,0x10,*',
      'code-creation,JS,0,1001,0x20000000,0x100,g /app/a.js:2:1,0x20,*',
      `code-source-info,0x10000000,1,0,50,${table},${chain},S0x20`,
    ];
    for (let i = 0; i < offsets; i++) lines.push(`tick,0x${(0x10000000 + i).toString(16)},${10000 + i},0,0x0,0`);
    writeFileSync(join(dir, 'inlined.v8.log'), lines.join('\n') + '\n');
    const run = await runCli(['profile', 'inlined.v8.log'], dir);
    assertRefused(run, /more than [\d,]+ inlined frames \(inlining chains of the ticked code\); not read/);
    assert.ok(run.peakMb < REFUSED_PEAK_MB, `peak ${Math.round(run.peakMb)} MB`);
  });

  it('source-position tables of the ticked code one budget over (4 tables of 31 MiB, 4 bytes a position) are refused in one line', async () => {
    const budget = v8LogSourceElementBudget(MAX_LOG_BYTES);
    const perTable = Math.ceil((budget + 1) / 2 / 4) * 2; // 4 tables together hold the budget twice
    const parts: (string | { repeat: string; times: number })[] = ['v8-version,11,3,244,8,0,0\n'];
    for (let e = 0; e < 4; e++) {
      const addr = `0x${(0x10000000 + e * 0x100000).toString(16)}`;
      parts.push(`code-creation,JS,0,1000,${addr},0x10000,f${e} /app/a.js:1:1,0x${(e + 1).toString(16)}0,*\n`);
      parts.push(`code-source-info,${addr},1,0,50,`, { repeat: 'C0O0', times: perTable }, ',,\n');
      for (let t = 0; t < 5; t++) parts.push(`tick,${addr},${10000 + e * 100 + t},0,0x0,0\n`);
    }
    await writeGzipped(join(dir, 'positions.v8.log.gz'), parts);
    const run = await runCli(['profile', 'positions.v8.log.gz'], dir);
    assertRefused(run, /more than [\d,]+ source positions and inlined functions \(code-source-info\); not read/);
    // Main read it (exit 0, peak 529 MB: number arrays, 4x the text); twice the cap's worth would be 12x. Now 318 MB.
    assert.ok(run.peakMb < REFUSED_PEAK_MB, `peak ${Math.round(run.peakMb)} MB`);
  });

  it('code-creation entries one over the budget (4 Mi of 36-byte lines, 150 MB) are refused in one line', async () => {
    const budget = v8LogCodeEntryBudget(MAX_LOG_BYTES);
    // The same address each time (one live entry in the code map), so the count is what is refused.
    await writeGzipped(join(dir, 'entries.v8.log.gz'), ['v8-version,11,3,244,8,0,0\n', { repeat: 'code-creation,JS,0,1,0x1000,16,f a\n', times: budget + 1 }, 'tick,0x1000,1,0,0x0,0\n']);
    const run = await runCli(['profile', 'entries.v8.log.gz'], dir);
    assertRefused(run, /more than [\d,]+ code-creation entries; not read/);
    // Main read it (exit 0, peak 710 MB; at the 512 MiB cap, ~2.3 GB). Now 603 MB, refused at the budget.
    assert.ok(run.peakMb < REFUSED_PEAK_MB, `peak ${Math.round(run.peakMb)} MB`);
  });
});
