// The engine's binding resolver must answer as Babel's Scope did (the rules were written against
// it): for every identifier of tricky snippets, both are asked what the name refers to.
import assert from 'node:assert/strict';
import traverseModule, { Scope, type Binding, type NodePath } from '@babel/traverse';
import type * as t from '@babel/types';
import { readFileSync } from 'node:fs';
import { editCorpus, randomFrom, typedEdit } from '../../test/editSessions';
import { BindingResolver } from './bindings';
import { IncrementalParser } from './incrementalParse';
import { parseSource } from './parse';

type TraverseFn = typeof traverseModule;
const traverse: TraverseFn = (traverseModule as unknown as { default?: TraverseFn }).default ?? traverseModule;
// As the engine used to: a redeclared let/const is a recovered parse error, not a crash.
(Scope.prototype as unknown as { checkBlockScopedCollisions: () => void }).checkBlockScopedCollisions = function ignore(): void {};

const SNIPPETS: Record<string, string> = {
  'hoisting and shadowing': `
    f(); function f() { return g; } var g = 1;
    function outer(a) { const a2 = a; { let a = 2; a2 + a; } return a; }
    const h = () => { const f = 3; return f; };`,
  'parameters and defaults': `
    function d(x = y, { p, q: [r = p] } = {}, ...rest) { var y; return x + p + r + rest.length; }
    const y = 1; (function (arguments) { return arguments; })(); function args() { return arguments; }`,
  'writes and loops': `
    let n = 0; n++; n += 2; delete globalThis.n;
    for (var i = 0; i < 3; i++) { var inLoop = i; function declaredInLoop() {} }
    for (const item of [1]) item; for (var k in {}) k; let o; for (o of []) o;
    const { a, b: [c] } = {}; [n] = [a, c];`,
  'classes, catch, labels, switch': `
    class A { static m() { return A; } [Symbol.iterator]() {} }
    const B = class Named { m() { return Named; } };
    try { x(); } catch ({ message }) { message; } catch2: for (;;) { break catch2; }
    switch (A) { case 1: { let A = 2; A; } }`,
  'modules and exports': `
    import def, { named as alias } from 'm'; import * as ns from 'n';
    export const e1 = def, e2 = alias; export function ef() { return ns; } export default class {}
    export { e1 as again };`,
};

function compare(code: string, fileName: string): string[] {
  const ast = parseSource(fileName, code).ast;
  assert.ok(ast, 'parses');
  return compareAst(ast, new BindingResolver());
}

function compareAst(ast: t.File, resolver: BindingResolver): string[] {
  const seen: { path: NodePath<t.Identifier>; babel: Binding | undefined; block: t.Node }[] = [];
  traverse(ast, {
    Identifier(path) {
      seen.push({ path, babel: path.scope.getBinding(path.node.name), block: path.scope.block });
    },
  });
  const problems: string[] = [];
  const checked = new Set<Binding>();
  for (const { path, babel, block } of seen) {
    const where = `${path.node.name}@${path.node.loc?.start.line}:${path.node.loc?.start.column}`;
    if (resolver.scopeOf(path).node !== block) problems.push(`${where}: scope`);
    const mine = resolver.bindingOf(path, path.node.name);
    if (!babel || !mine) {
      if (babel || mine) problems.push(`${where}: ${babel ? 'babel' : 'ours'} only`);
      continue;
    }
    if (mine.identifier !== babel.identifier || mine.kind !== babel.kind || mine.path !== babel.path) problems.push(`${where}: binding`);
    if (checked.has(babel)) continue;
    checked.add(babel);
    if (mine.constant !== babel.constant) problems.push(`${where}: constant`);
    if (mine.topLevel !== babel.scope.path.isProgram()) problems.push(`${where}: topLevel`);
    const ours = mine.referencePaths;
    if (ours.length !== babel.referencePaths.length || ours.some((p, i) => p !== babel.referencePaths[i])) problems.push(`${where}: references`);
  }
  return problems;
}

describe('binding resolver (engine)', () => {
  for (const [name, code] of Object.entries(SNIPPETS)) {
    it(`answers as Babel's Scope: ${name}`, () => {
      assert.deepEqual(compare(code, '/virtual/snippet.js'), []);
    });
  }

  it("answers as Babel's Scope in TypeScript (type annotations are not reads)", () => {
    const code = `
      import type { T } from 't'; type U = T; interface I { x: U }
      function f(a: I, b = a as unknown as U): U { const c: U = b; return c; }
      namespace N { export const v = 1; }`;
    assert.deepEqual(compare(code, '/virtual/snippet.ts'), []);
  });

  it("answers as Babel's Scope after every edit, keeping what it knew of unchanged statements", function () {
    this.timeout(120_000);
    const random = randomFrom(11);
    let compared = 0;
    for (const file of editCorpus().filter((path) => /examples|fixtures|express/.test(path))) {
      let text = readFileSync(file, 'utf8');
      const parser = new IncrementalParser();
      const resolver = new BindingResolver(true);
      let ast = parser.parse(file, text).ast;
      for (let step = 0; step < 8 && ast !== null; step++) {
        text = typedEdit(text, ast, random);
        const parsed = parser.parse(file, text);
        if (parsed.ast === null || parsed.problems.length > 0) break;
        ast = parsed.ast;
        // As the engine does per analysis; Babel's own scopes of the reused nodes are stale, so they go.
        resolver.startAnalysis(ast);
        traverse.cache.clearScope();
        assert.deepEqual(compareAst(ast, resolver), [], `${file}, edit ${step + 1} (${parser.lastKind})`);
        if (parser.lastKind === 'incremental') compared++;
      }
    }
    assert.ok(compared > 100, `only ${compared} incremental versions compared`);
  });

  it('searches up a path once for several names asked where it stands, and again in a new analysis', () => {
    const ast = parseSource('/virtual/asked.js', 'const a = 1;\nfunction f(b) { const c = b; return g(a, b, c); }\n').ast;
    assert.ok(ast);
    const calls: NodePath[] = [];
    const identifiers: NodePath[] = [];
    traverse(ast, {
      CallExpression(path) {
        calls.push(path);
      },
      Identifier(path) {
        identifiers.push(path);
      },
    });
    const resolver = new BindingResolver(true);
    resolver.startAnalysis(ast);
    const [call] = calls;
    const before = resolver.scopeSearches;
    assert.equal(resolver.bindingOf(call, 'a')?.kind, 'const');
    assert.equal(resolver.bindingOf(call, 'b')?.kind, 'param');
    assert.equal(resolver.bindingOf(call, 'c')?.kind, 'const');
    assert.equal(resolver.bindingOf(call, 'g'), undefined);
    assert.equal(resolver.scopeSearches - before, 1, 'one search for four names asked at one call');
    // Another path is searched for; so is the first one again once the analysis is a new one.
    resolver.bindingOf(identifiers[0], 'a');
    assert.equal(resolver.scopeSearches - before, 2);
    resolver.startAnalysis(ast);
    assert.equal(resolver.bindingOf(call, 'c')?.kind, 'const');
    assert.equal(resolver.scopeSearches - before, 3);
  });
});
