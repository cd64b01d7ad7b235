// The byte scanner must read every cpuprofile exactly like JSON.parse + readCpuprofile, and
// hand anything unusual back (null) instead of guessing.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCpuprofile, CpuprofileParts, readCpuprofile } from './readCpuprofile';
import { scanCpuprofile } from './scanCpuprofile';
import { dribble } from '../../../test/dribble';

const PROFILES = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'profiles');

/**
 * Scanned from memory, and through windows fed a few bytes at a time, it equals JSON.parse +
 * readCpuprofile. From memory every node is in view (the field-by-field path); through a 16-byte
 * window none is (each is JSON.parsed alone); through 100 and 512 bytes, some are cut at the
 * window's end, and the field-by-field reader gives them up part-way.
 */
function same(text: string): void {
  const expected = readCpuprofile(JSON.parse(text.replace(/^\ufeff/, '')), 'p.cpuprofile');
  for (const [input, window] of [[Buffer.from(text), 16], [dribble(Buffer.from(text)), 16], [dribble(Buffer.from(text)), 100], [dribble(Buffer.from(text)), 512]] as const) {
    const parts = scanCpuprofile(input, window);
    assert.ok(parts !== null, 'the scanner read it');
    assert.deepEqual(buildCpuprofile(parts, 'p.cpuprofile'), expected);
  }
}

/** The function names of the nodes that were JSON.parsed alone (CpuprofileParts.addNode) when scanned from memory. */
function nodesParsedAlone(text: string): unknown[] {
  const addNode = CpuprofileParts.prototype.addNode;
  const alone: unknown[] = [];
  CpuprofileParts.prototype.addNode = function (this: CpuprofileParts, node: unknown) {
    alone.push((node as { callFrame?: { functionName?: unknown } }).callFrame?.functionName);
    addNode.call(this, node);
  };
  try {
    assert.ok(scanCpuprofile(Buffer.from(text)) !== null);
  } finally {
    CpuprofileParts.prototype.addNode = addNode;
  }
  return alone;
}

const node = (id: number, name: string, children?: number[], extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  id,
  callFrame: { functionName: name, scriptId: '1', url: name === '(root)' ? '' : '/app/x.js', lineNumber: id, columnNumber: 2 },
  hitCount: 0,
  ...(children ? { children } : {}),
  ...extra,
});

