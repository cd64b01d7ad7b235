// date-now-hot-path: reading the wall clock per request / per message (seed 000).
import type { NodePath } from '@babel/traverse';
import type * as t from '@babel/types';
import { bindingOf } from '../server/static/bindings';
import { viaText } from '../server/static/hotContext';
import type { ExecutionContext, RuleModule } from './api';

/** Timers firing more often than this read the clock "hot"; a 1 s refresh is the recommended fix. */
const FAST_TIMER_MS = 1000;

/** `Date` here is the global, not a local class or parameter. */
function isGlobalDate(path: NodePath, node: t.Node): boolean {
  return node.type === 'Identifier' && node.name === 'Date' && bindingOf(path, 'Date') === undefined;
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

function isHot(context: ExecutionContext): boolean {
  if (context.kind === 'request' || context.kind === 'message') return true;
  return context.kind === 'timer' && context.timerIntervalMs !== null && context.timerIntervalMs < FAST_TIMER_MS;
}

function messageIdOf(context: ExecutionContext): string {
  if (context.kind === 'request') return 'perRequest';
  if (context.kind === 'message') return 'perMessage';
  return 'fastTimer';
}

function describeContext(context: ExecutionContext): Record<string, string | number> {
  return {
    via: viaText(context),
    loop: context.inLoop ? ', inside a loop,' : '',
    interval: context.timerIntervalMs ?? 0,
  };
}

const INCIDENT = "In seed 000 Runtime_DateCurrentTime took 494 ticks (19.4% of C++, 10.3% of all ticks) across 16 pm2 workers at 60-85% CPU; read a coarse clock refreshed by setInterval(..., 1000).unref() instead.";

const rule: RuleModule = {
  meta: {
    id: 'date-now-hot-path',
    description: 'Flags Date.now() / new Date() evaluated per request, per message or in a sub-second timer.',
    defaultSeverity: 'warning',
    incident: {
      seed: '000',
      summary: "Date.now() per Redis message via getTimestamp() (models.js:43): 494 ticks, 19.4% of C++ / 10.3% of total.",
    },
    messages: {
      perRequest: `{{call}} runs per request{{via}}{{loop}}. ${INCIDENT}`,
      perMessage: `{{call}} runs per message{{via}}{{loop}}. ${INCIDENT}`,
      fastTimer: `{{call}} runs every {{interval}} ms in a timer{{via}}{{loop}}. ${INCIDENT}`,
    },
    fixable: false,
  },
  create(context) {
    // The message id depends on the context, known only after traversal: report from finish().
    const pending: { path: NodePath; node: t.Node; call: string }[] = [];
    return {
      visitor: {
        CallExpression(path) {
          const callee = path.node.callee;
          if (callee.type !== 'MemberExpression' || callee.computed || callee.property.type !== 'Identifier') return;
          if (callee.property.name !== 'now' || !isGlobalDate(path, callee.object)) return;
          pending.push({ path, node: path.node, call: 'Date.now()' });
        },
        NewExpression(path) {
          if (path.node.arguments.length > 0 || !isGlobalDate(path, path.node.callee)) return;
          const parent = path.parent;
          if (parent.type === 'UnaryExpression' && parent.operator === '+') {
            pending.push({ path, node: parent, call: '+new Date()' });
          } else {
            pending.push({ path, node: path.node, call: 'new Date()' });
          }
        },
      },
      finish(hot) {
        for (const item of pending) {
          const where = hot.contextOf(item.path);
          if (!isHot(where) || isCachedClockInit(item.path, context.source)) continue;
          context.report({ node: item.node, messageId: messageIdOf(where), data: { call: item.call, ...describeContext(where) } });
        }
      },
    };
  },
};

export default rule;
