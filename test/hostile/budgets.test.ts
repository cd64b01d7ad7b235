// Inputs whose bytes are within every cap but whose contents become far more: each reader
// bounds what it builds (server/profile/readers/budgets.ts) and refuses past the budget in one
// line, with the peak memory of the process asserted. Each input is the smallest that ran away
// before (the budget plus one).
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { jsonContainerBudget } from '../../server/profile/readers/budgets';
import { MAX_JSON_BYTES } from '../../server/profile/readers/byteCaps';
import { assertRefused, runCli, tempDir } from './probe';

/** Far under MAX_PEAK_MB: what a refused input may cost, its bytes and the process included. */
const REFUSED_PEAK_MB = 400;

describe('hostile input: budgets on what inputs become', function () {
  this.timeout(180_000);
  const dir = tempDir('budgets');

  it('a trace of empty events [{},{},…] one object over the JSON budget (30 KB gzipped) is refused before it is parsed', async () => {
    const objects = jsonContainerBudget(MAX_JSON_BYTES) + 1;
    // The array itself is one container: objects - 1 events.
    writeFileSync(join(dir, 'events.json.gz'), gzipSync(`[${'{},'.repeat(objects - 2)}{}]`));
    const run = await runCli(['profile', 'events.json.gz'], dir);
    assertRefused(run, /more than [\d,]+ JSON objects and arrays \(after gunzip\); not read/);
    // It was 963 MB for 9 M events before (a plain file, /usr/bin/time).
    assert.ok(run.peakMb < REFUSED_PEAK_MB, `peak ${Math.round(run.peakMb)} MB`);
  });
});
