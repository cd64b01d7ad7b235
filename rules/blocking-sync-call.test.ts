import rule from './blocking-sync-call';
import { runRuleTests } from '../test/ruleTester';

runRuleTests(rule, {
  valid: [
    {
      name: 'start-up code of a server reads its config synchronously',
      code: `const fs = require('fs');
const express = require('express');
const config = JSON.parse(fs.readFileSync('./config.json', 'utf8'));
const app = express();
app.get('/config', (req, res) => res.json(config));
app.listen(config.port);`,
    },
    {
      name: 'a CLI / batch script that serves nothing may block, even in a timer',
      code: `const { execSync } = require('child_process');
const fs = require('fs');
setInterval(() => {
  fs.writeFileSync('/tmp/mem.txt', execSync('free -m', { env: {} }));
}, 5000);`,
    },
    {
      name: 'signal handlers of a server may flush synchronously',
      code: `const fs = require('node:fs');
require('http').createServer((req, res) => res.end('ok')).listen(80);
process.on('SIGTERM', () => { fs.writeFileSync('/tmp/state', 'bye'); process.exit(0); });`,
    },
    {
      name: 'async forms in a handler, and *Sync of unrelated modules',
      code: `import fs from 'fs/promises';
import { gzip } from 'zlib';
import Ajv from 'ajv';
const ajv = new Ajv();
app.post('/up', async (req, res) => {
  const body = await fs.readFile(req.file);
  gzip(body, () => {});
  ajv.validateSync(body);
  res.end(store.getSync(req.id));
});`,
    },
    {
      name: 'a local variable named fs in the handler is not the module',
      code: `const fs = require('fs');
app.get('/v', (req, res) => { const fs = makeVirtualFs(); res.end(fs.readFileSync('/a')); });`,
    },
    {
      name: 'the ensure-directory idiom: after the first run one stat (labelled on signalk applicationData)',
      code: `const fs = require('fs');
app.post('/data/:app', (req, res) => {
  if (!fs.existsSync(dataDir)) fs.mkdirSync(dataDir);
  if (!fs.existsSync(userDir)) {
    fs.mkdirSync(userDir, { recursive: true });
  }
  res.sendStatus(204);
});`,
    },
    {
      name: 'once-guards: a cache filled on first use, a flag set by the guarded block, ||=',
      code: `const fs = require('fs');
let template;
let ready = false;
app.get('/', (req, res) => {
  if (!template) template = fs.readFileSync('./index.html', 'utf8');
  if (!ready) { ready = true; fs.mkdirSync('/tmp/x', { recursive: true }); }
  cache.page ||= fs.readFileSync('./page.html');
  res.end(template);
});`,
    },
    {
      name: 'a CLI: keypresses on process.stdin, files under bin/ or cli/ (labelled on json-server, calipso)',
      filename: 'lib/cli/run.js',
      code: `const fs = require('fs');
res.on('data', (chunk) => fs.writeSync(fd, chunk));
app.listen(3000);`,
    },
    {
      name: 'a keypress handler on process.stdin is not a message stream',
      code: `const fs = require('fs');
process.stdin.on('data', (chunk) => { if (chunk.trim() === 's') fs.writeFileSync('db.json', '{}'); });
app.listen(3000);`,
    },
    {
      name: 'a one-shot timer (a delayed launch or a retry) is not a stats timer (labelled on pm2 InteractorClient)',
      code: `const fs = require('fs');
setTimeout(() => { fs.writeFileSync(pidFile, String(process.pid)); }, 100);
app.listen(3000);`,
    },
    {
      name: 'issue 22: a setTimeout in a guard that returns waits and tries again (labelled on pm2 God.stopProcessId): the work after it runs once',
      code: `const fs = require('fs');
const http = require('http');
function stopWhenReady(proc) {
  if (proc.state === 'none') return setTimeout(function () { stopWhenReady(proc); }, 250);
  fs.unlinkSync(proc.pidPath);
}
function startWhenFree(proc) {
  if (proc.busy) { setTimeout(() => startWhenFree(proc), 100); return; }
  fs.writeFileSync(proc.pidPath, String(proc.pid));
}
stopWhenReady(current);
startWhenFree(current);
http.createServer((req, res) => res.end('ok')).listen(3000);`,
    },
    {
      name: "a createServer of another module's object, and a TCP client's socket, are no connection handlers",
      code: `const fs = require('fs');
const net = require('net');
const mail = require('smtp-lib');
mail.createServer((session) => { fs.readFileSync('/etc/motd'); });
const client = net.connect(25, 'mx.example.org', () => { fs.readFileSync('/etc/hostname'); });`,
    },
    {
      name: 'a module-level name assigned a require and something else names no module',
      code: `var hasher;
function pick(fast) { hasher = fast ? require('bcrypt') : makeHasher(); }
app.post('/login', (req, res) => res.json({ ok: hasher.compareSync(req.body.password, storedHash) }));`,
    },
  ],
  invalid: [
    {
      name: "issue 22: a TCP or TLS server's connection handler runs per client connection (mail, IMAP, device gateways); its socket's data per message",
      code: `const net = require('net');
const tls = require('node:tls');
const fs = require('fs');
const { execSync } = require('child_process');
net.createServer((socket) => {
  const load = execSync('uptime').toString();
  const banner = fs.readFileSync('/etc/motd', 'utf8');
  socket.on('data', (chunk) => fs.appendFileSync('/var/log/session.log', chunk));
  socket.end(load + banner);
}).listen(2525);
tls.createServer(options, (socket) => { socket.write(execSync('hostname')); }).listen(9993);`,
      errors: [
        { messageId: 'blocksExec', line: 6, column: 16, severity: 'warning', message: /^child_process\.execSync\(\) blocks the event loop while handling a connection/ },
        { messageId: 'blocksIo', line: 7, column: 18, severity: 'hint', message: /^fs\.readFileSync\(\) blocks the event loop while handling a connection/ },
        { messageId: 'blocks', line: 8, column: 32, message: /^fs\.appendFileSync\(\) blocks the event loop while handling a message/ },
        { messageId: 'blocksExec', line: 11, column: 54, message: /^child_process\.execSync\(\) blocks the event loop while handling a connection/ },
      ],
      output: null,
    },
    {
      name: 'issue 22: a setTimeout that reschedules the work itself is a tick, also after a guard that waits (its twin)',
      code: `const fs = require('fs');
const http = require('http');
function flush() {
  if (!ready) return setTimeout(flush, 250);
  fs.writeFileSync('/data/state.json', JSON.stringify(state));
  setTimeout(flush, 5000);
}
flush();
http.createServer((req, res) => res.end('ok')).listen(3000);`,
      errors: [{ messageId: 'blocks', line: 5, column: 3, message: /^fs\.writeFileSync\(\) blocks the event loop in a timer of a module that serves requests/ }],
      output: null,
    },
    {
      name: 'bcrypt compareSync in a sign-in handler (labelled on redis-commander lib/app.js)',
      code: `const bcrypt = require('bcryptjs');
app.post('/signin', (req, res) => {
  const ok = bcrypt.compareSync(String(req.body.password), passwordHash);
  res.json({ ok });
});`,
      errors: [{
        messageId: 'blocksExec', line: 3, column: 14, severity: 'warning',
        message: /^bcryptjs\.compareSync\(\) blocks the event loop while handling a request: the whole bcrypt cost factor runs on the event loop \(tens of milliseconds per call at the usual cost factors\), while nothing else runs\. Use the asynchronous bcryptjs\.compare\.$/,
      }],
      output: null,
    },
    {
      name: 'bcrypt loaded lazily into a module-level name (var bcrypt; load() { bcrypt = require(...) }) still resolves: compareSync on every login',
      code: `var bcrypt;
function loadBCrypt() { if (!bcrypt) { try { bcrypt = require('bcrypt'); } catch (e) {} } }
app.post('/login', (req, res) => {
  loadBCrypt();
  res.json({ ok: bcrypt.compareSync(String(req.body.password), storedHash) });
});`,
      errors: [{
        messageId: 'blocksExec', line: 5, column: 18, severity: 'warning',
        message: /^bcrypt\.compareSync\(\) blocks the event loop while handling a request: the whole bcrypt cost factor runs on the event loop/,
      }],
      output: null,
    },
    {
      name: 'genSaltSync draws random bytes and randomFillSync fills a buffer: hints whose messages claim no work factor or key derivation',
      code: `const bcrypt = require('bcrypt');
const crypto = require('crypto');
app.post('/signup', (req, res) => {
  const salt = bcrypt.genSaltSync(10);
  const nonce = crypto.randomFillSync(Buffer.alloc(16));
  res.json({ salt, nonce: nonce.toString('hex') });
});`,
      errors: [
        { messageId: 'blocksIo', line: 4, column: 16, severity: 'hint', message: /^bcrypt\.genSaltSync\(\) blocks the event loop while handling a request: nothing else runs until it returns\. Use the asynchronous bcrypt\.genSalt\.$/ },
        { messageId: 'blocksIo', line: 5, column: 17, severity: 'hint', message: /^crypto\.randomFillSync\(\) blocks the event loop while handling a request: the whole computation runs on the event loop\. Use the asynchronous crypto\.randomFill\.$/ },
      ],
      output: null,
    },
    {
      name: "seed 003: execSync('free -m') / df -k in a stats timer of an express app",
      code: `const express = require('express');
const { execSync } = require('child_process');
const app = express();
const stats = {};
function collectStats() {
  stats.mem = execSync('free -m', { env: { PATH: process.env.PATH } }).toString();
  stats.disk = execSync("df -k '/data'", { env: { PATH: process.env.PATH } }).toString();
}
setInterval(collectStats, 10 * 1000);
app.get('/stats', (req, res) => res.json(stats));
app.listen(3000);`,
      errors: [
        { messageId: 'blocksExec', line: 6, column: 15, message: /^child_process\.execSync\(\) blocks the event loop in a timer of a module that serves requests \(via collectStats\): nothing else runs until the child process exits\. Use the asynchronous child_process\.exec\.$/ },
        { messageId: 'blocksExec', line: 7, column: 16 },
      ],
      output: null,
    },
    {
      name: 'fs / zlib / crypto sync calls in an express route (ESM, via a helper)',
      code: `import fs from 'node:fs';
import * as zlib from 'zlib';
import { pbkdf2Sync } from 'crypto';
import express from 'express';
const router = express.Router();
function hash(pw) { return pbkdf2Sync(pw, 'salt', 100000, 64, 'sha512'); }
router.post('/login', (req, res) => {
  const key = hash(req.body.password);
  const page = fs.readFileSync('./page.html');
  res.end(zlib.gzipSync(page));
});`,
      errors: [
        { messageId: 'blocks', line: 6, column: 28, severity: 'warning', message: /^crypto\.pbkdf2Sync\(\) blocks the event loop while handling a request \(via hash\): the whole key derivation or generation runs on the event loop\. Use the asynchronous crypto\.pbkdf2\./ },
        { messageId: 'blocksIo', line: 9, column: 16, severity: 'hint', message: /^fs\.readFileSync\(\) blocks the event loop while handling a request: nothing else runs until the file system call returns\. Use the asynchronous fs\.readFile\.$/ },
        { messageId: 'blocksIo', line: 10, column: 11, message: /^zlib\.gzipSync\(\)/ },
      ],
      output: null,
    },
    {
      name: 'a redis message handler (TypeScript) with a renamed destructured import',
      filename: 'worker.ts',
      code: `import Redis from 'ioredis';
const { writeFileSync: save } = require('fs');
const sub = new Redis();
sub.on('message', (channel: string, message: string): void => {
  save('/tmp/last', message);
});`,
      errors: [{ messageId: 'blocks', line: 5, column: 3, severity: 'warning', message: /^fs\.writeFileSync\(\) blocks the event loop while handling a message: / }],
      output: null,
    },
    {
      name: 'fastify route handler and http.createServer handler',
      code: `const crypto = require('crypto');
const zlib = require('zlib');
const http = require('http');
fastify.route({ method: 'POST', url: '/hash', handler: async (req) => crypto.scryptSync(req.body.pw, 'salt', 64) });
http.createServer((req, res) => res.end(zlib.inflateSync(cache))).listen(8080);`,
      errors: [
        { messageId: 'blocks', line: 4, column: 71, message: /^crypto\.scryptSync\(\) blocks the event loop while handling a request \(via handler\)/ },
        { messageId: 'blocksIo', line: 5, column: 41, message: /^zlib\.inflateSync\(\)/ },
      ],
      output: null,
    },
    {
      name: 'a controller module: (req, res) handlers exported to a router in another file',
      code: `const fs = require('fs');
exports.download = (req, res) => {
  res.end(fs.readFileSync(req.query.path));
};`,
      errors: [{ messageId: 'blocksIo', line: 3, column: 11, message: /^fs\.readFileSync\(\) blocks the event loop while handling a request \(via exports\.download; if it is registered as a route: its \(req, res\) parameters say so, no registration was found\)/ }],
      output: null,
    },
    {
      name: 'issue 22: a copy in an upload handler and an append per line of a child\'s output are shown (they write every time); an existsSync beside them is a hint',
      code: `const fs = require('fs');
const { spawn } = require('child_process');
const express = require('express');
const app = express();
app.post('/upload', (req, res) => {
  if (fs.existsSync(req.file.path)) fs.copyFileSync(req.file.path, '/data/' + req.file.name);
  res.end();
});
const child = spawn('tail', ['-f', '/var/log/x'], { env: {} });
child.stdout.on('data', (line) => { fs.appendFileSync('/tmp/out.log', line); });
app.listen(3000);`,
      errors: [
        { messageId: 'blocksIo', line: 6, column: 7, severity: 'hint' },
        { messageId: 'blocks', line: 6, column: 37, severity: 'warning', message: /^fs\.copyFileSync\(\) blocks the event loop while handling a request: nothing else runs until the file system call returns\. Use the asynchronous fs\.copyFile\.$/ },
        { messageId: 'blocks', line: 10, column: 37, severity: 'warning', message: /^fs\.appendFileSync\(\) blocks the event loop while handling a message/ },
      ],
      output: null,
    },
    {
      name: 'issue 22: on a subscription whose source the code does not show (bus.onMessage), a copy and a small write are hints and an exec is shown; on a broker channel the copy is shown',
      code: `const fs = require('fs');
const { execSync } = require('child_process');
const Redis = require('ioredis');
function onSave(message) {
  fs.copyFileSync(message.path, '/data/' + message.name);
  fs.writeFileSync('/data/last', message.name);
  execSync('sync', { env: {} });
}
function start(bus) {
  bus.onMessage(onSave);
}
const sub = new Redis();
sub.subscribe('files', (err) => {});
sub.on('message', (channel, text) => fs.copyFileSync(text, '/data/copy'));
module.exports = { start };`,
      errors: [
        { messageId: 'blocks', line: 5, column: 3, severity: 'hint', message: /^fs\.copyFileSync\(\) blocks the event loop while handling a message \(via onSave\)/ },
        { messageId: 'blocks', line: 6, column: 3, severity: 'hint' },
        { messageId: 'blocksExec', line: 7, column: 3, severity: 'warning' },
        { messageId: 'blocks', line: 14, column: 38, severity: 'warning' },
      ],
      output: null,
    },
    {
      name: 'issue 22: a small write reached only from routes that save or remove something is a hint (their rate is not in the code); an exec there stays shown',
      code: `const fs = require('fs');
const { execSync } = require('child_process');
const express = require('express');
const app = express();
const router = express.Router();
function saveSettings(settings) {
  fs.writeFileSync('/etc/app/settings.json', JSON.stringify(settings));
}
app.post('/settings', (req, res) => { saveSettings(req.body); res.end(); });
app.put('/settings', (req, res) => { saveSettings(req.body); res.end(); });
router.delete('/presets/:name', (req, res) => {
  fs.unlinkSync('/etc/app/presets/' + req.params.name);
  execSync('sync', { env: {} });
  res.end();
});
app.listen(3000);`,
      errors: [
        { messageId: 'blocks', line: 7, column: 3, severity: 'hint', message: /^fs\.writeFileSync\(\) blocks the event loop while handling a request \(via saveSettings\): / },
        { messageId: 'blocks', line: 12, column: 3, severity: 'hint', message: /^fs\.unlinkSync\(\) blocks the event loop while handling a request: / },
        { messageId: 'blocksExec', line: 13, column: 3, severity: 'warning' },
      ],
      output: null,
    },
    {
      name: 'issue 22: the same write helper reached from a route every request runs (GET, middleware) is shown, whatever else calls it',
      code: `const fs = require('fs');
const app = require('express')();
function touch(name) { fs.writeFileSync('/var/cache/' + name, String(Date.now())); }
app.post('/items', (req, res) => { touch('items'); res.end(); });
app.get('/items', (req, res) => { touch('items'); res.json([]); });
app.use((req, res, next) => { fs.appendFileSync('/var/log/access.log', req.url + '\\n'); next(); });
app.listen(3000);`,
      errors: [
        { messageId: 'blocks', line: 3, column: 24, severity: 'warning', message: /^fs\.writeFileSync\(\) blocks the event loop while handling a request \(via touch\): / },
        { messageId: 'blocks', line: 6, column: 31, severity: 'warning', message: /^fs\.appendFileSync\(\) blocks the event loop while handling a request: / },
      ],
      output: null,
    },
    {
      name: 'issue 22: a small write in a handler recognised only by its (req, res) shape is a hint; a decorated @Post handler too, a @Get one is shown',
      filename: 'controller.ts',
      code: `import * as fs from 'fs';
export function extractUpload(req: any, res: any): void {
  fs.writeFileSync('/data/config.json', req.body.config);
  res.end();
}
class Settings {
  @Post('/settings')
  save(body: any): void { fs.writeFileSync('/data/settings.json', JSON.stringify(body)); }
  @Get('/touch')
  touch(): void { fs.writeFileSync('/data/last-read', ''); }
}`,
      errors: [
        { messageId: 'blocks', line: 3, column: 3, severity: 'hint' },
        { messageId: 'blocks', line: 8, column: 27, severity: 'hint' },
        { messageId: 'blocks', line: 10, column: 19, severity: 'warning' },
      ],
      output: null,
    },
    {
      name: "issue 22: a small write reached only from administrative routes (a path naming settings or set-up, an admin guard) or a child's IPC is a hint; per message of a socket it is shown",
      code: `const fs = require('fs');
const net = require('net');
const app = require('express')();
function saveSettings(settings) { fs.writeFileSync('/etc/app/settings.json', JSON.stringify(settings)); }
app.get('/api/settings/reset', (req, res) => { saveSettings({}); res.end(); });
app.get('/maintenance/rotate', requireAdmin, (req, res) => { fs.renameSync('/var/log/app.log', '/var/log/app.1'); res.end(); });
process.on('message', (msg) => { if (msg.cmd === 'persist') fs.writeFileSync('/var/lib/app/accessories.json', msg.data); });
net.createServer((socket) => socket.on('data', (chunk) => fs.appendFileSync('/var/log/frames.log', chunk))).listen(4000);
app.listen(3000);`,
      errors: [
        { messageId: 'blocks', line: 4, column: 35, severity: 'hint' },
        { messageId: 'blocks', line: 6, column: 62, severity: 'hint' },
        { messageId: 'blocks', line: 7, column: 61, severity: 'hint' },
        { messageId: 'blocks', line: 8, column: 59, severity: 'warning', message: /^fs\.appendFileSync\(\) blocks the event loop while handling a message: / },
      ],
      output: null,
    },
    {
      name: "require('child_process').execFileSync inline in a koa middleware",
      code: `app.use(async (ctx) => { ctx.body = require('child_process').execFileSync('git', ['rev-parse', 'HEAD'], { env: {} }); });`,
      errors: [{ messageId: 'blocksExec', line: 1, column: 37 }],
      output: null,
    },
  ],
});
