// blocking-sync-call: synchronous child_process / fs / zlib / crypto calls while a server serves (seed 003).
import type { NodePath } from '@babel/traverse';
import type * as t from '@babel/types';
import { viaText } from '../server/static/hotContext';
import { moduleMemberOf } from '../server/static/imports';
import type { ExecutionContext, RuleModule } from './api';

/** Modules whose `*Sync` functions block the event loop; fs-extra and graceful-fs mirror fs. */
const BLOCKING_MODULES = new Set(['child_process', 'fs', 'fs-extra', 'graceful-fs', 'zlib', 'crypto']);

function messageIdOf(context: ExecutionContext, servesRequests: boolean): string | null {
  if (context.kind === 'request') return 'perRequest';
  if (context.kind === 'message') return 'perMessage';
  if (context.kind === 'timer' && servesRequests) return 'inServerTimer';
  return null;
}

const INCIDENT = "In seed 003, execSync('free -m') and df -k on a stats timer each spent 7.5 s in normalizeSpawnArguments (~16k env vars), blocking every request for ~20 s.";

const rule: RuleModule = {
  meta: {
    id: 'blocking-sync-call',
    description: 'Flags synchronous child_process, fs, zlib and crypto calls in request/message handlers and in timers of a serving module.',
    defaultSeverity: 'warning',
    incident: {
      seed: '003',
      summary: "execSync('free -m') / df -k on a stats timer of a web service blocked requests for ~20 s.",
    },
    messages: {
      perRequest: `{{call}}() blocks the event loop on every request{{via}}; use the asynchronous {{async}}. ${INCIDENT}`,
      perMessage: `{{call}}() blocks the event loop on every message{{via}}; use the asynchronous {{async}}. ${INCIDENT}`,
      inServerTimer: `{{call}}() blocks the event loop in a timer of a module that serves requests{{via}}: requests wait while it runs; use the asynchronous {{async}}. ${INCIDENT}`,
    },
    fixable: false,
  },
  create(context) {
    const pending: { path: NodePath<t.CallExpression>; call: string; async: string }[] = [];
    return {
      visitor: {
        CallExpression(path) {
          const callee = path.node.callee;
          // Cheap pre-check: only names ending in Sync can matter.
          if (callee.type === 'MemberExpression') {
            if (callee.property.type !== 'Identifier' || !callee.property.name.endsWith('Sync')) return;
          } else if (callee.type !== 'Identifier' || !callee.name.endsWith('Sync')) {
            // A destructured-and-renamed import (`{ execSync: run }`) still resolves below.
            if (callee.type !== 'Identifier' || context.importOf(callee.name) === null) return;
          }
          const origin = moduleMemberOf(path, callee, context.importOf);
          if (!origin || !BLOCKING_MODULES.has(origin.source) || !origin.member.endsWith('Sync')) return;
          const asyncName = origin.member.slice(0, -'Sync'.length);
          pending.push({ path, call: `${origin.source}.${origin.member}`, async: `${origin.source}.${asyncName}` });
        },
      },
      finish(hot) {
        for (const item of pending) {
          const where = hot.contextOf(item.path);
          const messageId = messageIdOf(where, hot.servesRequests);
          if (messageId === null) continue;
          context.report({
            node: item.path.node,
            messageId,
            data: { call: item.call, async: item.async, via: viaText(where) },
          });
        }
      },
    };
  },
};

export default rule;
