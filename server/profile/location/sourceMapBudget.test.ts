import { strict as assert } from 'node:assert';

import { countJsonStrings, countSegments, mapSegmentBudget } from './sourceMapBudget';

describe('source map budget', () => {
  it('counts segments on the text: one per comma and one per non-empty line', () => {
    assert.equal(countSegments(''), 0);
    assert.equal(countSegments(';;'), 0);
    assert.equal(countSegments('AAAA,CAAC;;AACA'), 3);
    assert.equal(countSegments('A,A,A'), 3);
  });

  it('counts JSON strings as half the double quotes', () => {
    assert.equal(countJsonStrings('{"version":3,"sources":["a","b"]}'), 4);
  });

  it('is proportional to the cap and bounded by the memory', () => {
    assert.equal(mapSegmentBudget(64 * 1024 * 1024, 64 * 1024 ** 3), 8 * 1024 * 1024);
    assert.equal(mapSegmentBudget(64 * 1024 * 1024, 1024 ** 3), 1024 ** 3 / 16 / 64);
  });
});
