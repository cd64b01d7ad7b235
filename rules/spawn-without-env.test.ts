import rule from './spawn-without-env';
import { runRuleTests } from '../test/ruleTester';

const ENV = '{ PATH: process.env.PATH }';

runRuleTests(rule, {
  valid: [
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
  ],
  invalid: [
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
        { messageId: 'missingEnv', line: 5, column: 15, endLine: 5, endColumn: 34, message: /^execSync\(\) without an env option copies every environment variable on each call; seed 003: pods with ~16k injected variables \(13,793 seen by execve\) spent 7\.5 s/ },
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
cp.exec('df -k /data', (err, stdout) => console.log(stdout));`,
      errors: [{ messageId: 'missingEnv', line: 2, column: 1 }],
      output: `import * as cp from 'node:child_process';
cp.exec('df -k /data', { env: ${ENV} }, (err, stdout) => console.log(stdout));`,
    },
    {
      name: 'spawn / execFile / fork with args: options go after the args',
      code: `const child_process = require('child_process');
child_process.spawn('df', ['-k']);
child_process.execFile('free', ['-m'], function (err, out) {});
child_process.fork('./worker.js');`,
      errors: [
        { messageId: 'missingEnv', line: 2, column: 1 },
        { messageId: 'missingEnv', line: 3, column: 1 },
        { messageId: 'missingEnv', line: 4, column: 1 },
      ],
      output: `const child_process = require('child_process');
child_process.spawn('df', ['-k'], { env: ${ENV} });
child_process.execFile('free', ['-m'], { env: ${ENV} }, function (err, out) {});
child_process.fork('./worker.js', { env: ${ENV} });`,
    },
    {
      name: "require('child_process').x(...) inline, with an empty options object",
      code: `require('child_process').spawnSync('ls', {});`,
      errors: [{ messageId: 'missingEnv', line: 1, column: 1, endColumn: 45 }],
      output: `require('child_process').spawnSync('ls', { env: ${ENV} });`,
    },
    {
      name: 'env: process.env, {...process.env}, Object.assign({}, process.env)',
      code: `const { exec, spawn: run } = require('child_process');
exec('a', { env: process.env });
run('b', [], { env: { ...process.env, DEBUG: '1' } });
exec('c', { cwd: '/', env: Object.assign({}, process.env) }, () => {});`,
      errors: [
        { messageId: 'wholeEnv', line: 2, column: 18, endColumn: 29, message: /^exec\(\) is given the whole process\.env/ },
        { messageId: 'wholeEnv', line: 3, column: 21, message: /^spawn\(\) is given/ },
        { messageId: 'wholeEnv', line: 4, column: 28 },
      ],
      output: `const { exec, spawn: run } = require('child_process');
exec('a', { env: ${ENV} });
run('b', [], { env: { PATH: process.env.PATH, DEBUG: '1' } });
exec('c', { cwd: '/', env: Object.assign({}, ${ENV}) }, () => {});`,
    },
    {
      name: 'options in a const without env: reported, no fix (not a literal at the call)',
      filename: 'stats.ts',
      code: `import { execSync } from 'child_process';
const opts = { encoding: 'utf8' as const };
export const df = (): string => execSync('df -k', opts);`,
      errors: [{ messageId: 'missingEnv', line: 3, column: 33 }],
      output: null,
    },
    {
      name: 'args held in a const array; an args parameter of unknown shape is not guessed',
      code: `const { spawn } = require('child_process');
const argv = ['-k', '/'];
spawn('df', argv);
function run(cmd, list) { return spawn(cmd, list); }`,
      errors: [{ messageId: 'missingEnv', line: 3, column: 1 }],
      output: `const { spawn } = require('child_process');
const argv = ['-k', '/'];
spawn('df', argv, { env: ${ENV} });
function run(cmd, list) { return spawn(cmd, list); }`,
    },
    {
      name: 'promisified exec / execFile (util.promisify and a destructured promisify)',
      code: `const util = require('util');
const { promisify } = require('node:util');
const cp = require('child_process');
const execAsync = util.promisify(cp.exec);
const execFileAsync = promisify(cp.execFile);
async function stats() {
  const { stdout } = await execAsync('free -m');
  await execFileAsync('df', ['-k'], { env: process.env });
  return stdout;
}`,
      errors: [
        { messageId: 'missingEnv', line: 7, column: 28, message: /^execAsync\(\) without an env option/ },
        { messageId: 'wholeEnv', line: 8, column: 44, message: /^execFileAsync\(\) is given the whole process\.env/ },
      ],
      output: `const util = require('util');
const { promisify } = require('node:util');
const cp = require('child_process');
const execAsync = util.promisify(cp.exec);
const execFileAsync = promisify(cp.execFile);
async function stats() {
  const { stdout } = await execAsync('free -m', { env: ${ENV} });
  await execFileAsync('df', ['-k'], { env: ${ENV} });
  return stdout;
}`,
    },
    {
      name: 'a require inside a function (lazy require)',
      code: `function diskUsage() {
  const { execSync } = require('child_process');
  return execSync('df -k');
}`,
      errors: [{ messageId: 'missingEnv', line: 3, column: 10 }],
      output: `function diskUsage() {
  const { execSync } = require('child_process');
  return execSync('df -k', { env: ${ENV} });
}`,
    },
    {
      name: 'env shorthand bound to process.env: reported, no fix',
      code: `const cp = require('child_process');
const env = process.env;
cp.execFileSync('ls', ['-1'], { env });`,
      errors: [{ messageId: 'wholeEnv', line: 3, column: 33 }],
      output: null,
    },
  ],
});
