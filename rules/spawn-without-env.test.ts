import rule from './spawn-without-env';
import { runRuleTests } from '../test/ruleTester';

const ENV = '{ PATH: process.env.PATH }';

runRuleTests(rule, {
  valid: [
    {
      name: 'issue 22: execa told extendEnv: false with a small env, and cross-spawn given a small env, copy only what they pass',
      code: `const express = require('express');
const execa = require('execa');
const spawn = require('cross-spawn');
const app = express();
app.get('/status', async (req, res) => {
  await execa('git', ['status'], { env: { PATH: process.env.PATH, HOME: '/srv' }, extendEnv: false });
  spawn('df', ['-k'], { env: { PATH: process.env.PATH } });
  res.end();
});
app.listen(3000);`,
    },
    {
      name: 'a function of another package named like a wrapper (a local execa, a sync of something else) is not a spawn',
      code: `const express = require('express');
const fs = require('fs-extra');
const app = express();
function execa(cmd) { return cmd; }
app.get('/x', (req, res) => { execa('git'); fs.copySync('a', 'b'); res.end(); });
app.listen(3000);`,
    },
    {
      name: 'issue 22: a local options object given an env after it is declared, or merged into, is not guessed to lack one',
      code: `const http = require('http');
const { fork } = require('child_process');
http.createServer((req, res) => {
  let opts = {};
  if (req.headers.debug) opts = { execArgv: ['--inspect'] };
  opts.env = { PATH: process.env.PATH };
  fork('./worker', [], opts);
  let other = {};
  if (req.headers.debug) other = { execArgv: ['--inspect'] };
  Object.assign(other, req.app.locals.childOptions);
  fork('./worker', [], other);
  let third = {};
  [1].forEach(() => { third = req.app.locals.childOptions; });
  fork('./worker', [], third);
}).listen(8080);`,
    },
    {
      name: 'issue 22: a table of functions called through only at start-up runs nothing per request',
      code: `const http = require('http');
const { spawn } = require('child_process');
const steps = [];
steps.push(function () { spawn('git', ['fetch']); });
for (let i = 0; i < steps.length; i++) steps[i]();
http.createServer((req, res) => res.end('ok')).listen(8080);`,
    },
    {
      name: 'an explicit small env',
      code: `const { execSync } = require('child_process');
execSync('free -m', { env: { PATH: process.env.PATH } });`,
    },
    {
      name: 'an env built from a base object that is not process.env',
      code: `const cp = require('node:child_process');
const base = { PATH: '/usr/bin', LANG: 'C' };
cp.spawn('df', ['-k', '/'], { env: { ...base } });
cp.exec('uptime', { env: base }, (err, out) => console.log(out));`,
    },
    {
      name: 'options held in a const object that sets env',
      code: `import { execFile } from 'child_process';
const opts = { env: { PATH: '/bin' }, timeout: 1000 };
execFile('ls', ['-la'], opts, () => {});`,
    },
    {
      name: 'options we cannot see (a parameter, a spread) are not guessed',
      code: `const cp = require('child_process');
function run(cmd, options) { return cp.execSync(cmd, options); }
function run2(cmd, extra) { return cp.execSync(cmd, { ...extra }); }
module.exports = { run, run2 };`,
    },
    {
      name: 'exec of another module, or a local function named exec',
      code: `const db = require('./db');
db.exec('select 1');
function exec(cmd) { return cmd; }
exec('free -m');
/re/.exec('x');`,
    },
    {
      name: 'promisify of something else',
      code: `const { promisify } = require('util');
const readFileAsync = promisify(require('fs').readFile);
readFileAsync('/etc/hosts');`,
    },
    {
      name: 'a parameter shadowing the child_process binding',
      code: `const cp = require('child_process');
function run(cp) { return cp.exec('x'); }
run({ exec() {} });`,
    },
    {
      name: 'start-up spawns: forking a worker once, git describe for --version (labelled on cnpmjs.org, nodemon)',
      code: `const childProcess = require('child_process');
const syncer = childProcess.fork('./sync.js');
childProcess.exec('git describe --tags', (err, out) => console.log(out));
app.listen(3000);`,
    },
    {
      name: 'a Gruntfile task, a test and a script spawn on purpose with the developer environment',
      filename: 'Gruntfile.js',
      code: `const { spawn } = require('child_process');
app.get('/build', (req, res) => spawn('npm', ['run', 'build']));`,
    },
    {
      name: 'a test file starting the server under test',
      filename: 'test/graphite_tests.js',
      code: `const { spawn } = require('child_process');
app.get('/x', (req, res) => spawn('node', ['stats.js']));`,
    },
    {
      name: 'a one-shot timer (a retry or a delayed launch) is not a stats timer (labelled on pm2)',
      code: `const { spawn } = require('child_process');
setTimeout(() => spawn('pm2-agent', [], { detached: true }), 1000);
app.listen(3000);`,
    },
    {
      name: 'a CLI keypress handler on process.stdin is not a message stream (labelled on json-server)',
      code: `const { execSync } = require('child_process');
process.stdin.on('data', (chunk) => { if (chunk.trim() === 's') execSync('df -k'); });
app.listen(3000);`,
    },
    {
      name: 'Node-RED node options kept in a field: quiet when the field sets env or is written into (minimized from @node-red/nodes exec)',
      code: `const { exec, spawn } = require('child_process');
function ExecNode(n) {
  this.execOpt = { encoding: 'binary', env: { PATH: process.env.PATH } };
  this.spawnOpt = { windowsHide: true };
  var node = this;
  if (n.extraEnv) node.spawnOpt.env = n.extraEnv;
  this.on('input', function (msg, send, done) {
    exec(msg.payload, node.execOpt, () => done());
    spawn(msg.payload, [], node.spawnOpt);
  });
}`,
    },
    {
      name: "an 'input' event whose handler takes no msg is not a Node-RED message (an editor field, a CLI prompt)",
      code: `const { exec } = require('child_process');
prompt.on('input', (line) => exec('ls ' + line, { timeout: 1000 }, () => {}));`,
    },
  ],
  invalid: [
    {
      name: "issue 22: child_process behind a wrapper library (execa, cross-spawn, child-process-promise) per request and in a serving module's timer",
      code: `const express = require('express');
const execa = require('execa');
const { execaCommand } = require('execa');
const spawn = require('cross-spawn');
const cpp = require('child-process-promise');
const app = express();
app.get('/pull', async (req, res) => {
  await execa('git', ['pull'], { cwd: '/srv/repo' });
  await execa('git', ['log'], { env: { PATH: process.env.PATH } });
  spawn.sync('convert', [req.query.file, 'out.png']);
  await cpp.exec('uptime');
  res.end();
});
setInterval(() => { execaCommand('ps aux'); }, 5000);
app.listen(3000);`,
      errors: [
        { messageId: 'extendedEnv', line: 8, column: 9, severity: 'information', message: /^execa\(\) runs while handling a request without extendEnv: false: execa adds every variable of process\.env to the child's env, and each spawn copies them synchronously on the event loop, a cost that grows with the environment \(assumed large: .*\)\. Pass extendEnv: false and only what the child needs \(PATH, HOME, its own settings\), chosen for 'git'\.$/ },
        { messageId: 'extendedEnv', line: 9, column: 9 },
        { messageId: 'missingEnv', line: 10, column: 3, message: /^spawn\.sync\(\) runs while handling a request without an env option/ },
        { messageId: 'missingEnv', line: 11, column: 9, message: /^cpp\.exec\(\) runs while handling a request without an env option.*'uptime' needs nothing but PATH/ },
        { messageId: 'extendedEnv', line: 14, column: 21, message: /^execaCommand\(\) runs in a timer of a module that serves requests without extendEnv: false.*'ps' needs nothing but PATH: pass env: \{ PATH: process\.env\.PATH \} and extendEnv: false\.$/ },
      ],
      output: `const express = require('express');
const execa = require('execa');
const { execaCommand } = require('execa');
const spawn = require('cross-spawn');
const cpp = require('child-process-promise');
const app = express();
app.get('/pull', async (req, res) => {
  await execa('git', ['pull'], { cwd: '/srv/repo' });
  await execa('git', ['log'], { env: { PATH: process.env.PATH } });
  spawn.sync('convert', [req.query.file, 'out.png']);
  await cpp.exec('uptime', { env: ${ENV} });
  res.end();
});
setInterval(() => { execaCommand('ps aux', { env: ${ENV}, extendEnv: false }); }, 5000);
app.listen(3000);`,
    },
    {
      name: "issue 22: a compiled TypeScript call of execa's default export ((0, execa_1.default)(...)) per request",
      code: `const express_1 = require('express');
const execa_1 = __importDefault(require('execa'));
const app = (0, express_1.default)();
app.get('/build', async (req, res) => { await (0, execa_1.default)('npm', ['run', 'build']); res.end(); });
app.listen(3000);`,
      errors: [{ messageId: 'extendedEnv', line: 4, column: 47, message: /^execa\(\) runs while handling a request/ }],
      output: null,
    },
    {
      name: 'issue 22: a local options object replaced by another literal in a branch (`opts = { execArgv }` when debugging): neither has env',
      code: `const http = require('http');
const { fork } = require('child_process');
http.createServer((req, res) => {
  var params = {};
  if (global.v8debug) {
    params = { execArgv: ['--inspect'] };
  }
  const child = fork('./hash', [], params);
  child.on('message', (msg) => res.end(msg));
}).listen(8080);`,
      errors: [{ messageId: 'missingEnv', line: 8, column: 17 }],
      output: null,
    },
    {
      name: 'issue 22: handlers kept in a table (pushed into an array) and tried in turn by the server\'s handler run per request',
      code: `const http = require('http');
const { spawn } = require('child_process');
const handlers = [];
handlers.push(function (path, out) {
  if (path !== '/info/refs') return false;
  spawn('git-upload-pack', ['--advertise-refs', '/srv/repo']).stdout.pipe(out);
});
const commands = { status: (out) => spawn('git', ['status']).stdout.pipe(out) };
http.createServer((req, res) => {
  for (let i = 0; i < handlers.length; i++) if (handlers[i].call(null, req.url, res) !== false) return;
  commands[req.headers['x-command']](res);
}).listen(8080);`,
      errors: [{ messageId: 'missingEnv', line: 6, column: 3 }, { messageId: 'missingEnv', line: 8, column: 37 }],
      output: null,
    },
    {
      name: 'spawn(cmd[0], cmd.slice(1)) per request: the args list is an array method\'s result, not options',
      code: `const http = require('http');
const child_process_1 = require('child_process');
http.createServer((req, res) => {
  const cmd = ['git-upload-pack', '--stateless-rpc', '--advertise-refs', '/srv/repo'];
  const ps = child_process_1.spawn(cmd[0], cmd.slice(1));
  ps.stdout.pipe(res);
}).listen(8080);`,
      errors: [{ messageId: 'missingEnv', line: 5, column: 14 }],
      output: null,
    },
    {
      name: "seed 003: execSync('free -m') and df -k in a stats timer of an express app",
      code: `const express = require('express');
const { execSync } = require('child_process');
const app = express();
function collectStats() {
  const mem = execSync('free -m').toString();
  const disk = execSync("df -k '/'", { encoding: 'utf8' });
  return { mem, disk };
}
setInterval(collectStats, 5000);
app.listen(3000);`,
      errors: [
        { messageId: 'missingEnv', line: 5, column: 15, endLine: 5, endColumn: 34, message: /^execSync\(\) runs in a timer of a module that serves requests \(via collectStats\) without an env option: each spawn copies every environment variable synchronously on the event loop, a cost that grows with the environment \(assumed large: .*\)\. 'free' needs nothing but PATH: pass env: \{ PATH: process\.env\.PATH \}\.$/ },
        { messageId: 'missingEnv', line: 6, column: 16 },
      ],
      output: `const express = require('express');
const { execSync } = require('child_process');
const app = express();
function collectStats() {
  const mem = execSync('free -m', { env: ${ENV} }).toString();
  const disk = execSync("df -k '/'", { encoding: 'utf8', env: ${ENV} });
  return { mem, disk };
}
setInterval(collectStats, 5000);
app.listen(3000);`,
    },
    {
      name: 'exec with a callback: options go before the callback; namespace import (ESM)',
      code: `import * as cp from 'node:child_process';
app.get('/s', (req, res) => {
cp.exec('df -k /data', (err, stdout) => console.log(stdout));
});`,
      errors: [{ messageId: 'missingEnv', line: 3, column: 1 }],
      output: `import * as cp from 'node:child_process';
app.get('/s', (req, res) => {
cp.exec('df -k /data', { env: ${ENV} }, (err, stdout) => console.log(stdout));
});`,
    },
    {
      name: 'issue 22 policy: shown at information on a registered route; a hint in a handler known only by its (req, res) shape (probot setup)',
      code: `const { exec } = require('child_process');
app.get('/convert', (req, res) => { exec('soffice --headless'); });
export async function setupHandler(req, res) { exec('refresh'); }`,
      errors: [
        { messageId: 'missingEnv', line: 2, column: 37, severity: 'information', message: /^exec\(\) runs while handling a request without an env option: each spawn copies every environment variable synchronously on the event loop, a cost that grows with the environment \(assumed large/ },
        { messageId: 'missingEnv', line: 3, column: 48, severity: 'hint', message: /^exec\(\) runs while handling a request \(via setupHandler; if it is registered as a route: its \(req, res\) parameters say so, no registration was found\)/ },
      ],
      output: null,
    },
    {
      name: 'issue 22: a spawn reached only from routes that install, save or remove something, from administrative routes or from a child\'s IPC is a hint; the same helper on a route of the traffic is shown',
      code: `const { spawn, exec } = require('child_process');
const express = require('express');
const app = express();
const router = express.Router();
function runNpm(command, name) { return spawn('npm', [command, name], { cwd: '/srv/plugins' }); }
app.post(['/api/appstore/install/:name', '/api/appstore/install/:org/:name'], (req, res) => { runNpm('install', req.params.name); res.end(); });
router.delete('/plugins/:name', (req, res) => { runNpm('remove', req.params.name); res.end(); });
app.get(\`\${PREFIX}/admin/logs\`, (req, res) => { spawn('journalctl', ['-n', '100']).stdout.pipe(res); });
router.get('/diagnostics', requireAdmin, (req, res) => { exec('./collect-diagnostics.sh', () => res.end()); });
process.on('message', (msg) => { if (msg.type === 'restart') exec('systemctl restart worker'); });
app.get('/thumbnails/:id', (req, res) => { spawn('convert', [req.params.id, 'thumb.png']).on('close', () => res.end()); });
app.listen(3000);`,
      errors: [
        { messageId: 'missingEnv', line: 5, column: 41, severity: 'hint' },
        { messageId: 'missingEnv', line: 8, column: 49, severity: 'hint' },
        { messageId: 'missingEnv', line: 9, column: 58, severity: 'hint' },
        { messageId: 'missingEnv', line: 10, column: 62, severity: 'hint' },
        { messageId: 'missingEnv', line: 11, column: 44, severity: 'information', message: /^spawn\(\) runs while handling a request without an env option/ },
      ],
      output: null,
    },
    {
      name: "a stats timer whose interval comes from configuration still repeats (issue 22: exec('ps ...') every few seconds from a scheduler tick); a timeout re-armed with a computed delay is taken for a bounded retry",
      code: `const { exec } = require('child_process');
const config = require('./config');
require('express')().listen(3000);
setInterval(() => { exec('ps -eo pid,rss', (err, out) => {}); }, config.statsInterval);
function poll() { exec('df -k', () => setTimeout(poll, config.pollMs)); }
poll();`,
      errors: [
        { messageId: 'missingEnv', line: 4, column: 21, severity: 'information', message: /^exec\(\) runs in a timer of a module that serves requests/ },
      ],
      output: `const { exec } = require('child_process');
const config = require('./config');
require('express')().listen(3000);
setInterval(() => { exec('ps -eo pid,rss', { env: ${ENV} }, (err, out) => {}); }, config.statsInterval);
function poll() { exec('df -k', () => setTimeout(poll, config.pollMs)); }
poll();`,
    },
    {
      name: 'spawn / execFile / fork with args: options go after the args',
      code: `const child_process = require('child_process');
app.get('/s', (req, res) => {
child_process.spawn('df', ['-k']);
child_process.execFile('free', ['-m'], function (err, out) {});
child_process.fork('./worker.js');
});`,
      errors: [
        { messageId: 'missingEnv', line: 3, column: 1 },
        { messageId: 'missingEnv', line: 4, column: 1 },
        { messageId: 'missingEnv', line: 5, column: 1, message: /^fork\(\) runs while handling a request without an env option: .* Pass only what the child needs \(PATH, HOME, its own settings\), chosen for 'worker\.js'\.$/ },
      ],
      output: `const child_process = require('child_process');
app.get('/s', (req, res) => {
child_process.spawn('df', ['-k'], { env: ${ENV} });
child_process.execFile('free', ['-m'], { env: ${ENV} }, function (err, out) {});
child_process.fork('./worker.js');
});`,
    },
    {
      name: "require('child_process').x(...) inline, with an empty options object",
      code: `app.get('/s', (req, res) => {
require('child_process').spawnSync('ls', {});
});`,
      errors: [{ messageId: 'missingEnv', line: 2, column: 1, endColumn: 45 }],
      output: `app.get('/s', (req, res) => {
require('child_process').spawnSync('ls', { env: ${ENV} });
});`,
    },
    {
      name: 'env: process.env, {...process.env}, Object.assign({}, process.env)',
      code: `const { exec, spawn: run } = require('child_process');
app.get('/s', (req, res) => {
exec('a', { env: process.env });
run('b', [], { env: { ...process.env, DEBUG: '1' } });
exec('c', { cwd: '/', env: Object.assign({}, process.env) }, () => {});
});`,
      errors: [
        { messageId: 'wholeEnv', line: 3, column: 18, endColumn: 29, message: /^exec\(\) runs while handling a request with the whole process\.env: each spawn copies it synchronously on the event loop, a cost that grows with the environment \(assumed large: .*\)\. Pass only what the child needs/ },
        { messageId: 'wholeEnv', line: 4, column: 21, message: /^spawn\(\) runs while handling a request with the whole/ },
        { messageId: 'wholeEnv', line: 5, column: 28 },
      ],
      output: null,
    },
    {
      name: 'options in a const without env: reported, no fix (not a literal at the call)',
      filename: 'stats.ts',
      code: `import { execSync } from 'child_process';
const opts = { encoding: 'utf8' as const };
export const df = (): string => execSync('df -k', opts);
app.get('/df', (req, res) => res.send(df()));`,
      errors: [{ messageId: 'missingEnv', line: 3, column: 33 }],
      output: null,
    },
    {
      name: 'args held in a const array; an args parameter of unknown shape is not guessed',
      code: `const { spawn } = require('child_process');
app.get('/s', (req, res) => {
const argv = ['-k', '/'];
spawn('df', argv);
function run(cmd, list) { return spawn(cmd, list); }
});`,
      errors: [{ messageId: 'missingEnv', line: 4, column: 1 }],
      output: `const { spawn } = require('child_process');
app.get('/s', (req, res) => {
const argv = ['-k', '/'];
spawn('df', argv, { env: ${ENV} });
function run(cmd, list) { return spawn(cmd, list); }
});`,
    },
    {
      name: 'promisified exec / execFile (util.promisify and a destructured promisify)',
      code: `const util = require('util');
const { promisify } = require('node:util');
const cp = require('child_process');
app.get('/s', (req, res) => {
const execAsync = util.promisify(cp.exec);
const execFileAsync = promisify(cp.execFile);
async function stats() {
  const { stdout } = await execAsync('free -m');
  await execFileAsync('df', ['-k'], { env: process.env });
  return stdout;
}
});`,
      errors: [
        { messageId: 'missingEnv', line: 8, column: 28, message: /^execAsync\(\) runs while handling a request \(via stats\) without an env option/ },
        { messageId: 'wholeEnv', line: 9, column: 44, message: /^execFileAsync\(\) runs while handling a request \(via stats\) with the whole process\.env/ },
      ],
      output: `const util = require('util');
const { promisify } = require('node:util');
const cp = require('child_process');
app.get('/s', (req, res) => {
const execAsync = util.promisify(cp.exec);
const execFileAsync = promisify(cp.execFile);
async function stats() {
  const { stdout } = await execAsync('free -m', { env: ${ENV} });
  await execFileAsync('df', ['-k'], { env: ${ENV} });
  return stdout;
}
});`,
    },
    {
      name: 'a require inside a function (lazy require)',
      code: `app.get('/s', (req, res) => {
function diskUsage() {
  const { execSync } = require('child_process');
  return execSync('df -k');
}
});`,
      errors: [{ messageId: 'missingEnv', line: 4, column: 10 }],
      output: `app.get('/s', (req, res) => {
function diskUsage() {
  const { execSync } = require('child_process');
  return execSync('df -k', { env: ${ENV} });
}
});`,
    },
    {
      name: 'env shorthand bound to process.env: reported, no fix',
      code: `const cp = require('child_process');
app.get('/s', (req, res) => {
const env = process.env;
cp.execFileSync('ls', ['-1'], { env });
});`,
      errors: [{ messageId: 'wholeEnv', line: 4, column: 33 }],
      output: null,
    },
    {
      name: "Node-RED exec node: options in a field set in the constructor, read through var node = this, spawned per 'input' message (labelled on @node-red/nodes 90-exec.js)",
      code: `const spawn = require('child_process').spawn;
const exec = require('child_process').exec;
function ExecNode(n) {
  this.execOpt = { encoding: 'binary', maxBuffer: 10000000 };
  this.spawnOpt = { windowsHide: n.winHide === true };
  var node = this;
  node.execOpt.shell = '/bin/bash';
  this.on('input', function (msg, nodeSend, nodeDone) {
    if (this.useSpawn) {
      const opts = isWindows ? { ...node.spawnOpt, shell: true } : node.spawnOpt;
      let child;
      if (opts.shell) child = spawn([n.command].concat(msg.args).join(' '), opts);
      else child = spawn(n.command, msg.args, opts);
    } else {
      exec(n.command + ' ' + msg.payload, node.execOpt, function (error, stdout) { nodeSend({ payload: stdout }); });
    }
  });
}`,
      errors: [
        { messageId: 'missingEnv', line: 12, column: 31, message: /^spawn\(\) runs while handling a message without an env option: .* Pass only what the child needs/ },
        { messageId: 'missingEnv', line: 13, column: 20 },
        // Shown while serving (issue 22's policy): the copy on every spawn is proved by the code.
        { messageId: 'missingEnv', line: 15, column: 7, severity: 'information' },
      ],
      output: null,
    },
  ],
});
