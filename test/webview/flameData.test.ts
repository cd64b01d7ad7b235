// The webview's pure parts: folding, literal search, frame text, colours.
import assert from 'node:assert/strict';
import type { FlameNode } from '../../server/profile/model/types';
import { drawableTree, foldThreshold } from '../../webview/drawableTree';
import { changeCounts, frameFacts, frameLocation, graphScale } from '../../webview/frameText';
import { categoryColour, diffColour, parseHexColour, readPalette } from '../../webview/palette';
import { frameMatches, normalizeSearchTerm } from '../../webview/search';
import { parseHostMessage } from '../../webview/hostChannel';

function node(name: string, value: number, children: FlameNode[] = [], extra: Partial<FlameNode> = {}): FlameNode {
  return { name, value, self: value - children.reduce((s, c) => s + c.value, 0), category: 'user', file: '', line: 0, children, ...extra };
}

describe('drawableTree', () => {
  it('keeps subtrees at or above the threshold and folds the rest into the parent', () => {
    const root = node('root', 100, [node('big', 60, [node('leaf', 30), node('tiny', 0.5, [node('tinier', 0.2)])]), node('small', 0.9)]);
    const tree = drawableTree(root, 1);
    assert.deepEqual(
      tree.root.children.map((c) => c.name),
      ['big'],
    );
    assert.deepEqual(tree.root.children[0]!.children.map((c) => c.name), ['leaf']);
    assert.equal(tree.nodes, 3);
    assert.equal(tree.folded, 3, 'small, tiny and tinier');
    assert.equal(tree.root.collapsed, 1);
    assert.equal(tree.root.children[0]!.collapsed, 2);
    assert.equal(tree.root.value, 100, 'totals are kept: the folded time shows as the parent');
  });

  it('counts frames the server had already folded', () => {
    const tree = drawableTree(node('root', 100, [node('(7 small frames)', 0.3, [], { collapsed: 7 })]), 1);
    assert.equal(tree.folded, 8);
  });

  it('does not change its input', () => {
    const root = node('root', 10, [node('a', 0.1)]);
    const copy = JSON.parse(JSON.stringify(root));
    drawableTree(root, 1);
    assert.deepEqual(root, copy);
  });

  it('sanitizes malformed nodes instead of failing', () => {
    const raw = { name: 42, value: 'x', category: 'evil', line: -3, children: [null, 5, { name: 'ok', value: 5, self: 5, category: 'gc', file: '/a.js', line: 2.7, children: 'nope' }] };
    const tree = drawableTree(raw, 0);
    assert.equal(tree.root.name, '42');
    assert.equal(tree.root.value, 0);
    assert.equal(tree.root.category, 'program');
    assert.equal(tree.root.line, 0);
    assert.deepEqual(tree.root.children, [{ name: 'ok', value: 5, self: 5, category: 'gc', file: '/a.js', line: 2, children: [] }]);
  });

  it('rejects a missing root with one clear message', () => {
    assert.throws(() => drawableTree(null, 1), /no root frame/);
  });

  it('walks a 100,000-deep chain without overflowing the stack', () => {
    let chain = node('leaf', 1);
    for (let i = 0; i < 100_000; i++) chain = { ...node(`f${i}`, 1), self: 0, children: [chain] };
    assert.equal(drawableTree(chain, 0.5, Number.POSITIVE_INFINITY).nodes, 100_001);
  });

  it('raises the threshold until the tree fits the node budget', () => {
    // 200 equal chains of 50 frames: each frame is 1/200 of the root, so a 1/2000 rule keeps all 10,001.
    const chains = Array.from({ length: 200 }, (_, c) => {
      let chain = node(`leaf${c}`, 1);
      for (let i = 0; i < 49; i++) chain = { ...node(`c${c}f${i}`, 1), self: 0, children: [chain] };
      return chain;
    });
    const root = node('root', 200, chains);
    assert.equal(drawableTree(root, 0.1).nodes, 10_001);
    const fitted = drawableTree(root, 0.1, 5_000);
    assert.ok(fitted.nodes <= 5_000, `${fitted.nodes} nodes`);
    assert.equal(fitted.nodes + fitted.folded, 10_001, 'every input node is either kept or counted as folded');
  });

  it('folds at the server rule (1/2000) or one pixel on a wider view', () => {
    assert.equal(foldThreshold(4000, 1000), 2);
    assert.equal(foldThreshold(6000, 3000), 2);
  });
});

