import { strict as assert } from 'node:assert';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSync } from 'esbuild';

import { profileOf } from '../model/constructedProfiles.test';
import { buildReport } from '../analysis/report';
import { SourceMapCache } from './sourceMaps';
import { tempFolders } from '../../../test/unit/tempFolders';

// Removed after every file has run: the folders are made while this file loads.
const temp = tempFolders();
after(() => temp.removeAll());

const root = temp.make('hotframe-maps-');
const source = join(root, 'service.ts');
writeFileSync(
  source,
  [
    'interface Message { id: number }', // 1
    '', // 2
    'export function getTimestamp(): number {', // 3
    '  return Date.now();', // 4
    '}', // 5
    '', // 6
    'export function onMessage(message: Message): string {', // 7
    '  const at: number = getTimestamp();', // 8
    '  return `${message.id}@${at}`;', // 9
    '}', // 10
    '',
  ].join('\n'),
);

/** Builds service.ts with esbuild and returns the generated file and its text. */
function bundle(sourcemap: 'linked' | 'inline', name: string): { file: string; text: string } {
  const file = join(root, name);
  buildSync({ entryPoints: [source], outfile: file, bundle: true, platform: 'node', format: 'cjs', sourcemap, logLevel: 'silent' });
  return { file, text: readFileSync(file, 'utf8') };
}

/** 1-based line and column of the first occurrence of `needle` in the generated text. */
function positionOf(text: string, needle: string): { line: number; column: number } {
  const lines = text.split('\n');
  const line = lines.findIndex((l) => l.includes(needle));
  assert.ok(line >= 0, `${needle} in bundle`);
  return { line: line + 1, column: lines[line].indexOf(needle) + 1 };
}

describe('source maps', () => {
  for (const kind of ['linked', 'inline'] as const) {
    it(`map functions and lines of an esbuild bundle back to the TypeScript (${kind} map)`, () => {
      const { file, text } = bundle(kind, `out-${kind}.js`);
      const fn = positionOf(text, 'function getTimestamp');
      const call = positionOf(text, 'Date.now()');
      const profile = profileOf(
        [
          { frames: [{ name: 'getTimestamp', url: file, line: fn.line, column: fn.column }], samples: 7, line: call.line },
          { frames: [{ name: 'getTimestamp', url: file, line: fn.line, column: fn.column }, { name: 'now' }], samples: 3 },
        ],
        { format: 'cpuprofile' },
      );
      const { report } = buildReport(profile, { root });
      const getTimestamp = report.functions.find((f) => f.name === 'getTimestamp');
      assert.deepEqual([getTimestamp?.file, getTimestamp?.line, getTimestamp?.selfSamples, getTimestamp?.totalSamples], [source, 3, 7, 10]);
      assert.deepEqual(report.lines, [{ file: source, line: 4, selfSamples: 7, selfMs: 7, percent: 70 }]);
      assert.deepEqual(report.unresolvedFiles, []);
      // With source maps off, the generated file is what is shown.
      const raw = buildReport(profile, { root, sourceMaps: false }).report;
      assert.deepEqual([raw.functions[0].file, raw.functions[0].line], [file, fn.line]);
    });
  }

  it('list sources named only by a dependency\'s map apart, not as files to map with --root, and keep its frames on the built file', () => {
    // A package published with its build and maps, but without the sources the maps name.
    const pkg = join(root, 'node_modules', 'clockpkg');
    const src = join(pkg, 'src', 'index.ts');
    mkdirSync(join(pkg, 'src'), { recursive: true });
    writeFileSync(src, readFileSync(source, 'utf8'));
    const file = join(pkg, 'dist', 'index.js');
    buildSync({ entryPoints: [src], outfile: file, bundle: true, platform: 'node', format: 'cjs', sourcemap: 'linked', logLevel: 'silent' });
    rmSync(join(pkg, 'src'), { recursive: true });
    const fn = positionOf(readFileSync(file, 'utf8'), 'function getTimestamp');
    const profile = profileOf([{ frames: [{ name: 'getTimestamp', url: file, line: fn.line, column: fn.column }], samples: 4 }], { format: 'cpuprofile' });
    const { report } = buildReport(profile, { root });
    assert.deepEqual(report.unresolvedFiles, []);
    assert.deepEqual(report.dependencySources, [src]);
    const getTimestamp = report.functions.find((f) => f.name === 'getTimestamp');
    assert.deepEqual([getTimestamp?.file, getTimestamp?.line, getTimestamp?.category], [file, fn.line, 'dependency']);
  });

  it('ignore files without a mapping comment and report a named map that is missing', () => {
    const plain = join(root, 'plain.js');
    writeFileSync(plain, 'function x() {}\n');
    const broken = join(root, 'broken.js');
    writeFileSync(broken, 'function y() {}\n//# sourceMappingURL=broken.js.map\n');
    const maps = new SourceMapCache();
    assert.equal(maps.originalOf(plain, 1, 1), null);
    assert.equal(maps.originalOf(broken, 1, 1), null);
    assert.equal(maps.warnings.length, 1);
    assert.match(maps.warnings[0], /broken\.js\.map .*does not exist/);
    // Cached: asking again does not warn twice.
    maps.originalOf(broken, 1, 1);
    assert.equal(maps.warnings.length, 1);
  });

  it('report an unreadable map as a warning, never throw', () => {
    const bad = join(root, 'bad.js');
    writeFileSync(bad, 'function z() {}\n//# sourceMappingURL=bad.js.map\n');
    writeFileSync(join(root, 'bad.js.map'), '{"version":3,"mappings":');
    const maps = new SourceMapCache();
    assert.equal(maps.originalOf(bad, 1, 1), null);
    assert.match(maps.warnings[0] ?? '', /source map of .*bad\.js cannot be read/);
  });
});
