// Calls read from the source (functionRanges.ts), the one way call lines, inlined lines and the
// blocking-sync insight find the line a .cpuprofile does not record. Sources are written and
// profiles built or recorded here; every expected line is found in the source text by the test.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { buildSync } from 'esbuild';

import { profileOf, type FrameSpec } from '../model/constructedProfiles.test';
import { analyzeProfileFile, buildReport } from './report';

/** 1-based line and the 1-based column of the first `(` at or after `needle` (where V8 places a function). */
function at(text: string, needle: string): { line: number; column: number } {
  const i = text.indexOf(needle);
  assert.ok(i >= 0, `${needle} not in the source`);
  const paren = text.indexOf('(', i);
  const before = text.slice(0, paren).split('\n');
  return { line: before.length, column: before[before.length - 1].length + 1 };
}

/** The 1-based line of the only line holding `needle`. */
function lineOf(text: string, needle: string): number {
  const lines = text.split('\n').map((l, i) => (l.includes(needle) ? i + 1 : 0)).filter((l) => l > 0);
  assert.equal(lines.length, 1, `${needle}: ${JSON.stringify(lines)}`);
  return lines[0];
}

const TIMER: FrameSpec = { name: 'listOnTimeout', url: 'node:internal/timers', line: 524, column: 25 };

