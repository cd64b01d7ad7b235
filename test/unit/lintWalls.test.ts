// The walls of CONTRIBUTING's layout, as eslint.config.mjs checks them (`npm run lint`, issue 13):
// ESLint's Linter runs the real config on small files placed, in memory, in the folders of this
// repository. A crossing must be an error whichever way the import is spelled; the allowed
// direction must not be.
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { type ESLint, Linter } from 'eslint';
import tseslint from 'typescript-eslint';

import { REPO_ROOT } from './bundles';

type Config = Linter.Config & { name?: string };
interface LintConfigModule {
  default: Config[];
}

const WALL_RULES = new Set(['@typescript-eslint/no-restricted-imports', 'no-restricted-syntax']);

describe('the walls (eslint.config.mjs)', function () {
  this.timeout(60_000);
  let config: Config[];
  const linter = new Linter({ cwd: REPO_ROOT });

  before(async () => {
    const loaded = (await import(pathToFileURL(join(REPO_ROOT, 'eslint.config.mjs')).href)) as LintConfigModule;
    // The files below exist only in memory: no TypeScript program, so no rule that needs one.
    const plugin: ESLint.Plugin = tseslint.plugin;
    const typed = Object.entries(plugin.rules ?? {})
      .filter(([, rule]) => (rule.meta?.docs as { requiresTypeChecking?: boolean } | undefined)?.requiresTypeChecking)
      .map(([name]) => [`@typescript-eslint/${name}`, 'off'] as const);
    const untyped: Config = { files: ['**/*.ts'], languageOptions: { parserOptions: { project: null, projectService: false } }, rules: Object.fromEntries(typed) };
    config = [...loaded.default, untyped];
  });

  /** The wall errors for `code` placed at `file` (repository-relative). */
  function wallErrors(file: string, code: string): Linter.LintMessage[] {
    const messages = linter.verify(code, config, { filename: join(REPO_ROOT, file) });
    const other = messages.filter((m) => !m.ruleId || !WALL_RULES.has(m.ruleId));
    assert.deepEqual(other, [], `${file}: unexpected messages`);
    return messages;
  }
  const importing = (specifier: string): string => `import { x } from '${specifier}';\nexport const y = x;\n`;
  const importingType = (specifier: string): string => `import type { X } from '${specifier}';\nexport type Y = X;\n`;

  function assertCrossing(file: string, code: string, because: RegExp): void {
    const errors = wallErrors(file, code);
    assert.equal(errors.length, 1, `${file}: expected one crossing for\n${code}`);
    assert.equal(errors[0].severity, 2);
    assert.match(errors[0].message, because);
  }
  const assertAllowed = (file: string, code: string): void => assert.deepEqual(wallErrors(file, code), [], `${file}: expected no crossing for\n${code}`);

  it('refuses a rule that imports the engine, and lets it import rules/api.ts', () => {
    assertCrossing('rules/x.ts', importing('../server/static/bindings'), /rules\/ imports nothing from server\//);
    assertCrossing('rules/x.ts', importing('node:fs'), /no file, process or network I\/O/);
    assertAllowed('rules/x.ts', importing('./api'));
    assertAllowed('rules/x.ts', importing('@babel/types'));
  });

  it('refuses client/ and webview/ reaching into server/profile/, and lets them import the protocol', () => {
    assertCrossing('client/x.ts', importing('../server/profile/model/types'), /client\/ imports from server\/ only/);
    assertCrossing('client/x.ts', importingType('../server/profile/model/types'), /client\/ imports from server\/ only/);
    assertCrossing('client/x.ts', importing('../server/shared/guardedRead'), /client\/ imports from server\/ only/);
    assertCrossing('webview/x.ts', importing('../server/shared/recordProfile'), /webview\/ imports from server\/ only/);
    assertCrossing('webview/x.ts', importing('node:path'), /runs in the browser/);
    assertAllowed('client/x.ts', importing('../server/protocol/lsp'));
    assertAllowed('client/x.ts', importingType('../server/protocol/wire'));
    assertAllowed('client/x.ts', importing('../server/shared/format'));
    assertAllowed('client/x.ts', importing('vscode'));
    assertAllowed('webview/x.ts', importing('../server/shared/html'));
    assertAllowed('webview/x.ts', importing('d3-selection'));
  });

  it('refuses the language server importing the CLI however the path is spelled', () => {
    for (const specifier of ['../cli/args', '../../server/cli/args', '../cli']) {
      assertCrossing('server/lsp/x.ts', importing(specifier), /never imports server\/cli\//);
    }
    // Spellings that leave and re-enter a folder are refused outright.
    assertCrossing('server/lsp/x.ts', importing('../lsp/../cli/args'), /normal form/);
    assertCrossing('server/lsp/x.ts', importing('./../cli/args'), /normal form/);
    // A dynamic import, a require or an import type expression would not be seen by the patterns.
    assertCrossing('server/lsp/x.ts', 'export const args = import(\'../cli/args\');\n', /static import/);
    assertCrossing('server/lsp/x.ts', 'export type Args = import(\'../cli/args\').Args;\n', /import type/);
    assertCrossing('server/lsp/x.ts', 'export const args: unknown = require(\'../cli/args\');\n', /static import/);
    assertAllowed('server/lsp/x.ts', importing('../static/engine'));
    assertAllowed('server/lsp/x.ts', importing('../../rules/api'));
    assertAllowed('server/lsp/x.ts', importing('./settings'));
  });

  it('keeps the profile engine layered and free of rules, join and the CLI', () => {
    assertCrossing('server/profile/readers/x.ts', importing('../analysis/report'), /readers\/ imports only model\//);
    assertCrossing('server/profile/x.ts', importing('../join/costIndex'), /never rules, join, lsp, cli/);
    assertCrossing('server/profile/analysis/x.ts', importing('../../../rules/api'), /analysis\/ imports readers\//);
    assertAllowed('server/profile/readers/x.ts', importing('../model/types'));
    assertAllowed('server/profile/analysis/x.ts', importing('../../static/parse'));
    assertAllowed('server/profile/analysis/x.ts', importing('../../static/walk'));
    assertCrossing('server/profile/analysis/x.ts', importing('../../static/engine'), /analysis\/ imports readers\//);
    // Types from the protocol, not values.
    assertAllowed('server/profile/x.ts', importingType('../protocol/wire'));
    assertAllowed('server/profile/analysis/x.ts', importingType('../../protocol/worker'));
    assertCrossing('server/profile/x.ts', importing('../protocol/worker'), /import type only/);
  });

  it('keeps server/shared/ and the static engine to their doors', () => {
    assertCrossing('server/shared/x.ts', importing('../cli/errors'), /imports no other server folder/);
    assertAllowed('server/shared/x.ts', importing('./format'));
    assertCrossing('server/static/x.ts', importing('../../rules/mongooseModels'), /only through rules\/api.ts and rules\/index.ts/);
    assertAllowed('server/static/x.ts', importing('../../rules/index'));
    assertAllowed('server/static/x.ts', importing('../../rules'));
    assertAllowed('server/static/x.ts', importing('../shared/guardedRead'));
    assertCrossing('server/join/x.ts', importing('../../rules/api'), /import type only/);
    assertAllowed('server/join/x.ts', importingType('../../rules/api'));
  });

  it('keeps server/ itself to folders', () => {
    assertCrossing('server/x.ts', 'export const x = 1;\n', /server\/ holds folders only/);
  });

  it('lets tests import anything', () => {
    assertAllowed('rules/x.test.ts', importing('../server/static/bindings'));
    assertAllowed('test/unit/x.ts', importing('../../server/cli/args'));
    assertAllowed('bench/x.ts', importing('../server/lsp/server'));
  });
});
