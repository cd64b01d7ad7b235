import { strict as assert } from 'node:assert';
import { chargeByRequestWindows, windowOwners, type RequestWindow, type WindowSamples } from './requestWindows';

// Rows: 0 GET /a, 1 GET /b, 2 middleware (every request).
const MIDDLEWARE = 2;

/** Samples 1 ms apart from 0 ms; rows per sample (-1 none); idle ones marked. */
function samples(rows: number[], idle: number[] = []): WindowSamples {
  const idleFlags = new Uint8Array(rows.length);
  for (const i of idle) idleFlags[i] = 1;
  return {
    atMs: Float64Array.from(rows.map((_, i) => i)),
    endMs: rows.length,
    row: Int32Array.from(rows),
    idle: idleFlags,
    middleware: (row) => row === MIDDLEWARE,
    rowCount: 3,
  };
}

const window = (startMs: number, endMs: number | null, ...candidates: number[]): RequestWindow => ({ startMs, endMs, candidates });

describe('cost per route by the requests\' windows (pure)', () => {
  it("charges unrouted and middleware samples inside one route's window to it; the route's own, idle and outside samples are untouched", () => {
    // 0..9: none, A, none, middleware, idle(none), none | window of A over [1, 5)
    const s = samples([-1, 0, -1, MIDDLEWARE, -1, -1], [4]);
    const charge = chargeByRequestWindows(s, [window(1, 5, 0)]);
    assert.deepEqual([...charge.gained], [2, 0, 0], 'the unrouted sample at 2 and the middleware at 3');
    assert.deepEqual([...charge.given], [0, 0, 1]);
    assert.equal(charge.fromNoRouteMs, 1);
    assert.equal(charge.overlappedMs, 0);
    assert.equal(charge.ownedRequests, 1);
  });

  it('leaves samples while windows of several routes are open where their stacks put them, and counts them', () => {
    // A's window [0, 4), B's window [2, 6): samples 0-1 A alone, 2-3 both, 4-5 B alone.
    const s = samples([-1, -1, -1, MIDDLEWARE, -1, 1]);
    const charge = chargeByRequestWindows(s, [window(0, 4, 0), window(2, 6, 1)]);
    assert.deepEqual([...charge.gained], [2, 1, 0], "A's two, B's one (its own sample at 5 stays its own)");
    assert.deepEqual([...charge.given], [0, 0, 0]);
    assert.equal(charge.overlappedMs, 2);
  });

  it('a window of a request no route is known for keeps the samples in it, even beside a known one', () => {
    const s = samples([-1, -1, -1]);
    const charge = chargeByRequestWindows(s, [window(0, 3, 0), window(1, 2)]);
    assert.deepEqual([...charge.gained], [2, 0, 0]);
    assert.equal(charge.overlappedMs, 1);
    assert.equal(charge.ownedRequests, 1);
  });

  it("a request several routes match is the route whose own frames were sampled in its window, if only one's were", () => {
    const s = samples([-1, 1, -1, -1, 0, -1]);
    assert.deepEqual([...windowOwners(s, [window(0, 3, 0, 1), window(3, 6, 0, 1), window(0, 6, 0, 1), window(5, 6, 0, 1)])], [1, 0, -1, -1]);
  });

  it('an open window (the response never finished) lasts to the end; the last sample lasts to endMs', () => {
    const s = { ...samples([-1, -1]), endMs: 5 };
    const charge = chargeByRequestWindows(s, [window(0.5, null, 1)]);
    assert.deepEqual([...charge.gained], [0, 4, 0], 'the sample at 1 ms lasts until 5 ms; the one at 0 is before the window');
  });

  it('no windows: nothing charged', () => {
    const charge = chargeByRequestWindows(samples([-1, MIDDLEWARE]), []);
    assert.deepEqual([...charge.gained], [0, 0, 0]);
    assert.equal(charge.overlappedMs, 0);
  });
});