describe('search', () => {
  const frame = { name: 'Query.prototype.exec [as exec]', file: '/srv/app/node_modules/mongoose/lib/query.js' };
  it('matches text literally, ignoring case', () => {
    assert.equal(frameMatches(frame, normalizeSearchTerm('  QUERY.PROTOTYPE ')), true);
    assert.equal(frameMatches(frame, normalizeSearchTerm('[as exec]')), true);
    assert.equal(frameMatches(frame, normalizeSearchTerm('mongoose/lib')), true, 'the file counts too');
  });
  it('does not treat the text as a regular expression', () => {
    assert.equal(frameMatches(frame, normalizeSearchTerm('Query.*exec')), false);
    assert.equal(frameMatches({ name: 'axb', file: '' }, 'a.b'), false);
    assert.equal(frameMatches(frame, normalizeSearchTerm('(')), false);
    assert.doesNotThrow(() => frameMatches(frame, '[('));
  });
  it('matches nothing for empty text', () => {
    assert.equal(frameMatches(frame, normalizeSearchTerm('   ')), false);
  });
});

describe('frame text', () => {
  it('describes a frame in ms and % of CPU time (incident 000: Date.now 494 of 4,796 ticks)', () => {
    const scale = graphScale({ cpuMs: 4796, shareBasis: { unit: 'ms' } }, 9000);
    const facts = frameFacts({ name: 'Date.now', value: 494, self: 494, category: 'native', file: '', line: 0, children: [] }, scale);
    assert.deepEqual(facts, { name: 'Date.now', total: 'total 494 ms (10.3% CPU)', self: 'self 494 ms (10.3% CPU)', location: 'no source file', category: 'native / V8 builtins' });
  });

  it('gives idle and the root no share of CPU time (idle is not CPU time)', () => {
    const scale = graphScale({ cpuMs: 4796, shareBasis: { unit: 'ms' } }, 9000);
    const idle = frameFacts({ name: '(idle)', value: 4204, self: 4204, category: 'idle', file: '', line: 0, children: [] }, scale);
    assert.equal(idle.total, 'total 4.20 s');
    const root = frameFacts({ name: 'all', value: 9000, self: 0, category: 'program', file: '', line: 0, children: [] }, scale, true);
    assert.equal(root.total, 'total 9.00 s');
    assert.match(root.category, /CPU time \(idle excluded\) 4\.80 s/);
  });

  it('never calls idle or VM time a regression', () => {
    const scale = graphScale({ cpuMs: 100, shareBasis: { unit: 'ms' } }, 100);
    const idle = frameFacts({ name: '(idle)', value: 10, self: 10, category: 'idle', file: '', line: 0, delta: 40, children: [] }, scale);
    assert.equal(idle.delta, '+40.0 ms vs baseline (idle and VM time are not compared)');
    assert.equal(changeCounts({ name: '(program)', category: 'program' }), false);
    assert.equal(changeCounts({ name: 'handler', category: 'user' }), true);
  });

  it('adds delta and folded counts when present', () => {
    const scale = graphScale({ cpuMs: 100, shareBasis: { unit: 'ms' } }, 100);
    const facts = frameFacts({ name: '', value: 10, self: 10, category: 'user', file: '/a.js', line: 3, delta: -4, collapsed: 1, children: [] }, scale);
    assert.equal(facts.name, '(anonymous)');
    assert.equal(facts.delta, '\u22124.00 ms vs baseline (faster)');
    assert.equal(facts.folded, '1 tiny frame folded in');
    assert.equal(facts.location, '/a.js:3');
    // Only my code and the inverted view say what was folded into a frame.
    const mine = frameFacts({ name: 'handler', value: 10, self: 8, category: 'user', file: '/a.js', line: 3, libraryMs: 6, smallCalleesMs: 2, children: [] }, scale);
    assert.equal(mine.folded, 'self includes 6.00 ms in library code it called (only my code) · includes 2.00 ms in small functions it called, merged into it');
    assert.equal(drawableTree(node('root', 10, [node('handler', 10, [], { libraryMs: 6, smallCalleesMs: 2 })]), 0).root.children[0]!.libraryMs, 6);
  });

  it('describes an allocation profile frame in bytes, never as time (allocates 366 MB of 990 MB)', () => {
    const scale = graphScale({ shareBasis: { unit: 'bytes' }, cpuMs: 990_000_000 }, 990_000_000);
    const facts = frameFacts({ name: 'buildGarbage', value: 366_000_000, self: 300_000_000, category: 'user', file: '/a.js', line: 12, delta: -1_500_000, children: [] }, scale);
    assert.equal(facts.total, 'total 349 MiB (37.0% of bytes)');
    assert.equal(facts.self, 'self 286 MiB (30.3% of bytes)');
    assert.equal(facts.delta, '\u22121.43 MiB vs baseline (allocates less)');
  });

  it('gives file without line when the line is unknown', () => {
    assert.equal(frameLocation({ file: '/a.js', line: 0 }), '/a.js');
    assert.equal(frameLocation({ file: '', line: 5 }), null);
  });
});

