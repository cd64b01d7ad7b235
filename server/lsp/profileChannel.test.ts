// The profile channel with the session served on this thread (what the language server does
// when no built worker sits beside it, e.g. under tsx): the same jsonrpc requests, progress and
// cancellation as with the worker thread (test/hostile/worker.test.ts covers a stalled worker).
import { strict as assert } from 'node:assert';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { WorkerRequests, type WorkerLoadParams } from '../protocol/worker';
import { ProfileChannel } from './profileChannel';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test', 'fixtures');
const load = (file: string): WorkerLoadParams => ({ path: join(FIXTURES, 'profiles', file), role: 'primary', roots: [join(FIXTURES, 'workloads')], pathMappings: [], nativeSymbols: false });

describe('profile channel (jsonrpc to the profile session, served on this thread)', () => {
  it('loads with progress, answers views, fails in one line and keeps the state across a cancel', async () => {
    const lost: string[] = [];
    const channel = new ProfileChannel(null, (reason) => lost.push(reason));
    try {
      const fractions: number[] = [];
      const loaded = await channel.request(WorkerRequests.load, load('service.cpuprofile'), undefined, (f) => fractions.push(f));
      assert.equal(loaded.summary.name, 'service.cpuprofile');
      assert.ok(loaded.costTable !== null && join(FIXTURES, 'workloads', 'clock.js') in loaded.costTable.files);
      assert.equal(fractions[fractions.length - 1], 1);
      for (let i = 1; i < fractions.length; i++) assert.ok(fractions[i] >= fractions[i - 1]);

      const flame = await channel.request(WorkerRequests.flame, { mode: 'normal', onlyMyCode: false });
      assert.equal(flame.title, 'service.cpuprofile');
      assert.ok(flame.root.value > 0);
      await assert.rejects(channel.request(WorkerRequests.flame, { mode: 'diff', onlyMyCode: false }), (error: Error) => {
        // The session's message as it is, one line: not wrapped in jsonrpc's "Request ... failed with message:".
        assert.equal(error.message, 'no baseline profile loaded: use Compare to pick the "before" profile');
        return true;
      });
      await assert.rejects(channel.request(WorkerRequests.load, load('none.cpuprofile')), /^Error: \S*none\.cpuprofile: no such file$/);

      const cancel = new AbortController();
      const cancelled = channel.request(WorkerRequests.load, load('service.v8.log'), cancel.signal);
      cancel.abort();
      await assert.rejects(cancelled, /cancelled/);
      assert.equal((await channel.request(WorkerRequests.overview, {})).profile?.name, 'service.cpuprofile');
      assert.deepEqual(lost, []);
    } finally {
      await channel.stop();
    }
  });
});
