// `hotframe profile FILE` on `node --trace-gc` output recorded here from an allocation-heavy run,
// checked against a count written in this test (its own reading of each line, not the reader's).
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { bundles } from './bundles';

const GARBAGE = `let kept = [];
for (let r = 0; r < 60; r++) {
  const batch = [];
  for (let i = 0; i < 40000; i++) batch.push({ id: i, name: 'item-' + i, tags: [r, i] });
  if (r % 10 === 0) kept.push(batch);
}
globalThis.kept = kept;`;

describe('hotframe profile on --trace-gc output (recorded here)', function () {
  this.timeout(120_000);
  let dir: string;
  let trace: string;
  let text: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'hotframe-gctrace-'));
    const env = { ...process.env };
    delete env.ELECTRON_RUN_AS_NODE;
    // A small semi-space makes many scavenges, as in seed 001 before its fix.
    const run = spawnSync(process.execPath, ['--trace-gc', '--max-semi-space-size=1', '-e', GARBAGE], { env, encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    // As a service's log holds it: the program's own output and a log collector's prefix around the GC's lines.
    text = 'service started\n' + run.stdout.split('\n').map((line, i) => (i % 2 === 0 && line !== '' ? `0|app  | ${line}` : line)).join('\n');
    trace = join(dir, 'trace-gc.log');
    writeFileSync(trace, text);
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('counts collections by kind and sums their pauses as the lines say', async () => {
    const { cli } = await bundles();
    const run = spawnSync(process.execPath, [cli, 'profile', trace, '--format', 'json'], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    const answer = JSON.parse(run.stdout) as { collections: number; totalPauseMs: number; maxPauseMs: number; byKind: { kind: string; count: number; totalPauseMs: number }[] };
    // The test's own reading: "... ms: <Kind> a (b) -> c (d) MB, <pause> / <background> ms ..."
    const mine = new Map<string, { count: number; pause: number }>();
    let max = 0;
    for (const line of text.split('\n')) {
      const afterTime = line.split(' ms: ')[1];
      if (afterTime === undefined || !afterTime.includes(' MB, ')) continue;
      const kind = afterTime.slice(0, afterTime.search(/ \d/));
      const pause = parseFloat(afterTime.split(' MB, ')[1]);
      const entry = mine.get(kind) ?? { count: 0, pause: 0 };
      entry.count++;
      entry.pause += pause;
      max = Math.max(max, pause);
      mine.set(kind, entry);
    }
    assert.ok((mine.get('Scavenge')?.count ?? 0) > 20, JSON.stringify([...mine]));
    assert.equal(answer.collections, [...mine.values()].reduce((a, e) => a + e.count, 0));
    assert.deepEqual(new Set(answer.byKind.map((k) => k.kind)), new Set(mine.keys()));
    for (const k of answer.byKind) {
      assert.equal(k.count, mine.get(k.kind)!.count, k.kind);
      assert.ok(Math.abs(k.totalPauseMs - mine.get(k.kind)!.pause) < 0.01, k.kind);
    }
    assert.ok(Math.abs(answer.maxPauseMs - max) < 0.001, `max ${answer.maxPauseMs} vs ${max}`);
    const plain = spawnSync(process.execPath, [cli, 'profile', trace], { encoding: 'utf8' });
    assert.match(plain.stdout, /^trace-gc\.log: --trace-gc output, \d+ collections over [\d.]+ m?s\nGC paused the main thread [\d.]+ m?s.*: [\d.]+% of the wall time; pauses mean [\d.]+ m?s, p99 [\d.]+ m?s, max [\d.]+ m?s\n/);
  });
});
