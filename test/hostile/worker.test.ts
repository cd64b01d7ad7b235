// A profile load that stalls (a read that never returns, a loop) must not hold the language
// server: a cancel the worker does not answer gets the worker replaced, the cancelled load ends,
// and the requests behind it run on the new worker. The worker here is a real worker thread whose
// script stalls on purpose when asked to load 'stall'.
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { WorkerBackend } from '../../server/lsp/profileFeatures';
import { tempDir } from './probe';

describe('hostile input: a stalled profile worker', function () {
  this.timeout(30_000);
  const dir = tempDir('worker');

  it('is replaced after an unanswered cancel; the requests behind it are answered', async () => {
    const script = join(dir, 'stallingWorker.cjs');
    writeFileSync(
      script,
      [
        "const { parentPort, threadId } = require('node:worker_threads');",
        'parentPort.on("message", (message) => {',
        '  if (message.abort) return;',
        "  if (message.request.kind === 'load' && message.request.path === 'stall') for (;;) {}",
        '  parentPort.postMessage({ id: message.id, result: { threadId } });',
        '});',
      ].join('\n'),
    );
    const lost: string[] = [];
    const backend = new WorkerBackend(script, (reason) => lost.push(reason));
    try {
      await probe(backend, lost);
    } finally {
      await backend.stop();
    }
  });
});

/** The stall, the cancel, the replacement; `lost` collects what the backend reported. */
async function probe(backend: WorkerBackend, lost: string[]): Promise<void> {
  const first = (await backend.request({ kind: 'overview' })) as unknown as { threadId: number };

  const cancel = new AbortController();
  const stalled = backend.request({ kind: 'load', path: 'stall', role: 'primary', options: {} }, cancel.signal);
  const behind = backend.request({ kind: 'overview' });
  cancel.abort();
  await assert.rejects(stalled, /cancelled/);
  const answered = (await behind) as unknown as { threadId: number };
  assert.notEqual(answered.threadId, first.threadId, 'answered by a new worker');
  assert.deepEqual(lost, ['profile worker did not answer a cancel and was restarted']);
}
