// The byte scanner must read every cpuprofile exactly like JSON.parse + readCpuprofile, and
// hand anything unusual back (null) instead of guessing.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCpuprofile, readCpuprofile } from './readCpuprofile';
import { scanCpuprofile, type ByteSource } from './scanCpuprofile';

const PROFILES = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'profiles');

/** The bytes a few at a time (1 to 7 per read), as a slow file would give them. */
function dribble(bytes: Buffer): ByteSource {
  let at = 0;
  let turn = 0;
  return {
    read(target, offset, length) {
      const n = Math.min(length, bytes.length - at, 1 + (turn++ % 7));
      bytes.copy(target, offset, at, at + n);
      at += n;
      return n;
    },
  };
}

/** Scanned from memory, and through a 16-byte window fed a few bytes at a time, it equals JSON.parse + readCpuprofile. */
function same(text: string): void {
  const expected = readCpuprofile(JSON.parse(text.replace(/^\ufeff/, '')), 'p.cpuprofile');
  for (const input of [Buffer.from(text), dribble(Buffer.from(text))]) {
    const parts = scanCpuprofile(input, 16);
    assert.ok(parts !== null, 'the scanner read it');
    assert.deepEqual(buildCpuprofile(parts, 'p.cpuprofile'), expected);
  }
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
    it(`reads ${name} exactly like JSON.parse + readCpuprofile`, () => same(readFileSync(join(PROFILES, name), 'utf8')));
  }

  it('handles any key order, whitespace, nested brackets and escapes inside strings', () => {
    const nodes = [node(1, '(root)', [2, 3]), node(2, 'a "quoted" ]}[{ name\\', [], { positionTicks: [{ line: 3, ticks: 2 }] }), node(3, 'ünïcödé → 𝒳')];
    const profile = { samples: [2, 2, 3, 1], startTime: 10, timeDeltas: [5, -3, 7, 1], meta: { x: [1, { y: '}' }] }, nodes, endTime: 100 };
    same(JSON.stringify(profile));
    same(JSON.stringify(profile, null, 2));
    same(`\ufeff${JSON.stringify(profile)}\n`);
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
