import { strict as assert } from 'node:assert';
import { NodeIds } from './nodeIds';

describe('NodeIds', () => {
  it('finds every id at its index, whatever its value or order, as a Map would', () => {
    const ids = new NodeIds();
    const map = new Map<number, number>();
    // Ids in order, far ahead of the nodes read (Map first, then inside the grown table), negative, fractional, huge.
    const input = [5000, 1, 2, 3, 0, -7, 2.5, 2 ** 31, 1e300, 4000, 4999, 5001, ...Array.from({ length: 3000 }, (_, i) => 10 + i)];
    input.forEach((id, index) => {
      if (ids.has(id)) return;
      ids.set(id, index);
      map.set(id, index);
    });
    for (const id of [...input, 4, 6, 9999, -1, 3.5, NaN]) assert.equal(ids.get(id), map.get(id), `id ${id}`);
  });
});