describe('palette', () => {
  const style = {
    getPropertyValue: (name: string) =>
      ({ '--hf-user': '#f0a046', '--hf-gc': ' #e8615c', '--hf-diff-slower': '#e0301e', '--hf-diff-faster': '#1f6fd6', '--hf-diff-unchanged': '#d6d6d6', '--hf-match': '#e600e6' })[name] ?? '',
  };
  const palette = readPalette(style);

  it('reads colours from the CSS properties, grey when one is missing', () => {
    assert.deepEqual(palette.category.gc, [232, 97, 92]);
    assert.deepEqual(palette.category.node, [200, 200, 200]);
    assert.equal(palette.match, 'rgb(230,0,230)');
    assert.equal(parseHexColour('red'), null);
  });

  it('shades a category by name, stably', () => {
    assert.equal(categoryColour(palette, 'user', 'getTimestamp'), categoryColour(palette, 'user', 'getTimestamp'));
    assert.notEqual(categoryColour(palette, 'user', 'getTimestamp'), categoryColour(palette, 'user', 'handleMessage'));
  });

  it('colours a diff red when slower, blue when faster, grey when unchanged, stronger for bigger changes', () => {
    const parse = (c: string) => c.slice(4, -1).split(',').map(Number);
    const [r1, , b1] = parse(diffColour(palette, 50, 100));
    const [r2, , b2] = parse(diffColour(palette, -50, 100));
    assert.ok(r1 > b1 && b2 > r2);
    assert.equal(diffColour(palette, 0, 100), 'rgb(214,214,214)');
    const [weak] = parse(diffColour(palette, -5, 100));
    const [strong] = parse(diffColour(palette, -90, 100));
    assert.ok(strong < weak, 'a larger speed-up is a deeper blue');
  });
});

describe('parseHostMessage', () => {
  const graph = { title: 't', mode: 'normal', unit: 'ms', shareBasis: { unit: 'ms' }, cpuMs: 1, root: { name: 'r', value: 1, self: 1, category: 'program', file: '', line: 0, children: [] }, openableFiles: [] };
  it('accepts render and error messages', () => {
    assert.deepEqual(parseHostMessage({ type: 'render', graph }), { type: 'render', graph });
    assert.deepEqual(parseHostMessage({ type: 'render', graph, onlyMyCode: true }), { type: 'render', graph, onlyMyCode: true });
    assert.deepEqual(parseHostMessage({ type: 'error', message: 'x' }), { type: 'error', message: 'x' });
  });
  it('rejects anything else', () => {
    for (const bad of [
      null,
      'render',
      { type: 'error', message: 5 },
      { type: 'render' },
      { type: 'render', graph: { ...graph, root: null } },
      { type: 'render', graph: { ...graph, mode: 'sideways' } },
      { type: 'render', graph: { ...graph, unit: 'ticks' } },
      { type: 'render', graph: { ...graph, shareBasis: undefined } },
      { type: 'render', graph: { ...graph, shareBasis: { unit: 'ms', processes: { kept: [1], of: 2 } } } },
      { type: 'render', graph: { ...graph, title: 5 } },
      { type: 'render', graph: { ...graph, cpuMs: '1' } },
      { type: 'render', graph: { ...graph, openableFiles: 'x' } },
      { type: 'render', graph, onlyMyCode: 'yes' },
    ]) {
      assert.equal(parseHostMessage(bad), null, JSON.stringify(bad));
    }
  });
});
