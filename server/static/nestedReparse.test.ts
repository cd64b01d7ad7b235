// An edit inside a function nested in a top-level statement re-parses that function only
// (nestedReparse.ts): the tree, its problems and the findings must be those of a whole parse and a
// fresh analysis of the new text, on real modules the bench did not generate (bench/inputs/) under
// every kind of edit, and on the syntax whose meaning depends on what is around a function.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as t from '@babel/types';
import { firstDifference } from '../../test/editSessions';
import { nodesIn, runEditSession } from '../../test/editedDocuments';
import { IncrementalParser } from './incrementalParse';
import { functionsAround } from './nestedReparse';
import { parseSource } from './parse';
import { forEachChild } from './walk';

const inputs = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bench', 'inputs');
const realModules = ['iobroker-js-controller-main.js', 'apostrophe-page-index.js'];

type Body = t.BlockStatement & { depth: number };

/** The block bodies of functions nested (not top-level) in the file's statements. */
function nestedBodies(ast: t.File): Body[] {
  const bodies: Body[] = [];
  const visit = (node: t.Node, depth: number): void => {
    const isFunction = /Function|Method/.test(node.type) && 'body' in node && (node.body as t.Node | undefined)?.type === 'BlockStatement';
    if (isFunction && depth > 0) bodies.push(Object.assign((node as t.Function).body as t.BlockStatement, { depth }));
    forEachChild(node, (child) => visit(child, depth + (isFunction ? 1 : 0)));
  };
  for (const statement of ast.program.body) visit(statement, /Function/.test(statement.type) ? 0 : 1);
  return bodies.filter((body) => body.body.length > 0);
}

const PASTED = `const redis = new Redis(); const at = Date.now();
    for (const id of ids) rows.push({ id, at: Date.now() });
    res.json({ rows, disk: String(require('child_process').execSync('df -k')) });
`;

