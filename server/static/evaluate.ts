// Babel's `path.evaluate()` (node_modules/@babel/traverse/lib/path/evaluation.js, 7.29), ported
// line for line with name lookups going through our resolver: the engine's paths carry no Babel
// Scope, and evaluate() reads `path.scope` for every identifier. Used for timer intervals
// (`setInterval(fn, 5 * MINUTE)`); confident results are the same as Babel's.
import type { NodePath } from '@babel/traverse';
import type * as t from '@babel/types';
import type { BindingResolver } from './bindings';

export interface Evaluation {
  confident: boolean;
  value: unknown;
}

interface State {
  /** The analysis' binding resolver, which answers for `path.scope`. */
  bindings: BindingResolver;
  confident: boolean;
  seen: Map<t.Node | null | undefined, { resolved: boolean; value?: unknown }>;
}

const VALID_OBJECT_CALLEES = new Set(['Number', 'String', 'Math']);
const VALID_IDENTIFIER_CALLEES = new Set(['isFinite', 'isNaN', 'parseFloat', 'parseInt', 'decodeURI', 'decodeURIComponent', 'encodeURI', 'encodeURIComponent']);
const INVALID_METHODS = new Set(['random']);
const GLOBALS = new Map<string, unknown>([['undefined', undefined], ['Infinity', Infinity], ['NaN', NaN]]);

type AnyFunction = (...args: unknown[]) => unknown;

function deopt(state: State): void {
  state.confident = false;
}

function evaluateCached(path: NodePath, state: State): unknown {
  const node = path.node;
  const existing = state.seen.get(node);
  if (existing) {
    if (existing.resolved) return existing.value;
    deopt(state);
    return undefined;
  }
  const item: { resolved: boolean; value?: unknown } = { resolved: false };
  state.seen.set(node, item);
  const value = evaluateUncached(path, state);
  if (state.confident) {
    item.resolved = true;
    item.value = value;
  }
  return value;
}

function child(path: NodePath, key: string): NodePath {
  return path.get(key) as NodePath;
}

function children(path: NodePath, key: string): NodePath[] {
  return path.get(key) as NodePath[];
}

function evaluateIdentifier(path: NodePath<t.Identifier>, state: State): unknown {
  const name = path.node.name;
  const binding = state.bindings.bindingOf(path, name);
  if (binding) {
    const declared = binding.frame.node;
    if (!binding.constant || (path.node.start ?? 0) < (declared.end ?? 0)) {
      deopt(state);
      return undefined;
    }
    // A `var` in a nested block read from outside it may not have run (Babel's "unsafe block").
    const pathScope = binding.pathScope;
    if (binding.kind === 'var' && pathScope !== binding.scope) {
      let hasUnsafeBlock = pathScope.parentNode?.type !== 'BlockStatement';
      const here = state.bindings.scopeOf(path);
      for (let scope = pathScope.parent; scope; scope = scope.parent) {
        if (scope === here) {
          if (hasUnsafeBlock) {
            deopt(state);
            return undefined;
          }
          break;
        }
        if (scope.parentNode?.type === 'BlockStatement') hasUnsafeBlock = true;
      }
    }
  }
  if (GLOBALS.has(name)) {
    if (!binding) return GLOBALS.get(name);
    deopt(state);
    return undefined;
  }
  if (!binding) {
    deopt(state);
    return undefined;
  }
  const bindingPath = binding.path;
  if (!bindingPath.isVariableDeclarator()) {
    deopt(state);
    return undefined;
  }
  if (!child(bindingPath, 'id').isIdentifier()) {
    deopt(state);
    return undefined;
  }
  const value = evaluateCached(child(bindingPath, 'init'), state);
  if (typeof value === 'object' && value !== null && binding.referenceCount > 1) {
    deopt(state);
    return undefined;
  }
  return value;
}

