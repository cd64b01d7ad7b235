// Code that runs once even inside a hot function: the first call fills a cache or sets a flag, and
// every later call skips it (issue 11: "one-time work is not per-request work"). Shared by rules
// that would otherwise report the first run's work as per-request work.
import type { NodePath } from '@babel/traverse';
import type * as t from '@babel/types';

/** `a.b.c` / `x` as text, for comparing an assignment target with an `if` test. */
function targetText(node: t.Node, source: string): string | null {
  if (node.type !== 'Identifier' && node.type !== 'MemberExpression') return null;
  if (node.start == null || node.end == null) return null;
  return source.slice(node.start, node.end);
}

/** The names assigned by the statements directly in a block (`loaded = true`, `cache.x = ...`). */
function assignedTargets(block: t.Statement, source: string): string[] {
  const statements = block.type === 'BlockStatement' ? block.body : [block];
  const out: string[] = [];
  for (const statement of statements) {
    const expression = statement.type === 'ExpressionStatement' ? statement.expression : null;
    if (expression?.type === 'AssignmentExpression') {
      const text = targetText(expression.left, source);
      if (text !== null) out.push(text);
    }
  }
  return out;
}

/**
 * The node runs at most once per process although its function runs often:
 * - its value fills a cache tested by an enclosing `if` (`if (!cache.x) cache.x = readFileSync(f)`),
 *   or a `||=` / `??=` assignment (`template ||= readFileSync(f)`);
 * - an enclosing `if` tests a flag (or cached value) that the same block then sets
 *   (`if (!initialized) { initialized = true; mkdirSync(dir); }`).
 */
export function isOnceGuarded(path: NodePath, source: string): boolean {
  // The value flows (through calls such as JSON.parse, awaits, unary/binary operators) into an assignment.
  let current: NodePath = path;
  let parent = current.parentPath;
  for (let depth = 0; parent && depth < 6; depth++) {
    const type = parent.node.type;
    if (type === 'AssignmentExpression') break;
    if (type !== 'CallExpression' && type !== 'BinaryExpression' && type !== 'ParenthesizedExpression' && type !== 'AwaitExpression'
      && type !== 'UnaryExpression' && type !== 'LogicalExpression' && type !== 'MemberExpression') break;
    current = parent;
    parent = current.parentPath;
  }
  let assigned: string | null = null;
  if (parent && parent.node.type === 'AssignmentExpression' && current.parentKey === 'right') {
    const assignment = parent.node;
    if (assignment.operator === '||=' || assignment.operator === '??=') return true;
    assigned = targetText(assignment.left, source);
  }
  let up: NodePath | null = path.parentPath;
  for (; up && !up.isFunction() && !up.isProgram(); up = up.parentPath) {
    const node = up.node;
    if (node.type !== 'IfStatement' || node.test.start == null || node.test.end == null) continue;
    const test = source.slice(node.test.start, node.test.end);
    if (assigned !== null && test.includes(assigned)) return true;
    if (assignedTargets(node.consequent, source).some((target) => test.includes(target))) return true;
  }
  return up !== null && up.isFunction() && returnsEarlyWhenCached(up.node, path.node.start ?? 0, source);
}

/**
 * The function opens with a guard clause on a cache that it fills later:
 * `if (db) return db;` ... `db = await connect()` (or `if (client) { return client; }`).
 */
function returnsEarlyWhenCached(fn: t.Function, before: number, source: string): boolean {
  if (fn.body.type !== 'BlockStatement' || fn.body.start == null || fn.body.end == null) return false;
  const body = source.slice(fn.body.start, fn.body.end);
  for (const statement of fn.body.body) {
    if ((statement.start ?? 0) >= before) break;
    if (statement.type !== 'IfStatement' || statement.alternate) continue;
    const consequent = statement.consequent.type === 'BlockStatement' ? statement.consequent.body : [statement.consequent];
    if (consequent.length === 0 || consequent[consequent.length - 1].type !== 'ReturnStatement') continue;
    const target = targetText(statement.test, source);
    if (target === null) continue;
    const escaped = target.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    if (new RegExp(`(?:^|[^.\\w$])${escaped}\\s*=(?!=)`).test(body)) return true;
  }
  return false;
}
