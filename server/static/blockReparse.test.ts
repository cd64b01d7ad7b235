// An edit between the braces of a block inside a function re-parses only the block's statements
// around it (blockReparse.ts): the tree, its problems and the findings must be those of a whole
// parse and a fresh analysis of the new text, on the real modules the bench did not generate
// (bench/inputs/: iobroker's long top-level functions, apostrophe's object of handlers) under
// random edits of every kind, and on the syntax a run of statements does not decide alone.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as t from '@babel/types';
import { firstDifference } from '../../test/editSessions';
import { nodesIn, runEditSession } from '../../test/editedDocuments';
import { blocksAround } from './blockReparse';
import { IncrementalParser } from './incrementalParse';
import { parseSource } from './parse';
import { forEachChild } from './walk';

const inputs = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bench', 'inputs');
const realModules = ['iobroker-js-controller-main.js', 'apostrophe-page-index.js'];

/** Every block with statements inside a function of the file (top-level functions' bodies included). */
function blocksInFunctions(ast: t.File): t.BlockStatement[] {
  const blocks: t.BlockStatement[] = [];
  const visit = (node: t.Node, inFunction: boolean): void => {
    if (node.type === 'BlockStatement' && inFunction && node.body.length > 0) blocks.push(node);
    const isFunction = /Function|Method/.test(node.type);
    forEachChild(node, (child) => visit(child, inFunction || isFunction));
  };
  visit(ast.program, false);
  return blocks;
}

/** One edit of a kind people make inside `block` (null when the block has no site for it). */
function editInside(text: string, block: t.BlockStatement, kind: string, random: () => number): string | null {
  const pick = <T>(items: readonly T[]): T | undefined => items[Math.floor(random() * items.length)];
  const splice = (at: number, remove: number, insert: string) => text.slice(0, at) + insert + text.slice(at + remove);
  const statement = pick(block.body);
  if (statement === undefined) return null;
  const nodes = nodesIn(statement);
  const start = statement.start ?? 0;
  const end = statement.end ?? 0;
  switch (kind) {
    case 'Enter':
      return splice(pick(nodes)?.start ?? start, 0, pick(['\n', '\r\n', '\n\n    ']) ?? '\n');
    case 'delete a statement':
      return splice(start, end - start, '');
    case 'type an identifier': {
      const id = pick(nodes.filter((node) => node.type === 'Identifier'));
      return id === undefined ? null : splice(id.end ?? 0, 0, pick(['x', 'é', '_1']) ?? 'x');
    }
    case 'type an argument': {
      const call = pick(nodes.filter((node): node is t.CallExpression => node.type === 'CallExpression' && node.arguments.length > 0));
      return call === undefined ? null : splice(call.arguments.at(-1)?.end ?? 0, 0, ', 1');
    }
    case 'type in a string': {
      const string = pick(nodes.filter((node) => node.type === 'StringLiteral'));
      return string === undefined ? null : splice((string.start ?? 0) + 1, 0, 'x');
    }
    case 'type a comment':
      return splice(start, 0, pick(['// note\n    ', '/* c */ ', '// \u2028 x\n']) ?? '');
    case 'paste a handler':
      return splice(start, 0, 'const redis = new Redis(); const at = Date.now();\n    res.json({ at, disk: String(require(\'child_process\').execSync(\'df -k\')) });\n    ');
    // What a run alone does not decide: it must come back as a whole parse has it.
    case 'join it with the next (its `;` deleted, a `(` line after)':
      return text[end - 1] === ';' ? splice(end - 1, 1, '\n(y)') : null;
    case 'start it with a parenthesis (joins an open statement before)':
      return splice(start, 0, '(z)\n    ');
    case 'declare a name':
      return splice(start, 0, pick(['let fresh = 1;\n    ', 'var late = 2;\n    ', 'function g() {}\n    ', 'class K {}\n    ']) ?? '');
    case 'declare a name it declares':
      return statement.type === 'VariableDeclaration' ? splice(end, 0, `\n    ${text.slice(start, end)}`) : null;
    case 'type a label, a break or a continue':
      return splice(start, 0, pick(['outer: for (;;) { break outer; }\n    ', 'break;\n    ', 'continue;\n    ', 'done: x();\n    ']) ?? '');
    case 'type a string statement':
      return splice(start, 0, pick(["'use strict';\n    ", "'x';\n    "]) ?? '');
    case 'type a call not closed yet':
      return splice(start, 0, 'foo(');
    case 'close the block early':
      return splice(start, 0, '} {');
    default:
      throw new Error(kind);
  }
}

