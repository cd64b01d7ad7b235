// connection-per-request: opening a database / Redis / TCP connection inside a handler (seed 002).
import type { NodePath } from '@babel/traverse';
import type * as t from '@babel/types';
import type { ExecutionContext, RuleModule } from './api';
import { clientFate } from './detectors/clientLifetime';
import { isOnceGuarded } from './detectors/runsOnce';
import { isToolingFile } from './detectors/toolingFiles';
import { viaText } from './detectors/viaText';

/** `module:export` names that open a connection when called. */
const CONNECTING_CALLS = new Set([
  'redis:createClient', 'redis:createCluster', '@redis/client:createClient',
  'mysql:createConnection', 'mysql:createPool', 'mysql2:createConnection', 'mysql2:createPool',
  'mysql2/promise:createConnection', 'mysql2/promise:createPool',
  // Not `mongoose.connect`: it opens mongoose's one default connection, kept by the module and reused.
  'mongodb:MongoClient.connect', 'mongoose:createConnection',
  'net:connect', 'net:createConnection', 'tls:connect',
]);

/** `module:export` classes whose construction opens a connection (or a pool of them). */
const CONNECTING_CLASSES = new Set([
  'ioredis:', 'ioredis:Redis', 'ioredis:Cluster', 'ioredis:default',
  'pg:Client', 'pg:Pool', 'pg:default.Client', 'pg:default.Pool',
  'mongodb:MongoClient', 'http:Agent', 'https:Agent',
]);

/** The last segment of every name above, for a cheap pre-check. */
const LAST_NAMES = new Set([...CONNECTING_CALLS, ...CONNECTING_CLASSES].map((name) => name.slice(name.search(/[:.][^:.]*$/) + 1)));

const MAX_SHOWN = 40;

function isHandlerContext(context: ExecutionContext): boolean {
  return context.kind === 'request' || context.kind === 'message';
}

function shownCallee(node: t.Node, source: string, isNew: boolean): string {
  // One line of text, however the callee was spread over lines or commented.
  const text = node.start != null && node.end != null ? source.slice(node.start, node.end).replace(/\s+/g, ' ') : '?';
  const short = text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}...` : text;
  return isNew ? `new ${short}()` : `${short}()`;
}

const rule: RuleModule = {
  meta: {
    id: 'connection-per-request',
    description: 'Flags Redis, database, TCP connections and keep-alive-less agents created inside request or message handlers and closed or dropped there (a client kept for reuse is not flagged).',
    defaultSeverity: 'warning',
    incident: {
      seed: '002',
      summary: 'In a production incident, a new Redis connection per request left more than 30,000 sockets in TIME_WAIT and made connect() 100 times slower (22 µs to 2.5 ms); CPU idle went back above 90% once the connection was shared.',
    },
    messages: {
      connectionPerRequest: '{{what}} opens a new connection each time it runs, here while handling a {{unit}}{{via}}, and {{fate}}; create the client or pool once (one per server it talks to) and reuse it: each new connection costs a TCP handshake and {{after}}.',
      agentFalse: 'agent: false makes each outgoing request with these options open a new TCP connection, here while handling a {{unit}}{{via}}; reuse a keep-alive agent created once: each new connection costs a TCP handshake and leaves a socket in TIME_WAIT.',
    },
    fixable: false,
  },
  create(context) {
    // A test, script or benchmark serves nothing: its connections and middleware are not a service's.
    if (isToolingFile(context.filePath, context.project)) return { visitor: {} };
    /** Reported where the code runs per request or per message, known only after traversal. */
    const report = (path: NodePath, messageId: string, data: Record<string, string>): void => {
      context.report({
        node: path.node,
        messageId,
        data,
        when: (hot) => isHandlerContext(hot.contextOf(path)),
        // A connection per request fills TIME_WAIT at the traffic's rate (seed 002). Where the code
        // shows it runs only when someone administers the service or on a child's IPC, or on
        // messages of a source whose rate it does not show (a client's socket.io event, a
        // subscription named for its messages), it matters only if that turns out to be often: a
        // hint until a profile measures it.
        evidenceOf: (hot) => {
          const where = hot.contextOf(path);
          return where.occasional || (where.kind === 'message' && !where.highRate) ? 'frequency' : 'code';
        },
        describe: (hot) => {
          const where = hot.contextOf(path);
          return { unit: where.kind === 'request' ? (where.perConnection ? 'connection' : 'request') : 'message', via: viaText(where) };
        },
      });
    };
    function check(path: NodePath<t.CallExpression | t.NewExpression>, isNew: boolean): void {
      const callee = path.node.callee;
      // Cheap pre-check before resolving the name through scope bindings.
      if (callee.type === 'MemberExpression') {
        if (callee.property.type !== 'Identifier' || !LAST_NAMES.has(callee.property.name)) return;
      } else if (callee.type !== 'Identifier'
        || (context.importOf(callee.name) === null && !LAST_NAMES.has(callee.name) && !/^[A-Z]/.test(callee.name))) {
        // A bare name is worth resolving if imported, named like a connector, or a class (lazy `require` inside a handler).
        return;
      }
      const name = context.qualifiedNameOf(path, callee);
      if (name === null || !(isNew ? CONNECTING_CLASSES : CONNECTING_CALLS).has(name)) return;
      // `if (db) return;` ... `db = client.db()`: the first request connects, the others reuse it.
      if (isOnceGuarded(path, context.source)) return;
      // Stored (a module-level cache keyed by its options, a field of a long-lived object, a map):
      // created once per key and reused, not per request. Only a client this code closes or drops counts.
      const fate = clientFate(path, context);
      if (fate === 'unproven') return;
      const fateText = fate === 'closed' ? 'the client is closed again' : 'the client is not kept for reuse';
      // Closing leaves the closing side's socket in TIME_WAIT; a dropped client's connection stays
      // open until the server's timeout or the client's own end closes it.
      const after = fate === 'closed' ? 'leaves a socket in TIME_WAIT once closed' : 'stays open until something closes it';
      report(path, 'connectionPerRequest', { what: shownCallee(callee, context.source, isNew), fate: fateText, after });
    }
    return {
      visitor: {
        CallExpression(path) {
          check(path, false);
        },
        NewExpression(path) {
          check(path, true);
        },
        ObjectProperty(path) {
          const { key, value, computed } = path.node;
          if (value.type !== 'BooleanLiteral' || value.value) return;
          const isAgent = (!computed && key.type === 'Identifier' && key.name === 'agent')
            || (key.type === 'StringLiteral' && key.value === 'agent');
          if (isAgent) report(path, 'agentFalse', {});
        },
      },
    };
  },
};

export default rule;
