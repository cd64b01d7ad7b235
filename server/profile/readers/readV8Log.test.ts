// The raw V8 log reader on a hand-written log whose every address and position is known:
// libraries, builtins, skipped bytecode handlers, external callbacks, frameless callers, GC and
// idle states, relative frames, moved / deleted / replaced code, inlining, escapes.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { V8LogReader, escapedLineStarts, parseJsName, textLineStarts, unescapeLog } from './readV8Log';
import type { NormalizedProfile } from '../model/types';

// /app/a.js, as the log escapes it. Offsets: line 1 = 0..18, line 2 = 19..36 ("  return inner();"
// with `inner()` at 28), line 3 = 37, line 4 = 39.. ("function inner() {"), line 5 = 58..
// ("  return Date.now(), 1;" with `Date.now` at 67; its comma is logged as \x2C), line 6 = 82.
const SOURCE = 'function outer() {\\n  return inner();\\n}\\nfunction inner() {\\n  return Date.now()\\x2C 1;\\n}\\n';

const LOG = [
  'v8-version,11,3,244,8,0,0',
  'shared-library,/usr/bin/node,0x400000,0x800000,0',
  'shared-library,[vdso],0x7f0000000000,0x7f0000002000,0',
  'code-creation,Builtin,2,100,0x500000,100,DateNow',
  'code-creation,BytecodeHandler,0,100,0x900000,100,LdaZeroHandler',
  `script-source,7,/app/a.js,${SOURCE}`,
  'code-creation,JS,13,200,0x1000,200,outer /app/a.js:1:15,0xaa0,*',
  'code-source-info,0x1000,7,0,38,C0O0C40O28C100O37,,',
  'code-creation,JS,10,200,0x2000,100,inner /app/a.js:4:15,0xbb0,~',
  'code-source-info,0x2000,7,39,83,C0O39C10O67,,',
  // 1: in DateNow (inside node's text: native, named by the builtin) <- inner@5 <- outer@2
  'tick,0x500010,1000,0,0x0,0,0x200a,0x1029',
  // 2: in a bytecode handler outside any library: skipped, inner is the leaf (offset 0: line 4)
  'tick,0x900010,2000,0,0x0,0,0x2000,0x1029',
  // 3: GC while in outer (offset 5: line 1)
  'tick,0x1005,3000,0,0x0,1',
  // 4: external callback: the callback (DateNow) replaces the pc in vdso
  'tick,0x7f0000000100,4000,1,0x500020,6,0x1029',
  // 5: frameless call: tos points into inner (offset 5: line 4) and is kept as a frame
  'tick,0x500030,5000,0,0x2005,0,0x1029',
  'code-move,0x2000,0x3000',
  // 6: inner moved; outer given relative to the pc (0x900010 - 0x8fefe7 = 0x1029)
  'tick,0x900010,6000,0,0x0,0,0x300a,-8fefe7',
  'code-delete,0x3000',
  // 7: top pc in deleted code: '(unknown)' under outer
  'tick,0x3005,7000,0,0x0,0,0x1029',
  // 8: idle, sampled in vdso
  'tick,0x7f0000000100,8000,0,0x0,8',
  // new code for outer with inner inlined at offset 28; offset 25 is inside the inlinee
  'code-creation,JS,13,300,0x5000,100,outer /app/a.js:1:15,0xaa0,*',
  'code-source-info,0x5000,7,0,38,C0O0C20O67I0,F1O28,S0xbb0',
  // 9: in the inlined Date.now call of the new outer code: charged to outer, line 2
  'tick,0x5019,9000,0,0x0,0',
  // 10: earlier than the previous tick
  'tick,0x1005,8500,0,0x0,0',
  // code overlapping outer's first code replaces it
  'code-creation,JS,10,400,0x1000,10,a\\x2Cb /app/a.js:7:1,0xcc0,~',
  // 11: in the replacing code (no source info: line unknown)
  'tick,0x1001,9500,0,0x0,0',
];

async function read(lines: string[], nativeSymbols = false): Promise<NormalizedProfile> {
  const reader = new V8LogReader('test.v8.log', { nativeSymbols });
  for (const line of lines) reader.line(line);
  return reader.finish();
}

