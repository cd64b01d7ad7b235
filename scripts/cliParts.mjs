// dist/cli.js holds what `hotframe profile` and `hotframe diff` run; what needs Babel is bundled
// apart and loaded only by what uses it. V8 pre-parses every function of a script it loads, so a
// `profile` run paid 40-50 ms of start-up for the 2.4 MB of the static engine and Babel it never
// called. Used by scripts/build.mjs and by the tests' bundles (test/unit/bundles.ts), so both
// build the CLI the same way.
import { relative, resolve } from 'node:path';

/**
 * The bundles beside dist/cli.js, each with the modules it holds (by their path in the
 * repository, without extension). Each module is one the CLI loads lazily (a dynamic import, or
 * a require in a function): a static import would load its bundle at start-up.
 * - cli-engine.js: the commands that run the static engine, and a profile's route map.
 * - cli-spans.js: a profile's function spans (Babel's parser and types only), which a report reads
 *   when the profile's scripts are under --root: not the whole engine for that.
 */
export const CLI_PARTS = [
  {
    file: 'cli-engine.js',
    modules: ['server/cli/analyzeCommand', 'server/cli/recordCommand', 'server/cli/attachCommand', 'server/cli/gateCommand', 'server/cli/routesOutput'],
  },
  { file: 'cli-spans.js', modules: ['server/profile/analysis/functionSpans'] },
];

/**
 * For the dist/cli.js build: an import of a module of CLI_PARTS becomes a require of that module
 * from its bundle, found beside the running one (our file, never a path the user or an input gives).
 */
export function cliPartsPlugin(root) {
  const fileOf = new Map(CLI_PARTS.flatMap((part) => part.modules.map((module) => [module, part.file])));
  return {
    name: 'cli-parts',
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, (args) => {
        const module = relative(root, resolve(args.resolveDir, args.path)).split('\\').join('/').replace(/\.ts$/, '');
        return fileOf.has(module) ? { path: module, namespace: 'cli-parts' } : undefined;
      });
      build.onLoad({ filter: /.*/, namespace: 'cli-parts' }, (args) => ({
        contents: `module.exports = require(require('node:path').join(__dirname, ${JSON.stringify(fileOf.get(args.path))}))[${JSON.stringify(args.path)}];`,
        loader: 'js',
      }));
    },
  };
}

/**
 * esbuild's `stdin` for one bundle of CLI_PARTS: each of its modules under its path, evaluated
 * when first asked for (a getter), not when the bundle loads.
 */
export function cliPartEntry(root, part) {
  const getters = part.modules.map((module) => `Object.defineProperty(exports, ${JSON.stringify(module)}, { enumerable: true, get: () => require(${JSON.stringify(`./${module}`)}) });`);
  return { contents: getters.join('\n'), resolveDir: root, sourcefile: `${part.file} entry`, loader: 'js' };
}
