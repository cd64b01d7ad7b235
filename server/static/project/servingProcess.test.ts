// A periodic timer in a module the server loads ticks on the serving event loop (issue 22: `exec('ps
// …')` without env every few seconds from a scheduler tick, in a module that serves nothing
// itself). The project-wide analysis finds the modules a serving module loads, directly or through
// others (ProjectFacts.servingLoaderOf). Each should-reach case has a must-not-reach twin: a module
// no serving module loads, one started as a worker, a one-shot timer.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { analyzeFileList } from '../../cli/fileAnalysis';
import { projectOf, removeProjects } from '../../../test/unit/projectOnDisk';

after(removeProjects);

/**
 * Each file's blocking-sync-call and spawn-without-env findings as `rule:line:severity` (hints
 * included: a timer on a serving event loop only by what modules load is one), and their messages.
 */
function timerFindings(dir: string, files: string[]): { found: Record<string, string[]>; messages: string[] } {
  const outcomes = analyzeFileList(files.map((f) => path.join(dir, f)), dir, {});
  const found: Record<string, string[]> = {};
  const messages: string[] = [];
  files.forEach((file, i) => {
    const findings = outcomes[i].findings.map(({ finding }) => finding).filter((f) => f.ruleId === 'blocking-sync-call' || f.ruleId === 'spawn-without-env');
    found[file] = findings.map((f) => `${f.ruleId}:${f.range.loc.start.line}:${f.severity}`);
    messages.push(...findings.map((f) => f.message));
  });
  return { found, messages };
}

const SCHEDULER = `const { exec, execSync } = require('child_process');
const fs = require('fs');
function checkProcesses() {
  exec('ps aux', (err, out) => { if (!err) console.log(out.length); });
  fs.writeFileSync('/tmp/last-check', String(Date.now()));
}
exports.startScheduler = function () {
  setInterval(checkProcesses, 5000);
};
exports.warmUp = function () {
  setTimeout(() => execSync('df -k'), 1000);
};
`;

describe('timers of modules the serving process loads (project-wide)', () => {
  it('a scheduler a server loads through another module, started at start-up: its periodic tick is shown, the one-shot timer is not', () => {
    const dir = projectOf({
      'src/server.js': `const express = require('express');
const jobs = require('./jobs');
const app = express();
app.get('/', (req, res) => res.end('ok'));
jobs.start();
app.listen(3000);
`,
      'src/jobs/index.js': `const { startScheduler, warmUp } = require('./scheduler');
exports.start = () => { startScheduler(); warmUp(); };
`,
      'src/jobs/scheduler.js': SCHEDULER,
    });
    const { found, messages } = timerFindings(dir, ['src/server.js', 'src/jobs/index.js', 'src/jobs/scheduler.js']);
    // Hints: that the timer is armed in the server's process is inferred from what modules load.
    assert.deepEqual(found['src/jobs/scheduler.js'], ['spawn-without-env:4:hint', 'blocking-sync-call:5:hint']);
    assert.match(messages.find((m) => m.startsWith('exec()'))!, /^exec\(\) runs in a timer of a module loaded by \.\.\/server\.js, which serves requests \(assumed: the timer is started in that process\) \(via checkProcesses\) without an env option/);
  });

  it('the same scheduler loaded only by a command-line script, or by a module the server starts as a worker, is not on the serving event loop', () => {
    const dir = projectOf({
      'src/cli.js': `require('./jobs/scheduler').startScheduler();
`,
      'src/server.js': `const http = require('http');
const { fork } = require('child_process');
fork(require.resolve('./worker'), [], { env: { PATH: process.env.PATH } });
http.createServer((req, res) => res.end('ok')).listen(3000);
`,
      'src/worker.js': `require('./jobs/other').startScheduler();
`,
      'src/jobs/scheduler.js': SCHEDULER,
      'src/jobs/other.js': SCHEDULER,
    });
    const { found } = timerFindings(dir, ['src/cli.js', 'src/server.js', 'src/worker.js', 'src/jobs/scheduler.js', 'src/jobs/other.js']);
    assert.deepEqual(found['src/jobs/scheduler.js'], []);
    assert.deepEqual(found['src/jobs/other.js'], []);
  });

  it('ESM imports and a dynamic import() load a module into the serving process too', () => {
    const dir = projectOf({
      'server.mjs': `import http from 'node:http';
import './metrics.mjs';
http.createServer((req, res) => res.end('ok')).listen(3000);
if (process.env.JOBS) await import('./jobs.mjs');
`,
      'metrics.mjs': `import { execSync } from 'node:child_process';
setInterval(() => { execSync('free -m'); }, 10000);
`,
      'jobs.mjs': `import { exec } from 'node:child_process';
setInterval(() => exec('uptime'), 60000);
`,
    });
    const { found } = timerFindings(dir, ['server.mjs', 'metrics.mjs', 'jobs.mjs']);
    assert.deepEqual(found['metrics.mjs'], ['blocking-sync-call:2:hint', 'spawn-without-env:2:hint']);
    assert.deepEqual(found['jobs.mjs'], ['spawn-without-env:2:hint']);
  });
});

