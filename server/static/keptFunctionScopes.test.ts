// The binding resolver of an editor document keeps the scopes of each long function inside a
// top-level statement (bindings.ts, FunctionUnit): an edit elsewhere in the statement collects the
// statement again around them (issue 26). After each edit, what the document's resolver tells of
// every name (test/scopeView.ts, through checkVersion) must be what a fresh resolver tells: a kept
// function hung from the old scopes, its reads of outer names not resolved again, its writes of
// them forgotten or its frames left at their old keys would show here.
import assert from 'node:assert/strict';
import { checkVersion, edited } from '../../test/editedDocuments';
import { analyzeSource } from './engine';
import { StaticDocument } from './staticDocument';

/** Statements that read outer names, so that each function is long enough to be kept on its own. */
function filler(name: string, indent: string): string {
  return Array.from({ length: 30 }, (_, i) => `${indent}const ${name}${i} = shared.read('${name}', ${i}) + total;\n`).join('');
}

const ORIGINAL = `'use strict';
const shared = require('shared-store');
let total = 0;
let x = 'module';
module.exports = {
  first(self) {
    // the page's name
    const local = self.name;
${filler('a', '    ')}    return local + x;
  },
  second(self) {
    let count = 0;
    const later = () => x;
    const spacer1 = 1;
    const spacer2 = 2;
    function helper(item) {
${filler('b', '      ')}      total = total + item;
      count++;
      return x + self.name + spacer1;
    }
    const spacer3 = 3;
${filler('c', '    ')}    return helper(count) + later() + spacer3;
  },
};
function outer(req) {
  const first = 1;
  const spacer = 2;
  const pad1 = 3;
  const pad2 = 4;
  function kept(arg) {
${filler('d', '    ')}    return arg + first + x + spacer + pad1 + pad2;
  }
  return kept(req);
}
`;

const FILE = '/virtual/kept-scopes.js';

describe('binding resolver: the scopes of a long function inside a statement, kept across edits elsewhere in it', () => {
  it('what every name resolves to after each edit is a fresh resolver\'s, and the functions the edit left were kept', () => {
    const document = new StaticDocument();
    analyzeSource({ filePath: FILE, text: ORIGINAL, document });
    let text = ORIGINAL;
    const steps: { name: string; find: string; replace: string; keeps: number }[] = [
      // first re-parsed alone: second kept (helper with it); helper's writes of total keep it reassigned.
      { name: 'a line added in another method', find: '    return local + x;', replace: '    const added = x;\n    return local + x;', keeps: 1 },
      // The statements around the edit in second's block re-parsed: first and helper kept.
      { name: 'a value changed in the block around a kept function', find: '    const spacer2 = 2;', replace: '    const spacer2 = 22;', keeps: 2 },
      // helper moves down its block: its path has its new index.
      { name: 'a statement added above a kept function in its block', find: '    const spacer1 = 1;', replace: '    count += 2;\n    const spacer1 = 1;', keeps: 2 },
      // The statements of the file above move: the kept functions' paths have the statement's new index.
      { name: 'a statement added above the statement', find: "let x = 'module';\n", replace: "let x = 'module';\nconst extra = 1;\n", keeps: -1 },
      { name: 'a statement removed above a kept function in its block', find: '    count += 2;\n', replace: '', keeps: 2 },
      { name: 'a statement added above a kept function in a top-level function', find: '  const first = 1;', replace: '  const first = 1;\n  total += first;', keeps: 1 },
      // second re-parsed whole, declaring a name the functions in it read: nothing of it kept.
      { name: 'the function around declares a name its functions read', find: '    const spacer2 = 22;', replace: '    const spacer2 = 22;\n    let x = spacer2;', keeps: 1 },
      { name: 'a line changed in the first method again', find: '    const added = x;\n', replace: '    const added = total;\n', keeps: 1 },
      { name: 'typing in a comment in a method (only the statement is revised)', find: "// the page's name", replace: "// the page's own name", keeps: 2 },
    ];
    for (const step of steps) {
      text = edited(text, step.find, step.replace);
      const version = checkVersion(document, FILE, text, step.name);
      if (step.keeps >= 0) assert.equal(document.bindings.lastKeptFunctions, step.keeps, `${version.label}: functions kept`);
    }
  });
});

describe('binding resolver: the reads of a statement no edit touched, resolved again in the file\'s scope', () => {
  it('`arguments` in a function, a class\'s name in its body and names of the file: what a fresh resolver tells after an edit elsewhere', () => {
    const original = `var arguments = [];
var total = 0;
function count() {
  total = arguments.length;
  return arguments[0] + total;
}
class Store {
  copy() { return new Store(total); }
}
const arrow = () => arguments.length + total;
`;
    const file = '/virtual/sloppy.js';
    const document = new StaticDocument();
    analyzeSource({ filePath: file, text: original, document });
    const once = edited(original, 'var total = 0;', 'var total = 1;');
    checkVersion(document, file, once, 'a value changed in another statement');
    checkVersion(document, file, edited(once, 'var arguments = [];\n', ''), 'the file\'s `arguments` removed');
  });
});