const KINDS = [
  'Enter', 'delete a statement', 'type an identifier', 'type an argument', 'type in a string', 'type a comment', 'paste a handler',
  'join it with the next (its `;` deleted, a `(` line after)', 'start it with a parenthesis (joins an open statement before)', 'declare a name',
  'declare a name it declares', 'type a label, a break or a continue', 'type a string statement', 'type a call not closed yet', 'close the block early',
];

describe('blockReparse: an edit in a block inside a function re-parses the statements around it only', () => {
  it('finds the blocks that hold an edit strictly inside their braces, inside a function, innermost first', () => {
    const text = 'function top(a) {\n  if (a) {\n    b();\n  }\n  const f = () => {\n    c();\n  };\n}\nif (x) {\n  d();\n}\nclass C {\n  static { e(); }\n  p = () => { g(); };\n}\n';
    const body = parseSource('/virtual/a.js', text).ast?.program.body ?? [];
    const at = (needle: string) => text.indexOf(needle);
    const lines = (statement: t.Statement | undefined, from: number, to = from) => {
      assert.ok(statement);
      return blocksAround(statement, from, to).map((site) => `${site.block.loc?.start.line}:${site.fn.type}`);
    };
    // A top-level function's own body counts (iobroker's long functions).
    assert.deepEqual(lines(body[0], at('b()')), ['2:FunctionDeclaration', '1:FunctionDeclaration']);
    assert.deepEqual(lines(body[0], at('c()'), at('c()') + 3), ['5:ArrowFunctionExpression', '1:FunctionDeclaration']);
    // At a block's braces the edit is not inside it.
    assert.deepEqual(lines(body[0], at('{\n    b()')), ['1:FunctionDeclaration']);
    // A block outside any function, a static block and a field's value are not a function's body.
    assert.deepEqual(lines(body[1], at('d()')), []);
    assert.deepEqual(lines(body[2], at('e()')), []);
    assert.deepEqual(lines(body[2], at('g()')), ['14:ArrowFunctionExpression']);
  });

  for (const [index, name] of realModules.entries()) {
    it(`${name}: random edits of every kind in blocks of functions give a whole parse's tree and a fresh analysis' findings, most parsing a few statements`, function () {
      this.timeout(300_000);
      const versions = runEditSession({
        name, text: readFileSync(join(inputs, name), 'utf8'), seed: 20261130 + index, rounds: 2, kinds: KINDS, partsOf: blocksInFunctions, editInside,
      });
      const compared = versions.filter((version) => version.parses);
      // The plain kinds (typing, Enter, deleting, pasting) parse their block's statements alone.
      const plain = compared.filter((version) => KINDS.indexOf(version.editKind) < 7).length;
      const inBlock = compared.filter((version) => version.inBlock);
      const small = inBlock.filter((version) => version.parsedLength < 2000).length;
      assert.ok(compared.length >= versions.length * 0.5, `only ${compared.length} of ${versions.length} versions parsed`);
      assert.ok(inBlock.length >= plain * 0.8, `only ${inBlock.length} of ${compared.length} edits (${plain} plain ones) re-parsed only statements of their block`);
      assert.ok(small >= inBlock.length * 0.8, `only ${small} of ${inBlock.length} block re-parses read under 2,000 characters`);
    });
  }

  // What a run of statements does not decide alone: the result must be a whole parse's, and the
  // edits a run can take must be taken there (true) or refused (false: a function or the statement is parsed again).
  const contexts: [string, string, string, boolean, string?][] = [
    ['a statement typed between two', 'function f(a) {\n  one();\n  two();\n}\n', 'b(a);\n  ', true],
    ['`await` in an async function', 'async function f() {\n  one();\n  two();\n}\n', 'await x;\n  ', true],
    ['`yield` in a generator method', 'var o = {\n  *m() {\n    one();\n    two();\n  }\n};\n', 'yield 1;\n    ', true],
    ['`await` in a plain function', 'function f() {\n  one();\n  two();\n}\n', 'await x;\n  ', false],
    ['a `break` out of the loop around', 'function f(xs) {\n  for (const x of xs) {\n    one();\n    two();\n  }\n}\n', 'if (x) break;\n    ', true],
    ['a label that the block around has', 'function f(xs) {\n  outer: for (const x of xs) {\n    one();\n    two();\n  }\n}\n', 'outer: for (;;) {}\n    ', false],
    ['`let` declaring a name again that a statement beside declares', 'function f() {\n  let a = 1;\n  one();\n  two();\n}\n', 'let a = 2;\n  ', false],
    ['`var` in a nested block against a `let` of the function', 'function f() {\n  let a = 1;\n  if (a) {\n    one();\n    two();\n  }\n}\n', 'var a = 2;\n    ', false],
    ['`let` declaring a parameter again', 'function f(a) {\n  one();\n  two();\n}\n', 'let a;\n  ', false],
    ['a string statement at the start of a body (a directive)', 'function f() {\n  one();\n  two();\n}\n', "'use strict';\n  ", false, 'one('],
    ['a string statement after another statement (not a directive)', 'function f() {\n  one();\n  two();\n}\n', "'use strict';\n  ", true],
    ['a parenthesis after a statement without its `;` (they join: parsed with it)', 'function f() {\n  zero();\n  one()\n  two();\n}\n', '(x)\n  ', true],
    ['a parenthesis after three statements without their `;` (too far back: the function)', 'function f() {\n  first();\n  zero()\n  half()\n  one()\n  two();\n}\n', '(x)\n  ', false],
    ['`arguments` in an arrow of a class field', 'class A {\n  h = () => {\n    one();\n    two();\n  };\n}\n', 'arguments;\n    ', false],
    ['`new.target` in an arrow at the top level', 'var h = () => {\n  one();\n  two();\n};\n', 'new.target;\n  ', false],
    ['`super` in a method', 'var o = {\n  m() {\n    one();\n    two();\n  }\n};\n', 'super.x();\n    ', false],
    ['`with` in a sloppy script (strict-only error)', 'function f(o) {\n  one();\n  two();\n}\n', 'with (o) {}\n  ', false],
    ['an HTML comment in a sloppy script', 'function f(x) {\n  one();\n  two(x);\n}\n', 'x <!--y\n  ', false],
  ];
  for (const [what, before, typed, alone, anchor = 'two('] of contexts) {
    it(`${what}: the tree and problems of a whole parse`, () => {
      const filePath = '/virtual/context.js';
      for (const lineBreak of ['\n', '\r\n']) {
        // A line first, as long as the wrapper's head, which stands in the text before the run.
        const original = `// ${'a file '.repeat(8)}\n${before}`.replaceAll('\n', lineBreak);
        const at = original.lastIndexOf(anchor);
        const text = original.slice(0, at) + typed.replaceAll('\n', lineBreak) + original.slice(at);
        const parser = new IncrementalParser();
        parser.parse(filePath, original);
        const kept = parser.parse(filePath, text);
        const whole = parseSource(filePath, text);
        assert.equal(firstDifference({ ast: whole.ast, problems: whole.problems }, { ast: kept.ast, problems: kept.problems }), null, what);
        assert.equal(parser.lastInBlock, alone, `${what}: re-parsed alone in its block`);
        const back = parser.parse(filePath, original);
        const wholeBack = parseSource(filePath, original);
        assert.equal(firstDifference({ ast: wholeBack.ast, problems: wholeBack.problems }, { ast: back.ast, problems: back.problems }), null, `${what}, undone`);
      }
    });
  }

  it('a `;` deleted before a statement that starts with a parenthesis or a bracket: they join, as in a whole parse', () => {
    const filePath = '/virtual/join.js';
    for (const next of ['(three)();', '[1, 2].forEach(g);', '`t`;']) {
      const original = `// ${'a file '.repeat(8)}\nfunction f() {\n  one();\n  two();\n  ${next}\n  four();\n}\n`;
      const at = original.indexOf('two();') + 'two()'.length;
      const text = original.slice(0, at) + original.slice(at + 1);
      const parser = new IncrementalParser();
      parser.parse(filePath, original);
      const kept = parser.parse(filePath, text);
      const whole = parseSource(filePath, text);
      assert.equal(firstDifference({ ast: whole.ast, problems: whole.problems }, { ast: kept.ast, problems: kept.problems }), null, next);
      assert.equal(parser.lastInBlock, true, `${next}: parsed in the block, with the statement it joins`);
    }
  });
});
