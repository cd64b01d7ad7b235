import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { analyzeSource } from '../engine';
import { collectImports } from '../imports';
import { parseSource } from '../parse';
import { ProjectIndex } from '../projectIndex';
import { StaticDocument } from '../staticDocument';
import { moduleFactsOf } from './moduleFacts';
import { findingsOf, projectOf, removeProjects } from '../../../test/unit/projectOnDisk';
import { analyzeFileList } from '../../cli/fileAnalysis';

after(removeProjects);

function factsOf(text: string, file = 'm.js') {
  const ast = parseSource(file, text).ast!;
  return moduleFactsOf(ast.program, collectImports(ast.program), 'k');
}

describe('project-wide analysis (server/static/project)', () => {
  describe('module facts', () => {
    it('exports of each module shape, with the local name each is bound to', () => {
      const cjs = factsOf('function list() {}\nconst show = () => {};\nmodule.exports = { list, show, other: () => 1 };\nexports.extra = list;\n');
      assert.deepEqual([...cjs.exports], [['list', 'list'], ['show', 'show'], ['other', null], ['extra', 'list']]);
      const esm = factsOf('export function a() {}\nexport const b = () => {};\nfunction c() {}\nexport { c as d };\nexport default c;\n');
      assert.deepEqual([...esm.exports], [['a', 'a'], ['b', 'b'], ['d', 'c'], ['default', 'c']]);
    });

    it('handlers registered from other modules: routes, a route table, wrapped handlers, message listeners, an interval', () => {
      const facts = factsOf(`const ctrl = require('./controllers/tasks');
const { onData } = require('./feed');
import * as jobs from './jobs';
router.get('/tasks', auth, ctrl.list);
app.post('/tasks', asyncHandler(ctrl.create));
const routes = [{ method: 'GET', path: '/tasks/:id', handler: ctrl.show }];
socket.on('data', onData);
setInterval(jobs.tick, 5000);
http.get('/not-a-route', ctrl.notHandler);
lodash.get(obj, ctrl.alsoNot);`);
      assert.deepEqual(facts.handlerUses.map((u) => `${u.specifier}#${u.exported}:${u.kind}:${u.intervalMs}`), [
        './controllers/tasks#list:request:null',
        './controllers/tasks#create:request:null',
        './controllers/tasks#show:request:null',
        './feed#onData:message:null',
        './jobs#tick:timer:5000',
      ]);
    });

    it('workers started by path: fork, new Worker, cluster.setupPrimary, in the spellings services use', () => {
      const facts = factsOf(`const { fork } = require('child_process');
const cp = require('node:child_process');
const path = require('path');
const { Worker } = require('worker_threads');
const cluster = require('cluster');
fork('./a.js');
cp.fork(path.join(__dirname, 'workers', 'b.js'));
new Worker(\`\${__dirname}/c.js\`);
new Worker(new URL('./d.mjs', import.meta.url));
cluster.setupPrimary({ exec: require.resolve('./e') });
cluster.fork();
fork(process.argv[1]);`);
      assert.deepEqual(facts.workerEntries, ['./a.js', './workers/b.js', './c.js', './d.mjs', './e']);
    });
  });

  describe('rules see it through the hot context', () => {
    it("a route table in one file makes another file's exported function run per request (a miss before)", () => {
      const dir = projectOf({
        'routes.js': "const ps = require('./handlers/ps');\nmodule.exports = [{ method: 'GET', path: '/processes', handler: ps.list }];\n",
        'handlers/ps.js': "const { execSync } = require('child_process');\nfunction list(query) {\n  return execSync('ps aux', { env: {} }).toString();\n}\nmodule.exports = { list };\n",
      });
      // The handler module is read before the route table: the second pass sees the registration.
      assert.deepEqual(findingsOf(dir, ['handlers/ps.js', 'routes.js'])['handlers/ps.js'], ['blocking-sync-call:3:warning']);
      // Without the route table nothing says `list` serves requests.
      const alone = analyzeSource({ filePath: path.join(dir, 'handlers/ps.js'), text: fs.readFileSync(path.join(dir, 'handlers/ps.js'), 'utf8'), project: new ProjectIndex() });
      assert.deepEqual(alone.findings, []);
    });

    it('a scheduler tick registered in another module runs its export periodically', () => {
      const dir = projectOf({
        'server.js': "const express = require('express');\nconst stats = require('./stats');\nconst app = express();\nsetInterval(stats.collect, 5000);\napp.listen(3000);\n",
        'stats.js': "const { execSync } = require('child_process');\nexports.collect = function collect() {\n  return execSync('ps -eo pcpu', { env: { PATH: '/usr/bin' } });\n};\nexports.served = true;\nrequire('express')().listen(3001);\n",
      });
      assert.deepEqual(findingsOf(dir, ['stats.js', 'server.js'])['stats.js'], ['blocking-sync-call:3:warning']);
    });

    it('a helper of another module called from a route handler runs per request, through a chain of modules read in any order', () => {
      const dir = projectOf({
        'passwords.js': "const bcrypt = require('bcryptjs');\nexports.check = function check(password, hash) {\n  return bcrypt.compareSync(password, hash);\n};\nexports.seed = (p) => bcrypt.hashSync(p, 10);\n",
        'users.js': "const passwords = require('./passwords');\nasync function login(name, password) {\n  const user = await db.find(name);\n  return passwords.check(password, user.hash);\n}\nmodule.exports = { login };\n",
        'app.js': "const express = require('express');\nconst { login } = require('./users');\nconst passwords = require('./passwords');\nconst app = express();\npasswords.seed(process.env.ADMIN_PASSWORD);\napp.post('/login', async (req, res) => { res.json(await login(req.body.name, req.body.password)); });\napp.listen(3000);\n",
      });
      // The callee is read first, the route last: one pass per module boundary.
      const outcomes = analyzeFileList(['passwords.js', 'users.js', 'app.js'].map((f) => path.join(dir, f)), dir, {});
      const passwords = outcomes[0].findings.map(({ finding }) => `${finding.ruleId}:${finding.range.loc.start.line}:${finding.severity}`);
      // check runs per login; seed runs once at start-up (called at module level): not shown.
      assert.deepEqual(passwords, ['blocking-sync-call:3:warning']);
      assert.match(outcomes[0].findings[0].finding.message, /while handling a request/);
      // Without the callers nothing says the helper serves requests.
      const alone = analyzeFileList([path.join(dir, 'passwords.js')], dir, {});
      assert.deepEqual(alone[0].findings, []);
    });

    it('a helper called from a message handler runs per message; one called from a one-shot timer or an inferred (req, res) function is not told so', () => {
      const dir = projectOf({
        'codec.js': "const zlib = require('zlib');\nexports.unpack = (buf) => zlib.gunzipSync(buf);\nexports.archive = (buf) => require('fs').appendFileSync('/tmp/a', buf);\nexports.report = (x) => require('fs').writeFileSync('/tmp/r', x);\n",
        'feed.js': "const codec = require('./codec');\nconst net = require('net');\nnet.createServer((socket) => {\n  socket.on('data', (chunk) => { codec.archive(chunk); });\n}).listen(9000);\nsetTimeout(() => codec.report('up'), 1000);\nexports.handle = function (req, res) { codec.report(req.url); };\n",
      });
      const outcomes = analyzeFileList([path.join(dir, 'codec.js'), path.join(dir, 'feed.js')], dir, {});
      const shown = outcomes[0].findings.filter(({ finding }) => finding.severity !== 'hint')
        .map(({ finding }) => `${finding.ruleId}:${finding.range.loc.start.line}`);
      assert.deepEqual(shown, ['blocking-sync-call:3']);
      assert.match(outcomes[0].findings.find(({ finding }) => finding.range.loc.start.line === 3)!.finding.message, /while handling a message/);
    });

    it('reach through the forms compilers emit and through a local bound to one of several required modules (etherpad converters, TypeScript dist/)', () => {
      const dir = projectOf({
        'abiword.js': "const { spawn } = require('child_process');\nif (process.platform === 'win32') {\n  exports.convertFile = async (src, dest) => { spawn('abiword', [src, dest]); };\n}\n",
        'office.js': "const { spawn } = require('child_process');\nexports.convertFile = async (src, dest) => { spawn('soffice', ['--headless', src, dest]); };\n",
        'hash.js': "const bcrypt = require('bcryptjs');\nexports.hashPassword = (p) => bcrypt.hashSync(p, 10);\n",
        'export.js': "const settings = require('./settings');\nexports.doExport = async (req, res) => {\n  const converter = settings.soffice != null ? require('./office') : settings.abiword != null ? require('./abiword') : null;\n  await converter.convertFile('a', 'b');\n};\n",
        'routes.js': "const express_1 = require('express');\nconst export_1 = require('./export');\nconst hash_1 = require('./hash');\nconst app = (0, express_1.default)();\napp.get('/export', (req, res) => export_1.doExport(req, res));\napp.post('/users', (req, res) => { res.json({ hash: (0, hash_1.hashPassword)(req.body.password) }); });\napp.listen(3000);\n",
      });
      const files = ['abiword.js', 'office.js', 'hash.js', 'export.js', 'routes.js'];
      const outcomes = analyzeFileList(files.map((f) => path.join(dir, f)), dir, {});
      const shown = outcomes.slice(0, 3).map((outcome) => outcome.findings.map(({ finding }) => `${finding.ruleId}:${finding.range.loc.start.line}:${finding.severity}`));
      assert.deepEqual(shown, [
        ['spawn-without-env:3:information'],
        ['spawn-without-env:2:information'],
        ['blocking-sync-call:2:warning'],
      ]);
      assert.match(outcomes[2].findings[0].finding.message, /while handling a request/);
    });

    it('a method called on a dependency the handler\'s instance holds runs per request: the one class the field is named after (constructor injection)', () => {
      const dir = projectOf({
        'services/user-service.js': "const bcrypt = require('bcryptjs');\nclass UserService {\n  constructor(store) { this.store = store; }\n  async changePassword(id, password) {\n    const used = await this.store.previous(id);\n    if (used.some((hash) => bcrypt.compareSync(password, hash))) throw new Error('used before');\n    await this.store.save(id, bcrypt.hashSync(password, 10));\n  }\n  seed(p) { return bcrypt.hashSync(p, 10); }\n}\nmodule.exports = UserService;\n",
        'services/audit-service.js': "const fs = require('fs');\nclass AuditService {\n  record(line) { fs.appendFileSync('/var/log/audit', line); }\n}\nclass OtherAudit {\n  record(line) { fs.appendFileSync('/var/log/other', line); }\n}\nmodule.exports = { AuditService, OtherAudit };\n",
        'controller.js': "class Controller {\n  constructor(app) { this.app = app; }\n  route({ method, path, handler }) { this.app[method](path, handler.bind(this)); }\n}\nclass UserController extends Controller {\n  constructor(app, { userService, auditService, cache }) {\n    super(app);\n    this.userService = userService;\n    this._auditService = auditService;\n    this.cache = cache;\n    this.route({ method: 'post', path: '/password', handler: this.changeMyPassword });\n  }\n  async changeMyPassword(req, res) {\n    await this.userService.changePassword(req.user.id, req.body.password);\n    this._auditService.record(req.user.id);\n    this.cache.seed(req.user.id);\n    res.end();\n  }\n}\nmodule.exports = UserController;\n",
      });
      fs.writeFileSync(path.join(dir, 'services/mail-service.js'), "const { execSync } = require('child_process');\nexports.MailService = class {\n  send(to) { execSync('sendmail ' + to); }\n};\n");
      fs.writeFileSync(path.join(dir, 'mail-controller.js'), "class MailController {\n  constructor(router, { mailService }) {\n    this.mailService = mailService;\n    router.post('/invite', (req, res) => { this.mailService.send(req.body.to); res.end(); });\n  }\n}\nmodule.exports = MailController;\n");
      const files = ['services/user-service.js', 'services/audit-service.js', 'controller.js', 'services/mail-service.js', 'mail-controller.js'];
      const outcomes = analyzeFileList(files.map((f) => path.join(dir, f)), dir, {});
      // An anonymous class assigned to an export slot is known by the slot's name (MailService). The
      // exec is shown; the environment it copies is a hint on a POST route (its rate is not in the code).
      assert.deepEqual(outcomes[3].findings.map(({ finding }) => `${finding.ruleId}:${finding.range.loc.start.line}:${finding.severity}`),
        ['blocking-sync-call:3:warning', 'spawn-without-env:3:hint']);
      const shown = outcomes.slice(0, 2).map((outcome) => outcome.findings.filter(({ finding }) => finding.severity !== 'hint')
        .map(({ finding }) => `${finding.ruleId}:${finding.range.loc.start.line}`));
      // changePassword runs per request (both sync calls); seed is never called through a field named
      // after its class (`this.cache` holds no class named Cache); two classes have `record`, and the
      // field `_auditService` names one of them (AuditService): that one only.
      assert.deepEqual(shown, [['blocking-sync-call:6', 'blocking-sync-call:7'], ['blocking-sync-call:3']]);
      assert.match(outcomes[0].findings[0].finding.message, /while handling a request/);
      // Without the controller nothing says the service serves requests.
      assert.deepEqual(analyzeFileList([path.join(dir, files[0])], dir, {})[0].findings.filter(({ finding }) => finding.severity !== 'hint'), []);
    });

    it('a method on a dependency resolves to nothing when two classes of the project are named after the field', () => {
      const dir = projectOf({
        'a/user-service.js': "const bcrypt = require('bcryptjs');\nclass UserService {\n  check(p, h) { return bcrypt.compareSync(p, h); }\n}\nmodule.exports = UserService;\n",
        'b/user-service.js': "const bcrypt = require('bcryptjs');\nclass UserService {\n  check(p, h) { return bcrypt.compareSync(p, h); }\n}\nmodule.exports = UserService;\n",
        'routes.js': "const express = require('express');\nclass Routes {\n  constructor(userService) {\n    this.userService = userService;\n    const app = express();\n    app.post('/login', (req, res) => res.json(this.userService.check(req.body.p, req.body.h)));\n    app.listen(3000);\n  }\n}\nmodule.exports = Routes;\n",
      });
      const files = ['a/user-service.js', 'b/user-service.js', 'routes.js'];
      const outcomes = analyzeFileList(files.map((f) => path.join(dir, f)), dir, {});
      assert.deepEqual(outcomes.slice(0, 2).map((o) => o.findings.filter(({ finding }) => finding.severity !== 'hint').length), [0, 0]);
    });

    it('a factory called to fill a cache the caller tested first runs once: it is not told its caller\'s context', () => {
      const dir = projectOf({
        'create-redis.js': "const Redis = require('ioredis');\nexports.createRedis = () => new Redis(process.env.REDIS_URL);\nexports.countView = async (k) => {\n  const r = new Redis(process.env.REDIS_URL);\n  try { return await r.incr(k); } finally { r.quit(); }\n};\n",
        'use-redis.js': "const { createRedis } = require('./create-redis');\nconst cache = { redis: undefined };\nfunction useRedis() {\n  if (cache.redis) return cache.redis;\n  cache.redis = createRedis();\n  return cache.redis;\n}\nrequire('express')().get('/x', async (req, res) => res.json(await useRedis().get(req.query.k))).listen(3000);\n",
        'per-call.js': "const { countView } = require('./create-redis');\nrequire('express')().get('/y', async (req, res) => res.json(await countView('k'))).listen(3001);\n",
      });
      const order = ['create-redis.js', 'use-redis.js'].map((f) => path.join(dir, f));
      assert.deepEqual(analyzeFileList(order, dir, {})[0].findings, []);
      // Called per request from another module, a helper that opens and closes its own client opens a
      // connection per request. (A factory returning its client to another module is not followed
      // there: whether the caller keeps it is not proven, so it stays quiet.)
      const perCall = analyzeFileList([...order, path.join(dir, 'per-call.js')], dir, {});
      assert.deepEqual(perCall[0].findings.map(({ finding }) => `${finding.ruleId}:${finding.range.loc.start.line}`), ['connection-per-request:4']);
    });

    it('a module another starts with fork() is not the server\'s event loop: its blocking calls stall only that worker', () => {
      const worker = "const fs = require('fs');\nprocess.on('message', (job) => {\n  fs.writeFileSync('/tmp/out-' + job.id, job.data);\n});\n";
      const dir = projectOf({
        'main.js': "const path = require('path');\nconst { fork } = require('child_process');\nconst child = fork(path.join(__dirname, 'worker.js'));\nrequire('http').createServer((req, res) => { child.send(req.url); res.end(); }).listen(8080);\n",
        'worker.js': worker,
      });
      assert.deepEqual(findingsOf(dir, ['worker.js', 'main.js'])['worker.js'], []);
      // Not started by anyone in the project: its message handler is still IPC from a parent, whose
      // rate the code does not show (a child's start-up and stop commands, or a worker's jobs): a hint.
      const alone = projectOf({ 'worker.js': worker });
      assert.deepEqual(findingsOf(alone, ['worker.js'])['worker.js'], ['blocking-sync-call:3:hint']);
    });

    it('a worker that serves requests itself stays a server', () => {
      const dir = projectOf({
        'main.js': "const { fork } = require('child_process');\nfork('./web.js');\n",
        'web.js': "const fs = require('fs');\nconst app = require('express')();\napp.get('/x', (req, res) => { fs.writeFileSync('/tmp/x', req.url); res.end(); });\napp.listen(3000);\n",
      });
      // A GET route: a small write on a POST route would be a hint whatever the process (blocking-sync-call.test.ts).
      assert.deepEqual(findingsOf(dir, ['web.js', 'main.js'])['web.js'], ['blocking-sync-call:3:warning']);
    });

    it('in the editor: an edit to the route table changes what the handler module is told, and its reused statements are asked again', () => {
      const dir = projectOf({
        'routes.js': "const ps = require('./ps');\nmodule.exports = [{ path: '/p', handler: ps.list }];\n",
        'ps.js': "const { execSync } = require('child_process');\nfunction list() {\n  return execSync('ps aux', { env: {} });\n}\nmodule.exports = { list };\n",
      });
      const project = new ProjectIndex();
      const psPath = path.join(dir, 'ps.js');
      const routesPath = path.join(dir, 'routes.js');
      const psText = fs.readFileSync(psPath, 'utf8');
      const document = new StaticDocument();
      const analyzePs = () => analyzeSource({ filePath: psPath, text: psText, project, document }).findings.map((f) => f.ruleId);
      assert.deepEqual(analyzePs(), []);
      analyzeSource({ filePath: routesPath, text: fs.readFileSync(routesPath, 'utf8'), project });
      assert.deepEqual(analyzePs(), ['blocking-sync-call']);
      analyzeSource({ filePath: routesPath, text: "const ps = require('./ps');\nmodule.exports = [];\n", project });
      assert.deepEqual(analyzePs(), []);
    });
  });
});
