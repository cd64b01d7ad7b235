import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { profileOf, type FrameSpec } from '../model/constructedProfiles.test';
import { diffFlameTree, diffReports } from './diff';
import { SMALL_STACKS } from './flameTree';
import { buildReport } from './report';
import type { FlameNode } from '../model/types';
import { tempFolders } from '../../../test/unit/tempFolders';

// Removed after every file has run: the folders are made while this file loads.
const temp = tempFolders();
after(() => temp.removeAll());

const root = temp.make('hotframe-flame-');
const appJs = join(root, 'app.js');
writeFileSync(appJs, '');
const user = (name: string, line: number, callLine = 0): FrameSpec => ({ name, url: appJs, line, callLine });
const dep = (name: string): FrameSpec => ({ name, url: '/srv/node_modules/redis/index.js', line: 1 });

/** name(value/self)[children] — compact enough to compare whole trees. */
function shape(node: FlameNode): string {
  const children = node.children.map(shape).join(' ');
  return `${node.name}(${node.value}/${node.self})${children === '' ? '' : `[${children}]`}`;
}

function sumOfParts(node: FlameNode): void {
  const children = node.children.reduce((sum, c) => sum + c.value, 0);
  assert.equal(node.self + children, node.value, `${node.name}: self + children = value`);
  node.children.forEach(sumOfParts);
}

describe('flame trees', () => {
  it('merge frames of one function under one parent whatever line called them', () => {
    const profile = profileOf([
      { frames: [user('main', 1), user('work', 5, 2)], samples: 3 },
      { frames: [user('main', 1), user('work', 5, 3)], samples: 4 },
      { frames: [user('main', 1)], samples: 1 },
    ]);
    const tree = buildReport(profile, { root }).flame('normal', false, 0);
    assert.equal(shape(tree), 'all(8/0)[main(8/1)[work(7/7)]]');
    assert.deepEqual([tree.children[0].file, tree.children[0].line, tree.children[0].category], [appJs, 1, 'user']);
  });

  it('fold library frames into their nearest user caller with "only my code"', () => {
    const profile = profileOf([
      { frames: [user('main', 1), dep('send'), dep('write')], samples: 4 },
      { frames: [user('main', 1), dep('send'), user('callback', 9)], samples: 2 },
      { frames: [user('main', 1)], samples: 1 },
      { frames: [{ name: 'processTicks', url: 'node:internal/process/task_queues', line: 1 }, { name: 'now' }], samples: 3 },
      { frames: [{ name: '(garbage collector)' }], samples: 5 },
    ]);
    const analyzed = buildReport(profile, { root });
    assert.equal(shape(analyzed.flame('normal', true, 0)), 'all(15/0)[main(7/5)[callback(2/2)] (garbage collector)(5/5) (libraries)(3/3)]');
    // main's self holds the 4 ms of send/write it called; its tooltip says so.
    assert.deepEqual(analyzed.flame('normal', true, 0).children.map((c) => [c.name, c.libraryMs]), [['main', 4], ['(garbage collector)', undefined], ['(libraries)', undefined]]);
    // User code called from libraries with no user frame above (a route handler under express): at the top, not under "(libraries)".
    const handler = buildReport(
      profileOf([
        { frames: [{ name: 'processTicks', url: 'node:internal/process/task_queues', line: 1 }, dep('handle'), user('route', 20)], samples: 6 },
        { frames: [{ name: 'processTicks', url: 'node:internal/process/task_queues', line: 1 }, dep('handle')], samples: 2 },
      ]),
      { root },
    );
    assert.equal(shape(handler.flame('normal', true, 0)), 'all(8/0)[route(6/6) (libraries)(2/2)]');
    assert.equal(
      shape(analyzed.flame('normal', false, 0)),
      'all(15/0)[main(7/1)[send(6/0)[write(4/4) callback(2/2)]] (garbage collector)(5/5) processTicks(3/0)[now(3/3)]]',
    );
  });

  it('invert: leaves at the top, callers below, totals kept', () => {
    const profile = profileOf([
      { frames: [user('A', 1), user('B', 2)], samples: 3 },
      { frames: [user('C', 3), user('B', 2)], samples: 2 },
      { frames: [user('A', 1)], samples: 1 },
    ]);
    const inverted = buildReport(profile, { root }).flame('inverted', false, 0);
    assert.equal(shape(inverted), 'all(6/0)[B(5/0)[A(3/3) C(2/2)] A(1/1)]');
    sumOfParts(inverted);
  });

  it('invert: a small leaf function is merged into its caller, not lumped into one "(N small frames)" root block', () => {
    const stacks = [{ frames: [user('main', 1), user('handler', 2)], samples: 600 }];
    // 40 helpers of 5 samples each (0.5% of 1000, under the 1% threshold), all called from handler: 200 samples.
    for (let i = 0; i < 40; i++) stacks.push({ frames: [user('main', 1), user('handler', 2), user(`helper${i}`, 10 + i)], samples: 5 });
    stacks.push({ frames: [user('main', 1), user('big', 99)], samples: 190 });
    // A stack whose every frame is small: the one remainder, named as such.
    stacks.push({ frames: [user('lonely', 200), user('tiny', 201)], samples: 4 });
    stacks.push({ frames: [user('main', 1), user('handler', 2), user('big', 99)], samples: 6 });
    const inverted = buildReport(profileOf(stacks), { root }).flame('inverted', false, 0.01);
    assert.equal(shape(inverted), `all(1000/0)[handler(800/0)[main(800/800)] big(196/0)[main(190/190) (2 small frames)(6/6)] ${SMALL_STACKS}(4/4)]`);
    assert.equal(inverted.children[0].smallCalleesMs, 200);
    assert.equal(inverted.children[1].smallCalleesMs, undefined);
    assert.ok(!inverted.children.some((c) => /small frames/.test(c.name)), 'no "(N small frames)" block among the roots');
    sumOfParts(inverted);
  });

  it('collapse subtrees narrower than minFraction into one node per parent, keeping every value', () => {
    const stacks = [{ frames: [user('main', 1)], samples: 900 }];
    for (let i = 0; i < 20; i++) stacks.push({ frames: [user('main', 1), user(`tiny${i}`, 10 + i), user(`deeper${i}`, 40 + i)], samples: 5 });
    stacks.push({ frames: [user('main', 1), user('big', 99)], samples: 100 });
    const analyzed = buildReport(profileOf(stacks), { root });
    const tree = analyzed.flame('normal', false, 0.01); // threshold: 10 of 1100 samples
    assert.equal(shape(tree), 'all(1100/0)[main(1100/900)[big(100/100) (40 small frames)(100/100)]]');
    assert.equal(tree.children[0].children[1].collapsed, 40);
    sumOfParts(tree);
    // Default 1/2000: nothing is that small here.
    assert.equal(analyzed.flame('normal', false).children[0].children.length, 21);
  });
});

