// Serving paths known by how requests are dispatched rather than by a router's registration
// (issue 22, recall): a `(req, res)` function that hands its own request and response to handlers
// chosen at run time from a table (a router's entry), a request listener that is a table's entry,
// a whole required module called as a function, a constructor function of the module run with
// `new`. Each should-reach case has a should-not-reach twin, so that the fix is not "every
// `(req, res)` function serves".
import assert from 'node:assert/strict';
import { findingsOf, projectOf, removeProjects } from '../../../test/unit/projectOnDisk';

after(removeProjects);

/** A module whose default export spawns per call (a library's request helper, in another file). */
const ADVERTISE = `var spawn = require('child_process').spawn;
module.exports = function (opts, req, res) {
  var ps = spawn('git-upload-pack', ['--advertise-refs', opts.repo]);
  ps.stdout.pipe(res);
};
`;

/** A module exporting a `(req, res)` function whose body is `body`, with handlers pushed into a table. */
function dispatcher(body: string): string {
  return `var advertise = require('./advertise');
module.exports = function (req, res) {
  res.setHeader('connection', 'close');
  var self = this;
${body}
};
var handlers = [];
handlers.push(function (req, res) {
  if (req.method !== 'GET') return false;
  advertise({ repo: req.url }, req, res);
});
handlers.push(function (req, res) {
  res.statusCode = 404;
  res.end('not found');
});
`;
}

describe('a router\'s entry known by its dispatch: a (req, res) function handing its req and res to a table of handlers', () => {
  it('the handlers it tries in turn, and what they call in another module, run per request (shown)', () => {
    const dir = projectOf({
      'handle.js': dispatcher(`  (function next (ix) {
    var x = handlers[ix].call(self, req, res);
    if (x === false) next(ix + 1);
  })(0);`),
      'advertise.js': ADVERTISE,
    });
    assert.deepEqual(findingsOf(dir, ['advertise.js', 'handle.js'])['advertise.js'], ['spawn-without-env:3:information']);
  });

  it('a (req, res) function that only calls a table\'s entries with other values is still known by its shape alone (nothing reached across modules)', () => {
    const dir = projectOf({
      'handle.js': dispatcher(`  var x = handlers[0].call(self, { url: req.url }, {});`),
      'advertise.js': ADVERTISE,
    });
    assert.deepEqual(findingsOf(dir, ['advertise.js', 'handle.js'])['advertise.js'], []);
  });

  it('a spawn in the handler itself is shown when it dispatches, a hint when its (req, res) shape is all there is', () => {
    const spawnIn = (body: string): string => `const { exec } = require('child_process');
const table = [(req, res) => res.end('a'), (req, res) => res.end('b')];
module.exports = (req, res) => {
  exec('uptime');
${body}
};
`;
    const routed = projectOf({ 'entry.js': spawnIn('  table[req.url.length % 2](req, res);') });
    assert.deepEqual(findingsOf(routed, ['entry.js'])['entry.js'], ['spawn-without-env:4:information']);
    const shaped = projectOf({ 'entry.js': spawnIn('  res.end(String(table.length));') });
    assert.deepEqual(findingsOf(shaped, ['entry.js'])['entry.js'], ['spawn-without-env:4:hint']);
  });
});

describe('a request listener that is a table\'s entry (`server.on(\'request\', handlers[mode])`)', () => {
  const server = (listener: string): string => `const http = require('http');
const { execSync } = require('child_process');
const handlers = {
  plain: function (incoming, outgoing) { outgoing.end(execSync('uptime')); },
  other: function (incoming, outgoing) { outgoing.end('ok'); },
};
function report() { return execSync('df -k'); }
const server = http.createServer();
server.on('request', ${listener});
server.listen(8000);
`;

  it('every entry of the table is registered', () => {
    const dir = projectOf({ 'server.js': server('handlers[process.env.MODE || \'plain\']') });
    assert.deepEqual(findingsOf(dir, ['server.js'])['server.js'], ['blocking-sync-call:4:warning', 'spawn-without-env:4:information']);
  });

  it('an entry of something that is not a local table registers nothing of the table', () => {
    const dir = projectOf({ 'server.js': server('require(\'./listeners\')[process.env.MODE]') });
    assert.deepEqual(findingsOf(dir, ['server.js'])['server.js'], []);
  });
});

