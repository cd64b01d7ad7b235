// Functions kept in a table and called through it by index or key (issue 22): a module pushes its
// request handlers into an array (`handlers.push(function (req, res) {...})`) and the server's
// handler tries each (`handlers[i].call(self, req, res)`); a command table (`const commands = {
// get: onGet, set: onSet }`) is called by the message's name (`commands[msg.type](msg)`). Which
// entry runs is chosen at run time, so every entry may run in the caller's context.
import type { NodePath } from '@babel/traverse';
import type * as t from '@babel/types';
import type { BindingResolver } from './bindings';
import { functionOfBinding, isFunctionNode, propertyName } from './functionNames';

/** Entries followed at most per table (a bound on the work per call). */
const MAX_ENTRIES = 64;

/**
 * The functions a call through a table entry may run (`table[i](...)`, `table[key].call(...)`,
 * `.apply`), where `table` is a local array or object literal: its function elements or values,
 * what is pushed into it (`table.push(fn)`, `unshift`) and what is stored in it (`table[k] = fn`,
 * `table.k = fn`). Empty when the callee is not such an entry.
 */
export function tableEntriesCalled(path: NodePath, callee: t.Node, bindings: BindingResolver): t.Node[] {
  const table = tableCalledThrough(callee);
  if (table?.type !== 'Identifier') return [];
  const binding = bindings.bindingOf(path, table.name);
  const declarator = binding?.declarator;
  if (!binding || declarator?.type !== 'VariableDeclarator' || !declarator.init) return [];
  const init = declarator.init;
  if (init.type !== 'ArrayExpression' && init.type !== 'ObjectExpression') return [];
  const found: t.Node[] = [];
  const add = (value: t.Node | null | undefined, at: NodePath): void => {
    if (!value || found.length >= MAX_ENTRIES) return;
    if (isFunctionNode(value)) found.push(value);
    else if (value.type === 'Identifier') {
      const fn = functionOfBinding(bindings, at, value.name);
      if (fn) found.push(fn);
    }
  };
  for (const value of literalEntries(init)) add(value, binding.path);
  for (const reference of binding.referencePaths) {
    const member = reference.parentPath;
    if (!member?.isMemberExpression() || member.node.object !== reference.node) continue;
    const use = member.parentPath;
    const method = propertyName(member.node.property, member.node.computed);
    if (use?.isCallExpression() && use.node.callee === member.node && (method === 'push' || method === 'unshift')) {
      for (const argument of use.node.arguments) add(argument, use);
    } else if (use?.isAssignmentExpression() && use.node.left === member.node && use.node.operator === '=') {
      add(use.node.right, use);
    }
  }
  return found;
}

/**
 * The methods a call through an instance's table may run (`this.requestLookup[key](message)`,
 * `this.handlers[type].call(this, msg)`), where the table is a field of the class the calling
 * method belongs to (`owner`, its class body), set to an object or array literal in the class
 * body (`requestLookup = { backup: this.backup }`) or in its constructor (`this.handlers = {…}`):
 * the entries that are functions, or methods of the class (`this.backup`, `this.backup.bind(this)`).
 */
export function instanceTableEntriesCalled(callee: t.Node, owner: t.Node | string | null): t.Node[] {
  const table = tableCalledThrough(callee);
  if (table?.type !== 'MemberExpression' || table.object.type !== 'ThisExpression' || typeof owner !== 'object' || owner?.type !== 'ClassBody') return [];
  const name = propertyName(table.property, table.computed);
  if (name === null) return [];
  const classBody = owner;
  const methodNamed = (method: string): t.Node | null => {
    for (const member of classBody.body) {
      if (member.type === 'ClassMethod' && member.kind === 'method' && !member.static && propertyName(member.key, member.computed) === method) return member;
      if (member.type === 'ClassProperty' && !member.static && member.value && isFunctionNode(member.value) && propertyName(member.key, member.computed) === method) return member.value;
    }
    return null;
  };
  const found: t.Node[] = [];
  const add = (value: t.Node | null | undefined): void => {
    if (!value || found.length >= MAX_ENTRIES) return;
    let fn: t.Node = value;
    // `this.backup.bind(this)`
    if (fn.type === 'CallExpression' && fn.callee.type === 'MemberExpression' && propertyName(fn.callee.property, fn.callee.computed) === 'bind') fn = fn.callee.object;
    if (isFunctionNode(fn)) found.push(fn);
    else if (fn.type === 'MemberExpression' && fn.object.type === 'ThisExpression') {
      const key = propertyName(fn.property, fn.computed);
      const method = key === null ? null : methodNamed(key);
      if (method !== null) found.push(method);
    }
  };
  const addAll = (init: t.Node): void => {
    for (const value of literalEntries(init)) add(value);
  };
  for (const member of classBody.body) {
    if (member.type === 'ClassProperty' && !member.static && member.value && propertyName(member.key, member.computed) === name) addAll(member.value);
    if (member.type !== 'ClassMethod' || member.kind !== 'constructor') continue;
    for (const statement of member.body.body) {
      if (statement.type !== 'ExpressionStatement' || statement.expression.type !== 'AssignmentExpression' || statement.expression.operator !== '=') continue;
      const left = statement.expression.left;
      if (left.type === 'MemberExpression' && left.object.type === 'ThisExpression' && propertyName(left.property, left.computed) === name) addAll(statement.expression.right);
    }
  }
  return found;
}

/**
 * The table an entry is called through (`table[key](…)`, `table[i].call(…)`, `.apply`): what the
 * computed member is taken of, else null. A literal key (`table['get']`) names one entry, which
 * the member chain already resolves.
 */
function tableCalledThrough(callee: t.Node): t.Node | null {
  let entry = callee;
  if (entry.type === 'MemberExpression' && !entry.computed && ['call', 'apply'].includes(propertyName(entry.property, false) ?? '')) entry = entry.object;
  if (entry.type !== 'MemberExpression' || !entry.computed || entry.property.type === 'StringLiteral') return null;
  return entry.object;
}

/** The values an array or object literal holds (an object's methods as themselves); nothing for anything else. */
function literalEntries(init: t.Node): (t.Node | null)[] {
  if (init.type === 'ArrayExpression') return init.elements;
  if (init.type !== 'ObjectExpression') return [];
  return init.properties.map((property) => (property.type === 'ObjectProperty' ? property.value : property.type === 'ObjectMethod' ? property : null));
}
