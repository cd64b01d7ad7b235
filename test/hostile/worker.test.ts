// A profile load that stalls (a read that never returns, a loop) must not hold the language
// server: a cancel the worker does not answer gets the worker replaced, the cancelled load ends,
// and the requests behind it run on the new worker. The worker here is a real worker thread whose
// script speaks the worker protocol (vscode-jsonrpc on its port) and stalls on purpose when asked
// to load 'stall'.
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { ProfileChannel } from '../../server/lsp/profileChannel';
import { WorkerRequests, type WorkerLoadParams } from '../../server/protocol/worker';
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
        `const rpc = require(${JSON.stringify(createRequire(import.meta.url).resolve('vscode-jsonrpc/node'))});`,
        'const connection = rpc.createMessageConnection(new rpc.PortMessageReader(parentPort), new rpc.PortMessageWriter(parentPort));',
        `connection.onRequest(${JSON.stringify(WorkerRequests.load.method)}, (params) => {`,
        "  if (params.path === 'stall') for (;;) {}",
        '  return { threadId };',
        '});',
        `connection.onRequest(${JSON.stringify(WorkerRequests.overview.method)}, () => ({ threadId }));`,
        'connection.listen();',
      ].join('\n'),
    );
    const lost: string[] = [];
    const backend = new ProfileChannel(script, (reason) => lost.push(reason));
    try {
      await probe(backend, lost);
    } finally {
      await backend.stop();
    }
  });
});

/** The stall, the cancel, the replacement; `lost` collects what the backend reported. */
async function probe(backend: ProfileChannel, lost: string[]): Promise<void> {
  const first = (await backend.request(WorkerRequests.overview, {})) as unknown as { threadId: number };

  const cancel = new AbortController();
  const stall: WorkerLoadParams = { path: 'stall', role: 'primary', roots: [], pathMappings: [], nativeSymbols: false };
  const stalled = backend.request(WorkerRequests.load, stall, cancel.signal);
  const behind = backend.request(WorkerRequests.overview, {});
  cancel.abort();
  await assert.rejects(stalled, /cancelled/);
  const answered = (await behind) as unknown as { threadId: number };
  assert.notEqual(answered.threadId, first.threadId, 'answered by a new worker');
  assert.deepEqual(lost, ['profile worker did not answer a cancel and was restarted']);
}
