// What a module tells the project (moduleFacts.ts) is kept per long function inside a top-level
// statement, so that an edit inside one method of a `module.exports = { ... }` holding every method
// reads that method again, not the whole statement (issue 26). After each edit of such a module, the
// facts read from the editor's tree (its kept nodes, its kept readings) must be those of a fresh
// parse: a stale reading of the function around the edited method, or of a method the edit changed,
// would show here.
import assert from 'node:assert/strict';
import { checkVersion, edited, moduleFactsText } from '../../../test/editedDocuments';
import { analyzeSource } from '../engine';
import { parseSource } from '../parse';
import { StaticDocument } from '../staticDocument';

/** Statements that tell the project nothing, so that each method is long enough to be kept on its own. */
function filler(name: string): string {
  return Array.from({ length: 30 }, (_, i) => `        const ${name}${i} = self.options.values[${i}] + ${i};\n`).join('');
}

const ORIGINAL = `'use strict';
const { fork } = require('child_process');
const helpers = require('./helpers');
module.exports = {
  options: { alias: 'page' },
  routes(self) {
    return {
      list: { path: '/pages', handler: helpers.list },
    };
  },
  methods(self) {
    const engine = './engines/default';
    return {
      start() {
${filler('start')}        setInterval(helpers.tick, 1000);
        self.strategy = require(engine)(self);
        require('./cache');
      },
      stop() {
${filler('stop')}        const worker = fork('./worker.js');
        worker.kill();
      },
      store() {
${filler('store')}        global.Store = require('./store');
      },
    };
  },
};
`;

const FILE = '/virtual/page-module.js';

describe('module facts of a long statement, kept per function (moduleFacts.ts)', () => {
  it('edits inside one method of a module.exports object: the facts of the editor\'s tree are a fresh parse\'s, re-parsed in the method', () => {
    const document = new StaticDocument();
    analyzeSource({ filePath: FILE, text: ORIGINAL, document });
    // Read once from the opened tree: what the edits below change is kept from here.
    const opened = moduleFactsText(document.parser.parse(FILE, ORIGINAL).ast!.program);
    assert.match(opened, /\.\/cache/);
    let text = ORIGINAL;
    // What each edit is, whether its text parses, and whether it is re-parsed inside the statement
    // (the finer unit under test; mending a syntax error parses the statement whole again).
    const steps: [string, (before: string) => string, boolean, boolean][] = [
      ['a required module renamed in a method', (before) => edited(before, "require('./cache')", "require('./cache2')"), true, true],
      ['a call left unclosed in that method', (before) => edited(before, "require('./cache2');", "require('./cache2');\n        foo("), false, false],
      ['the call removed again', (before) => edited(before, "\n        foo(", ''), true, false],
      ['a method added to the object of methods', (before) => edited(before, '      stop() {', "      added() {\n        require('./added');\n      },\n      stop() {"), true, true],
      ['the path a name holds changed in the function around the methods (a method requires by that name)', (before) => edited(before, "'./engines/default'", "'./engines/other'"), true, true],
      ['the worker a method forks removed', (before) => edited(before, "const worker = fork('./worker.js');", "const worker = { kill() {} };"), true, true],
      ['a global a method sets renamed', (before) => edited(before, 'global.Store', 'global.Pages'), true, true],
    ];
    for (const [what, edit, parses, inStatement] of steps) {
      const next = edit(text);
      const version = checkVersion(document, FILE, next, what);
      assert.equal(version.parses, parses, what);
      text = next;
      assert.equal(version.inFunction, inStatement, `${version.label}: re-parsed inside the statement`);
    }
    // Every step changed what the module tells, which the fresh parse agreed with above.
    const final = moduleFactsText(parseSource(FILE, text).ast!.program);
    for (const fact of ['./cache2', './added', './engines/other', 'Pages']) assert.ok(final.includes(fact), fact);
    for (const gone of ['./worker.js', '"Store"']) assert.ok(!final.includes(gone), gone);
  });
});
