// How functions are named and found: the names a function is known by (for `via` and for joining
// profile costs), member chains, and the function or class a local name is bound to.
import type { NodePath } from '@babel/traverse';
import type * as t from '@babel/types';
import type { BindingResolver } from './bindings';

export function isFunctionNode(node: t.Node | null | undefined): node is t.Function {
  if (!node) return false;
  switch (node.type) {
    case 'FunctionDeclaration':
    case 'FunctionExpression':
    case 'ArrowFunctionExpression':
    case 'ObjectMethod':
    case 'ClassMethod':
    case 'ClassPrivateMethod':
      return true;
    default:
      return false;
  }
}

export function propertyName(node: t.Node, computed: boolean): string | null {
  if (!computed && node.type === 'Identifier') return node.name;
  if (node.type === 'StringLiteral') return node.value;
  if (node.type === 'PrivateName') return `#${node.id.name}`;
  return null;
}

/**
 * The name a table of entries is known by, the same wherever it is filled or read: `providerList`
 * for `this.providerList` or `Registry.providerList`, `list` for a variable `list`; null otherwise.
 */
export function tableName(table: t.Node): string | null {
  if (table.type === 'Identifier') return table.name;
  if (table.type === 'MemberExpression' || table.type === 'OptionalMemberExpression') return propertyName(table.property, table.computed);
  return null;
}

/** `a.b.c`, `this.x`, `Foo.prototype.y` as text; null for anything computed or called. */
export function memberChain(node: t.Node, depth = 0): string | null {
  if (depth > 6) return null;
  if (node.type === 'Identifier') return node.name;
  if (node.type === 'ThisExpression') return 'this';
  if (node.type === 'MemberExpression' || node.type === 'OptionalMemberExpression') {
    const object = memberChain(node.object, depth + 1);
    const property = propertyName(node.property, node.computed);
    return object === null || property === null ? null : `${object}.${property}`;
  }
  return null;
}

/** The name a function is known by: its own id, else what it is assigned or keyed to. */
export function nameOf(path: NodePath<t.Function>): { name: string | null; memberKey: string | null } {
  const node = path.node;
  if ((node.type === 'FunctionDeclaration' || node.type === 'FunctionExpression') && node.id) {
    const memberKey = node.type === 'FunctionExpression' ? memberKeyOfSlot(path) : null;
    return { name: node.id.name, memberKey };
  }
  if (node.type === 'ObjectMethod' || node.type === 'ClassMethod' || node.type === 'ClassPrivateMethod') {
    const key = propertyName(node.key, node.computed === true);
    if (node.type === 'ObjectMethod') return { name: key, memberKey: memberKeyOfSlot(path) };
    const className = node.static ? classNameOf(path.parentPath?.parentPath ?? null) : null;
    return { name: key, memberKey: className !== null && key !== null ? `${className}.${key}` : null };
  }
  const parent = path.parent;
  if (parent.type === 'VariableDeclarator' && parent.id.type === 'Identifier') return { name: parent.id.name, memberKey: null };
  if (parent.type === 'AssignmentExpression' && parent.right === node) {
    const chain = memberChain(parent.left);
    return { name: chain, memberKey: chain !== null && chain.includes('.') ? chain : null };
  }
  if ((parent.type === 'ObjectProperty' || parent.type === 'ClassProperty') && parent.value === node) {
    return { name: propertyName(parent.key, parent.computed), memberKey: memberKeyOfSlot(path) };
  }
  return { name: null, memberKey: null };
}

/** `const obj = { f() {} }` -> 'obj.f'; `module.exports = { f: () => {} }` -> 'module.exports.f'. */
export function memberKeyOfSlot(path: NodePath<t.Function>): string | null {
  const node = path.node;
  let property: t.ObjectProperty | t.ObjectMethod | null = null;
  if (node.type === 'ObjectMethod') property = node;
  else if (path.parent.type === 'ObjectProperty') property = path.parent;
  else if (path.parent.type === 'AssignmentExpression') return memberChain(path.parent.left);
  if (!property) return null;
  const key = propertyName(property.key, property.computed);
  const objectPath = node.type === 'ObjectMethod' ? path.parentPath : path.parentPath?.parentPath;
  const holder = objectPath?.parent;
  if (key === null || !holder) return null;
  if (holder.type === 'VariableDeclarator' && holder.id.type === 'Identifier') return `${holder.id.name}.${key}`;
  if (holder.type === 'AssignmentExpression') {
    const chain = memberChain(holder.left);
    return chain === null ? null : `${chain}.${key}`;
  }
  return null;
}

/** `const w = new Worker()` with `class Worker {...}` in this module -> the class body (owner of its methods). */
export function classBodyOfInstance(bindings: BindingResolver, path: NodePath, name: string): t.ClassBody | null {
  const binding = bindings.bindingOf(path, name);
  // The declaring node, read without making its NodePath (this runs for every call of the file).
  const declarator = binding?.declarator;
  if (!binding || !declarator) return null;
  const init = declarator.init;
  if (!init || init.type !== 'NewExpression' || init.callee.type !== 'Identifier') return null;
  const classBinding = bindings.bindingIn(binding.pathScope, init.callee.name);
  const classNode = classBinding?.frame.node;
  if (classNode?.type === 'ClassDeclaration') return classNode.body;
  if (classNode?.type === 'VariableDeclarator' && classNode.init?.type === 'ClassExpression') return classNode.init.body;
  return null;
}

/** The name of the class a static method belongs to, for `Foo.bar()` calls. */
export function classNameOf(classPath: NodePath | null): string | null {
  const node = classPath?.node;
  if (!node) return null;
  if ((node.type === 'ClassDeclaration' || node.type === 'ClassExpression') && node.id) return node.id.name;
  const holder = classPath?.parent;
  return holder?.type === 'VariableDeclarator' && holder.id.type === 'Identifier' ? holder.id.name : null;
}

/** The function a local name is bound to (`function f`, `const f = () =>`), if any. */
export function functionOfBinding(bindings: BindingResolver, path: NodePath, name: string): t.Node | null {
  return bindings.bindingOf(path, name)?.declaredFunction ?? null;
}
