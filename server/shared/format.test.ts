import assert from 'node:assert/strict';
import { formatBytes, formatMs, formatNumber, formatObjects, formatPercent, formatSignedNumber, formatWeight } from './format';

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

describe('format: bare numbers (a diff column whose unit is in its header)', () => {
  it('rounds as formatMs and formatPercent do, signed for changes', () => {
    assert.deepEqual([0.4213, 4.2, 42.04, 420.4].map(formatNumber), ['0.42', '4.20', '42.0', '420']);
    assert.equal(formatNumber(42.04), formatMs(42.04).replace(' ms', ''));
    assert.equal(formatNumber(4.2), formatPercent(4.2).replace('%', ''));
    assert.deepEqual([12.34, -1.304, 0].map(formatSignedNumber), ['+12.3', '-1.30', '0.00']);
  });
});
