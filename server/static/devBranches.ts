// Code that runs only outside production (issue 22): a branch taken when NODE_ENV says development
// or test (`if (process.env.NODE_ENV !== 'production')`, `if (env === 'test') app.get('/e2e/reset', ...)`,
// `isDev ? ... : ...`), or the rest of a block after `if (NODE_ENV === 'production') return`.
// Such code serves no production request, so the hot context does not call it "per request".
// Only what the test proves counts: a comparison of NODE_ENV with a literal, through `!`, `&&`,
// `||`, and a constant initialised with such a comparison; a name like `isDev` alone proves nothing.
import type { NodePath } from '@babel/traverse';
import type * as t from '@babel/types';
import type { BindingResolver } from './bindings';
import { propertyName } from './functionNames';

/** NODE_ENV values that mean "not production" (a comparison with any other value proves nothing). */
const NON_PRODUCTION = new Set(['development', 'dev', 'test', 'testing', 'local']);

/** What a test being true proves: the process is not in production ('dev') or is ('prod'); null: nothing. */
type Proof = 'dev' | 'prod' | null;

/** Preceding statements looked at for an early `if (production) return` (a bound on the work per node). */
const MAX_GUARD_SCAN = 50;

function flip(proof: Proof): Proof {
  return proof === 'dev' ? 'prod' : proof === 'prod' ? 'dev' : null;
}

/** `process.env.NODE_ENV`, `process.env['NODE_ENV']`. */
function isNodeEnv(node: t.Node): boolean {
  if (node.type !== 'MemberExpression' || propertyName(node.property, node.computed) !== 'NODE_ENV') return false;
  const env = node.object;
  return env.type === 'MemberExpression' && propertyName(env.property, env.computed) === 'env'
    && env.object.type === 'Identifier' && env.object.name === 'process';
}

/** What `test` being true proves about NODE_ENV; `path` resolves constant names where the test is. */
function proofOf(test: t.Node, path: NodePath, bindings: BindingResolver, depth = 0): Proof {
  if (depth > 4) return null;
  switch (test.type) {
    case 'ParenthesizedExpression':
      return proofOf(test.expression, path, bindings, depth + 1);
    case 'UnaryExpression':
      return test.operator === '!' ? flip(proofOf(test.argument, path, bindings, depth + 1)) : null;
    case 'LogicalExpression': {
      const left = proofOf(test.left, path, bindings, depth + 1);
      const right = proofOf(test.right, path, bindings, depth + 1);
      // a && b: both hold, so either proof holds; a || b: only what both prove.
      if (test.operator === '&&') return left ?? right;
      if (test.operator === '||') return left === right ? left : null;
      return null;
    }
    case 'BinaryExpression': {
      const equal = test.operator === '===' || test.operator === '==';
      if (!equal && test.operator !== '!==' && test.operator !== '!=') return null;
      const [env, other] = isNodeEnv(test.left) ? [test.left, test.right] : [test.right, test.left];
      if (!isNodeEnv(env) || other.type !== 'StringLiteral') return null;
      const value = other.value.toLowerCase();
      // `=== 'production'` proves production; `=== 'test'` proves not. `!== 'production'` proves not;
      // `!== 'test'` proves nothing (staging, production...).
      if (value === 'production' || value === 'prod') return equal ? 'prod' : 'dev';
      if (NON_PRODUCTION.has(value)) return equal ? 'dev' : null;
      return null;
    }
    case 'Identifier': {
      const binding = bindings.bindingOf(path, test.name);
      const declarator = binding?.constant ? binding.declarator : null;
      if (binding === undefined || declarator === null) return null;
      const init = declarator.init;
      return init ? proofOf(init, binding.path, bindings, depth + 1) : null;
    }
    default:
      return null;
  }
}

/** `if (production) return ...;` / `throw`: what follows it in the block runs only outside production. */
function isProductionExit(statement: t.Statement, at: NodePath, bindings: BindingResolver): boolean {
  if (statement.type !== 'IfStatement' || statement.alternate) return false;
  const body = statement.consequent.type === 'BlockStatement' ? statement.consequent.body.at(-1) : statement.consequent;
  if (body?.type !== 'ReturnStatement' && body?.type !== 'ThrowStatement') return false;
  return proofOf(statement.test, at, bindings) === 'prod';
}

/**
 * `path` runs only outside production: a branch of an `if`, `?:` or `&&` that NODE_ENV decides,
 * between it and `stopAt` (its function, or the program).
 */
export function isDevOnly(path: NodePath, bindings: BindingResolver, stopAt: NodePath | null = path.getFunctionParent()): boolean {
  let child: NodePath = path;
  let parent = path.parentPath;
  while (parent !== null && parent !== stopAt) {
    const node = parent.node;
    const key = child.parentKey;
    if (node.type === 'IfStatement' || node.type === 'ConditionalExpression') {
      if (key === 'consequent' && proofOf(node.test, parent, bindings) === 'dev') return true;
      if (key === 'alternate' && proofOf(node.test, parent, bindings) === 'prod') return true;
    } else if (node.type === 'LogicalExpression' && key === 'right') {
      const left = proofOf(node.left, parent, bindings);
      if ((node.operator === '&&' && left === 'dev') || (node.operator === '||' && left === 'prod')) return true;
    } else if (node.type === 'BlockStatement' || node.type === 'Program') {
      const body = node.body as t.Statement[];
      // The statement's index from the body, not `child.key`: in the editor a kept statement's path
      // outlives edits above it, so its key can name another statement or none (statementRecords.ts).
      const at = body.indexOf(child.node as t.Statement);
      for (let i = at - 1; i >= 0 && i >= at - MAX_GUARD_SCAN; i--) {
        if (isProductionExit(body[i], parent, bindings)) return true;
      }
    }
    child = parent;
    parent = parent.parentPath;
  }
  return false;
}