/** One edit of a kind people make, inside a nested function body of `ast` (null when the body has no site for it). */
function editInside(text: string, body: t.BlockStatement, kind: string, random: () => number): string | null {
  const pick = <T>(items: readonly T[]): T | undefined => items[Math.floor(random() * items.length)];
  const splice = (at: number, remove: number, insert: string) => text.slice(0, at) + insert + text.slice(at + remove);
  const statement = pick(body.body);
  const nodes = nodesIn(body).filter((node) => node !== body);
  if (statement === undefined) return null;
  switch (kind) {
    case 'Enter':
      return splice(statement.start ?? 0, 0, pick(['\n', '\r\n', '\n\n    ']) ?? '\n');
    case 'delete a statement':
      return splice(statement.start ?? 0, (statement.end ?? 0) - (statement.start ?? 0), '');
    case 'type an identifier': {
      const id = pick(nodes.filter((node) => node.type === 'Identifier'));
      return id === undefined ? null : splice(id.end ?? 0, 0, pick(['x', 'é', '😀', '_1']) ?? 'x');
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
      return splice(statement.start ?? 0, 0, pick(['// note\n    ', '/* c */ ', '// \u2028 x\n']) ?? '');
    case 'paste a handler':
      return splice(statement.start ?? 0, 0, PASTED);
    case 'type a call not closed yet':
      return splice(statement.start ?? 0, 0, 'foo(');
    case 'close the body early':
      return splice(statement.start ?? 0, 0, '} {');
    default:
      throw new Error(kind);
  }
}

const KINDS = ['Enter', 'delete a statement', 'type an identifier', 'type an argument', 'type in a string', 'type a comment', 'paste a handler', 'type a call not closed yet', 'close the body early'];

describe('nestedReparse: an edit inside a nested function re-parses that function only', () => {
  it('finds the functions whose body holds an edit strictly inside its braces, innermost first, not the statement itself', () => {
    const text = 'module.exports = function (app) {\n  const o = {\n    m() { a(); },\n    n: () => { b(); },\n  };\n  class C { k() { c(); } }\n};\n';
    const statement = parseSource('/virtual/a.js', text).ast?.program.body[0];
    assert.ok(statement);
    const at = (needle: string) => text.indexOf(needle);
    const kinds = (from: number, to = from) => functionsAround(statement, from, to).map((site) => `${site.node.type}@${site.node.loc?.start.line}`);
    assert.deepEqual(kinds(at('a()')), ['ObjectMethod@3', 'FunctionExpression@1']);
    assert.deepEqual(kinds(at('b()'), at('b()') + 3), ['ArrowFunctionExpression@4', 'FunctionExpression@1']);
    assert.deepEqual(kinds(at('c()')), ['ClassMethod@6', 'FunctionExpression@1']);
    // At a body's braces the edit is not inside it: the next function out.
    assert.deepEqual(kinds(at('{ a()')), ['FunctionExpression@1']);
    assert.deepEqual(kinds(at('a(); }') + 4, at('a(); }') + 6), ['FunctionExpression@1']);
    // A top-level function is the statement itself (the top-level re-parse's business).
    const declaration = parseSource('/virtual/b.js', 'function f() {\n  g();\n}\n').ast?.program.body[0];
    assert.ok(declaration);
    assert.deepEqual(functionsAround(declaration, 17, 17), []);
  });

  for (const [index, name] of realModules.entries()) {
    it(`${name}: every kind of edit inside nested functions gives a whole parse's tree and a fresh analysis' findings, parsing only the function`, function () {
      this.timeout(300_000);
      const original = readFileSync(join(inputs, name), 'utf8');
      const versions = runEditSession({
        name, text: original, seed: 20261129 + index, rounds: 3, kinds: KINDS, partsOf: nestedBodies, editInside,
      });
      const compared = versions.filter((version) => version.parses);
      const inFunction = compared.filter((version) => version.inFunction);
      const small = inFunction.filter((version) => version.parsedLength < original.length / 20).length;
      assert.ok(compared.length >= versions.length * 0.6, `only ${compared.length} of ${versions.length} versions parsed`);
      // Edits that keep the text valid inside one function parse that function only, a small part of the file.
      assert.ok(inFunction.length >= compared.length * 0.8, `only ${inFunction.length} of ${compared.length} edits re-parsed only their function`);
      assert.ok(small >= inFunction.length * 0.8, `only ${small} of ${inFunction.length} function re-parses read under a twentieth of the file`);
    });
  }

  // Syntax that one function's text does not decide: the wrapper must never accept what the file
  // does not (a sloppy script, a class field, a method's super), nor reject a function it could take.
  const contexts: [string, string, string, boolean][] = [
    ['`with` in a sloppy script (strict-only error: the function is parsed with the file)', 'function outer(o) {\n  var f = function () {\n    a();\n  };\n}\n', 'with (o) {}\n    ', false],
    ['an octal literal in a sloppy script', 'var api = {\n  run: function () {\n    a();\n  }\n};\n', 'var mode = 0755;\n    ', false],
    ['an HTML comment in a sloppy script (a comment there, an operator in a module)', 'var api = {\n  run: function (x) {\n    a(x);\n  }\n};\n', 'x <!--y\n    ', false],
    ['`arguments` in an arrow of a class field', 'class A {\n  handle = () => {\n    a();\n  };\n}\n', 'arguments;\n    ', false],
    ['`super` in a function expression inside a method', 'var o = {\n  m() {\n    var f = function () {\n      a();\n    };\n  }\n};\n', 'super.x();\n      ', false],
    ['`super` in an arrow inside a method (the method is parsed again)', 'var o = {\n  m() {\n    var f = () => {\n      a();\n    };\n  }\n};\n', 'super.x();\n      ', true],
    ['`await` in a plain arrow inside an async function', 'var o = {\n  async m() {\n    var f = () => {\n      a();\n    };\n  }\n};\n', 'await x;\n      ', false],
    ['`yield` in an arrow inside a generator', 'var o = {\n  *m() {\n    var f = () => {\n      a();\n    };\n  }\n};\n', 'yield;\n      ', false],
    ['`let` declaring a parameter again', 'var o = {\n  m(a) {\n    b();\n  }\n};\n', 'let a;\n    ', false],
    ['`use strict` in a function with default parameters', 'var o = {\n  m: function (a = 1) {\n    b();\n  }\n};\n', "'use strict';\n    ", false],
    ['a private name of the class around', "class A {\n  #x = 1;\n  m() {\n    return () => {\n      a();\n    };\n  }\n}\n", 'this.#x;\n      ', false],
    ['a call typed in a parenthesized function', 'var f = (function () {\n  return function () {\n    a();\n  };\n})();\n', 'Date.now();\n    ', true],
    ['a line added in an async generator method of a class', 'class A {\n  static async *m() {\n    a();\n  }\n}\n', 'b();\n    ', true],
  ];
  for (const [what, before, typed, nested] of contexts) {
    it(`${what}: the tree and problems of a whole parse`, () => {
      const filePath = '/virtual/context.js';
      for (const lineBreak of ['\n', '\r\n']) {
        const original = before.replaceAll('\n', lineBreak);
        const at = original.lastIndexOf('a(');
        const text = original.slice(0, at) + typed.replaceAll('\n', lineBreak) + original.slice(at);
        const parser = new IncrementalParser();
        parser.parse(filePath, original);
        const kept = parser.parse(filePath, text);
        const whole = parseSource(filePath, text);
        assert.equal(firstDifference({ ast: whole.ast, problems: whole.problems }, { ast: kept.ast, problems: kept.problems }), null, what);
        assert.equal(parser.lastInFunction, nested, `${what}: re-parsed in its function`);
        // And back.
        const back = parser.parse(filePath, original);
        const wholeBack = parseSource(filePath, original);
        assert.equal(firstDifference({ ast: wholeBack.ast, problems: wholeBack.problems }, { ast: back.ast, problems: back.problems }), null, `${what}, undone`);
      }
    });
  }
});
