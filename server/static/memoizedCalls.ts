// A call whose result fills a cache that the code tested first runs once per process, however hot
// the function around it (issue 22): `if (_cache.redis) return _cache.redis; _cache.redis = createRedis();`,
// `if (!client) client = connect();`, `pool ||= createPool()`. The hot context does not carry its
// caller's context into the function called there.
import type { NodePath } from '@babel/traverse';
import type * as t from '@babel/types';
import { forEachChild } from './walk';
import { memberChain } from './functionNames';

/** Preceding statements looked at for an early `if (cache) return` (a bound on the work per call). */
const MAX_GUARD_SCAN = 20;

/** `test` reads the chain `target` (`cache.x`, `!cache.x`, `cache.x !== undefined`). */
function reads(test: t.Node, target: string): boolean {
  let found = false;
  const visit = (node: t.Node): void => {
    if (found) return;
    if ((node.type === 'Identifier' || node.type === 'MemberExpression') && memberChain(node) === target) {
      found = true;
      return;
    }
    forEachChild(node, visit);
  };
  visit(test);
  return found;
}

/** The call's value (through `await` and parentheses) is assigned to a cache tested before it runs. */
export function isMemoizedCall(path: NodePath): boolean {
  let value: NodePath = path;
  while (value.parentPath?.node.type === 'AwaitExpression' || value.parentPath?.node.type === 'ParenthesizedExpression') value = value.parentPath;
  const assignment = value.parentPath;
  if (assignment?.node.type !== 'AssignmentExpression' || value.parentKey !== 'right') return false;
  if (assignment.node.operator === '||=' || assignment.node.operator === '??=') return true;
  if (assignment.node.operator !== '=') return false;
  const target = memberChain(assignment.node.left);
  if (target === null) return false;
  // An enclosing `if` of the same function tests it, or an earlier `if (...) return` of an enclosing block does.
  let child: NodePath = assignment;
  for (let up = assignment.parentPath; up !== null && !up.isFunction() && !up.isProgram(); child = up, up = up.parentPath) {
    const node = up.node;
    if (node.type === 'IfStatement' && child.parentKey !== 'test' && reads(node.test, target)) return true;
    if (node.type === 'BlockStatement' && typeof child.key === 'number') {
      for (let i = child.key - 1; i >= 0 && i >= child.key - MAX_GUARD_SCAN; i--) {
        const statement = node.body[i];
        if (statement.type !== 'IfStatement' || statement.alternate) continue;
        const exit = statement.consequent.type === 'BlockStatement' ? statement.consequent.body.at(-1) : statement.consequent;
        if ((exit?.type === 'ReturnStatement' || exit?.type === 'ThrowStatement') && reads(statement.test, target)) return true;
      }
    }
  }
  return false;
}
