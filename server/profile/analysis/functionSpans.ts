// The functions of one source file, read from its syntax tree for functionRanges.ts: each one's
// header and body position, line range, the name it is known by, the calls it makes itself and
// what the names it uses are bound to. Apart from functionRanges.ts because it needs the parser
// and Babel's types, which a report that reads no source never loads (functionRanges.ts requires
// this module with the first file it parses).
import type * as t from '@babel/types';
import { isFunction } from '@babel/types';

import { parseSource } from '../../static/parse';
import { forEachChild } from '../../static/childNodes';

/** What a name is bound to where a function uses it (function-level scopes; blocks are not told apart). */
export type Binding = { kind: 'function'; node: t.Node } | { kind: 'module'; specifier: string } | { kind: 'other' };

/** A call made by a function itself (not by functions nested in it). */
export interface SourceCall {
  /** The name the callee is called by: `f` for `f()`, `x.f()`, `(0, x.f)()`, `new F()`. */
  name: string;
  line: number;
  /** The identifier the callee expression starts from (`x` in `x.y.f()`, `f` in `f()`); '' for `this.f()` and computed callees. */
  root: string;
}

export interface FunctionSpan {
  /** 1-based line and 0-based column of the node's start, and of its body's start. */
  startLine: number;
  startColumn: number;
  bodyLine: number;
  bodyColumn: number;
  endLine: number;
  /** The name the function is declared or assigned under ('' when none). */
  name: string;
  parent: FunctionSpan | null;
  calls: SourceCall[];
  bindings: Map<string, Binding>;
}

export interface ParsedFile {
  spans: FunctionSpan[];
  /** Function nodes -> their span, to resolve a binding to a function. */
  spanOf: Map<t.Node, FunctionSpan>;
}

/** The functions of `file`'s source `text`, or null when it does not parse. */
export function parseFunctionSpans(file: string, text: string): ParsedFile | null {
  const { ast } = parseSource(file, text);
  return ast === null ? null : collectSpans(ast);
}

/** `x` for `require('x')`, `__toESM(require('x'))` (bundlers) and `require('x').y`; else null. */
function requiredModule(node: t.Node | null | undefined): string | null {
  if (node === null || node === undefined) return null;
  if (node.type === 'MemberExpression') return requiredModule(node.object);
  if (node.type !== 'CallExpression') return null;
  const [arg] = node.arguments;
  if (node.callee.type === 'Identifier' && node.callee.name === 'require') return arg?.type === 'StringLiteral' ? arg.value : null;
  return node.callee.type === 'Identifier' && arg !== undefined && arg.type === 'CallExpression' ? requiredModule(arg) : null;
}

/** Every name a binding pattern declares (`a`, `{ a, b: c }`, `[d, ...e]`, `f = 1`). */
function patternNames(node: t.Node | null | undefined, out: string[] = []): string[] {
  if (node === null || node === undefined) return out;
  if (node.type === 'Identifier') out.push(node.name);
  else if (node.type === 'ObjectPattern') for (const p of node.properties) patternNames(p.type === 'RestElement' ? p.argument : p.value, out);
  else if (node.type === 'ArrayPattern') for (const e of node.elements) patternNames(e, out);
  else if (node.type === 'AssignmentPattern') patternNames(node.left, out);
  else if (node.type === 'RestElement') patternNames(node.argument, out);
  else if (node.type === 'TSParameterProperty') patternNames(node.parameter, out);
  return out;
}

/** The name a function is known by from where it stands: `function f`, `f = () =>`, `{ f() {} }`, `x.f = function`. */
function keyName(node: t.Node): string {
  if (node.type === 'Identifier') return node.name;
  if (node.type === 'StringLiteral') return node.value;
  if (node.type === 'MemberExpression' && !node.computed) return keyName(node.property);
  return '';
}