/** "outer:1 > inner:4" paths with self samples, callLine of each frame after ':'. */
function stacks(p: NormalizedProfile): Record<string, number> {
  const out: Record<string, number> = {};
  for (let i = 1; i < p.tree.count; i++) {
    if (p.tree.selfSamples[i] === 0) continue;
    const parts: string[] = [];
    for (let n = i; n > 0; n = p.tree.parent[n]) parts.unshift(`${p.functions[p.tree.func[n]].name}@${p.tree.callLine[n]}`);
    out[parts.join(' > ')] = (out[parts.join(' > ')] ?? 0) + p.tree.selfSamples[i];
  }
  return out;
}

describe('V8LogReader', () => {
  it('resolves every tick to the expected stack and call lines', async () => {
    const p = await read(LOG);
    assert.equal(p.format, 'v8log');
    assert.equal(p.samples, 11);
    assert.deepEqual(stacks(p), {
      'outer@0 > inner@2 > DateNow@5': 1, // 1
      'outer@0 > inner@2': 2, // 2, 6 (6 at line 5, see lineTicks)
      'outer@0 > (garbage collector)@1': 1, // 3
      'outer@0 > DateNow@2': 1, // 4
      'outer@0 > inner@2 > DateNow@4': 1, // 5
      'outer@0 > (unknown)@2': 1, // 7
      '(idle)@0': 1, // 8
      'outer@0': 2, // 9, 10
      'a,b@0': 1, // 11
    });
  });

  it('names an inlined function as it was when its caller was logged: a later code-creation reusing the SFI address renames nothing before it', async () => {
    const log = [
      'v8-version,11,3,244,8,0,0',
      `script-source,7,/app/a.js,${SOURCE}`,
      'code-creation,JS,10,200,0x2000,100,inner /app/a.js:4:15,0xbb0,~',
      'code-source-info,0x2000,7,39,83,C0O39C10O67,,',
      // outer's optimized code with inner (SFI 0xbb0) inlined at offset 28; code offset 25 is inside inner, at 67 (line 5).
      'code-creation,JS,13,300,0x5000,100,outer /app/a.js:1:15,0xaa0,*',
      'code-source-info,0x5000,7,0,38,C0O0C20O67I0,F0O28,S0xbb0',
      'tick,0x5019,1000,0,0x0,0',
      // The GC freed inner's SFI; another function's SFI now sits at the same address.
      'code-creation,JS,10,400,0x7000,50,reused /app/b.js:1:1,0xbb0,~',
      'tick,0x5019,2000,0,0x0,0',
      'tick,0x7001,3000,0,0x0,0',
    ];
    const p = await read(log);
    // Both ticks in outer's code are in inlined inner, called from outer's line 2; only the tick in reused's own code is reused's.
    assert.deepEqual(stacks(p), { 'outer@0 > inner@2': 2, 'reused@0': 1 });
    const inner = p.functions.findIndex((f) => f.name === 'inner');
    assert.deepEqual(p.functions[inner], { name: 'inner', url: '/app/a.js', line: 4, column: 15, category: 'user' });
  });

  it('merges code objects of one function and names functions by their position', async () => {
    const p = await read(LOG);
    const outer = p.functions.filter((f) => f.name === 'outer');
    assert.deepEqual(outer, [{ name: 'outer', url: '/app/a.js', line: 1, column: 15, category: 'user' }]);
    const categories = Object.fromEntries(p.functions.map((f) => [f.name, f.category]));
    assert.deepEqual(categories, { outer: 'user', inner: 'user', DateNow: 'native', '(garbage collector)': 'gc', '(unknown)': 'native', '(idle)': 'idle', 'a,b': 'user' });
  });

  it('puts self samples on source lines, inlined code on the line of the inlined call', async () => {
    const p = await read(LOG);
    const lines = p.lineTicks.map((t) => `${p.functions[p.tree.func[t.node]].name}:${t.line}=${t.samples}`).sort();
    // inner: tick 2 at offset 0 (line 4) and tick 6 at offset 10 (line 5); outer: tick 10 at
    // offset 5 (line 1) and tick 9 in the inlinee, charged to line 2.
    assert.deepEqual(lines, ['inner:4=1', 'inner:5=1', 'outer:1=1', 'outer:2=1']);
  });

  it('gives each tick the time to the next one and warns about going back in time', async () => {
    const p = await read(LOG);
    let total = 0;
    for (const ms of p.tree.selfMs) total += ms;
    // 1000..9000 in 1000 µs steps; 8500 comes after 9000: 0 µs, and the clock stays at 9000,
    // so 9500 adds 500 µs; the last tick lasts one average interval: (9500 - 1000) / 10 µs.
    // The ticks' times add up to the duration.
    assert.equal(Math.round(total * 1000), 8000 + 0 + 500 + 850);
    assert.equal(p.durationMs, (9500 - 1000 + 850) / 1000);
    assert.deepEqual(p.warnings, ['1 tick(s) earlier than the previous one were counted as 0 ms']);
  });

  it('skips malformed lines with one warning and keeps going', async () => {
    const p = await read([...LOG.slice(0, 10), 'tick,', 'code-creation,JS,10', 'code-move,zz,0x1', '%%%', ...LOG.slice(10)]);
    assert.equal(p.samples, 11);
    assert.equal(p.warnings.filter((w) => /malformed/.test(w)).length, 1);
    assert.match(p.warnings.join('\n'), /^4 malformed log line\(s\) were skipped, first: "tick,"$/m);
  });

  it('reads lines of scripts it was not given from local files, and says when it cannot', async () => {
    const withoutSource = LOG.filter((l) => !l.startsWith('script-source'));
    const p = await read(withoutSource);
    assert.deepEqual(p.lineTicks, []);
    assert.match(p.warnings.join('\n'), /no source for 1 script\(s\) \(lines unknown\), e\.g\. \/app\/a\.js/);
  });

  it('parses names with spaces, escapes and no position', () => {
    assert.deepEqual(parseJsName('get size /app/x.js:3:7'), { name: 'get size', url: '/app/x.js', line: 3, column: 7 });
    assert.deepEqual(parseJsName(' node:internal/main/run_main_module:1:1'), { name: '(anonymous)', url: 'node:internal/main/run_main_module', line: 1, column: 1 });
    assert.deepEqual(parseJsName('Math.max'), { name: 'Math.max', url: '', line: 0, column: 0 });
    // new Function / eval code has a position but no url.
    assert.deepEqual(parseJsName('handler14 :3:26'), { name: 'handler14', url: '', line: 3, column: 26 });
    assert.equal(unescapeLog('a\\x2Cb\\nc\\\\d\\u00e9'), 'a,b\nc\\dé');
  });

  it('resolves an address again after code is created, moved or deleted over it, and only then: eviction reaches past the new code', async () => {
    const log = [
      'shared-library,/usr/bin/node,0x400000,0x800000,0',
      'code-creation,JS,10,1,0x1000,0x100,a /app/a.js:1:1,0xa0,~',
      'code-creation,JS,10,1,0x3000,0x100,c /app/c.js:1:1,0xc0,~',
      // Each address is seen at the top and as a caller before the code around it changes.
      'tick,0x10f0,1,0,0x0,0,0x3010',
      'tick,0x3010,2,0,0x0,0,0x10f0',
      // b covers a's head only: a is evicted whole, so its tail at 0x10f0 is nobody's now.
      'code-creation,JS,10,3,0x1000,0x10,b /app/b.js:1:1,0xb0,~',
      'tick,0x10f0,4,0,0x0,0,0x3010',
      'tick,0x3010,5,0,0x0,0,0x10f0',
      // c moves to 0x5000: its old address is nobody's, its new one is c's.
      'code-move,0x3000,0x5000',
      'tick,0x3010,6,0,0x0,0',
      'tick,0x5010,7,0,0x0,0',
      // b is deleted; a library mapped later claims an address that was unknown.
      'code-delete,0x1000',
      'tick,0x1001,8,0,0x0,0',
      'tick,0x9000010,9,0,0x0,0',
      'shared-library,/lib/x.so,0x9000000,0x9100000,0',
      'tick,0x9000010,10,0,0x0,0',
    ];
    const p = await read(log);
    assert.deepEqual(stacks(p), {
      'c@0 > a@0': 1, // 1
      'a@0 > c@0': 1, // 2
      'c@0 > (unknown)@0': 1, // 4: a's tail is unknown at the top
      'c@0': 2, // 5 (a's tail dropped as a caller), 7 (c at its new place)
      '(unknown)@0': 3, // 6 (c's old place), 8 (b deleted), 9 (before the library)
      '/lib/x.so@0': 1, // 10
    });
  });

  it("finds a script's line starts in its escaped text as in the text itself", () => {
    // As V8's log writes a script: backslashes, commas, line feeds and characters outside
    // printable ASCII escaped; a carriage return left raw or escaped (both are read).
    const escape = (text: string, rawCr: boolean): string =>
      [...text]
        .map((ch) => {
          const c = ch.charCodeAt(0);
          if (ch === '\\') return '\\\\';
          if (ch === ',') return '\\x2C';
          if (ch === '\n') return '\\n';
          if (ch === '\r' && rawCr) return ch;
          if (c < 0x20 || (c >= 0x7f && c < 0x100)) return `\\x${c.toString(16).padStart(2, '0')}`;
          if (c >= 0x100) return `\\u${c.toString(16).padStart(4, '0')}`;
          return ch;
        })
        .join('');
    const alphabet = ['a', ' ', '\n', '\r', '\r\n', '\\', ',', 'é', '€', '\t', 'xyz'];
    let seed = 12345;
    const next = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let round = 0; round < 300; round++) {
      let text = '';
      const length = Math.floor(next() * 60);
      for (let k = 0; k < length; k++) text += alphabet[Math.floor(next() * alphabet.length)];
      for (const rawCr of [false, true]) {
        assert.deepEqual(escapedLineStarts(escape(text, rawCr)), textLineStarts(text), JSON.stringify(text));
      }
    }
  });

  it('takes a frame only when it is 1 to 13 hex digits (an optional 0x), or a wider number', async () => {
    const valid = ['0x1020', '0X1020', '1020', '00000000001020'];
    const invalid = ['\x11\x10\x12\x10', '0x', 'x1020', '0x1020g', '0x1020\x10'];
    const ticks = [...valid, ...invalid].map((frame, k) => `tick,0x1010,${k + 1},0,0x0,0,${frame}`);
    const p = await read(['code-creation,JS,10,1,0x1000,0x100,a /app/a.js:1:1,0xa0,~', ...ticks, 'tick,0x1010,99,0,0x0,0,0x1020,']);
    assert.deepEqual(stacks(p), { 'a@0 > a@0': valid.length + 1, 'a@0': invalid.length });
  });

  it('keeps hostile names as text', async () => {
    const hostile = '<img src=x onerror=alert(1)>';
    const p = await read(['code-creation,JS,10,1,0x10,10,' + hostile + ' /app/x.js:1:1,0x1,~', 'tick,0x12,1,0,0x0,0']);
    assert.equal(p.functions[0].name, hostile);
  });

  it("names C++ frames from the binary's symbol table, only when the log's builtins sit where the table says", async function () {
    let listing = '';
    try {
      listing = execFileSync('nm', ['-n', '-S', '--defined-only', process.execPath], { encoding: 'utf8', maxBuffer: 1 << 29 });
    } catch {
      this.skip();
    }
    const address = (symbol: string): number | undefined => {
      const m = new RegExp(`^([0-9a-f]+) [0-9a-f]+ [Tt] ${symbol}$`, 'm').exec(listing);
      return m === null ? undefined : parseInt(m[1], 16);
    };
    const dateNow = address('Builtins_DateNow');
    const hrtime = address('uv_hrtime');
    if (dateNow === undefined || hrtime === undefined) this.skip();
    const hex = (n: number): string => `0x${n.toString(16)}`;
    const log = (builtinAt: number | null): string[] => [
      `shared-library,${process.execPath},0x1000,${hex(Math.max(dateNow, hrtime) + 0x100000)},0`,
      ...(builtinAt === null ? [] : [`code-creation,Builtin,2,1,${hex(builtinAt)},12,DateNow`]),
      `tick,${hex(hrtime + 1)},1,0,0x0,6`,
    ];
    const names = (p: NormalizedProfile): string[] => p.functions.map((f) => f.name);
    assert.deepEqual(names(await read(log(dateNow), true)), ['uv_hrtime']);
    assert.deepEqual(names(await read(log(dateNow), false)), [process.execPath], 'switched off');
    assert.deepEqual(names(await read(log(dateNow + 16), true)), [process.execPath], 'builtins elsewhere: another binary');
    assert.deepEqual(names(await read(log(null), true)), [process.execPath], 'nothing to check the table against');
  });
});

