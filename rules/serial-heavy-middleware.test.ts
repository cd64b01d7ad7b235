import rule from './serial-heavy-middleware';
import { runRuleTests } from '../test/ruleTester';

const LOADERS = `async function loadUser(req, res, next) { req.user = await User.findById(req.params.uid).lean(); next(); }
async function loadProject(req, res, next) { req.project = await Project.findById(req.params.pid).lean(); next(); }
`;

/** Seed 004's shape: `mdl.*()` factories returning middlewares that each walk res.locals.tasks. */
const MDL = `const mdl = {
  toJson() {
    return (req, res, next) => { res.locals.tasks = res.locals.tasks.map((t) => t.toJSON()); next(); };
  },
  fillCreator() {
    return function fillCreator(req, res, next) {
      for (const t of res.locals.tasks) t.creator = res.locals.users[t.creatorId];
      next();
    };
  },
  fillExecutor: () => (req, res, next) => {
    res.locals.tasks.forEach((t) => { t.executor = res.locals.users[t.executorId]; });
    next();
  },
};
`;

runRuleTests(rule, {
  valid: [
    {
      name: 'the same chain in a test file: a test serves nothing',
      filename: 'test/routes.test.js',
      code: `${LOADERS}app.get('/p/:uid/:pid', loadUser, loadProject, (req, res) => res.json({ user: req.user, project: req.project }));`,
    },
    {
      name: 'the second middleware reads what the first writes (req.user)',
      code: `async function loadUser(req, res, next) { req.user = await User.findById(req.params.id); next(); }
async function loadTasks(req, res, next) { req.tasks = await Task.find({ owner: req.user._id }); next(); }
app.get('/tasks', loadUser, loadTasks, (req, res) => res.json(req.tasks));`,
    },
    {
      name: 'dependency through res.locals',
      code: `const a = async (req, res, next) => { res.locals.project = await Project.findById(req.params.id); next(); };
const b = async (req, res, next) => { res.locals.members = await Member.find({ project: res.locals.project.id }); next(); };
router.get('/p/:id', a, b, (req, res) => res.json(res.locals));`,
    },
    {
      name: 'koa: ctx.state written then read',
      code: `router.get('/t', async (ctx, next) => { ctx.state.user = await users.get(ctx.params.id); await next(); },
  async (ctx) => { ctx.body = await tasks.of(ctx.state.user.id); });`,
    },
    {
      name: 'only one middleware awaits I/O',
      code: `function parse(req, res, next) { req.filter = { owner: req.query.owner }; next(); }
app.get('/t', parse, async (req, res) => res.json(await Task.find(req.filter).lean()));`,
    },
    {
      name: 'one middleware hands the whole request to unknown code',
      code: `async function audit(req, res, next) { await auditLog.write(req); next(); }
${LOADERS}app.get('/p/:uid/:pid', audit, loadUser, (req, res) => res.json(req.user));`,
    },
    {
      name: 'a computed slot may be anything',
      code: `async function a(req, res, next) { req[req.query.key] = await store.get(req.query.key); next(); }
async function b(req, res, next) { req.b = await store.get('b'); next(); }
app.get('/x', a, b, (req, res) => res.json(req.b));`,
    },
    {
      name: 'awaiting next() (koa) is not I/O',
      code: `app.use(async (ctx, next) => { const t = Date.now(); await next(); ctx.set('X-Time', String(Date.now() - t)); });
app.use(async (ctx, next) => { await next(); ctx.set('X-Served-By', 'a'); });`,
    },
    {
      name: 'middlewares imported from another module cannot be resolved',
      code: `const { loadUser, loadProject } = require('./middlewares');
app.get('/p', loadUser, loadProject, (req, res) => res.json(req.user));`,
    },
    {
      name: 'Map#get with functions is not a route',
      code: `${LOADERS}const handlers = new Map();
handlers.get(loadUser, loadProject);`,
    },
    {
      name: 'an error handler (4 parameters) is not part of the chain',
      code: `${LOADERS}app.get('/p', loadUser, async (err, req, res, next) => { await report(err); next(err); });`,
    },
    {
      name: 'app.use statements separated by a route are different chains',
      code: `app.use(async (req, res, next) => { req.a = await store.get('a'); next(); });
app.get('/health', (req, res) => res.send('ok'));
app.use(async (req, res, next) => { req.b = await store.get('b'); next(); });`,
    },
    {
      name: 'both middlewares write the same slot',
      code: `const a = async (req, res, next) => { req.ctx = await loadA(); next(); };
const b = async (req, res, next) => { req.ctx = await loadB(); next(); };
app.get('/x', a, b, (req, res) => res.json(req.ctx));`,
    },
    {
      name: 'a single pass over the data',
      code: `${MDL.replace(/fillCreator\(\) \{[\s\S]*?\n  \},\n  fillExecutor[\s\S]*?\n  \},\n/, '')}router.get('/tasks', loadTasks, [mdl.toJson()], (req, res) => res.json(res.locals.tasks));`,
    },
    {
      name: 'an auth check that can answer 401 must finish before the loader',
      code: `async function auth(req, res, next) {
  const ok = await tokens.verify(req.headers.authorization);
  if (!ok) return res.status(401).end();
  next();
}
async function loadProject(req, res, next) { req.project = await projects.byId(req.params.id); next(); }
app.get('/p/:id', auth, loadProject, (req, res) => res.json(req.project));`,
    },
    {
      name: 'a rate limit that throws',
      code: `const limit = async (ctx, next) => { if ((await redis.incr(ctx.ip)) > 100) ctx.throw(429); await next(); };
const load = async (ctx, next) => { ctx.state.p = await projects.byId(ctx.params.id); await next(); };
router.get('/p/:id', limit, load, (ctx) => { ctx.body = ctx.state.p; });`,
    },
    {
      name: 'app.use on different mount paths never run for the same request',
      code: `app.use('/a', async (req, res, next) => { req.a = await store.get('a'); next(); });
app.use('/b', async (req, res, next) => { req.b = await store.get('b'); next(); });`,
    },
    {
      name: 'a self-referencing middleware array does not loop',
      code: `const chain = [chain, chain];
app.get('/x', chain, chain);`,
    },
    {
      name: 'a factory returning itself does not loop',
      code: `function f() { return f(); }
app.get('/x', f(), f());`,
    },
  ],
  invalid: [
    {
      name: 'a chain handed over as a spread array: app.get(path, ...chain, handler)',
      code: `${LOADERS}const chain = [loadUser, loadProject];
app.get('/p/:uid/:pid', ...chain, (req, res) => res.json({ user: req.user, project: req.project }));`,
      errors: [{ messageId: 'independentIo', line: 4, column: 1, severity: 'warning', message: /^Middlewares loadUser, loadProject each await independent I\/O/ }],
      output: null,
    },
    {
      name: 'router.use([a, b]): an array of functions is one chain',
      code: `${LOADERS}router.use([loadUser, loadProject]);`,
      errors: [{ messageId: 'independentIo', line: 3, column: 1 }],
      output: null,
    },
    {
      name: 'two loaders that await independent queries, one after another',
      code: `${LOADERS}app.get('/p/:uid/:pid', loadUser, loadProject, (req, res) => res.json({ user: req.user, project: req.project }));`,
      errors: [{
        messageId: 'independentIo', line: 3, column: 1, endLine: 3, endColumn: 113,
        message: 'Middlewares loadUser, loadProject each await independent I/O but run one after another for each request that passes through them; neither reads what the other writes, so start the I/O together (Promise.all in one middleware).',
      }],
      output: null,
    },
    {
      name: "seed 004: [mdl.toJson(), mdl.fillCreator(), mdl.fillExecutor()] re-walk res.locals.tasks",
      code: `${MDL}router.get('/tasks', loadTasks, [mdl.toJson(), mdl.fillCreator(), mdl.fillExecutor()], (req, res) => res.json(res.locals.tasks));`,
      errors: [{
        messageId: 'repeatedPasses', line: 16, column: 1, severity: 'hint',
        message: 'Middlewares mdl.toJson(), mdl.fillCreator(), mdl.fillExecutor() each iterate over the same res.locals.tasks for each request that passes through them; compute it in one pass.',
      }],
      output: null,
    },
    {
      name: 'the same chain through a const array of middlewares (alias of the iterated data)',
      code: `function withCreators() { return async (req, res, next) => { const tasks = res.locals.tasks; tasks.forEach((t) => { t.c = 1; }); next(); }; }
function withExecutors() { return (req, res, next) => { res.locals.tasks.map((t) => t.e); next(); }; }
const chain = [withCreators(), withExecutors()];
router.get('/tasks', chain, (req, res) => res.json(res.locals.tasks));`,
      errors: [{ messageId: 'repeatedPasses', line: 4, column: 1, message: /withCreators\(\), withExecutors\(\) each iterate over the same res\.locals\.tasks/ }],
      output: null,
    },
    {
      name: 'koa: consecutive app.use() with independent awaits (reported on the first)',
      code: `const Koa = require('koa');
const app = new Koa();
app.use(async (ctx, next) => { ctx.state.flags = await flags.load(); await next(); });
app.use(async (ctx, next) => { ctx.state.geo = await geo.lookup(ctx.ip); await next(); });
app.listen(3000);`,
      errors: [{ messageId: 'independentIo', line: 3, column: 1, message: /anonymous middleware \(line 3\), anonymous middleware \(line 4\)/ }],
      output: null,
    },
    {
      name: 'app.use(a, b) with callback-style I/O that continues from the callback',
      code: `function session(req, res, next) { store.get(req.cookies.sid, (err, s) => { req.session = s; next(err); }); }
function flags(req, res, next) { redis.get('flags', (err, f) => { req.flags = f; next(err); }); }
app.use(session, flags);`,
      errors: [{ messageId: 'independentIo', line: 3, column: 1, message: /session, flags/ }],
      output: null,
    },
    {
      name: 'a promise chain (no await) counts as I/O; the handler depends on both loaders',
      code: `const a = (req, res, next) => { loadA(req.params.id).then((x) => { req.a = x; next(); }); };
const b = async (req, res, next) => { req.b = await loadB(req.query.b); next(); };
router.post('/x', express.json(), a, b, async (req, res) => { res.json({ a: req.a, b: req.b, c: await loadC() }); });`,
      errors: [{ messageId: 'independentIo', line: 3, column: 1, message: /^Middlewares a, b each/ }],
      output: null,
    },
    {
      name: 'a gate at the end (the handler answers) does not stop earlier loaders',
      code: `${LOADERS}app.get('/p/:uid/:pid', loadUser, loadProject, async (req, res) => {
  if (!req.user) return res.status(404).end();
  res.json({ user: req.user, project: req.project, extra: await extras.of(req.project.id) });
});`,
      errors: [{ messageId: 'independentIo', line: 3, column: 1, message: /^Middlewares loadUser, loadProject each/ }],
      output: null,
    },
    {
      name: 'app.use(a, b) alone under an if (no block): a chain of its own',
      code: `function session(req, res, next) { store.get(req.cookies.sid, (err, s) => { req.session = s; next(err); }); }
function flags(req, res, next) { redis.get('flags', (err, f) => { req.flags = f; next(err); }); }
if (process.env.SESSIONS) app.use(session, flags);
else app.use(flags);`,
      errors: [{ messageId: 'independentIo', line: 3, column: 27, message: /session, flags/ }],
      output: null,
    },
    {
      name: 'consecutive app.use in a switch case and in a nested block: each list its own chain',
      code: `switch (mode) {
  case 'full':
    app.use(async (req, res, next) => { req.a = await store.get('a'); next(); });
    app.use(async (req, res, next) => { req.b = await store.get('b'); next(); });
}
app.use(async (req, res, next) => { req.c = await store.get('c'); next(); });
{
  app.use(async (req, res, next) => { req.d = await store.get('d'); next(); });
}`,
      errors: [{ messageId: 'independentIo', line: 3, column: 5, message: /anonymous middleware \(line 3\), anonymous middleware \(line 4\)/ }],
      output: null,
    },
    {
      name: 'consecutive app.use on the same mount path',
      code: `app.use('/api', async (req, res, next) => { req.a = await store.get('a'); next(); });
app.use('/api', async (req, res, next) => { req.b = await store.get('b'); next(); });`,
      errors: [{ messageId: 'independentIo', line: 1, column: 1 }],
      output: null,
    },
    {
      name: 'router.route(path).get(a, b)',
      code: `${LOADERS}router.route('/p/:uid/:pid').get(loadUser, loadProject, (req, res) => res.json(req.user));`,
      errors: [{ messageId: 'independentIo', line: 3, column: 1, message: /loadUser, loadProject/ }],
      output: null,
    },
    {
      name: 'fastify preHandler hooks',
      filename: 'server.ts',
      code: `fastify.get('/r', {
  preHandler: [
    async (request: Req) => { request.user = await users.byToken(request.headers.authorization); },
    async (request: Req) => { request.quota = await quotas.today(); },
  ],
}, async (request: Req) => request.user);`,
      errors: [{ messageId: 'independentIo', line: 1, column: 1 }],
      output: null,
    },
  ],
});
