import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { readModules, routeMapOf, joinPath } from './routeMap';
import { patternsOf, withRequestCounts } from '../../profile/routes/requestCounts';

const ROOT = '/project';

function mapOf(files: Record<string, string>) {
  const abs = Object.fromEntries(Object.entries(files).map(([f, text]) => [path.join(ROOT, f), text]));
  const modules = readModules(Object.keys(abs), (f) => abs[f] ?? null);
  const resolve = (from: string, specifier: string): string | null => {
    if (!specifier.startsWith('.')) return null;
    const base = path.resolve(path.dirname(from), specifier);
    return [base, `${base}.js`, `${base}.ts`, path.join(base, 'index.js')].find((c) => c in abs) ?? null;
  };
  return routeMapOf(modules, resolve);
}

const labels = (files: Record<string, string>): string[] => mapOf(files).routes.map((r) => r.route).sort();

describe('route map (project-wide registrations)', () => {
  it('joins prefixes', () => {
    assert.equal(joinPath('/v1', '/tasks'), '/v1/tasks');
    assert.equal(joinPath('/v1/', 'tasks'), '/v1/tasks');
    assert.equal(joinPath('', '/x'), '/x');
    assert.equal(joinPath('/v1', '/'), '/v1');
  });

  it('express: inline handlers, route chains, middleware with and without a path', () => {
    const map = mapOf({
      'app.js': `const express = require('express');
const app = express();
app.use(express.json());
app.use((req, res, next) => next());
app.use('/admin', function guard(req, res, next) { next(); });
app.get('/a', (req, res) => res.send('a'));
app.route('/b').get((req, res) => {}).post(async (req, res) => {});
axios.get('/not-a-route', () => {});
`,
    });
    assert.deepEqual(map.routes.map((r) => r.route).sort(), ['GET /a', 'GET /b', 'POST /b', 'USE (every request)', 'USE /admin']);
    const a = map.handlers.find((h) => h.route === 'GET /a')!;
    assert.deepEqual({ file: a.file, line: a.range.startLine, col: a.range.startColumn, at: a.registeredAt.line }, { file: '/project/app.js', line: 6, col: 14, at: 6 });
    assert.equal(map.unresolvedHandlers, 0);
  });

  it('a router mounted in another module gets its prefix, through nested mounts; handlers exported elsewhere are found', () => {
    const map = mapOf({
      'server.js': `const express = require('express');
const api = require('./api');
const app = express();
app.use('/v1', api);
`,
      'api/index.js': `const { Router } = require('express');
const tasks = require('./tasks');
const router = Router();
router.use('/tasks', tasks);
module.exports = router;
`,
      'api/tasks.js': `const express = require('express');
const ctrl = require('../controllers/tasks');
const router = express.Router();
router.get('/', ctrl.list);
router.get('/:id', ctrl.show);
router.post('/', ctrl.missing);
module.exports = router;
`,
      'controllers/tasks.js': `exports.list = async function list(req, res) { await 1; };
async function show(req, res) {}
module.exports.show = show;
`,
    });
    assert.deepEqual(map.routes.map((r) => r.route).sort(), ['GET /v1/tasks', 'GET /v1/tasks/:id', 'POST /v1/tasks']);
    const list = map.handlers.find((h) => h.route === 'GET /v1/tasks')!;
    assert.equal(list.file, '/project/controllers/tasks.js');
    assert.equal(list.range.startLine, 1);
    assert.equal(map.handlers.find((h) => h.route === 'GET /v1/tasks/:id')!.range.startLine, 2);
    assert.equal(map.unresolvedHandlers, 1, 'ctrl.missing is no function of the project');
  });

  it('a router mounted under two prefixes names both; a mount cycle is cut', () => {
    assert.deepEqual(labels({
      'app.js': `const r = require('./r');
app.use('/v1', r);
app.use('/v2', r);
`,
      'r.js': `const router = require('express').Router();
router.get('/x', (req, res) => {});
router.use('/loop', router);
module.exports = router;
`,
    }), ['GET /v1/x, /v2/x']);
  });

  it('koa-router, fastify (shorthand, options object, route()), http.createServer and the request event', () => {
    assert.deepEqual(labels({
      'k.js': `const Router = require('@koa/router');
const router = new Router();
router.get('/koa', async (ctx) => {});
app.use(async (ctx, next) => { await next(); });
`,
      'f.js': `fastify.get('/f1', async (request, reply) => {});
fastify.post('/f2', { schema: {} }, async (request, reply) => {});
fastify.get('/f3', { handler: async (request, reply) => {} });
fastify.route({ method: 'PUT', url: '/f4', handler(request, reply) {} });
`,
      'h.js': `const http = require('node:http');
const server = http.createServer((req, res) => res.end());
other.on('request', function onRequest(req, res) {});
`,
    }), ['GET /f1', 'GET /f3', 'GET /koa', 'POST /f2', 'PUT /f4', 'REQUEST (http server)', 'USE (every request)']);
  });

  it('a route added as one string (method and path) or through addRoute, never a client call named the same way', () => {
    assert.deepEqual(labels({
      'cms.js': `function init(module, app, next) {
  module.router.addRoute('GET /repo/:type', repoList, { template: 'list' }, this.parallel());
  module.router.addRoute(/.*/, menu, {}, this.parallel());
  routes.add('POST /user/login', login);
  octokit.request('GET /repos/:owner', onRepo);
  cache.add('/not/a/route', remember);
}
function repoList(req, res, template, block, next) {}
function menu(req, res, template, block, next) {}
function login(req, res) {}
`,
    }), ['ALL /.*/', 'GET /repo/:type', 'POST /user/login']);
  });

  it("a path built from a template names each value a parameter, one segment, in the label and when requests are matched", () => {
    const map = mapOf({
      'app.js': `const app = require('express')();
app.get(\`/v/\${cfg.base}/\${id}/\${id}\`, (req, res) => {});
app.get(\`/files/\${name}\`, (req, res) => {});
app.get('/files/*', (req, res) => {});
`,
    });
    assert.deepEqual(map.routes.map((r) => r.route).sort(), ['GET /files/*', 'GET /files/:name', 'GET /v/:base/:id/:id2']);
    const counted = withRequestCounts(
      { cpuMs: 3, shareBasis: { unit: 'ms' }, routes: map.routes.map((r) => ({ route: r.route, kind: 'request' as const, ms: 1, percent: 1, registeredAt: r.registeredAt })), noRoute: { ms: 0, percent: 0 }, unresolvedHandlers: 0 },
      patternsOf(map.routes),
      [{ method: 'GET', path: '/files/a' }, { method: 'GET', path: '/files/a/b' }, { method: 'GET', path: '/v/x/1/2' }, { method: 'GET', path: '/v/x/1/2/3' }],
      4,
    );
    const requests = Object.fromEntries(counted.routes.map((r) => [r.route, r.requests]));
    // The template's value is one segment; express 4's literal `*` is every path below it.
    assert.deepEqual(requests, { 'GET /v/:base/:id/:id2': 1, 'GET /files/:name': 1, 'GET /files/*': 2 });
    assert.equal(counted.requests?.unmatched, 1, 'a value is one segment: /v/x/1/2/3 is no route');
  });

  it('message and data handlers, and subscriptions', () => {
    assert.deepEqual(labels({
      'm.js': `sub.on('message', (channel, text) => {});
socket.on('data', onData);
function onData(chunk) {}
redis.subscribe('tasks', (message) => {});
emitter.on('close', () => {});
`,
    }), ["MESSAGE 'data' on socket", "MESSAGE 'message' on sub", 'MESSAGE tasks']);
  });

  it('routers a function builds and returns, mounted by calling it under a dynamic prefix; handlers declared in that function', () => {
    // The shape of json-server 0.17's router: a factory per resource, mounted once per key.
    const map = mapOf({
      'app.js': `const express = require('express');
const makeRouter = require('./router');
const app = express();
app.use('/api', makeRouter(db));
`,
      'router.js': `const express = require('express');
const plural = require('./plural');
const singular = require('./singular');
const asyncHandler = require('./asyncHandler');
module.exports = (db) => {
  const router = express.Router();
  db.keys().forEach((key) => {
    router.use(\`/\${key}\`, plural(db, key));
  });
  router.use('/profile', singular(db));
  router.use(asyncHandler(audit));
  return router;
};
function audit(req, res, next) { next(); }
`,
      'plural.js': `const express = require('express');
module.exports = function plural(db, name) {
  const router = express.Router();
  function list(req, res, next) { next(); }
  const show = (req, res) => res.send(db.get(name, req.params.id));
  router.route('/').get(list);
  router.get('/:id', show);
  return router;
};
`,
      'singular.js': `const express = require('express');
function list(req, res) {}
function build(db) {
  const r = express.Router();
  function list(req, res) { res.send(db); }
  r.get('/', list);
  return r;
}
module.exports = build;
`,
      'asyncHandler.js': 'module.exports = (fn) => (req, res, next) => fn(req, res, next);\n',
    });
    const at = (route: string): string[] => map.handlers.filter((h) => h.route === route).map((h) => `${path.basename(h.file)}:${h.range.startLine}`);
    assert.deepEqual(at('GET /api/:key'), ['plural.js:4']);
    assert.deepEqual(at('GET /api/:key/:id'), ['plural.js:5']);
    // The innermost declaration wins over a top-level function of the same name.
    assert.deepEqual(at('GET /api/profile'), ['singular.js:5']);
    // A call that returns no router wraps middleware: what it returns and its arguments are the candidates.
    assert.deepEqual(at('USE /api'), ['asyncHandler.js:1', 'router.js:14']);
    assert.equal(map.unresolvedHandlers, 0);
  });

  it('a file that does not parse, or cannot be read, adds nothing', () => {
    assert.deepEqual(labels({ 'bad.js': 'app.get("/x", (req, res) => {' }), []);
  });
  it('a handler a factory returns is where its route is (a local factory, an imported one, middleware a local factory makes); the factory itself is not', () => {
    const map = mapOf({
      'app.js': `const express = require('express');
const handlers = require('./handlers');
const app = express();
function makeStatus(name) {
  const started = Date.now();
  return function status(req, res) {
    res.json({ name, started });
  };
}
const audit = (log) => (req, res, next) => { log.push(req.url); next(); };
app.use(audit([]));
app.get('/status', makeStatus('api'));
app.get('/files', handlers.listing('/srv'));
`,
      'handlers.js': `exports.listing = (dir) => async (req, res) => {
  res.json(await list(dir));
};
`,
    });
    assert.deepEqual(map.routes.map((r) => r.route).sort(), ['GET /files', 'GET /status', 'USE (every request)']);
    const where = (route: string): string[] => map.handlers.filter((h) => h.route === route).map((h) => `${path.basename(h.file)}:${h.range.startLine}:${h.range.startColumn}`);
    assert.deepEqual(where('GET /status'), ['app.js:6:9']);
    assert.deepEqual(where('GET /files'), ['handlers.js:1:27']);
    assert.deepEqual(where('USE (every request)'), ['app.js:10:23']);
    assert.equal(map.unresolvedHandlers, 0);
  });
  it('a method named for its messages registers a message handler; handing a message to such a method does not', () => {
    const map = mapOf({
      'bridge.js': `function onDeviceMessage(data) {
  return data.payload;
}
function start(bus, relay, msg) {
  bus.onMQTTMessage(onDeviceMessage);
  relay.onMessage(msg);
}
module.exports = start;
`,
    });
    assert.deepEqual(map.routes.map((r) => r.route), ['MESSAGE onMQTTMessage on bus']);
    assert.deepEqual(map.handlers.map((h) => h.range.startLine), [1]);
    assert.equal(map.unresolvedHandlers, 0);
  });
  it("a client's socket events are message routes (socket.io); the connection, its lifecycle and a pool's connections are not", () => {
    const map = mapOf({
      'chat.js': `const io = require('socket.io')(3000);
io.on('connection', (client) => {
  client.on('chat message', (msg) => io.emit('chat message', msg));
  client.on('disconnect', () => {});
});
module.exports = (io, socket) => {
  socket.on('order:create', (order) => order.id);
};
pool.on('connection', (connection) => {
  connection.on('query', (sql) => sql);
});
`,
    });
    assert.deepEqual(map.routes.map((r) => r.route), ["MESSAGE 'chat message' on client", "MESSAGE 'order:create' on socket"]);
    assert.deepEqual(map.handlers.map((h) => h.range.startLine), [3, 7]);
  });
  it("a job queue's processor is a message route, named by its job and queue; a function that takes no job is not", () => {
    const map = mapOf({
      'jobs.js': `const mail = new Queue('mail');
mail.process('welcome', 5, async (job) => job.data.to);
new Worker('thumbs', makeThumb, { connection });
function makeThumb(job) {
  return job.data.file;
}
loader.process((file) => file.name);
`,
    });
    assert.deepEqual(map.routes.map((r) => r.route).sort(), ["MESSAGE job 'thumbs' on Worker", "MESSAGE job 'welcome' on mail"]);
    assert.deepEqual(map.handlers.map((h) => h.range.startLine).sort(), [2, 4]);
  });
});