function evaluateUncached(path: NodePath, state: State): unknown {
  if (!state.confident) return undefined;
  if (path.isSequenceExpression()) {
    const expressions = children(path, 'expressions');
    return evaluateCached(expressions[expressions.length - 1], state);
  }
  if (path.isStringLiteral() || path.isNumericLiteral() || path.isBooleanLiteral()) return path.node.value;
  if (path.isNullLiteral()) return null;
  if (path.isTemplateLiteral()) return evaluateQuasis(path, path.node.quasis, state);
  if (path.isTaggedTemplateExpression() && child(path, 'tag').isMemberExpression()) {
    const object = child(path, 'tag.object');
    const property = child(path, 'tag.property');
    if (object.isIdentifier() && object.node.name === 'String' && !state.bindings.bindingOf(path, 'String')
      && property.isIdentifier() && property.node.name === 'raw') {
      return evaluateQuasis(path, path.node.quasi.quasis, state, true);
    }
  }
  if (path.isConditionalExpression()) {
    const test = evaluateCached(child(path, 'test'), state);
    if (!state.confident) return undefined;
    return evaluateCached(child(path, test ? 'consequent' : 'alternate'), state);
  }
  if (path.isExpressionWrapper()) return evaluateCached(child(path, 'expression'), state);
  if (path.isMemberExpression() && !path.parentPath.isCallExpression({ callee: path.node })) {
    const property = child(path, 'property');
    const object = child(path, 'object');
    if (object.isLiteral()) {
      const value = (object.node as { value?: unknown }).value;
      const type = typeof value;
      let key: unknown = null;
      if (path.node.computed) {
        key = evaluateCached(property, state);
        if (!state.confident) return undefined;
      } else if (property.isIdentifier()) {
        key = property.node.name;
      }
      if ((type === 'number' || type === 'string') && key != null && (typeof key === 'number' || typeof key === 'string')) {
        return (value as Record<string | number, unknown>)[key];
      }
    }
  }
  if (path.isReferencedIdentifier() && path.isIdentifier()) return evaluateIdentifier(path, state);
  if (path.isUnaryExpression({ prefix: true })) {
    if (path.node.operator === 'void') return undefined;
    const argument = child(path, 'argument');
    if (path.node.operator === 'typeof' && (argument.isFunction() || argument.isClass())) return 'function';
    const arg = evaluateCached(argument, state) as number;
    if (!state.confident) return undefined;
    switch (path.node.operator) {
      case '!':
        return !arg;
      case '+':
        return +arg;
      case '-':
        return -arg;
      case '~':
        return ~arg;
      case 'typeof':
        return typeof arg;
      default:
        break;
    }
  }
  if (path.isArrayExpression()) {
    const array: unknown[] = [];
    for (const element of children(path, 'elements')) {
      const result = evaluate(element, state.bindings);
      if (!result.confident) {
        deopt(state);
        return undefined;
      }
      array.push(result.value);
    }
    return array;
  }
  if (path.isObjectExpression()) {
    const object: Record<string, unknown> = {};
    for (const prop of children(path, 'properties')) {
      if (prop.isObjectMethod() || prop.isSpreadElement() || !prop.isObjectProperty()) {
        deopt(state);
        return undefined;
      }
      const keyPath = child(prop, 'key');
      let key: unknown;
      if (prop.node.computed) {
        const result = evaluate(keyPath, state.bindings);
        if (!result.confident) {
          deopt(state);
          return undefined;
        }
        key = result.value;
      } else if (keyPath.isIdentifier()) {
        key = keyPath.node.name;
      } else {
        key = (keyPath.node as { value?: unknown }).value;
      }
      const result = evaluate(child(prop, 'value'), state.bindings);
      if (!result.confident) {
        deopt(state);
        return undefined;
      }
      object[String(key)] = result.value;
    }
    return object;
  }
  if (path.isLogicalExpression()) {
    const wasConfident = state.confident;
    const left = evaluateCached(child(path, 'left'), state);
    const leftConfident = state.confident;
    state.confident = wasConfident;
    const right = evaluateCached(child(path, 'right'), state);
    const rightConfident = state.confident;
    switch (path.node.operator) {
      case '||':
        state.confident = leftConfident && (!!left || rightConfident);
        return state.confident ? left || right : undefined;
      case '&&':
        state.confident = leftConfident && (!left || rightConfident);
        return state.confident ? left && right : undefined;
      case '??':
        state.confident = leftConfident && (left != null || rightConfident);
        return state.confident ? (left ?? right) : undefined;
      default:
        break;
    }
  }
  if (path.isBinaryExpression()) {
    const left = evaluateCached(child(path, 'left'), state) as number;
    if (!state.confident) return undefined;
    const right = evaluateCached(child(path, 'right'), state) as number;
    if (!state.confident) return undefined;
    switch (path.node.operator) {
      case '-': return left - right;
      case '+': return left + right;
      case '/': return left / right;
      case '*': return left * right;
      case '%': return left % right;
      case '**': return Math.pow(left, right);
      case '<': return left < right;
      case '>': return left > right;
      case '<=': return left <= right;
      case '>=': return left >= right;
      // eslint-disable-next-line eqeqeq
      case '==': return left == right;
      // eslint-disable-next-line eqeqeq
      case '!=': return left != right;
      case '===': return left === right;
      case '!==': return left !== right;
      case '|': return left | right;
      case '&': return left & right;
      case '^': return left ^ right;
      case '<<': return left << right;
      case '>>': return left >> right;
      case '>>>': return left >>> right;
      default: break;
    }
  }
  if (path.isCallExpression()) {
    const callee = child(path, 'callee');
    let context: unknown;
    let func: AnyFunction | undefined;
    const globals = globalThis as unknown as Record<string, unknown>;
    if (callee.isIdentifier() && !state.bindings.bindingOf(path, callee.node.name)
      && (VALID_OBJECT_CALLEES.has(callee.node.name) || VALID_IDENTIFIER_CALLEES.has(callee.node.name))) {
      func = globals[callee.node.name] as AnyFunction;
    }
    if (callee.isMemberExpression()) {
      const object = child(callee, 'object');
      const property = child(callee, 'property');
      if (object.isIdentifier() && property.isIdentifier() && VALID_OBJECT_CALLEES.has(object.node.name)
        && !INVALID_METHODS.has(property.node.name) && !state.bindings.bindingOf(path, object.node.name)) {
        context = globals[object.node.name];
        const key = property.node.name;
        if (Object.prototype.hasOwnProperty.call(context, key)) func = (context as Record<string, AnyFunction>)[key];
      }
      if (object.isLiteral() && property.isIdentifier()) {
        const value = (object.node as { value?: unknown }).value;
        if (typeof value === 'string' || typeof value === 'number') {
          context = value;
          func = (Object(value) as Record<string, AnyFunction>)[property.node.name];
        }
      }
    }
    if (func) {
      const args = children(path, 'arguments').map((arg) => evaluateCached(arg, state));
      if (!state.confident) return undefined;
      return func.apply(context, args);
    }
  }
  deopt(state);
  return undefined;
}

function evaluateQuasis(path: NodePath, quasis: t.TemplateElement[], state: State, raw = false): unknown {
  let text = '';
  let i = 0;
  const expressions = path.isTemplateLiteral() ? children(path, 'expressions') : children(path, 'quasi.expressions');
  for (const element of quasis) {
    if (!state.confident) break;
    text += raw ? element.value.raw : element.value.cooked;
    const expression = expressions[i++];
    if (expression) text += String(evaluateCached(expression, state));
  }
  if (!state.confident) return undefined;
  return text;
}

/** Babel's `path.evaluate()`: the value when it is statically known (`confident`); names resolved by `bindings`. */
export function evaluate(path: NodePath, bindings: BindingResolver): Evaluation {
  const state: State = { bindings, confident: true, seen: new Map() };
  let value = evaluateCached(path, state);
  if (!state.confident) value = undefined;
  return { confident: state.confident, value };
}