describe('scanCpuprofile', () => {
  for (const name of ['service.cpuprofile', 'service.container.cpuprofile', 'typed.cpuprofile']) {
    it(`reads ${name} exactly like JSON.parse + readCpuprofile, every node field by field`, () => {
      const text = readFileSync(join(PROFILES, name), 'utf8');
      assert.deepEqual(nodesParsedAlone(text), []);
      same(text);
    });
  }

  it('handles any key order, whitespace, nested brackets and escapes inside strings', () => {
    const nodes = [node(1, '(root)', [2, 3]), node(2, 'a "quoted" ]}[{ name\\', [], { positionTicks: [{ line: 3, ticks: 2 }] }), node(3, 'ünïcödé → 𝒳')];
    const profile = { samples: [2, 2, 3, 1], startTime: 10, timeDeltas: [5, -3, 7, 1], meta: { x: [1, { y: '}' }] }, nodes, endTime: 100 };
    same(JSON.stringify(profile));
    same(JSON.stringify(profile, null, 2));
    same(`\ufeff${JSON.stringify(profile)}\n`);
  });

  it('reads nodes of every shape exactly as JSON.parse + addNode: field by field when usual, else each parsed alone', () => {
    const frame = (functionName: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ functionName, scriptId: '7', url: 'file:///app/a.js', lineNumber: 3, columnNumber: 4, ...extra });
    const nodes: unknown[] = [
      { id: 1, callFrame: frame('(root)', { url: '', scriptId: 0 }), hitCount: 0, children: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13] },
      // The usual shape, keys in another order, spaces, a deoptReason, position ticks (one without ticks, one of 0).
      { callFrame: frame('a'), children: [], id: 2, hitCount: 3, deoptReason: 'not \u0007 optimized', positionTicks: [{ line: 4, ticks: 2 }, { ticks: 1, line: 5 }, { line: 6 }, { line: 7, ticks: 0 }, {}] },
      // The same frame text (interned once), negative and zero numbers.
      { id: 3, callFrame: frame('a'), hitCount: -0, children: [14] },
      // Escapes and non-ASCII in names and urls; an empty call frame; an escaped key (parsed alone).
      { id: 4, callFrame: frame('quote " slash \\ newline \n tab \t é 𝒳', { url: 'file:///app/ü/b.js' }) },
      { id: 5, callFrame: {} },
      { ESCAPED_ID: 6, callFrame: frame('escaped key') },
      // Shapes left to JSON.parse: a fraction, an exponent, an unknown key, a string id, a nested callFrame value, no callFrame, an unknown callFrame key; a parent is read.
      { id: 7.5, callFrame: frame('fraction') },
      { id: 8, callFrame: frame('exponent', { lineNumber: 'EXPONENT' }) },
      { id: 9, callFrame: frame('unknown key'), meta: { x: [1] } },
      { id: '10', callFrame: frame('string id') },
      { id: 11, callFrame: frame('nested', { url: ['x'] }) },
      { id: 12, hitCount: 2 },
      { id: 13, callFrame: frame('traced'), parent: 2 },
      { id: 14, callFrame: frame('codeType', { codeType: 'JS' }), children: [1.5, 'x'] },
      // A duplicate id (ignored, and its frame is never interned), a duplicate key (the last wins).
      { id: 2, callFrame: frame('duplicate id only') },
    ];
    // JSON.stringify writes neither an escaped key nor an exponent: put them in its text.
    const text = JSON.stringify({ nodes, startTime: 0, endTime: 100, samples: [2, 3, 4, 2], timeDeltas: [1, 2, 3, 4] }).replace('"ESCAPED_ID"', '"i\\u0064"').replace('"EXPONENT"', '1e2');
    assert.ok(text.includes('"i\\u0064":6') && text.includes('"lineNumber":1e2'));
    // From memory, the usual nodes (a parent too) are read field by field; the 8 others are parsed alone.
    assert.deepEqual(nodesParsedAlone(text), ['escaped key', 'fraction', 'exponent', 'unknown key', 'string id', 'nested', undefined, 'codeType']);
    same(text);
    same(text.replace('"hitCount":3', '"hitCount":1,"hitCount":3').replace('"children":[14]', '"children":[99],"children":[14]'));
    // Without samples, time comes from the hit counts.
    same(text.replace(',"samples":[2,3,4,2],"timeDeltas":[1,2,3,4]', ''));
    // Whitespace everywhere, as a pretty-printed file.
    same(JSON.stringify(JSON.parse(text), null, 3));
  });

  it('reads frames whose bytes share a hash (as a crafted profile can make them) each as itself', () => {
    // NodeScanner keys call frames by FNV-1a over their bytes after the `{`. Five pairs of
    // blocks, each pair colliding from the state the previous pair leaves (Joux's multicollision),
    // give 32 names, so 32 frames, with one hash: more than the scanner keeps per hash, so both
    // of its paths are taken.
    const fnv = (state: number, ascii: string): number => {
      for (let i = 0; i < ascii.length; i++) state = Math.imul(state ^ ascii.charCodeAt(i), 0x01000193);
      return state;
    };
    const prefix = fnv(0x811c9dc5, '"functionName":"');
    const pairs: [string, string][] = [];
    for (let state = prefix; pairs.length < 5; ) {
      const seen = new Map<number, string>();
      for (let i = 0; ; i++) {
        const block = i.toString(36).padStart(6, '0');
        const h = fnv(state, block);
        const other = seen.get(h);
        if (other === undefined) seen.set(h, block);
        else {
          pairs.push([other, block]);
          state = h;
          break;
        }
      }
    }
    const names = Array.from({ length: 32 }, (_, k) => pairs.map((pair, b) => pair[(k >> b) & 1]).join(''));
    assert.equal(new Set(names.map((name) => fnv(prefix, name))).size, 1);
    // Call frames that differ only in their names (so in the blocks), each in two nodes.
    const framed = (id: number, name: string, children?: number[]): Record<string, unknown> => ({ ...node(id, name, children), callFrame: { functionName: name, scriptId: '1', url: '/app/x.js', lineNumber: 5, columnNumber: 2 } });
    const nodes = [framed(1, '(root)', names.map((_, k) => k + 2)), ...names.map((name, k) => framed(k + 2, name, [k + 100])), ...names.map((name, k) => framed(k + 100, name))];
    const text = JSON.stringify({ nodes, startTime: 0, endTime: 64, samples: nodes.map((n) => n.id), timeDeltas: nodes.map(() => 1) });
    assert.deepEqual(nodesParsedAlone(text), []);
    same(text);
    const functions = scanCpuprofile(Buffer.from(text))!.builder.functions;
    assert.deepEqual(functions.map((f) => f.name).filter((name) => names.includes(name)), names, 'each name is its own function, once');
  });

  it('gives a node JSON refuses back to JSON.parse, whichever reader met it', () => {
    const wrap = (node: string): string => `{"nodes":[{"id":1,"callFrame":{"functionName":"(root)","url":""}},${node}],"samples":[],"timeDeltas":[]}`;
    for (const node of ['{"id":2,"callFrame":{"functionName":"a\tb"}}', '{"id":02,"callFrame":{}}', '{"id":2,"callFrame":{"url":"x"},}', '{"id":2 "callFrame":{}}', '{"id":-,"callFrame":{}}', '{"id":2,"callFrame":{"url":"\\q"}}']) {
      const text = wrap(node);
      assert.throws(() => JSON.parse(text), SyntaxError, node);
      for (const [input, window] of [[Buffer.from(text), 16], [dribble(Buffer.from(text)), 16], [dribble(Buffer.from(text)), 100]] as const) assert.equal(scanCpuprofile(input, window), null, node);
    }
  });

  it('reads empty sample arrays and many node batches', () => {
    const many = [node(1, '(root)', Array.from({ length: 4999 }, (_, i) => i + 2))];
    for (let i = 2; i <= 5000; i++) many.push(node(i, `f${i}`));
    same(JSON.stringify({ nodes: many, startTime: 0, endTime: 10, samples: Array.from({ length: 5000 }, (_, i) => i + 1), timeDeltas: new Array(5000).fill(1) }));
    same(JSON.stringify({ nodes: many.slice(0, 1), startTime: 0, endTime: 10, samples: [], timeDeltas: [] }));
  });

  it('hands back what it does not read itself', () => {
    const base = { nodes: [node(1, '(root)')], startTime: 0, endTime: 1 };
    const back = (text: string): void => {
      assert.equal(scanCpuprofile(Buffer.from(text)), null, text.slice(0, 60));
      assert.equal(scanCpuprofile(dribble(Buffer.from(text)), 16), null, text.slice(0, 60));
    };
    back(JSON.stringify({ ...base, samples: [1], timeDeltas: [0.5] })); // not integers
    back(JSON.stringify({ ...base, samples: [1], timeDeltas: [2 ** 40] })); // beyond 32 bits
    back(JSON.stringify({ ...base, samples: ['1'], timeDeltas: [1] }));
    back(JSON.stringify({ profile: base }));
    back(JSON.stringify({ code: [], ticks: [] }));
    back('[1, 2]');
    back('{}');
    back(JSON.stringify(base).slice(0, -1)); // truncated
    back(`${JSON.stringify(base)} trailing`);
    back('{"nodes": [1 2]}');
    back('{"nodes": [{"id": 1}], "samples": [1 2]}');
    for (const samples of ['[1,]', '[,1]', '[-]', '[1,,2]', '[01]', '[1e3]', '[--1]', '[1-]', '[2147483648]', '[1', '[1,2']) back(`{"nodes": [{"id": 1}], "samples": ${samples}}`);
  });

  it('reads integer arrays with spaces, signs and numbers cut by the window anywhere', () => {
    const samples = [0, 1, 22, 333, 4444, 2147483647, -2147483647, 7, 0];
    const deltas = [-1, 0, 10, -0, 123456789, 5, 6, 7, 8];
    const nodes = [node(1, '(root)')];
    const texts = [
      JSON.stringify({ nodes, samples, timeDeltas: deltas }),
      `{"nodes":${JSON.stringify(nodes)},"samples":[ ${samples.join(' ,  ')} ],"timeDeltas":[\n${deltas.join(',\n\t')}\n]}`,
      `{"nodes":${JSON.stringify(nodes)},"samples":[ ],"timeDeltas":[]}`,
    ];
    for (const text of texts) {
      const expected = JSON.parse(text) as { samples: number[]; timeDeltas: number[] };
      for (const window of [16, 17, 19, 64]) {
        for (const input of [Buffer.from(text), dribble(Buffer.from(text))]) {
          const parts = scanCpuprofile(input, window);
          assert.ok(parts !== null, text);
          assert.deepEqual([...(parts.samples as Int32Array)], expected.samples);
          assert.deepEqual([...(parts.timeDeltas as Int32Array)], expected.timeDeltas.map((d) => d + 0));
        }
      }
    }
  });
});
