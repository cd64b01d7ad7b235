import { strict as assert } from 'node:assert';

import { TickTimeline } from './tickTimeline';

describe('tick timeline', () => {
  it('gives each tick the time until the next, the last one the mean interval', () => {
    const timeline = new TickTimeline();
    // Ticks at 0, 1000, 3000 µs: the first lasts 1 ms, the second 2 ms, the last the mean 1.5 ms.
    assert.deepEqual([timeline.next(0), timeline.next(1000), timeline.next(3000)], [0, 1, 2]);
    assert.equal(timeline.lastTickMs(), 1.5);
    assert.equal(timeline.durationMs(), 4.5);
    assert.equal(timeline.warning(), null);
  });

  it('counts a tick stamped earlier than the previous one as 0 ms and warns once', () => {
    const timeline = new TickTimeline();
    // 0, 2000, 1500 (earlier: lasts 0, time stays at 2000), 4000.
    assert.deepEqual([timeline.next(0), timeline.next(2000), timeline.next(1500), timeline.next(4000)], [0, 2, 0, 2]);
    assert.equal(timeline.lastTickMs(), 4 / 3);
    assert.equal(timeline.durationMs(), 4 + 4 / 3);
    assert.equal(timeline.warning(), '1 tick(s) earlier than the previous one were counted as 0 ms');
  });

  it('has no duration without ticks and none to spread with one', () => {
    assert.equal(new TickTimeline().durationMs(), 0);
    const one = new TickTimeline();
    one.next(500);
    assert.equal(one.lastTickMs(), 0);
    assert.equal(one.durationMs(), 0);
  });
});
