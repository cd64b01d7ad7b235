// The code map against a naive model under random code creation, moves, deletes and lookups.
import assert from 'node:assert/strict';
import { seededRandom as random } from '../../shared/seededRandom';
import { CodeMap } from './codeMap';

describe('CodeMap', () => {
  it('finds, moves, deletes and evicts overlapping code', () => {
    const map = new CodeMap();
    const a = map.add(0x1000, 0x100);
    const b = map.add(0x2000, 0x10);
    assert.equal(map.find(0x1000), a);
    assert.equal(map.find(0x10ff), a);
    assert.equal(map.find(0x1100), -1);
    assert.equal(map.find(0xfff), -1);
    assert.equal(map.at(0x2000), b);
    assert.equal(map.at(0x2001), -1);
    assert.equal(map.move(0x2000, 0x3000), b);
    assert.equal(map.find(0x2005), -1);
    assert.equal(map.find(0x3005), b);
    assert.equal(map.startOf(b), 0x3000);
    const c = map.add(0x1080, 0x1000); // overlaps a and b's old place
    assert.equal(map.find(0x1000), -1, 'a was evicted');
    assert.equal(map.find(0x1080), c);
    assert.equal(map.delete(0x1080), c);
    assert.equal(map.find(0x1080), -1);
    assert.equal(map.delete(0x1080), -1);
    assert.equal(map.move(0x9999, 0x1), -1);
  });

  it('finds the library around an address, also when a library is listed per segment', () => {
    const map = new CodeMap();
    map.addLibrary(0x400000, 0x2600000, 0);
    map.addLibrary(0x400000, 0xb00000, 1);
    map.addLibrary(0x7f0000000000, 0x7f0000002000, 2);
    assert.equal(map.findLibrary(0x1000000), 0);
    assert.equal(map.findLibrary(0x7f0000000100), 2);
    assert.equal(map.findLibrary(0x3fffff), -1);
    assert.equal(map.findLibrary(0x7f0000002000), -1);
  });

  it('agrees with a naive model over 20,000 random operations', () => {
    const next = random(12345);
    const map = new CodeMap();
    const live = new Map<number, { start: number; size: number }>();
    const pick = (): number => Math.floor(next() * 4096) * 16;
    for (let step = 0; step < 20_000; step++) {
      const r = next();
      if (r < 0.35) {
        const start = pick();
        const size = 16 + Math.floor(next() * 256);
        const id = map.add(start, size);
        for (const [other, e] of live) if (e.start < start + size && start < e.start + e.size) live.delete(other);
        live.set(id, { start, size });
      } else if (r < 0.45 && live.size > 0) {
        const [id, e] = [...live][Math.floor(next() * live.size)];
        const to = pick();
        assert.equal(map.move(e.start, to), id);
        live.delete(id);
        for (const [other, o] of live) if (o.start < to + e.size && to < o.start + o.size) live.delete(other);
        live.set(id, { start: to, size: e.size });
      } else if (r < 0.55 && live.size > 0) {
        const [id, e] = [...live][Math.floor(next() * live.size)];
        assert.equal(map.delete(e.start), id);
        live.delete(id);
      } else {
        const addr = Math.floor(next() * 4096 * 16);
        let expected = -1;
        for (const [id, e] of live) if (addr >= e.start && addr < e.start + e.size) expected = id;
        assert.equal(map.find(addr), expected, `step ${step}: find(${addr})`);
      }
    }
  });
});