describe('a whole required module called as a function (`const advertise = require(\'./advertise\'); advertise(opts)`)', () => {
  it('its module.exports runs in the caller\'s context: per request from a handler', () => {
    const dir = projectOf({
      'server.js': "var http = require('http');\nvar advertise = require('./advertise');\nhttp.createServer(function (req, res) { advertise({ repo: req.url }, req, res); }).listen(8000);\n",
      'advertise.js': ADVERTISE,
    });
    assert.deepEqual(findingsOf(dir, ['advertise.js', 'server.js'])['advertise.js'], ['spawn-without-env:3:information']);
  });

  it('called once at start-up, it is not on a serving path', () => {
    const dir = projectOf({
      'server.js': "var http = require('http');\nvar advertise = require('./advertise');\nadvertise({ repo: 'warm' }, null, process.stdout);\nhttp.createServer(function (req, res) { res.end('ok'); }).listen(8000);\n",
      'advertise.js': ADVERTISE,
    });
    assert.deepEqual(findingsOf(dir, ['advertise.js', 'server.js'])['advertise.js'], []);
  });
});

describe('a constructor function of the module run with `new` (`new Service(opts, req, res)`)', () => {
  const module = (caller: string): string => `const http = require('http');
const { spawn } = require('child_process');
function Service(opts, req, res) {
  this.ps = spawn('git-receive-pack', ['--stateless-rpc', opts.cwd]);
}
${caller}
http.createServer((req, res) => res.end('ok')).listen(8000);
`;

  it('its body runs in the context of the function that constructs it: per request', () => {
    const dir = projectOf({ 'server.js': module("http.createServer((req, res) => { new Service({ cwd: '/srv' }, req, res); }).listen(8001);") });
    assert.deepEqual(findingsOf(dir, ['server.js'])['server.js'], ['spawn-without-env:4:information']);
  });

  it('constructed at start-up only, it is not on a serving path', () => {
    const dir = projectOf({ 'server.js': module("const boot = new Service({ cwd: '/srv' });") });
    assert.deepEqual(findingsOf(dir, ['server.js'])['server.js'], []);
  });
});

describe('a table of methods kept on the instance, called by the message\'s name (this.handlers[type](msg))', () => {
  const bridge = (table: string, call: string): string => `const { execSync } = require('child_process');
const Redis = require('ioredis');
class Bridge {
  ${table}
  start() {
    const sub = new Redis();
    sub.subscribe('bridge/request');
    sub.on('message', (channel, text) => this.onMessage(JSON.parse(text)));
  }
  onMessage(message) {
    ${call}
  }
  backup(message) {
    return execSync('tar -czf - /data', { env: {} });
  }
  restart(message) {
    return execSync('systemctl restart app', { env: {} });
  }
  helper() {
    return execSync('hostname', { env: {} });
  }
}
module.exports = Bridge;
`;

  it('every entry of a class field or a table set in the constructor runs per message (shown); a method no table holds does not', () => {
    const asField = projectOf({ 'bridge.js': bridge('requestLookup = { backup: this.backup, restart: this.restart.bind(this) };', 'return this.requestLookup[message.type](message);') });
    assert.deepEqual(findingsOf(asField, ['bridge.js'])['bridge.js'], ['blocking-sync-call:14:warning', 'blocking-sync-call:17:warning']);
    const inConstructor = projectOf({ 'bridge.js': bridge('constructor() {\n    this.handlers = { backup: this.backup, restart: this.restart };\n  }', 'return this.handlers[message.type].call(this, message);') });
    assert.deepEqual(findingsOf(inConstructor, ['bridge.js'])['bridge.js'], ['blocking-sync-call:16:warning', 'blocking-sync-call:19:warning']);
  });

  it('a table of another instance registers nothing of this class\'s methods', () => {
    const other = projectOf({ 'bridge.js': bridge('requestLookup = { backup: this.backup, restart: this.restart };', 'return this.peer.requestLookup[message.type](message);') });
    assert.deepEqual(findingsOf(other, ['bridge.js'])['bridge.js'], []);
  });
});
