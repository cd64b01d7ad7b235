// `hotframe attach` on a process whose worker thread answers a command before the main thread has
// returned from the `session.post` that sent it. The agent talks to a thread through its in-process
// inspector session (NodeWorker.sendMessageToWorker); the thread's answer comes back to the main
// thread with an interrupt, which V8 serves at the next JS stack check, and `post` runs JS before it
// returns (the callback of its own answer). On a busy machine the main thread is descheduled there
// often enough: a cluster capture lost its thread's profile in 2 of 4 CI runs, and 0.3 s captures
// of a lone process with a thread, looped on a machine at load 12-30, in 34 of 80 (each of the 18
// logged had the stop's answer handled before the stop's id was recorded, dropped as not the
// stop's); 0 of 80 with the id recorded before the post.
//
// The target here holds its main thread in `post` until the thread's answer has been handled, so
// the order is the same every run; the inspector, the thread and the profiler are real.
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

import { freePort, functionNames, profileSummary, runCli } from './attachService';
import { bundles } from './bundles';
import { tempFolders } from './tempFolders';

// A worker thread busy in a named function; the main thread's Session.post of a thread's stop
// waits (at most 5 s) for the thread's answer, and says on stdout whether it saw it.
const TARGET = `const { Worker } = require('node:worker_threads');
new Worker('function threadAnswerWork() { let x = 0; for (let i = 0; i < 2e5; i++) x += Math.sqrt(i); return x; } setInterval(threadAnswerWork, 5);', { eval: true }).unref();
const { Session } = require('node:inspector');
const post = Session.prototype.post;
Session.prototype.post = function (method, params, callback) {
  const result = post.call(this, method, params, callback);
  const sent = method === 'NodeWorker.sendMessageToWorker' ? JSON.parse(params.message) : null;
  if (sent && sent.method === 'Profiler.stop') {
    let answered = false;
    const listener = (event) => { if (event.params.message.startsWith('{"id":' + sent.id + ',')) answered = true; };
    this.on('NodeWorker.receivedMessageFromWorker', listener);
    // V8 serves the interrupt that brings the answer at this loop's stack checks.
    const until = Date.now() + 5000;
    while (!answered && Date.now() < until);
    this.off('NodeWorker.receivedMessageFromWorker', listener);
    console.log((answered ? 'answered inside post: ' : 'not answered inside post: ') + sent.method);
  }
  return result;
};
setInterval(() => {}, 1000);
console.log('ready');`;

describe('hotframe attach: a worker thread that answers before the post of its command returns', function () {
  this.timeout(60_000);
  const temp = tempFolders();
  let target: ChildProcess | null = null;
  afterEach(() => {
    target?.kill('SIGKILL');
    target = null;
    temp.removeAll();
  });

  it("takes the thread's profile, the stop's answer handled inside the post that sent the stop", async function () {
    const { cli } = await bundles();
    const child = spawn(process.execPath, [`--inspect-port=${await freePort()}`, '-e', TARGET], { stdio: ['ignore', 'pipe', 'pipe'] });
    target = child;
    let said = '';
    child.stdout!.on('data', (chunk: Buffer) => (said += chunk.toString()));
    await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
    const cwd = temp.make('hotframe-attach-answer-');

    const run = await runCli(cli, ['attach', String(child.pid), '--duration', '1', '--out', 'p', '--format', 'json'], cwd);

    // Whatever the order, the capture holds the thread's profile.
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(run.stderr, /no profile/, run.stderr);
    const files = readdirSync(join(cwd, 'p')).filter((f) => f.endsWith('.cpuprofile'));
    const thread = files.find((f) => f.includes(`.${child.pid}.1.001`));
    assert.ok(thread, `the worker thread has a profile: ${files.join(', ')}; ${run.stderr}`);
    assert.ok(functionNames(join(cwd, 'p', thread)).has('threadAnswerWork'), profileSummary(join(cwd, 'p', thread)));
    // The order this test is about: the thread answered its stop inside the post. On a loaded
    // machine the target's 5 s wait for the answer has run out (a clean-clone run, 2026-11-30);
    // the run then did not test that order, and says so.
    if (!/^answered inside post: Profiler\.stop$/m.test(said)) {
      assert.match(said, /^not answered inside post: Profiler\.stop$/m, `the target said: ${said}; hotframe: ${run.stderr}`);
      console.log(`      the thread did not answer inside the post this run (the target said: ${said.trim().split('\n').join(' | ')}): the order is not tested`);
      this.skip();
    }
  });
});