// The inlined split against an aggregation of `code-source-info` written here, on a log recorded
// at test time (test/fixtures/workloads/inlined.js: TurboFan inlines inlinedLib.js's mix into run).
// The ticks whose pc is in a JS code object of the workload are kept; each is charged, by that code
// object's source positions and inlining table, to the innermost function whose code it ran (named
// as its SharedFunctionInfo was when the code was logged). The reader's self samples per function
// must be the same: nothing lost, nothing counted twice, every inlined tick on its own function.
describe('V8LogReader inlined frames against an inline-aware aggregation of code-source-info', function () {
  this.timeout(120_000);
  it('gives every function of a recorded log the self ticks the inlining tables give it', async () => {
    const workloads = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'workloads');
    const dir = mkdtempSync(join(tmpdir(), 'hotframe-v8inline-'));
    try {
      const logFile = join(dir, 'inlined.v8.log');
      execFileSync(process.execPath, ['--prof', '--no-logfile-per-isolate', `--logfile=${logFile}`, join(workloads, 'inlined.js')], { stdio: 'ignore' });
      const lines = readFileSync(logFile, 'utf8').split('\n');
      type Code = { start: number; size: number; name: string; positions: { code: number; inlined: number }[]; inlinedFns: string[] };
      let codes: Code[] = [];
      const sfiName = new Map<number, string>();
      const expected = new Map<string, number>();
      const kept: string[] = [];
      const fnName = (raw: string): string => raw.replace(/^[~*^+]/, '');
      for (const line of lines) {
        const f = line.split(',');
        if (f[0] === 'code-creation' && f[1] === 'JS') {
          const start = Number(f[4]);
          codes = codes.filter((c) => c.start + c.size <= start || c.start >= start + Number(f[5]));
          codes.push({ start, size: Number(f[5]), name: fnName(f[6]), positions: [], inlinedFns: [] });
          if (f[7] !== undefined) sfiName.set(Number(f[7]), fnName(f[6]));
        } else if (f[0] === 'code-source-info') {
          const code = codes.find((c) => c.start === Number(f[1]));
          if (code === undefined) continue;
          code.positions = [...f[5].matchAll(/C(\d+)O\d+(?:I(\d+))?/g)].map((m) => ({ code: Number(m[1]), inlined: m[2] === undefined ? -1 : Number(m[2]) }));
          const fns = [...(f[7] ?? '').matchAll(/S(0x[0-9a-f]+)/g)].map((m) => sfiName.get(Number(m[1])) ?? '?');
          code.inlinedFns = [...f[6].matchAll(/F(\d+)O\d+(?:I\d+)?/g)].map((m) => fns[Number(m[1])]);
        } else if (f[0] === 'code-move') {
          const code = codes.find((c) => c.start === Number(f[1]));
          if (code !== undefined) code.start = Number(f[2]);
        } else if (f[0] === 'code-delete') {
          codes = codes.filter((c) => c.start !== Number(f[1]));
        } else if (f[0] === 'tick') {
          // JS state (0), no external callback, pc inside a JS code object of the workload.
          const pc = Number(f[1]);
          const code = codes.find((c) => pc >= c.start && pc < c.start + c.size);
          if (f[3] !== '0' || f[5] !== '0' || code === undefined || !code.name.includes(workloads)) continue;
          let at = -1;
          for (const p of code.positions) if (p.code <= pc - code.start) at = p.inlined;
          const name = at >= 0 ? code.inlinedFns[at] : code.name;
          expected.set(name, (expected.get(name) ?? 0) + 1);
          kept.push(line);
          continue;
        }
        if (f[0] !== 'tick') kept.push(line);
      }
      const p = await read(kept);
      const actual = new Map<string, number>();
      for (let n = 1; n < p.tree.count; n++) {
        if (p.tree.selfSamples[n] === 0) continue;
        const fn = p.functions[p.tree.func[n]];
        const name = `${fn.name} ${fn.url}:${fn.line}:${fn.column}`;
        actual.set(name, (actual.get(name) ?? 0) + p.tree.selfSamples[n]);
      }
      const mix = [...expected].find(([name]) => name.startsWith('mix '));
      assert.ok(mix !== undefined && mix[1] > 50, `mix has self ticks in run's optimized code: ${JSON.stringify([...expected])}`);
      assert.deepEqual(Object.fromEntries([...actual].sort()), Object.fromEntries([...expected].sort()));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