describe('calls read from the source', () => {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'hotframe-calls-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a source-mapped file: the sync call in a class method is the one the call lines find (a regex over the TypeScript saw both methods)', () => {
    const ts = [
      "import { writeFileSync } from 'node:fs';",
      '',
      'export class Store {',
      '  constructor(private readonly path: string) {}',
      '',
      '  save(rows: unknown[]): void {',
      '    const body = JSON.stringify(rows);',
      '    writeFileSync(this.path, body);',
      '  }',
      '',
      '  reset(): void {',
      "    writeFileSync(this.path, '[]');",
      '  }',
      '}',
      '',
    ].join('\n');
    writeFileSync(join(dir, 'store.ts'), ts);
    buildSync({ entryPoints: [join(dir, 'store.ts')], outfile: join(dir, 'store.js'), sourcemap: true, platform: 'node', format: 'cjs', logLevel: 'silent' });
    const js = readFileSync(join(dir, 'store.js'), 'utf8');
    // esbuild calls an imported function as (0, import_node_fs.writeFileSync)(…).
    assert.match(js, /\(0, import_node_fs\.writeFileSync\)\(this\.path, body\)/);
    const save = { name: 'save', url: join(dir, 'store.js'), ...at(js, 'save(rows') };
    const write = { name: 'writeFileSync', url: 'node:fs', line: 2330, column: 23 };
    const profile = profileOf([{ frames: [TIMER, save, write], samples: 60 }, { frames: [TIMER, save], samples: 40 }], { format: 'cpuprofile' });
    const { report } = buildReport(profile, { root: dir });
    const callLine = lineOf(ts, 'writeFileSync(this.path, body)');
    const insight = report.insights.find((i) => i.id === 'blocking-sync-io');
    assert.deepEqual(insight?.location, { file: join(dir, 'store.ts'), line: callLine });
    assert.match(insight?.title ?? '', /^fs\.writeFileSync\(\) blocks/);
    const call = report.callLines.find((c) => c.file === join(dir, 'store.ts') && c.line === callLine);
    assert.deepEqual([call?.function, call?.callee, call?.ms], ['save', 'writeFileSync', 60]);
  });

  it('a call matches a frame only when its name can be bound to it (a local function, an import, a built-in module)', () => {
    const main = [
      "const lib = require('./parser');",
      "const fs = require('node:fs');",
      "const store = require('./store');",
      '',
      'function handle(rows) {',
      '  const parse = (s) => s.trim();',
      '  const first = parse(rows[0]);',
      '  const out = lib.parse(first);',
      "  fs.writeFileSync('/dev/null', out);",
      '  store.writeFileSync(out);',
      '  return out;',
      '}',
      '',
      'function load(text) {',
      "  const parse = (t) => t.split('\\n');",
      '  return parse(text);',
      '}',
      '',
      'module.exports = { handle, load };',
      '',
    ].join('\n');
    const parser = 'exports.parse = function parse(s) {\n  return s;\n};\n';
    const store = 'exports.writeFileSync = function writeFileSync(s) {\n  return s;\n};\n';
    writeFileSync(join(dir, 'main.js'), main);
    writeFileSync(join(dir, 'parser.js'), parser);
    writeFileSync(join(dir, 'store.js'), store);
    const file = join(dir, 'main.js');
    const handle = { name: 'handle', url: file, ...at(main, 'handle(rows') };
    const load = { name: 'load', url: file, ...at(main, 'load(text') };
    const localParse = { name: 'parse', url: file, ...at(main, '(s) => s.trim()') };
    const libParse = { name: 'parse', url: join(dir, 'parser.js'), ...at(parser, 'parse(s') };
    const fsWrite = { name: 'writeFileSync', url: 'node:fs', line: 2330, column: 23 };
    const storeWrite = { name: 'writeFileSync', url: join(dir, 'store.js'), ...at(store, 'writeFileSync(s') };
    const profile = profileOf(
      [
        { frames: [TIMER, handle, localParse], samples: 5 },
        { frames: [TIMER, handle, libParse], samples: 7 },
        { frames: [TIMER, handle, fsWrite], samples: 11 },
        { frames: [TIMER, handle, storeWrite], samples: 13 },
        // parser.js's parse under load: load's only `parse(` calls its own arrow, not parser.js.
        { frames: [TIMER, load, libParse], samples: 17 },
      ],
      { format: 'cpuprofile' },
    );
    const { report } = buildReport(profile, { root: dir });
    const calls = report.callLines.filter((c) => c.file === file).map((c) => [c.line, c.function, c.callee, c.ms]);
    assert.deepEqual(
      calls.sort((a, b) => (a[0] as number) - (b[0] as number)),
      [
        [lineOf(main, 'const first = parse(rows[0])'), 'handle', 'parse', 5],
        [lineOf(main, 'lib.parse(first)'), 'handle', 'parse', 7],
        [lineOf(main, 'store.writeFileSync('), 'handle', 'writeFileSync', 13],
      ],
    );
    // node:fs's writeFileSync: store.js might hand out fs's own function (graceful-fs does), so
    // both writeFileSync lines may make that call and neither is charged; store.js's function is
    // never reached through the name fs binds.
    assert.ok(!report.callLines.some((c) => c.ms === 11), JSON.stringify(report.callLines));
  });

  it('names the sync call the user wrote (zlib.gzipSync), not the helper the profile shows (a real node run)', async function () {
    this.timeout(60_000);
    const source = [
      "const zlib = require('node:zlib');",
      "const page = Buffer.alloc(256 * 1024, 'page of text ');",
      'function compress(body) {',
      '  const out = zlib.gzipSync(body);',
      '  return out.length;',
      '}',
      'setTimeout(() => {',
      '  let n = 0;',
      '  for (let i = 0; i < 200; i++) n += compress(page);',
      '  process.stdout.write(`${n}\\n`);',
      '}, 0);',
      '',
    ].join('\n');
    writeFileSync(join(dir, 'gz.js'), source);
    const run = spawnSync(process.execPath, ['--cpu-prof', '--cpu-prof-dir', join(dir, 'prof'), join(dir, 'gz.js')], { cwd: dir, encoding: 'utf8', timeout: 50_000 });
    assert.equal(run.status, 0, run.stderr);
    const analyzed = await analyzeProfileFile(join(dir, 'prof', readdirSync(join(dir, 'prof'))[0]), { root: dir });
    const { report } = analyzed;
    // The recording shows Node's helpers under compress, not a frame named gzipSync.
    const under = new Set<string>();
    const { tree, functions } = analyzed.profile;
    for (let n = 1; n < tree.count; n++) if (functions[tree.func[tree.parent[n]]]?.name === 'compress') under.add(functions[tree.func[n]].name);
    assert.ok(!under.has('gzipSync'), JSON.stringify([...under]));
    const insight = report.insights.find((i) => i.id === 'blocking-sync-io');
    assert.ok(insight !== undefined, JSON.stringify(report.insights.map((i) => i.title)));
    assert.match(insight.title, /^zlib\.gzipSync\(\) blocks the event loop/);
    assert.match(insight.message, /^zlib\.gzipSync\(\) took .* called from compress at .*gz\.js:4, .*Use the asynchronous zlib\.gzip /);
    assert.deepEqual(insight.location, { file: join(dir, 'gz.js'), line: lineOf(source, 'zlib.gzipSync(body)') });
  });
});
