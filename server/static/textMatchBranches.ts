// A branch taken when a child process prints a given text (issue 22: "a branch of a child's `data`
// handler that runs once"). A service that starts a database or a browser as a child waits for
// its banner (`if (data.toString().includes('ready for connections')) this.initDb()`): what that
// branch runs happens when the line appears, typically once per start, not per line of output.
// The hot context calls it occasional when the handler is a child's stdout or stderr; a socket's
// data tested for a delimiter is its traffic, so nothing here applies to other sources.
// Only a test of words counts: a literal with a run of three letters (`'Listening on'`,
// `/ready for connections/`), not a delimiter (`'\n'`, `'\r\n\r\n'`) that every chunk may hold.
import type { NodePath } from '@babel/traverse';
import type * as t from '@babel/types';
import { propertyName } from './functionNames';

/** String methods that test for a text, with the text as their first argument. */
const TEXT_TESTS = new Set(['includes', 'startsWith', 'endsWith', 'match', 'search', 'indexOf']);

/** A literal that names words: a string or a regular expression with a run of three letters. */
function isWordsLiteral(node: t.Node | undefined): boolean {
  if (node?.type === 'StringLiteral') return /[A-Za-z]{3}/.test(node.value);
  if (node?.type === 'RegExpLiteral') return /[A-Za-z]{3}/.test(node.pattern);
  return false;
}

/**
 * Is `test` true only when some text holds given words: `x.includes('ready')`, `x.startsWith('Listening')`,
 * `/ready for connections/.test(x)`, `x.match(/started/)`, `x.indexOf('ready') !== -1`, joined by `&&`?
 */
function testsForWords(test: t.Node, depth = 0): boolean {
  if (depth > 4) return false;
  switch (test.type) {
    case 'ParenthesizedExpression':
      return testsForWords(test.expression, depth + 1);
    case 'LogicalExpression':
      // Either side true only when the words are there is enough for `&&`; `||` needs both.
      return test.operator === '&&'
        ? testsForWords(test.left, depth + 1) || testsForWords(test.right, depth + 1)
        : test.operator === '||' && testsForWords(test.left, depth + 1) && testsForWords(test.right, depth + 1);
    case 'BinaryExpression': {
      // `x.indexOf('ready') !== -1`, `> -1`, `>= 0`.
      const call = test.left;
      if (call.type !== 'CallExpression' || call.callee.type !== 'MemberExpression'
        || propertyName(call.callee.property, call.callee.computed) !== 'indexOf' || !isWordsLiteral(call.arguments[0])) return false;
      const right = test.right;
      const minusOne = right.type === 'UnaryExpression' && right.operator === '-' && right.argument.type === 'NumericLiteral' && right.argument.value === 1;
      const zero = right.type === 'NumericLiteral' && right.value === 0;
      return ((test.operator === '!==' || test.operator === '!=' || test.operator === '>') && minusOne) || (test.operator === '>=' && zero);
    }
    case 'CallExpression': {
      const callee = test.callee;
      if (callee.type !== 'MemberExpression') return false;
      const method = propertyName(callee.property, callee.computed);
      if (method === 'test') return callee.object.type === 'RegExpLiteral' && isWordsLiteral(callee.object);
      return method !== null && method !== 'indexOf' && TEXT_TESTS.has(method) && isWordsLiteral(test.arguments[0]);
    }
    default:
      return false;
  }
}

/**
 * Is `path` in the consequent of an `if` (or the true branch of a `?:`) inside `fnPath` whose test
 * is true only when a text holds given words? (The function's own body only: a function nested in
 * the branch runs when it is called, not when the branch is taken.)
 */
export function isUnderTextMatch(path: NodePath, fnPath: NodePath | null): boolean {
  let child: NodePath = path;
  for (let up = path.parentPath; up !== null && up !== fnPath && !up.isProgram(); child = up, up = up.parentPath) {
    const node = up.node;
    if (up.isFunction()) return false;
    if ((node.type === 'IfStatement' || node.type === 'ConditionalExpression') && node.consequent === child.node && testsForWords(node.test)) return true;
  }
  return false;
}
