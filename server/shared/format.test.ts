import assert from 'node:assert/strict';
import { formatBytes, formatObjects, formatWeight } from './format';

describe('format: bytes and objects', () => {
  it('prints bytes in decimal units with the unit in every label', () => {
    assert.deepEqual([0, 512, 999, 1000, 3400, 42_400, 366_000_000, 1_204_000_000].map(formatBytes), ['0 B', '512 B', '999 B', '1.00 kB', '3.40 kB', '42.4 kB', '366 MB', '1.20 GB']);
  });
  it('counts objects and dispatches by unit', () => {
    assert.equal(formatObjects(1), '1 object');
    assert.equal(formatObjects(141588), '141,588 objects');
    assert.equal(formatWeight(2_265_408, 'bytes'), '2.27 MB');
    assert.equal(formatWeight(3, 'objects'), '3 objects');
  });
});
