// date-now-hot-path: reading the wall clock per request / per message (seed 000).
import type { NodePath } from '@babel/traverse';
import type * as t from '@babel/types';
import type { ExecutionContext, RuleContext, RuleModule } from './api';
import { viaText } from './detectors/viaText';

/** `Date` here is the global, not a local class or parameter. */
function isGlobalDate(path: NodePath, node: t.Node, context: RuleContext): boolean {
  return node.type === 'Identifier' && node.name === 'Date' && context.bindingOf(path, 'Date') === undefined;
}

/** `a.b.c` / `x` as text, for comparing an assignment target with an `if` test. */
function targetText(node: t.Node, source: string): string | null {
  if (node.type !== 'Identifier' && node.type !== 'MemberExpression') return null;
  if (node.start == null || node.end == null) return null;
  return source.slice(node.start, node.end);
}

/**
 * The lazy first read of a cached clock runs once, not per call:
 * `if (!cache.ts) { cache.ts = Math.floor(Date.now() / 1000); ... }` and `ts ||= Date.now()`.
 */
function isCachedClockInit(path: NodePath, source: string): boolean {
  let current: NodePath = path;
  let parent = current.parentPath;
  for (let depth = 0; parent && depth < 6; depth++) {
    const type = parent.node.type;
    if (type === 'AssignmentExpression') break;
    if (type !== 'CallExpression' && type !== 'BinaryExpression' && type !== 'ParenthesizedExpression'
      && type !== 'UnaryExpression' && type !== 'LogicalExpression') return false;
    current = parent;
    parent = current.parentPath;
  }
  if (!parent || parent.node.type !== 'AssignmentExpression' || current.parentKey !== 'right') return false;
  const assignment = parent.node;
  if (assignment.operator === '||=' || assignment.operator === '??=') return true;
  const target = targetText(assignment.left, source);
  if (target === null) return false;
  for (let up: NodePath | null = parent.parentPath; up && !up.isFunction() && !up.isProgram(); up = up.parentPath) {
    if (up.node.type === 'IfStatement' && up.node.test.start != null && up.node.test.end != null) {
      if (source.slice(up.node.test.start, up.node.test.end).includes(target)) return true;
    }
  }
  return false;
}

/** `X` in `!X` (or `X == null`), alone or as one operand of an `&&` chain: the test of a guard. */
function negatedTargets(test: t.Expression, source: string, out: string[] = []): string[] {
  if (test.type === 'LogicalExpression' && test.operator === '&&') {
    negatedTargets(test.left, source, out);
    negatedTargets(test.right, source, out);
  } else if (test.type === 'UnaryExpression' && test.operator === '!') {
    const target = targetText(test.argument, source);
    if (target !== null) out.push(target);
  } else if (test.type === 'BinaryExpression' && (test.operator === '==' || test.operator === '===')
    && ((test.right.type === 'NullLiteral') || (test.right.type === 'Identifier' && test.right.name === 'undefined'))) {
    const target = targetText(test.left, source);
    if (target !== null) out.push(target);
  }
  return out;
}

/**
 * A branch that sets the state guarding it runs once per lifetime of that state, not per event:
 * `ws.on('message', (m) => { if (m.type === 'hello' && !session) { session = open(m); ws.send({ at: Date.now() }); } })`
 * answers the hello of a connection once, whatever the message rate (labelled on signalk remoteProvider).
 * The state must outlive the handler (a local reset on every call would run the branch every time), and
 * the assignment must be a statement of the branch itself, so it surely runs when the branch does.
 */
function isInOnceBranch(path: NodePath, source: string, context: RuleContextLike): boolean {
  const fn = path.getFunctionParent();
  for (let child: NodePath = path, up = path.parentPath; up && up !== fn && !up.isProgram(); child = up, up = up.parentPath) {
    if (!up.isIfStatement() || child.parentKey !== 'consequent') continue;
    const consequent = up.node.consequent;
    const statements = consequent.type === 'BlockStatement' ? consequent.body : [consequent];
    const assigned = new Set<string>();
    for (const statement of statements) {
      if (statement.type !== 'ExpressionStatement' || statement.expression.type !== 'AssignmentExpression') continue;
      if (statement.expression.operator !== '=') continue;
      const target = targetText(statement.expression.left, source);
      if (target !== null) assigned.add(target);
    }
    for (const target of negatedTargets(up.node.test, source)) {
      if (!assigned.has(target)) continue;
      // `this.x` and `a.b` outlive the call; a plain name must be bound outside the handler.
      if (!/^[A-Za-z_$][\w$]*$/.test(target)) return true;
      const binding = context.bindingOf(up, target);
      if (binding && fn && binding.path !== fn && !binding.path.isDescendant(fn)) return true;
    }
  }
  return false;
}

/** Once per element of something iterated on a hot path: the loop itself, or a helper/callback it calls. */
function isPerItem(context: ExecutionContext): boolean {
  return context.inLoop || context.perItem;
}

/**
 * The value is subtracted, to measure a duration or an age (`Date.now() - start`, `const t0 = Date.now()`
 * later used in `Date.now() - t0`). A coarse clock would break such a measurement, so it is never suggested.
 */
