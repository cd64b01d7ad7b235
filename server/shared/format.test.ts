import assert from 'node:assert/strict';
import { formatBytes, formatObjects, formatWeight } from './format';

describe('format: bytes and objects', () => {
  it('prints bytes in binary units with the unit in every label', () => {
    assert.deepEqual([0, 512, 1023, 1024, 4300, 366_000_000].map(formatBytes), ['0 B', '512 B', '1023 B', '1.00 KiB', '4.20 KiB', '349 MiB']);
  });
  it('counts objects and dispatches by unit', () => {
    assert.equal(formatObjects(1), '1 object');
    assert.equal(formatObjects(141588), '141,588 objects');
    assert.equal(formatWeight(2_265_408, 'bytes'), '2.16 MiB');
    assert.equal(formatWeight(3, 'objects'), '3 objects');
  });
});
