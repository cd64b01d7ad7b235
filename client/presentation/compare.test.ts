import * as assert from 'node:assert/strict';
import { comparePickTitle, planWithLoadedAsBefore, swapped } from './compare';

const before = { path: '/p/before.cpuprofile', name: 'before.cpuprofile' };
const after = { path: '/p/after.cpuprofile', name: 'after.cpuprofile', thread: '11:0' };

describe('compare (client/presentation/compare.ts)', () => {
  it('asks for the other profile, the loaded one being the baseline', () => {
    assert.equal(comparePickTitle('before.cpuprofile'), 'Compare before.cpuprofile (before) with…');
    assert.equal(comparePickTitle(null), 'Compare: pick the BEFORE profile (the baseline)');
  });

  it('keeps the loaded profile as the BEFORE and the picked one as the AFTER, and the swap reverses them', () => {
    const plan = planWithLoadedAsBefore(before, after);
    assert.deepEqual(plan, { before, after });
    assert.deepEqual(swapped(plan), { before: after, after: before });
    assert.deepEqual(swapped(swapped(plan)), plan);
  });
});