function isSubtracted(path: NodePath, node: t.Node, context: RuleContextLike): boolean {
  let current: t.Node = node;
  let parentPath: NodePath | null = path.parentPath;
  if (parentPath && node !== path.node) parentPath = parentPath.parentPath; // `+new Date`: the unary is the node
  // Through `.getTime()` / `.valueOf()` and parentheses.
  while (parentPath) {
    const parent = parentPath.node;
    if (parent.type === 'ParenthesizedExpression') { current = parent; parentPath = parentPath.parentPath; continue; }
    if (parent.type === 'MemberExpression' && parent.object === current && parentPath.parentPath?.node.type === 'CallExpression') {
      current = parentPath.parentPath.node;
      parentPath = parentPath.parentPath.parentPath;
      continue;
    }
    break;
  }
  if (!parentPath) return false;
  const parent = parentPath.node;
  if (parent.type === 'BinaryExpression' && parent.operator === '-') return true;
  if (parent.type === 'VariableDeclarator' && parent.init === current && parent.id.type === 'Identifier') {
    const binding = context.bindingOf(parentPath, parent.id.name);
    return binding?.referencePaths.some((ref) => {
      const up = ref.parentPath?.node;
      return up?.type === 'BinaryExpression' && up.operator === '-';
    }) ?? false;
  }
  return false;
}

interface RuleContextLike {
  bindingOf: RuleContext['bindingOf'];
}

/**
 * Per item only because a loop calls the helper holding the read: the read is in a function of its own
 * (not in the loop, not in a forEach/map callback), where no enclosing loop is in sight to hoist it from.
 */
function isPerItemThroughHelper(path: NodePath, context: ExecutionContext): boolean {
  if (!context.perItem || context.inLoop) return false;
  const fn = path.getFunctionParent();
  return !!fn && fn.parentPath?.node.type !== 'CallExpression' && fn.parentPath?.node.type !== 'OptionalCallExpression';
}

/** The message for a read worth reporting, or null to stay quiet. */
function messageIdOf(context: ExecutionContext, subtracted: boolean, throughHelper: boolean): string | null {
  // Timers iterate the service's own state at their own pace, not request or message data.
  if (context.kind !== 'request' && context.kind !== 'message') return null;
  // An age or freshness predicate (`isFresh(id) { return Date.now() - last.get(id) <= TTL }`) called per
  // item: hoisting the read means changing the helper's signature for microseconds (labelled on signalk).
  if (isPerItem(context)) return subtracted && throughHelper ? null : 'perItem';
  // One read per HTTP request (a timestamp, an expiry, a duration) is harmless: only a high-rate
  // message source makes a single read per event the incident, and never when it measures time.
  // Within a couple of calls of the handler (seed 000: onMessage -> getTimestamp); deeper, the path is
  // mostly a branch taken now and then (an auth retry, an error report), not every message.
  if (context.kind === 'message' && context.highRate && !subtracted && context.via.length <= MAX_MESSAGE_DEPTH) return 'perMessage';
  return null;
}

/** The handler and two functions below it (`via` names each named function on the way). */
const MAX_MESSAGE_DEPTH = 3;

function contextText(context: ExecutionContext): string {
  return context.kind === 'request' ? (context.perConnection ? 'connection' : 'request') : 'message';
}

const rule: RuleModule = {
  meta: {
    id: 'date-now-hot-path',
    description: 'Flags Date.now() / new Date() read once per item of a loop on a hot path, or on every message of a high-rate source.',
    defaultSeverity: 'warning',
    incident: {
      seed: '000',
      summary: "In a production incident, 16 workers ran at 60-85% CPU, and reading the clock once per Redis message (through a getTimestamp() helper) took 10.3% of their CPU time. One clock read is cheap: it matters only when the code runs thousands of times a second.",
    },
    messages: {
      perItem: '{{call}} runs once per item of a loop, while handling a {{context}}{{via}}, a clock read each time. Read the clock once before the loop and reuse the value.',
      perMessage: '{{call}} runs while handling messages{{via}} of a high-rate source (pub/sub, socket or stream data, a queue consumer), a clock read each time it runs. If second precision is enough, read a clock refreshed by setInterval(..., 1000).unref() instead.',
    },
    fixable: false,
  },
  create(context) {
    /** A clock read: the message depends on where it runs, known only after traversal (messageIdOf). */
    const check = (path: NodePath, node: t.Node, call: string): void => {
      if (isCachedClockInit(path, context.source) || isInOnceBranch(path, context.source, context)) return;
      const subtracted = isSubtracted(path, node, context);
      context.report({
        node,
        messageId: 'perItem',
        messageIdOf: (hot) => {
          const where = hot.contextOf(path);
          return messageIdOf(where, subtracted, isPerItemThroughHelper(path, where));
        },
        data: { call },
        describe: (hot) => {
          const where = hot.contextOf(path);
          return { context: contextText(where), via: viaText(where) };
        },
        evidence: 'frequency',
      });
    };
    return {
      visitor: {
        CallExpression(path) {
          const callee = path.node.callee;
          if (callee.type !== 'MemberExpression' || callee.computed || callee.property.type !== 'Identifier') return;
          if (callee.property.name !== 'now' || !isGlobalDate(path, callee.object, context)) return;
          check(path, path.node, 'Date.now()');
        },
        NewExpression(path) {
          if (path.node.arguments.length > 0 || !isGlobalDate(path, path.node.callee, context)) return;
          const parent = path.parent;
          if (parent.type === 'UnaryExpression' && parent.operator === '+') {
            check(path, parent, '+new Date()');
          } else {
            check(path, path.node, 'new Date()');
          }
        },
      },
    };
  },
};

export default rule;
