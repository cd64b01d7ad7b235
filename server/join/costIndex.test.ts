import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Finding } from '../../rules/api';
import { profileOf, type FrameSpec } from '../profile/model/constructedProfiles.test';
import { costIndexOf, rankingMs } from './costIndex';
import { buildReport } from '../profile/analysis/report';
import { tempFolders } from '../../test/unit/tempFolders';

/** A single CPU profile's shares: of its CPU time, idle excluded. */
const CPU = { unit: 'ms' } as const;

// Removed after every file has run: the folders are made while this file loads.
const temp = tempFolders();
after(() => temp.removeAll());

const root = temp.make('hotframe-cost-');
const modelsJs = join(root, 'models.js');
writeFileSync(modelsJs, '');

/** A finding at a 1-based line inside a function declared at (line, 0-based column), as Babel reports it. */
function findingAt(
  line: number,
  enclosing: { name: string; line: number; column: number } | null,
  ruleId: Finding['ruleId'] = 'date-now-hot-path',
): Pick<Finding, 'ruleId' | 'range' | 'enclosingFunction'> {
  return { ruleId, range: { start: 0, end: 1, loc: { start: { line, column: 2 }, end: { line, column: 12 } } }, enclosingFunction: enclosing };
}

// getTimestamp declared at 41:0 (V8 column 1), its Date.now() on line 43; onMessage at 50:0 calls it from line 52.
const getTimestamp: FrameSpec = { name: 'getTimestamp', url: modelsJs, line: 41, column: 1, callLine: 52 };
const onMessage: FrameSpec = { name: 'onMessage', url: modelsJs, line: 50, column: 1 };
const other: FrameSpec = { name: 'other', url: modelsJs, line: 41, column: 30 };

describe('cost index', () => {
  const analyzed = buildReport(
    profileOf(
      [
        { frames: [onMessage, getTimestamp], samples: 30, line: 43 },
        { frames: [onMessage, getTimestamp, { name: 'now', callLine: 43 }], samples: 20 },
        { frames: [onMessage], samples: 10, line: 55 },
        { frames: [other], samples: 40 },
      ],
      { msPerSample: 2 },
    ),
    { root },
  );
  const index = costIndexOf(analyzed.costTable());

  it("gives the line's cost when the line has samples, with library time charged to calls on it", () => {
    // Line 43: 30 self samples plus 20 in Date.now's native `now` called from it, of 100.
    assert.deepEqual(index.costOf(modelsJs, findingAt(43, { name: 'getTimestamp', line: 41, column: 0 })), { selfMs: 60, totalMs: 100, percent: 50, shareBasis: CPU, basis: 'callLine' });
    assert.deepEqual(index.costOf(modelsJs, findingAt(55, { name: 'onMessage', line: 50, column: 0 })), { selfMs: 20, totalMs: 20, percent: 10, shareBasis: CPU, basis: 'line' });
  });

  it("falls back to the enclosing function's cost, matched by line, name and nearest column", () => {
    assert.deepEqual(index.costOf(modelsJs, findingAt(44, { name: 'getTimestamp', line: 41, column: 0 })), { selfMs: 60, totalMs: 100, percent: 50, shareBasis: CPU, basis: 'function', functionName: 'getTimestamp' });
    assert.deepEqual(index.costOf(modelsJs, findingAt(51, { name: 'onMessage', line: 50, column: 0 })), { selfMs: 20, totalMs: 120, percent: 60, shareBasis: CPU, basis: 'function', functionName: 'onMessage' });
    // Two functions declared on line 41: an anonymous finding near column 29 takes `other`.
    assert.deepEqual(index.costOf(modelsJs, findingAt(42, { name: '', line: 41, column: 29 })), { selfMs: 80, totalMs: 80, percent: 40, shareBasis: CPU, basis: 'function', functionName: 'other' });
  });

  it("does not charge a function's library time to its declaration line when call lines are unknown (cpuprofile)", () => {
    const cpuprofile = costIndexOf(
      buildReport(profileOf([{ frames: [onMessage, { name: 'now' }], samples: 5 }, { frames: [onMessage], samples: 5, line: 52 }], { format: 'cpuprofile' }), { root }).costTable(),
    );
    // The `now` time is charged to onMessage's own line 50, which is not where the call is.
    assert.deepEqual(cpuprofile.costOf(modelsJs, findingAt(50, { name: 'onMessage', line: 50, column: 0 })), { selfMs: 5, totalMs: 10, percent: 100, shareBasis: CPU, basis: 'function', functionName: 'onMessage' });
    assert.deepEqual(cpuprofile.costOf(modelsJs, findingAt(52, { name: 'onMessage', line: 50, column: 0 })), { selfMs: 5, totalMs: 5, percent: 50, shareBasis: CPU, basis: 'line' });
  });

  it('returns null for unmeasured code, module level and other files', () => {
    assert.equal(index.costOf(modelsJs, findingAt(10, { name: 'cold', line: 9, column: 0 })), null);
    assert.equal(index.costOf(modelsJs, findingAt(10, null)), null);
    assert.equal(index.costOf(join(root, 'other.js'), findingAt(43, null)), null);
  });

  it('adds the profile-wide mongoose hydration to mongoose findings whose code ran, and to nothing else', () => {
    // Hydration runs when the driver's reply arrives, under no user frame: 30 samples with no
    // stack link to the route (line 55) that ran 10 samples of its own.
    const query = join(root, 'node_modules', 'mongoose', 'lib', 'query.js');
    const hydration = costIndexOf(
      buildReport(
        profileOf(
          [
            { frames: [onMessage], samples: 10, line: 55 },
            { frames: [{ name: 'completeMany', url: query, line: 2694, column: 1 }], samples: 30 },
          ],
          { msPerSample: 2 },
        ),
        { root },
      ).costTable(),
    );
    const inRoute = { name: 'onMessage', line: 50, column: 0 };
    assert.deepEqual(hydration.costOf(modelsJs, findingAt(55, inRoute, 'mongoose-missing-lean')), {
      selfMs: 20,
      totalMs: 20,
      percent: 25,
      shareBasis: CPU,
      basis: 'line',
      deferred: { insight: 'mongoose-hydration', label: 'mongoose hydration', ms: 60, percent: 75 },
    });
    assert.deepEqual(hydration.costOf(modelsJs, findingAt(55, inRoute, 'mongoose-count-by-loading'))?.deferred?.ms, 60);
    // Another rule on the same line gets only its own cost; a query that never ran gets nothing.
    assert.deepEqual(hydration.costOf(modelsJs, findingAt(55, inRoute, 'date-now-hot-path')), { selfMs: 20, totalMs: 20, percent: 25, shareBasis: CPU, basis: 'line' });
    assert.equal(hydration.costOf(modelsJs, findingAt(10, { name: 'cold', line: 9, column: 0 }, 'mongoose-missing-lean')), null);
  });

  it('ranks by the larger of own and deferred cost', () => {
    assert.equal(rankingMs(null), -1);
    assert.equal(rankingMs({ selfMs: 1, totalMs: 3, percent: 1, shareBasis: { unit: 'ms' } }), 3);
    assert.equal(rankingMs({ selfMs: 1, totalMs: 3, percent: 1, shareBasis: { unit: 'ms' }, deferred: { insight: 'mongoose-hydration', label: 'm', ms: 900, percent: 12 } }), 900);
  });
});
