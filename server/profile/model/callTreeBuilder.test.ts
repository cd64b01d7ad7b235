// The shared tree builder: one node per (parent, function, call line), parents first, growth
// past its initial capacity, and wide nodes (a lookup map past 16 children) behaving the same.
import assert from 'node:assert/strict';
import { CallTreeBuilder } from './callTreeBuilder';

describe('CallTreeBuilder', () => {
  it('interns functions by name, url, line and column', () => {
    const b = new CallTreeBuilder();
    const f = b.internFunction('f', '/a.js', 1, 2, 'js');
    assert.equal(b.internFunction('f', '/a.js', 1, 2, 'js'), f);
    assert.notEqual(b.internFunction('f', '/a.js', 1, 3, 'js'), f);
    assert.notEqual(b.internFunction('f', '/b.js', 1, 2, 'js'), f);
    assert.deepEqual(b.functions[f], { name: 'f', url: '/a.js', line: 1, column: 2, category: 'user' });
  });

  it('finds the same child for the same (parent, function, call line), also on wide nodes, past its capacity', () => {
    const b = new CallTreeBuilder();
    const seen = new Map<string, number>();
    // 3,000 children under the root and 40 under one of them, each asked for twice, in a scrambled order.
    const asks: [number, number, number][] = [];
    for (let f = 0; f < 3000; f++) asks.push([0, f, f % 5]);
    for (let round = 0; round < 2; round++) {
      for (let k = 0; k < asks.length; k++) {
        const [parent, func, line] = asks[(k * 7919) % asks.length];
        const node = b.child(parent, func, line);
        const key = `${parent}/${func}/${line}`;
        if (seen.has(key)) assert.equal(node, seen.get(key), key);
        else seen.set(key, node);
      }
    }
    const parent = seen.get('0/17/2')!;
    for (let f = 0; f < 40; f++) for (let line = 0; line < 2; line++) seen.set(`${parent}/${f}/${line}`, b.child(parent, f, line));
    for (let f = 0; f < 40; f++) for (let line = 0; line < 2; line++) assert.equal(b.child(parent, f, line), seen.get(`${parent}/${f}/${line}`));
    b.addSelf(parent, 2, 3.5);
    b.addLine(parent, 9, 2, 3.5);
    b.addLine(parent, 9, 1, 0.5);
    b.addLine(parent, 0, 1, 1); // unknown line: not recorded
    const p = b.build('v8log', 2, 10, []);
    assert.equal(p.tree.count, 1 + 3000 + 80);
    for (let i = 1; i < p.tree.count; i++) assert.ok(p.tree.parent[i] < i);
    assert.equal(p.tree.selfSamples[parent], 2);
    assert.deepEqual(p.lineTicks, [{ node: parent, line: 9, samples: 3, ms: 4 }]);
  });
});