describe('timers of modules a message-serving process loads (project-wide)', () => {
  it("a gateway that handles a broker's messages loads a state module, which it only starts, whose class arms a periodic save: shown; the same module in a CLI: not", () => {
    const files = {
      'lib/gateway.js': `const mqtt = require('mqtt');
const State = require('./state');
const client = mqtt.connect('mqtt://localhost');
const state = new State();
client.on('message', (topic, payload) => console.log(topic, payload.length));
state.start();
`,
      'lib/state.js': `const fs = require('fs');
class State {
  constructor() { this.values = {}; }
  set(key, value) { this.values[key] = value; }
  start() { this.timer = setInterval(() => this.save(), 300000); }
  save() { fs.writeFileSync('/data/state.json', JSON.stringify(this.values)); }
}
module.exports = State;
`,
      'bin/dump.js': `const State = require('../lib/other-state');
new State().start();
`,
      'lib/other-state.js': '',
    };
    files['lib/other-state.js'] = files['lib/state.js'];
    const dir = projectOf(files);
    const { found, messages } = timerFindings(dir, ['lib/gateway.js', 'lib/state.js', 'bin/dump.js', 'lib/other-state.js']);
    assert.deepEqual(found['lib/state.js'], ['blocking-sync-call:6:hint']);
    assert.match(messages.find((m) => m.startsWith('fs.writeFileSync'))!, /in a timer of a module loaded by \.\/gateway\.js, which handles messages \(assumed: the timer is started in that process\) \(via save\)/);
    assert.deepEqual(found['lib/other-state.js'], []);
  });
});

describe('timers of modules loaded beside a serving module (project-wide)', () => {
  it("an entry that loads a broker's client and a state module: the state module's periodic save runs in the client's process; a module only a CLI loads does not", () => {
    const dir = projectOf({
      'dist/index.js': `const Controller = require('./controller');
new Controller().start();
`,
      'dist/controller.js': `const Mqtt = require('./mqtt');
const State = require('./state');
class Controller {
  start() { this.mqtt = new Mqtt(); this.state = new State(); this.state.start(); }
}
module.exports = Controller;
`,
      'dist/mqtt.js': `const mqtt = require('mqtt');
class Mqtt {
  constructor() { this.client = mqtt.connect('mqtt://localhost'); this.client.on('message', (topic, payload) => this.onMessage(topic, payload)); }
  onMessage(topic, payload) { console.log(topic, payload.length); }
}
module.exports = Mqtt;
`,
      'dist/state.js': `const fs = require('fs');
class State {
  start() { this.timer = setInterval(() => this.save(), 300000); }
  save() { fs.writeFileSync('/data/state.json', '{}'); }
}
module.exports = State;
`,
      'dist/cli/export.js': `const Backup = require('../backup');
new Backup().start();
`,
      'dist/backup.js': `const fs = require('fs');
class Backup {
  start() { setInterval(() => fs.copyFileSync('/data/state.json', '/backup/state.json'), 60000); }
}
module.exports = Backup;
`,
    });
    const files = ['dist/index.js', 'dist/controller.js', 'dist/mqtt.js', 'dist/state.js', 'dist/cli/export.js', 'dist/backup.js'];
    const { found, messages } = timerFindings(dir, files);
    assert.deepEqual(found['dist/state.js'], ['blocking-sync-call:4:hint']);
    assert.match(messages.find((m) => m.startsWith('fs.writeFileSync'))!, /in a timer of a module that \.\/controller\.js loads along with \.\/mqtt\.js, which handles messages \(assumed: the timer is started in that process\) \(via save\)/);
    assert.deepEqual(found['dist/backup.js'], []);
  });
});

describe('a worker that only talks to its parent serves nobody (project-wide)', () => {
  it("the modules a forked worker loads, whose only handler is its parent's IPC, are not on a serving event loop", () => {
    const dir = projectOf({
      'server.js': `const http = require('http');
const { fork } = require('child_process');
const child = fork(require.resolve('./worker'), [], { env: { PATH: process.env.PATH } });
http.createServer((req, res) => { child.send(req.url); res.end('ok'); }).listen(3000);
`,
      'worker.js': `const cache = require('./cache');
process.on('message', (url) => cache.note(url));
cache.start();
`,
      'cache.js': `const fs = require('fs');
const seen = [];
exports.note = (url) => seen.push(url);
exports.start = () => setInterval(() => fs.writeFileSync('/tmp/seen.json', JSON.stringify(seen)), 1000);
`,
    });
    const { found } = timerFindings(dir, ['server.js', 'worker.js', 'cache.js']);
    assert.deepEqual(found['cache.js'], []);
  });
});
