import { strict as assert } from 'node:assert';
import { join } from 'node:path';

import { loadProfile } from '../readers/load';
import { busyWeight, mergeProfiles, processThreadOf } from './mergeProfiles';

const FIXTURE = join(__dirname, '../../../test/fixtures/profiles/service.cpuprofile');

describe('mergeProfiles', () => {
  it('adds the weights of its parts and keeps one entry per function', async () => {
    const one = await loadProfile(FIXTURE);
    const merged = mergeProfiles([
      { id: '1:0', name: 'a.cpuprofile', profile: one },
      { id: '2:0', name: 'b.cpuprofile', profile: one },
    ]);
    assert.equal(merged.samples, 2 * one.samples);
    assert.equal(merged.functions.length, one.functions.length);
    assert.equal(merged.tree.count, 2 * one.tree.count - 1);
    assert.ok(Math.abs(busyWeight(merged) - 2 * busyWeight(one)) < 1e-6);
    assert.equal(merged.durationMs, one.durationMs, 'side by side: the window of the longest');
    assert.deepEqual(merged.threads?.map((t) => t.id), ['1:0', '2:0']);
    // every parent comes before its children, as the report's walks expect
    for (let i = 1; i < merged.tree.count; i++) assert.ok(merged.tree.parent[i] < i && merged.tree.parent[i] >= 0);
  });

  it('refuses profiles of different units', async () => {
    const one = await loadProfile(FIXTURE);
    assert.throws(() => mergeProfiles([{ id: 'a', name: 'a', profile: one }, { id: 'b', name: 'b', profile: { ...one, unit: 'bytes' } }]), /cannot be merged/);
  });

  it('reads the process and thread from the names Node and Hotframe write', () => {
    assert.equal(processThreadOf('CPU.20261128.001451.10612.1.001.cpuprofile'), '10612:1');
    assert.equal(processThreadOf('Heap.20261128.001451.7.0.001.heapprofile'), '7:0');
    assert.equal(processThreadOf('service.cpuprofile'), null);
  });
});