describe('diff', () => {
  const before = profileOf(
    [
      { frames: [user('main', 1), user('parse', 5)], samples: 100, line: 6 },
      { frames: [user('main', 1), user('gone', 20)], samples: 50 },
      { frames: [user('main', 1)], samples: 50 },
    ],
    { msPerSample: 5 },
  ); // 200 samples, 1000 ms
  const after = profileOf(
    [
      { frames: [user('main', 1), user('parse', 5)], samples: 200, line: 6 },
      { frames: [user('main', 1), user('added', 30)], samples: 150 },
      { frames: [user('main', 1)], samples: 50 },
    ],
    { msPerSample: 5 },
  ); // 400 samples, 2000 ms

  it('compares rates (ms per second of profile), biggest change first', () => {
    const result = diffReports(buildReport(before, { root }).report, buildReport(after, { root }).report);
    assert.equal(result.unit, 'ms/s');
    assert.deepEqual(
      result.functions.map((f) => [f.name, f.beforeSelf, f.afterSelf, f.selfDelta, f.totalDelta]),
      [
        // added: 750 ms in 2 s; gone: 250 ms in 1 s; parse: 500 ms/s both times; main: 250 -> 125 self.
        ['added', 0, 375, 375, 375],
        ['gone', 250, 0, -250, -250],
        ['main', 250, 125, -125, 0],
        ['parse', 500, 500, 0, 0],
      ],
    );
    assert.deepEqual(result.lines, [{ file: appJs, line: 6, before: 500, after: 500, delta: 0 }]);
  });

  it('builds the after tree with deltas against the baseline scaled to the same duration', () => {
    const tree = diffFlameTree(buildReport(before, { root }), buildReport(after, { root }), false, 0);
    const main = tree.children[0];
    const byName = new Map(main.children.map((c) => [c.name, c]));
    assert.equal(tree.delta, 0); // 2000 ms vs 1000 ms * 2
    assert.equal(byName.get('added')?.delta, 750);
    assert.equal(byName.get('parse')?.delta, 0);
    // Frames only in the baseline have no after samples: they still carry their (negative) delta.
    const gone = main.children.find((c) => c.name.includes('small frames'));
    assert.deepEqual([gone?.value, gone?.delta, gone?.collapsed], [0, -500, 1]);
    // main: 2000 ms in both (the baseline's 1000 ms at the after duration); its own self went 500 -> 250.
    assert.equal(main.delta, 0);
    assert.equal(main.delta - main.children.reduce((sum, c) => sum + (c.delta ?? 0), 0), 250 - 500);
  });
});
