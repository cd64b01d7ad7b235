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
  let entry = callee;
  if (entry.type === 'MemberExpression' && !entry.computed && ['call', 'apply'].includes(propertyName(entry.property, false) ?? '')) entry = entry.object;
  // A literal key (`table['get']`) names one entry, which the member chain already resolves.
  if (entry.type !== 'MemberExpression' || !entry.computed || entry.property.type === 'StringLiteral' || entry.object.type !== 'Identifier') return [];
  const binding = bindings.bindingOf(path, entry.object.name);
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
  if (init.type === 'ArrayExpression') for (const element of init.elements) add(element, binding.path);
  else for (const property of init.properties) add(property.type === 'ObjectProperty' ? property.value : property.type === 'ObjectMethod' ? property : null, binding.path);
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
