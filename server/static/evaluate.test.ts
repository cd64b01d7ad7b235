// Our port of Babel's path.evaluate() (paths handed out by the engine have no Scope) must agree
// with Babel's own on what timer intervals look like in practice.
import assert from 'node:assert/strict';
import traverseModule, { type NodePath } from '@babel/traverse';
import type * as t from '@babel/types';
import { BindingResolver } from './bindings';
import { evaluate } from './evaluate';
import { parseSource } from './parse';

type TraverseFn = typeof traverseModule;
const traverse: TraverseFn = (traverseModule as unknown as { default?: TraverseFn }).default ?? traverseModule;

const CODE = `
const SECOND = 1000, MINUTE = 60 * SECOND;
const config = { every: 5000 };
let mutable = 10; mutable++;
const early = late; const late = 3;
if (flag) { var inBlock = 100; }
setInterval(tick, inBlock);
{ var safeBlock = 100; }
setInterval(tick, safeBlock);
function run(param, fallback = 250) {
  setInterval(tick, 5 * MINUTE);
  setInterval(tick, SECOND / 2 + 1);
  setInterval(tick, flag ? 1000 : 2000);
  setInterval(tick, true ? 1000 : 2000);
  setInterval(tick, config.every);
  setInterval(tick, mutable);
  setInterval(tick, early);
  setInterval(tick, inBlock);
  setInterval(tick, param);
  setInterval(tick, fallback);
  setInterval(tick, Math.max(100, 200));
  setInterval(tick, parseInt('42', 10));
  setInterval(tick, 'abcd'.length);
  setInterval(tick, \`\${SECOND}\`.length);
  setInterval(tick, -(-SECOND));
  setInterval(tick, (0, 750));
  setInterval(tick, undefined);
  setInterval(tick, NaN);
  setInterval(tick, null ?? 300);
  setInterval(tick, [1, 2].length);
  setInterval(tick, Number(process.env.EVERY));
}
{ let SECOND = 7; setInterval(tick, SECOND * 2); }
`;

describe('evaluate (engine port of path.evaluate)', () => {
  it("agrees with Babel's evaluate on timer intervals", () => {
    const ast = parseSource('/virtual/timers.js', CODE).ast;
    assert.ok(ast);
    const babel: { path: NodePath; confident: boolean; value: unknown }[] = [];
    traverse(ast, {
      CallExpression(path) {
        const arg = path.get('arguments')[1] as NodePath<t.Node> | undefined;
        if (!arg) return;
        const result = arg.evaluate();
        babel.push({ path: arg, confident: result.confident, value: result.value });
      },
    });
    assert.equal(babel.length, 26); // 25 timers and parseInt's radix
    const bindings = new BindingResolver();
    for (const expected of babel) {
      const ours = evaluate(expected.path, bindings);
      const line = expected.path.node.loc?.start.line;
      assert.deepEqual({ line, confident: ours.confident, value: ours.value }, { line, confident: expected.confident, value: expected.value });
    }
    assert.ok(babel.filter((entry) => entry.confident).length >= 10, 'the snippet exercises confident results');
  });
});
