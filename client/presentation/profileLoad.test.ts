import * as assert from 'node:assert/strict';
import { profileSummary } from '../../test/unit/profileSummary';
import { loadedLine, threadItems } from './profileLoad';

const summary = profileSummary({ name: 'trace.json', path: '/p/trace.json' });

describe('profile load texts (client/presentation/profileLoad.ts)', () => {
  it('records a load in one output line, in the profile unit', () => {
    assert.equal(loadedLine('primary', summary), '[profile] primary /p/trace.json: cpuprofile, 9000 samples, 12.3 s');
    assert.equal(loadedLine('baseline', { ...summary, unit: 'bytes', samples: 420 }), '[profile] baseline /p/trace.json: cpuprofile, 420 bytes');
  });

  it('offers the thread read now first, then the busiest', () => {
    const threads = [
      { id: 't1', name: 'main', samples: 10 },
      { id: 't2', name: '', samples: 50 },
      { id: 't3', name: 'worker', samples: 30 },
    ];
    assert.deepEqual(threadItems({ ...summary, threads, thread: 't3' }), [
      { label: 'worker', description: 't3 · 30 samples', detail: 'read now (the busiest)', id: 't3' },
      { label: 't2', description: 't2 · 50 samples', detail: undefined, id: 't2' },
      { label: 'main', description: 't1 · 10 samples', detail: undefined, id: 't1' },
    ]);
    assert.deepEqual(threadItems(summary), []);
  });
});
