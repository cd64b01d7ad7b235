// ESLint for Hotframe's own code (`npm run lint`, part of `npm test`): the walls of CONTRIBUTING's
// layout (issue 13), checked on every import, and the hygiene that TypeScript alone does not catch
// (promises nobody awaits, unused code). No stylistic rules: formatting is not what this guards.
//
// The walls: each code folder names what it may import from the repository (`MAY_IMPORT`) and which
// packages it may not (`PACKAGE_WALLS`). ESLint's `no-restricted-imports` matches the specifier as
// written, not the file it resolves to, so the patterns are generated per directory: from
// `server/lsp`, `../cli/args` and `../../server/cli/args` both resolve into `server/cli`, and both are
// caught. A relative specifier that is not in normal form (`../lsp/../cli/x`, `./../x`) is refused
// outright, so no spelling slips past. Test files, `test/` and `bench/` may import anything.
import { readdirSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import tseslint from 'typescript-eslint';

const ROOT = dirname(fileURLToPath(import.meta.url));

/** Folders of product code, and what each may import from the repository besides itself (deepest wins). */
const PROTOCOL = 'server/protocol';
const MAY_IMPORT = {
  rules: { may: [], why: 'rules/ imports nothing from server/: reach the engine through rules/api.ts' },
  'server/shared': { may: [], why: 'server/shared/ imports no other server folder' },
  'server/protocol': { may: ['server/shared'], why: 'the protocol owns its wire types and imports only server/shared/' },
  'server/static': {
    may: ['rules/api', 'rules/index', 'server/shared'],
    why: 'server/static/ imports rules/ only through rules/api.ts and rules/index.ts, and server/shared/',
  },
  'server/static/project': {
    may: ['server/static', 'rules/api', 'server/shared'],
    why: 'server/static/project/ (the project-wide analysis) reads trees with the static engine, imports rules/ only through rules/api.ts, and server/shared/',
  },
  'server/profile': {
    may: ['server/shared', { path: PROTOCOL, typeOnly: true }],
    why: 'server/profile/ imports server/shared/ and types from the protocol; never rules, join, lsp, cli',
  },
  'server/profile/model': {
    may: ['server/shared', { path: PROTOCOL, typeOnly: true }],
    why: 'server/profile/model/ imports no other part of the profile engine',
  },
  'server/profile/readers': {
    may: ['server/profile/model', 'server/shared', { path: PROTOCOL, typeOnly: true }],
    why: 'server/profile/readers/ imports only model/ from the profile engine',
  },
  'server/profile/location': {
    may: ['server/profile/model', 'server/shared', { path: PROTOCOL, typeOnly: true }],
    why: 'server/profile/location/ imports only model/ from the profile engine',
  },
  'server/profile/gate': {
    may: ['server/profile/model', 'server/shared', { path: PROTOCOL, typeOnly: true }],
    why: 'server/profile/gate/ (the statistics of `hotframe gate`) imports only model/ from the profile engine',
  },
  'server/profile/routes': {
    may: ['server/profile/model', 'server/shared', { path: PROTOCOL, typeOnly: true }],
    why: 'server/profile/routes/ (cost per route, issue 25) is pure: the profile model and a route map in, figures out',
  },
  'server/profile/gcTrace': {
    may: ['server/shared'],
    why: 'server/profile/gcTrace/ (the reader and summary of node --trace-gc output) is pure text to numbers',
  },
  'server/profile/analysis': {
    may: [
      'server/profile/readers',
      'server/profile/model',
      'server/profile/location',
      'server/static/parse',
      'server/static/walk',
      'server/static/childNodes',
      'server/shared',
      { path: PROTOCOL, typeOnly: true },
    ],
    why: 'server/profile/analysis/ imports readers/, model/, location/, the static engine parser (server/static/parse.ts, walk.ts and childNodes.ts, to read the source a profile names) and server/shared/',
  },
  'server/join': {
    may: [{ path: 'rules/api', typeOnly: true }, 'server/profile', 'server/shared'],
    why: 'server/join/ imports types from rules/api.ts, server/profile/ and server/shared/',
  },
  'server/lsp': {
    may: ['server/static', 'server/profile', 'server/join', 'server/shared', PROTOCOL, 'rules', 'server/attach'],
    why: 'the language server never imports server/cli/ or server/eslint/',
  },
  'server/attach': { may: ['server/shared'], why: 'server/attach/ (attaching to running processes) imports only server/shared/' },
  'server/cli': {
    may: ['server/static', 'server/profile', 'server/join', 'server/shared', 'rules', 'server/attach'],
    why: 'the CLI never imports server/lsp/, server/eslint/ or the protocol',
  },
  'server/eslint': {
    may: ['server/static', 'server/profile', 'server/join', 'server/shared', 'rules'],
    why: 'the ESLint plugin never imports server/lsp/, server/cli/ or the protocol',
  },
  client: {
    may: [PROTOCOL, 'server/shared/format', 'server/shared/html', 'server/shared/recordProfile', 'server/shared/recordingFiles', 'server/shared/semiSpaceRun', 'server/shared/temporaryFolders'],
    why: 'client/ imports from server/ only the protocol and server/shared/{format,html,recordProfile,recordingFiles,semiSpaceRun,temporaryFolders}',
  },
  webview: {
    may: [PROTOCOL, 'server/shared/format', 'server/shared/html'],
    why: 'webview/ imports from server/ only the protocol and server/shared/{format,html}',
  },
};

/** Packages a folder may not import (regular expressions on the specifier). */
const IO_MODULES = 'fs|fs/promises|child_process|net|tls|http|https|http2|dgram|dns|cluster|worker_threads|inspector|readline';
const NOT_VSCODE = { regex: '^vscode(?:-languageclient)?(?:/|$)', why: 'only client/ imports vscode' };
const PACKAGE_WALLS = {
  rules: [{ regex: `^(?:node:)?(?:${IO_MODULES})(?:/|$)`, why: 'rules are pure: no file, process or network I/O' }, NOT_VSCODE],
  server: [NOT_VSCODE],
  'server/shared': [
    NOT_VSCODE,
    { regex: '^(?:vscode-|@babel/|d3-|eslint$|esbuild$)', why: 'server/shared/ holds small utilities: node:* and no framework' },
  ],
  client: [{ regex: '^(?!node:|vscode$|vscode-languageclient(?:/|$))[^.]', why: 'client/ imports only vscode, vscode-languageclient and node:*' }],
  webview: [{ regex: '^(?!d3-)[^.]', why: 'webview/ runs in the browser and imports only d3-*' }],
};

/** The wall of a directory: the deepest folder of MAY_IMPORT that holds it. */
function wallOf(dir, table) {
  let best = null;
  for (const folder of Object.keys(table)) {
    if ((dir === folder || dir.startsWith(`${folder}/`)) && (!best || folder.length > best.length)) best = folder;
  }
  return best;
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A repository path (folder, or module without extension) and what may follow it in a specifier. */
const under = (path) => {
  const module = `${escape(path)}(?:/|\\.[cm]?[jt]sx?$|$)`;
  // `rules/index` is also spelled `rules`.
  return path.endsWith('/index') ? `(?:${module}|${escape(path.slice(0, -'/index'.length))}/?$)` : module;
};
const isWithin = (path, folder) => folder === '' || path === folder || path.startsWith(`${folder}/`);

/** Exactly k levels up in normal form: `./` for k = 0, else `../` k times (or `..` at the end), then no `..`. */
const upLevels = (k) => `${k === 0 ? '\\./' : `(?:\\.\\./){${k - 1}}\\.\\.(?:/|$)`}(?!\\.\\.(?:/|$))`;

/**
 * Patterns for the relative specifiers, written in `dir`, that resolve outside `allowed`
 * (repository paths). A normal-form relative specifier goes up k levels, then only down:
 * `./rest` (k = 0) or `../` k times then `rest`; its target is ancestor_k(dir)/rest.
 */
function outsidePatterns(dir, allowed, message) {
  const patterns = [];
  const parts = dir.split('/');
  for (let k = 0; k <= parts.length; k++) {
    const ancestor = parts.slice(0, parts.length - k).join('/');
    if (allowed.some((path) => isWithin(ancestor, path))) continue; // everything below it is allowed
    const below = allowed.filter((path) => isWithin(path, ancestor)).map((path) => (ancestor ? path.slice(ancestor.length + 1) : path));
    const except = below.length ? `(?!${below.map(under).join('|')})` : '';
    patterns.push({ regex: `^${upLevels(k)}${except}`, caseSensitive: true, message });
  }
  // Above the repository root.
  patterns.push({ regex: `^(?:\\.\\./){${parts.length}}\\.\\.(?:/|$)`, caseSensitive: true, message: 'imports from outside the repository' });
  return patterns;
}

/** One pattern for the relative specifiers, written in `dir`, that resolve into one of `paths`. */
function insidePattern(dir, paths, extra) {
  const parts = dir.split('/');
  const spellings = [];
  for (let k = 0; k <= parts.length; k++) {
    const ancestor = parts.slice(0, parts.length - k).join('/');
    const below = paths.filter((path) => isWithin(path, ancestor) && path !== ancestor).map((path) => (ancestor ? path.slice(ancestor.length + 1) : path));
    if (below.length) spellings.push(`${upLevels(k)}(?:${below.map(under).join('|')})`);
  }
  return { regex: `^(?:${spellings.join('|')})`, caseSensitive: true, ...extra };
}

/** Relative specifiers not in normal form: `.` or `..` after a name (`a/../b`), or `./..`. */
const NOT_NORMAL = {
  regex: '^(?=\\.)(?!(?:\\./|(?:\\.\\./)*\\.\\.(?:/|$))(?:(?!\\.\\.?(?:/|$))[^/]+(?:/|$))*$)',
  caseSensitive: true,
  message: 'write relative imports in normal form (no ./.. or a/../b), so the walls can check them',
};

/** The options of no-restricted-imports for the files of `dir` behind `wall`. */
function restrictions(dir, wall) {
  const { may, why } = MAY_IMPORT[wall];
  const entries = [wall, ...may].map((entry) => (typeof entry === 'string' ? { path: entry } : entry));
  const values = entries.filter((entry) => !entry.typeOnly).map((entry) => entry.path);
  const types = entries.filter((entry) => entry.typeOnly).map((entry) => entry.path);
  const list = [...values.filter((path) => path !== wall), ...types.map((path) => `${path} (types)`)].join(', ') || 'nothing';
  const message = `${why} (${wall}/ may import from this repository: ${list})`;
  const patterns = [NOT_NORMAL, ...outsidePatterns(dir, [...values, ...types], message)];
  // Type-only allowances: refused for values, not for `import type` (the rule skips a type import
  // that matches a pattern with allowTypeImports, and none of the patterns above matches these paths).
  if (types.length) patterns.push(insidePattern(dir, types, { allowTypeImports: true, message: `${message}; import type only` }));
  for (const folder of Object.keys(PACKAGE_WALLS)) {
    if (!isWithin(dir, folder)) continue;
    for (const { regex, why: because } of PACKAGE_WALLS[folder]) {
      if (!patterns.some((pattern) => pattern.regex === regex)) patterns.push({ regex, caseSensitive: true, message: because });
    }
  }
  return ['error', { patterns }];
}

/** Every directory of product code (tests live beside it but are exempt file by file). */
function directories(dir, out = []) {
  out.push(dir);
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    if (entry.isDirectory() && entry.name !== 'node_modules') directories(posix.join(dir, entry.name), out);
  }
  return out;
}

const TESTS = ['**/*.test.ts', 'test/**', 'bench/**'];
const walls = [];
const restricted = (dir, wall) => ({ '@typescript-eslint/no-restricted-imports': restrictions(dir, wall) });
for (const top of ['rules', 'server', 'client', 'webview']) {
  for (const dir of directories(top)) {
    const wall = wallOf(dir, MAY_IMPORT);
    if (wall) walls.push({ name: `hotframe/walls/${dir}`, files: [`${dir}/*.ts`], ignores: TESTS, rules: restricted(dir, wall) });
  }
}
// server/ itself holds only the folders of its parts: a file there would stand behind no wall.
const SERVER_FOLDERS_ONLY = { selector: 'Program', message: 'server/ holds folders only: put this file in the folder of its part (CONTRIBUTING)' };
walls.push({ name: 'hotframe/walls/server', files: ['server/*.ts'], rules: { 'no-restricted-syntax': ['error', SERVER_FOLDERS_ONLY] } });

/** A dynamic `import()`, a `require()` or an `import('x').T` type that leaves its folder escapes the walls above. */
const STATIC_CROSSINGS = [
  { selector: 'ImportExpression[source.value=/^\\.\\./]', message: 'import across folders with a static import, so the walls can check it' },
  { selector: 'CallExpression[callee.name="require"][arguments.0.value=/^\\.\\./]', message: 'import across folders with a static import, so the walls can check it' },
  { selector: 'TSImportType[argument.literal.value=/^\\.\\./]', message: 'import types across folders with `import type`, so the walls can check it' },
];

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'examples/**', 'test/fixtures/**', '.vscode-test/**', 'bench/.corpus/**', 'bench/results/**', 'test/precision/.cache/**'] },
  {
    name: 'hotframe/typescript',
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { project: './tsconfig.json', tsconfigRootDir: ROOT },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      // Promises: one that nobody awaits loses its rejection; one passed where a callback is expected
      // (an event handler, a forEach) is never awaited either.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      // Unused code. tsc's noUnusedLocals/noUnusedParameters cover most locals; these add unused
      // catch bindings, expressions that do nothing, private members and unreachable code.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'all', caughtErrorsIgnorePattern: '^_' }],
      '@typescript-eslint/no-unused-expressions': 'error',
      'no-unused-private-class-members': 'error',
      'no-unreachable': 'error',
      'no-unused-labels': 'error',
      'no-useless-catch': 'error',
      // The two rules named by comments already in the code.
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-control-regex': 'error',
    },
  },
  {
    name: 'hotframe/scripts',
    files: ['**/*.mjs'],
    languageOptions: { ecmaVersion: 'latest', sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'all', caughtErrorsIgnorePattern: '^_' }],
      'no-unreachable': 'error',
      'no-unused-labels': 'error',
    },
  },
  {
    name: 'hotframe/static-crossings',
    files: ['rules/**/*.ts', 'server/**/*.ts', 'client/**/*.ts', 'webview/**/*.ts'],
    ignores: TESTS,
    rules: { 'no-restricted-syntax': ['error', ...STATIC_CROSSINGS] },
  },
  ...walls,
);
