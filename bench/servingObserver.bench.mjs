// What the request counter and the event-loop monitor (server/shared/servingRecorder.ts's
// `servingMonitor`, used by `hotframe record`'s preload and by `hotframe attach`) cost, in
// isolation from a service (issue 25): recordOverhead.bench.mjs measures the whole recorded
// service, whose own CPU varies more between runs than the notes cost; this one measures the
// notes' own work.
// - Per request: Node's http server publishes `http.server.request.start` and
//   `http.server.response.finish` only when they have subscribers (`hasSubscribers`), so without
//   the monitor the cost is nil. The bench publishes both messages for fresh request objects, as
//   the server does, with the monitor running and without, alternating rounds; the metric is the
//   difference in ns per request (median of the rounds, with the spread).
// - Per second: the loop timer's CPU (its wakes), process.cpuUsage over an idle second with and without.
// The machine this runs on may be shared: the spread says how far one round is from another.
//
// HOTFRAME_BENCH_ROUNDS (default 7), HOTFRAME_BENCH_REQUESTS (default 100000: the kept count).
import diagnosticsChannel from 'node:diagnostics_channel';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInThisContext } from 'node:vm';
import { buildSync } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = Number(process.env.HOTFRAME_BENCH_ROUNDS || 7);
const REQUESTS = Number(process.env.HOTFRAME_BENCH_REQUESTS || 100_000);
const result = (row) => console.log(JSON.stringify({ bench: 'servingObserver', ...row }));
const progress = (text) => console.log(`servingObserver: ${text}`);

// The monitor's source as the preload and attach embed it (bundled from the TypeScript module).
const bundled = buildSync({ entryPoints: [join(root, 'server/shared/servingRecorder.ts')], bundle: true, format: 'cjs', platform: 'node', write: false });
const loaded = { exports: {} };
new Function('module', 'exports', 'require', bundled.outputFiles[0].text)(loaded, loaded.exports, createRequire(import.meta.url));
const { SERVING_MONITOR } = loaded.exports;
const makeMonitor = runInThisContext(`(require) => { ${SERVING_MONITOR}; return servingMonitor; }`)(createRequire(import.meta.url));
const startMonitor = () => makeMonitor();

const start = diagnosticsChannel.channel('http.server.request.start');
const finish = diagnosticsChannel.channel('http.server.response.finish');

/** ns per request of what the server's publishing costs: fresh request objects, both messages. */
function publishRound(withMonitor) {
  const running = withMonitor ? startMonitor() : null;
  const requests = Array.from({ length: REQUESTS }, (_, i) => ({ method: 'GET', url: `/v1/tasks/${i % 100}?page=${i % 7}` }));
  const before = process.hrtime.bigint();
  for (const request of requests) {
    if (start.hasSubscribers) start.publish({ request, response: null, socket: null, server: null });
    if (finish.hasSubscribers) finish.publish({ request, response: null, socket: null, server: null });
  }
  const ns = Number(process.hrtime.bigint() - before) / REQUESTS;
  running?.stop();
  return ns;
}

/** µs of CPU per second of an idle process with the monitor's timer running, or without. */
async function idleSecond(withMonitor) {
  const running = withMonitor ? startMonitor() : null;
  const before = process.cpuUsage();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const used = process.cpuUsage(before);
  running?.stop();
  return used.user + used.system;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
publishRound(true);
publishRound(false); // warm-up
const added = [];
const timer = [];
for (let round = 0; round < ROUNDS; round++) {
  const pair = {};
  for (const on of round % 2 === 0 ? [true, false] : [false, true]) pair[on] = publishRound(on);
  added.push(pair.true - pair.false);
  progress(`round ${round + 1}: ${pair.false.toFixed(0)} ns/request without the monitor, ${pair.true.toFixed(0)} with`);
}
for (let round = 0; round < 3; round++) {
  const pair = {};
  for (const on of round % 2 === 0 ? [true, false] : [false, true]) pair[on] = await idleSecond(on);
  timer.push(pair.true - pair.false);
}
result({
  metric: `serving monitor: CPU per request observed (${REQUESTS} requests, median of ${ROUNDS})`,
  value: Math.round(median(added)),
  unit: 'ns',
  spread: `${Math.round(Math.min(...added))} to ${Math.round(Math.max(...added))} ns`,
  timerUsPerSecond: Math.round(median(timer)),
  timerSpread: `${Math.round(Math.min(...timer))} to ${Math.round(Math.max(...timer))} µs/s`,
});