function collectSpans(ast: t.File): ParsedFile {
  // The first span is the file's top level (column -1: no function header to match).
  const endLine = ast.loc?.end.line ?? 1;
  const program: FunctionSpan = { startLine: 1, startColumn: -1, bodyLine: 1, bodyColumn: -1, endLine, name: '', parent: null, calls: [], bindings: new Map() };
  const spans: FunctionSpan[] = [program];
  const spanOf = new Map<t.Node, FunctionSpan>();
  /** Names given to function nodes by what holds them (a declarator, a property, an assignment). */
  const names = new Map<t.Node, string>();
  const stack: { node: t.Node; owner: FunctionSpan }[] = [{ node: ast, owner: program }];
  while (stack.length > 0) {
    const { node, owner: outer } = stack.pop() as { node: t.Node; owner: FunctionSpan };
    let owner = outer;
    if (isFunction(node) && node.loc && node.body.loc) {
      const id = 'id' in node && node.id ? node.id.name : '';
      const key = 'key' in node ? keyName(node.key) : '';
      owner = {
        startLine: node.loc.start.line,
        startColumn: node.loc.start.column,
        bodyLine: node.body.loc.start.line,
        bodyColumn: node.body.loc.start.column,
        endLine: node.loc.end.line,
        name: id || key || names.get(node) || '',
        parent: outer,
        calls: [],
        bindings: new Map(),
      };
      spans.push(owner);
      spanOf.set(node, owner);
      // A declaration's name is bound where it stands; its parameters inside it.
      if (node.type === 'FunctionDeclaration' && node.id) outer.bindings.set(node.id.name, { kind: 'function', node });
      for (const param of node.params) for (const name of patternNames(param)) owner.bindings.set(name, { kind: 'other' });
    }
    switch (node.type) {
      case 'CallExpression':
      case 'NewExpression':
      case 'OptionalCallExpression': {
        const callee = calleeOf(node.callee);
        if (callee !== null && node.loc) owner.calls.push({ ...callee, line: node.loc.start.line });
        break;
      }
      case 'VariableDeclarator': {
        const module = requiredModule(node.init);
        if (node.id.type === 'Identifier' && node.init && isFunction(node.init)) {
          names.set(node.init, node.id.name);
          owner.bindings.set(node.id.name, { kind: 'function', node: node.init });
        } else {
          for (const name of patternNames(node.id)) owner.bindings.set(name, module === null ? { kind: 'other' } : { kind: 'module', specifier: module });
        }
        break;
      }
      case 'ImportDeclaration':
        for (const specifier of node.specifiers) owner.bindings.set(specifier.local.name, { kind: 'module', specifier: node.source.value });
        break;
      case 'ClassDeclaration':
        if (node.id) owner.bindings.set(node.id.name, { kind: 'other' });
        break;
      case 'CatchClause':
        for (const name of patternNames(node.param)) owner.bindings.set(name, { kind: 'other' });
        break;
      case 'ObjectProperty':
      case 'ClassProperty':
        if (isFunction(node.value)) names.set(node.value, keyName(node.key));
        break;
      case 'AssignmentExpression':
        if (isFunction(node.right)) names.set(node.right, keyName(node.left));
        break;
    }
    forEachChild(node, (child) => {
      stack.push({ node: child, owner });
    });
  }
  // One call per line counts once: `f(f(x))` is still one line.
  for (const span of spans) {
    const seen = new Set<string>();
    span.calls = span.calls.filter((c) => {
      const key = `${c.line}\u0000${c.name}\u0000${c.root}`;
      return seen.has(key) ? false : (seen.add(key), true);
    });
  }
  return { spans, spanOf };
}

/**
 * The called name and the identifier the callee starts from: `f()` -> f/f, `a.b.f()` -> f/a,
 * `a?.f()`, `new F()`, and bundlers' `(0, x.f)()`; null for computed callees.
 */
function calleeOf(callee: t.Node): { name: string; root: string } | null {
  if (callee.type === 'Identifier') return { name: callee.name, root: callee.name };
  if (callee.type === 'SequenceExpression') return calleeOf(callee.expressions[callee.expressions.length - 1]);
  if (callee.type === 'ParenthesizedExpression' || callee.type === 'TSNonNullExpression') return calleeOf(callee.expression);
  if ((callee.type === 'MemberExpression' || callee.type === 'OptionalMemberExpression') && !callee.computed && callee.property.type === 'Identifier') {
    let object: t.Node = callee.object;
    while (object.type === 'MemberExpression' || object.type === 'OptionalMemberExpression' || object.type === 'CallExpression') object = object.type === 'CallExpression' ? object.callee : object.object;
    return { name: callee.property.name, root: object.type === 'Identifier' ? object.name : '' };
  }
  return null;
}
