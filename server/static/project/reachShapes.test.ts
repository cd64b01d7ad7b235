// Issue 22's missed reach, one class per test, on small real-shaped code: code that runs per
// request or message although no route or listener of the usual shapes names it.
import assert from 'node:assert/strict';
import { projectOf, removeProjects, shownIn } from '../../../test/unit/projectOnDisk';

describe('reach the usual registrations do not show (issue 22)', () => {
  after(removeProjects);

  it("a plugin's hook_<event> exports and hooks registered by name run per message; one-time hooks do not", () => {
    const dir = projectOf({
      'plugins/queue.js': `const childproc = require('node:child_process');
exports.register = function () {
  this.register_hook('queue_outbound', 'deliver');
  this.register_hook('init_master', 'clean');
};
exports.hook_queue = function (next, connection) {
  const q = childproc.spawn('/var/qmail/bin/qmail-queue', [], { stdio: ['pipe', 'pipe', process.stderr] });
  q.on('exit', () => next());
};
exports.deliver = function (next, connection) {
  childproc.execFile('/usr/sbin/sendmail', ['-t'], () => next());
};
exports.clean = function (next) {
  childproc.execFile('rm', ['-rf', '/tmp/q'], () => next());
};
exports.hook_init_child = function (next) {
  childproc.execFile('id', ['-u'], () => next());
};
exports.helper = function () {
  childproc.execFile('hostname', [], () => {});
};
`,
    });
    const { shown, messages } = shownIn(dir, ['plugins/queue.js']);
    assert.deepEqual(shown['plugins/queue.js'], ['spawn-without-env:7', 'spawn-without-env:11']);
    assert.match(messages[0], /while handling a message \(via exports\.hook_queue\)/);
  });

  it("a server's on<Event> callbacks in its options object run per message, through Object.assign and a promisified module", () => {
    const dir = projectOf({
      'lib/checks.js': `const child_process = require('child_process');
module.exports = {
  validateSpf: function (ip, callback) {
    child_process.exec('python verifyspf.py ' + ip, (err) => callback(null, !err));
  },
  version: function (callback) {
    child_process.exec('python --version', callback);
  },
};
`,
      'lib/server.js': `const Promise = require('bluebird');
const { SMTPServer } = require('smtp-server');
const checks = Promise.promisifyAll(require('./checks'));
function Mailin() {}
Mailin.prototype.start = function (configuration) {
  function onData(stream, session, callback) {
    stream.on('end', () => { checks.validateSpfAsync(session.remoteAddress).then(() => callback()); });
  }
  function onListening() {
    checks.versionAsync();
  }
  const options = Object.assign({}, configuration.smtpOptions, { onData: onData, onListening: onListening });
  const server = new SMTPServer(options);
  server.listen(configuration.port);
};
module.exports = new Mailin();
`,
    });
    const { shown, messages } = shownIn(dir, ['lib/checks.js', 'lib/server.js']);
    // onListening is no per-event callback, so what it calls stays unknown (not shown).
    assert.deepEqual(shown['lib/checks.js'], ['spawn-without-env:4']);
    assert.match(messages[0], /while handling a message \(via validateSpf\)/);
  });

  it("a server made by a local bound to http's createServer (TypeScript output) serves its handler's helpers in other modules", () => {
    const dir = projectOf({
      'dist/util.js': `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.infoResponse = void 0;
const child_process_1 = require("child_process");
function serviceRespond(service, repoLocation, res) {
    const cmd = ['git-' + service, '--stateless-rpc', '--advertise-refs', repoLocation];
    const ps = child_process_1.spawn(cmd[0], cmd.slice(1));
    ps.stdout.pipe(res);
}
function infoResponse(git, repo, service, req, res) {
    function next() {
        serviceRespond(service, git.dirMap(repo), res);
    }
    git.exists(repo, next);
}
exports.infoResponse = infoResponse;
`,
      'dist/git.js': `"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) { return (mod && mod.__esModule) ? mod : { "default": mod }; };
Object.defineProperty(exports, "__esModule", { value: true });
const http_1 = __importDefault(require("http"));
const https_1 = __importDefault(require("https"));
const util_1 = require("./util");
class Git {
    handle(req, res) {
        const handlers = [
            (req, res) => {
                const m = req.url.split('/info/refs');
                if (!m) return false;
                return (0, util_1.infoResponse)(this, m[1], 'upload-pack', req, res);
            },
        ];
        handlers[0].call(this, req, res);
    }
    listen(port, options) {
        const createServer = options.type == 'http'
            ? http_1.default.createServer
            : https_1.default.createServer.bind(this, options);
        this.server = createServer((req, res) => {
            this.handle(req, res);
        });
        this.server.listen(port);
    }
}
exports.Git = Git;
`,
    });
    const { shown, messages } = shownIn(dir, ['dist/util.js', 'dist/git.js']);
    assert.deepEqual(shown['dist/util.js'], ['spawn-without-env:7']);
    assert.match(messages[0], /while handling a request \(via infoResponse -> next -> serviceRespond\)/);
  });

  it("methods of the object a module's factory returns run in the context of the handler that calls them", () => {
    const dir = projectOf({
      'lib/metrics.js': `const { execFileSync } = require('child_process');
function create() {
  function fsUsage() {
    return execFileSync('df', ['-kP']).toString();
  }
  function collect() {
    return { fs: fsUsage() };
  }
  function reset() {
    execFileSync('true');
  }
  return { collect: collect, reset: reset };
}
const singleton = create();
singleton.create = create;
module.exports = singleton;
`,
      'lib/security.js': `const bcrypt = require('bcryptjs');
module.exports = function tokenSecurity(app, config) {
  const strategy = {};
  strategy.login = function (name, password) {
    const user = config.users.find((u) => u.name === name);
    return user !== undefined && bcrypt.compareSync(password, user.hash);
  };
  strategy.seed = function (password) {
    return bcrypt.hashSync(password, 10);
  };
  return strategy;
};
`,
      'lib/pages.js': `const fs = require('fs');
module.exports = (app) => ({
  render(name) {
    return require('child_process').execSync('pandoc /srv/pages/' + name, { env: {} }).toString();
  },
});
`,
      'server.js': `const express = require('express');
const metrics = require('./lib/metrics');
const app = express();
const security = require('./lib/security')(app, { users: [] });
const pages = require('./lib/pages')(app);
app.post('/login', (req, res) => res.json({ ok: security.login(req.body.name, req.body.password) }));
app.get('/metrics', (req, res) => res.json(metrics.collect()));
app.get('/pages/:name', (req, res) => res.send(pages.render(req.params.name)));
app.listen(3000);
`,
    });
    const { shown, messages } = shownIn(dir, ['lib/metrics.js', 'lib/security.js', 'lib/pages.js', 'server.js']);
    // reset and seed are never called from a handler: not shown.
    assert.deepEqual(shown, {
      'lib/metrics.js': ['blocking-sync-call:4', 'spawn-without-env:4'],
      'lib/security.js': ['blocking-sync-call:6'],
      'lib/pages.js': ['blocking-sync-call:4'],
      'server.js': [],
    });
    assert.match(messages[0], /while handling a request \(via collect -> fsUsage\)/);
  });

  it('a handler a factory returns runs per request or tick where the call is registered; the factory itself runs once', () => {
    const dir = projectOf({
      'lib/handlers.js': `const { execSync } = require('child_process');
exports.listing = (dir) => (req, res) => {
  res.send(execSync('ls ' + dir, { env: {} }));
};
exports.banner = function () {
  const host = execSync('hostname', { env: {} }).toString();
  return { host };
};
`,
      'server.js': `const express = require('express');
const { execSync } = require('child_process');
const handlers = require('./lib/handlers');
const app = express();
function makeStatus(name) {
  const version = execSync('git describe', { env: {} }).toString();
  return function status(req, res) {
    res.json({ name, version, load: execSync('uptime', { env: {} }).toString() });
  };
}
const tick = (label) => () => { execSync('sync', { env: {} }); };
const flush = tick('flush');
const status = makeStatus('api');
app.get('/status', status);
app.get('/other', makeStatus('other'));
app.get('/files', handlers.listing('/srv'));
app.get('/banner', (req, res) => res.json(handlers.banner()));
setInterval(() => flush(), 5000);
app.listen(3000);
`,
    });
    const { shown, messages } = shownIn(dir, ['lib/handlers.js', 'server.js']);
    // What a factory runs before returning (git describe) runs once per registration, not per request.
    assert.deepEqual(shown, {
      'lib/handlers.js': ['blocking-sync-call:3', 'blocking-sync-call:6'],
      'server.js': ['blocking-sync-call:8', 'blocking-sync-call:11'],
    });
    // Seen registered, not guessed from its (req, res) parameters.
    assert.match(messages[0], /while handling a request: /);
    assert.match(messages[3], /in a timer/);
  });

  it('a factory that returns no function registers nothing (its call is only an argument)', () => {
    const dir = projectOf({
      'server.js': `const express = require('express');
const { execSync } = require('child_process');
const app = express();
function options(name) {
  return { name, stamp: execSync('date', { env: {} }).toString() };
}
function limiter(opts) {
  return function limit(req, res, next) { next(); };
}
app.get('/x', limiter(options('x')), (req, res) => res.send('ok'));
app.listen(3000);
`,
    });
    assert.deepEqual(shownIn(dir, ['server.js']).shown, { 'server.js': [] });
  });

  it("a subscription named for its messages (bus.onMQTTMessage(this, this.handle)) runs its handler per message; a source of unknown rate keeps small writes hints", () => {
    const dir = projectOf({
      'lib/bridge.js': `const fs = require('fs');
const { execSync } = require('child_process');
class Bridge {
  constructor(eventBus) {
    this.eventBus = eventBus;
  }
  start() {
    this.eventBus.onMQTTMessage(this, this.onMQTTMessage);
  }
  onMQTTMessage(data) {
    if (data.topic === 'bridge/request/backup') this.backup(data);
  }
  backup(data) {
    const archive = execSync('tar -czf - /data', { env: {} });
    fs.writeFileSync('/data/last-backup', String(Date.now()));
    return archive;
  }
}
module.exports = Bridge;
`,
      'lib/relay.js': `const { execSync } = require('child_process');
class Relay {
  forward(payload) {
    this.onMessage(payload.msg);
  }
  onMessage(msg) {
    return execSync('logger ' + msg, { env: {} });
  }
}
module.exports = Relay;
`,
    });
    const { shown, messages } = shownIn(dir, ['lib/bridge.js', 'lib/relay.js']);
    // The exec blocks however rarely it runs; the small write matters only at a rate the code does not show.
    assert.deepEqual(shown, { 'lib/bridge.js': ['blocking-sync-call:14'], 'lib/relay.js': [] });
    assert.match(messages[0], /while handling a message \(via onMQTTMessage -> backup\)/);
  });

  it("a client's socket events (socket.io's socket.on('chat message', fn)) run per message; a connection handler per connection; lifecycle events and pools do not", () => {
    const dir = projectOf({
      'lib/server.js': `const http = require('http');
const { execSync } = require('child_process');
const { Server } = require('socket.io');
const registerOrders = require('./orders');
const audit = require('./audit');
const server = http.createServer();
const io = new Server(server);
io.on('connection', (client) => {
  client.on('chat message', (msg) => {
    io.emit('chat message', execSync('whoami', { env: {} }) + msg);
  });
  client.on('disconnect', () => {
    execSync('logger gone', { env: {} });
  });
  registerOrders(io, client);
});
io.of('/admin').on('connection', onAdmin);
function onAdmin(admin) {
  admin.on('install', (name) => execSync('npm install ' + name, { env: {} }));
}
const pool = require('mysql').createPool({});
pool.on('connection', (connection) => {
  connection.on('query', () => execSync('logger query', { env: {} }));
});
io.of('/audit').on('connection', audit);
server.listen(3000);
`,
      'lib/audit.js': `const { execSync } = require('child_process');
module.exports = function (peer) {
  execSync('logger audit ' + peer.id, { env: {} });
};
`,
      'lib/orders.js': `const { execSync } = require('child_process');
module.exports = (io, socket) => {
  const create = (order) => execSync('lpr ' + order.id, { env: {} });
  socket.on('order:create', create);
  socket.on('error', () => execSync('logger socket error', { env: {} }));
};
`,
    });
    const { shown, messages } = shownIn(dir, ['lib/server.js', 'lib/orders.js', 'lib/audit.js']);
    const where = [...shown['lib/server.js'], ...shown['lib/orders.js'], ...shown['lib/audit.js']].map((at, i) => `${at} ${/while handling an? (\w+)/.exec(messages[i])?.[1]}`);
    // The chat message's exec and the order's run per message a client sends. The disconnect and
    // the socket's error are no messages: they run once per connection, as the handler of a named
    // connection function does (its parameter is not named for a socket: its events are not read
    // as messages), and as a connection handler another module registers does. A database pool's
    // pooled connections are no clients: nothing there serves.
    assert.deepEqual(where, [
      'blocking-sync-call:10 message', 'blocking-sync-call:13 connection', 'blocking-sync-call:19 connection',
      'blocking-sync-call:3 message', 'blocking-sync-call:5 connection', 'blocking-sync-call:3 connection',
    ]);
  });

  it("a cron schedule's function runs as a periodic timer and a job queue's processor per job; other calls that take a function do not", () => {
    const dir = projectOf({
      'app.js': `const express = require('express');
const { exec, execSync } = require('child_process');
const cron = require('node-cron');
const schedule = require('node-schedule');
const { CronJob } = require('cron');
const Queue = require('bull');
const { Worker } = require('bullmq');
const tasks = require('./tasks');
const config = require('./config');
const app = express();
app.get('/health', (req, res) => res.send('ok'));
cron.schedule('*/5 * * * * *', () => {
  exec('ps -eo pid,rss', (err, out) => app.set('ps', out));
});
schedule.scheduleJob(config.nightly, sweep);
function sweep() {
  execSync('find /tmp -mtime +1 -delete', { env: {} });
}
CronJob.from({ cronTime: '0 * * * *', onTick: () => execSync('logrotate /etc/lr.conf', { env: {} }) });
const mail = new Queue('mail');
mail.process('welcome', 5, async (job) => {
  execSync('sendmail ' + job.data.to, { env: {} });
});
new Worker('thumbs', makeThumb, { connection: config.redis });
function makeThumb(job) {
  return execSync('convert ' + job.data.file + ' -resize 64x64 thumb.png', { env: {} });
}
define('legacy', ['dep'], function (dep) {
  return execSync('git describe', { env: {} });
});
const scheduler = { schedule(fn) { fn(); } };
scheduler.schedule(() => execSync('uname -a', { env: {} }));
cron.schedule('0 3 * * *', tasks.vacuum);
setInterval(tasks.sample, 5000);
app.get('/when', (req, res) => res.send(new Date('2024-01-01 10:00:00').toISOString()));
app.listen(3000);
`,
      'tasks.js': `const { execSync } = require('child_process');
exports.vacuum = function () {
  execSync('vacuumdb --all', { env: {} });
};
exports.sample = function () {
  return execSync('ps -eo rss', { env: {} });
};
exports.report = function () {
  return execSync('df -k', { env: {} });
};
`,
      'config.js': `module.exports = { nightly: '0 2 * * *', redis: {} };
`,
    });
    const { shown } = shownIn(dir, ['app.js', 'tasks.js']);
    // The schedules' work (a cron literal, a spec read from configuration, an object's onTick, another
    // module's exports handed to a schedule or an interval of this serving module) and the two
    // processors; not the export nothing schedules. An AMD define and a scheduler handed only a function
    // run once, at start-up.
    assert.deepEqual(shown, {
      'app.js': ['spawn-without-env:13', 'blocking-sync-call:17', 'blocking-sync-call:19', 'blocking-sync-call:22', 'blocking-sync-call:26'],
      'tasks.js': ['blocking-sync-call:3', 'blocking-sync-call:6'],
    });
  });

  it("a method called on an entry of a table of instances runs each class's method of that name; a static method of an imported class runs too", () => {
    const dir = projectOf({
      'server.js': `const express = require('express');
const { Registry } = require('./registry');
const { Notification } = require('./notification');
const Monitor = require('./monitor');
const app = express();
app.post('/api/push/:token', async (req, res) => {
  await Monitor.sendNotification(req.params.token, req.body.msg);
  res.end();
});
app.get('/api/check/:type', async (req, res) => {
  const monitorType = Registry.monitorTypeList[req.params.type];
  res.json({ up: await monitorType.check(req.query) });
});
app.listen(3000, () => {
  Notification.init();
  Registry.init();
});
`,
      'registry.js': `const { PingType } = require('./types/ping');
const { TailType } = require('./types/tail');
class Registry {
  static monitorTypeList = {
    ping: new PingType(),
  };
  static init() {
    Registry.monitorTypeList['tailscale'] = new TailType();
  }
}
module.exports = { Registry };
`,
      'monitor.js': `const { Notification } = require('./notification');
class Monitor {
  static async sendNotification(token, message) {
    await Notification.send('shell', token + ': ' + message);
  }
}
module.exports = Monitor;
`,
      'notification.js': `const Shell = require('./providers/shell');
const Webhook = require('./providers/webhook');
class Notification {
  static init() {
    this.providerList = {};
    const list = [new Shell(), new Webhook()];
    for (const item of list) {
      this.providerList[item.name] = item;
    }
  }
  static async send(type, message) {
    return this.providerList[type].send(message);
  }
}
module.exports = { Notification };
`,
      'providers/shell.js': `const childProcess = require('child_process');
class Shell {
  name = 'shell';
  async send(message) {
    return childProcess.spawnSync('notify', ['--text', message], { env: {} });
  }
  describe() {
    return childProcess.execSync('notify --version', { env: {} });
  }
}
module.exports = Shell;
`,
      'providers/webhook.js': `class Webhook {
  name = 'webhook';
  async send(message) {
    return fetch('http://hooks.local/', { method: 'POST', body: message });
  }
}
module.exports = Webhook;
`,
      'types/ping.js': `class PingType {
  async check(query) {
    return true;
  }
}
module.exports = { PingType };
`,
      'types/tail.js': `const { exec } = require('child_process');
class TailType {
  async check(query) {
    return new Promise((resolve) => exec('tailscale ping ' + query.host, (err) => resolve(!err)));
  }
  install() {
    exec('apt-get install tailscale');
  }
}
module.exports = { TailType };
`,
      'exporters.js': `const { TailType } = require('./types/tail');
const exporters = { tail: new TailType() };
module.exports = function exportAll(kind) {
  return exporters[kind].install();
};
`,
    });
    const files = ['server.js', 'registry.js', 'monitor.js', 'notification.js', 'providers/shell.js', 'providers/webhook.js', 'types/ping.js', 'types/tail.js', 'exporters.js'];
    const { shown, messages } = shownIn(dir, files);
    // The push route sends through the static methods (of a class a module exports, and of one imported
    // by name) and the provider table; the check route checks through the type table (a static field
    // filled in two places). Not Shell.describe nor TailType.install: no table call on a serving path
    // names them (exporters' table is called only by an export nobody calls).
    assert.deepEqual(Object.fromEntries(Object.entries(shown).filter(([, list]) => list.length > 0)), {
      'providers/shell.js': ['blocking-sync-call:5'],
      'types/tail.js': ['spawn-without-env:4'],
    });
    assert.match(messages.join('\n'), /while handling a request \(via send\)/);
    assert.match(messages.join('\n'), /while handling a request \(via check\)/);
  });

  it("a branch a child's output takes when a line holds given words (its banner) is occasional; the child's other lines and a socket's data stay traffic", () => {
    const dir = projectOf({
      'db.js': `const childProcess = require('child_process');
const fs = require('fs');
const net = require('net');
const mysql = require('mysql2');
const express = require('express');
class EmbeddedDb {
  start() {
    this.child = childProcess.spawn('mariadbd', ['--socket=/run/db.sock'], { env: { PATH: process.env.PATH } });
    const handler = (data) => {
      fs.appendFileSync('/var/log/db.log', data);
      if (data.toString('utf-8').includes('ready for connections')) {
        this.initDbAfterStarted();
      }
      if (data.toString().includes('\\n')) this.rotate();
    };
    this.child.stdout.on('data', handler);
    this.child.stderr.on('data', handler);
  }
  initDbAfterStarted() {
    const connection = mysql.createConnection({ socketPath: '/run/db.sock' });
    connection.query('CREATE DATABASE IF NOT EXISTS app');
  }
  rotate() {
    const connection = mysql.createConnection({ socketPath: '/run/db.sock' });
    connection.query('FLUSH LOGS');
  }
}
const server = net.createServer((socket) => {
  socket.on('data', (data) => {
    if (data.toString().startsWith('STATUS')) {
      const connection = mysql.createConnection({ socketPath: '/run/db.sock' });
      connection.query('SHOW STATUS', (err, rows) => socket.end(JSON.stringify(rows)));
    }
  });
});
server.listen(7000);
const app = express();
app.listen(3000, () => new EmbeddedDb().start());
module.exports = { EmbeddedDb };
`,
    });
    const { shown } = shownIn(dir, ['db.js']);
    // Shown: the log write per line of the child's output, the connection per chunk holding a newline
    // (a delimiter, not a banner), and the socket's STATUS command (a client's traffic). Not the
    // connection made once the child prints that it is ready.
    assert.deepEqual(shown, { 'db.js': ['blocking-sync-call:10', 'connection-per-request:24', 'connection-per-request:31'] });
  });
});
