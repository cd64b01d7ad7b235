// What `hotframe profile` evaluates before it reads a profile (issue 26): the CLI is one bundle in
// which a module runs when it is first imported, so everything the profile command imports
// statically runs at start-up. Babel (parser, types, traverse) and the route map are needed only
// when a local source file is parsed (functionRanges.ts requires functionSpans.ts then, which
// needs no @babel/traverse) or for --routes / --stalls; evaluating them eagerly cost 50-80 ms of
// every run. This follows the
// static imports of the bundle's own graph (esbuild's metafile, the options of scripts/build.mjs).
import assert from 'node:assert/strict';
import { build, type Metafile } from 'esbuild';
import { REPO_ROOT } from './bundles';

const PROFILE_COMMAND = 'server/cli/profileCommand.ts';

/** Every input reachable from `entry` through the given kinds of import, with the chain that first reached it. */
function reachable(metafile: Metafile, entry: string, kinds: ReadonlySet<string>): Map<string, string[]> {
  const chains = new Map<string, string[]>([[entry, [entry]]]);
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    for (const imported of metafile.inputs[file]?.imports ?? []) {
      if (imported.external === true || !kinds.has(imported.kind) || chains.has(imported.path)) continue;
      chains.set(imported.path, [...(chains.get(file) as string[]), imported.path]);
      queue.push(imported.path);
    }
  }
  return chains;
}

describe('hotframe profile: what start-up evaluates', function () {
  this.timeout(120_000);
  let metafile: Metafile;

  before(async () => {
    const result = await build({
      entryPoints: ['server/cli/main.ts'],
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      write: false,
      metafile: true,
      outfile: 'cli.js',
      logLevel: 'error',
      define: { VERSION: '"0.0.0-test"' },
      external: ['vscode'],
      absWorkingDir: REPO_ROOT,
    });
    metafile = result.metafile;
  });

  it('the profile command imports no Babel package and no route map statically', () => {
    const eager = reachable(metafile, PROFILE_COMMAND, new Set(['import-statement']));
    const offending = [...eager].filter(([path]) => /node_modules\/@babel\//.test(path) || path.startsWith('server/static/'));
    assert.deepEqual(offending.map(([, chain]) => chain.join(' -> ')).slice(0, 5), []);
  });

  it("a source file's functions are read with the parser and Babel's types, without @babel/traverse (walk.ts's NodePaths)", () => {
    const spans = reachable(metafile, 'server/profile/analysis/functionSpans.ts', new Set(['import-statement']));
    assert.ok([...spans.keys()].some((path) => path.includes('node_modules/@babel/parser/')));
    const offending = [...spans].filter(([path]) => path.includes('node_modules/@babel/traverse/') || path === 'server/static/lazyPaths.ts');
    assert.deepEqual(offending.map(([, chain]) => chain.join(' -> ')).slice(0, 5), []);
  });

  it('the parser is still in the bundle, reached when a source file is parsed (a require) or for --routes (an import())', () => {
    const all = reachable(metafile, PROFILE_COMMAND, new Set(['import-statement', 'require-call', 'dynamic-import']));
    assert.ok([...all.keys()].some((path) => path.includes('node_modules/@babel/parser/')), 'the parser is reachable');
    assert.ok(all.has('server/profile/analysis/functionSpans.ts'));
    assert.ok(all.has('server/cli/routesOutput.ts'));
  });
});
