// What the request counter, the event-loop monitor and the thread-clock readings of a Hotframe
// recording cost the recorded service (issue 25: at most 3% of its CPU at a fixed load).
//
// Method. Two whole recorded runs, one with the notes and one without, differed by more than the
// notes cost (a short run's CPU for the same requests varied by ±10%), and so did two copies of
// the service run side by side: on this 2-core VM two processes of the same service settle at a
// CPU per request up to 25% apart (JIT and GC), which no number of windows averages away. So the
// comparison is made inside one process: an Express service recorded by `dist/cli.js record` with
// the notes off (HOTFRAME_SERVING_NOTES=off), in which the bench starts and stops the monitor
// itself between windows of requests — the same `servingMonitor` source the recorder's preload and
// `hotframe attach` run (server/shared/servingRecorder.ts), whose stop removes every trace of it.
// A stopped monitor's notes stay referenced, as a recording keeps them until it exits.
//
// Starting or stopping the monitor is not free of its own: subscribing to Node's HTTP channels
// (and unsubscribing) changes the channel objects' prototype, which throws away the optimised code
// of the functions that publish on them (`parserOnIncoming`, `resOnFinish` of node:_http_server;
// seen with --trace-deopt), and V8 took about 2,250 requests of this service to optimise them
// again. A recording subscribes once, before its first request, and never pays that; `hotframe
// attach` pays it once when it starts and once when it stops. So after each start or stop the bench
// sends SETTLE requests at the same rate, not measured, before the window: the windows compare
// what a recording pays while it runs. (Without the settling, as until 2026-11-29, a window with the
// monitor was mostly one in which `parserOnIncoming` ran unoptimised; the figure moved by less
// than its noise: README.)
//
// The load is fixed: requests at a steady rate (half of what the process served flat out in its
// warm-up, so it is about half busy and its loop also sleeps, when the monitor's 5 ms timer costs
// most), over keep-alive loopback connections. Each window is WINDOW requests; the process measures
// its main thread's time on a CPU over the window (the thread's schedstat, in ns: the monitor's
// work is all on that thread, while the profiler's sampling thread and V8's GC helpers, whose time
// grows with the machine's contention, are left out). Windows come in pairs, monitor on and off in
// an order drawn by a seeded coin; per pair, the CPU the window with the monitor added over the one
// without, as a share of the latter. Between them, pairs with the monitor off in both windows are
// compared the same way: the method's own noise. Figures: the median over PROCESSES processes, the
// interquartile range and the mean with its standard error.
//
// HOTFRAME_BENCH_PROCESSES (default 3), HOTFRAME_BENCH_PAIRS (default 20 of each kind per process),
// HOTFRAME_BENCH_WINDOW (default 2000 requests), HOTFRAME_BENCH_SETTLE (default 3000 requests after
// each start or stop, 0 for none), HOTFRAME_BENCH_MONITOR (a file holding another `servingMonitor`
// source to measure, e.g. a variant being tried; by default this checkout's).
import { spawn, spawnSync } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PROCESSES = Number(process.env.HOTFRAME_BENCH_PROCESSES || 3);
const PAIRS = Number(process.env.HOTFRAME_BENCH_PAIRS || 20);
const WINDOW = Number(process.env.HOTFRAME_BENCH_WINDOW || 2000);
const SETTLE = Number(process.env.HOTFRAME_BENCH_SETTLE ?? 3000);
const WARM_UP = 3 * WINDOW; // requests each process serves flat out before the first measured window
const result = (row) => console.log(JSON.stringify({ bench: 'recordOverhead', ...row }));
const progress = (text) => console.log(`recordOverhead: ${text}`);
const dir = mkdtempSync(join(tmpdir(), 'hotframe-bench-record-'));

// The monitor's source, from the module the recorder is built from (the bench runs in a checkout).
const source = process.env.HOTFRAME_BENCH_MONITOR
  ? { status: 0, stdout: readFileSync(process.env.HOTFRAME_BENCH_MONITOR, 'utf8'), stderr: '' }
  : spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', "const m = await import('./server/shared/servingRecorder.ts'); process.stdout.write(m.SERVING_MONITOR ?? m.default.SERVING_MONITOR)"], { cwd: root, encoding: 'utf8' });
if (source.status !== 0 || !source.stdout.startsWith('function servingMonitor()')) throw new Error(`could not read SERVING_MONITOR: ${source.stderr.slice(0, 500)}`);
writeFileSync(join(dir, 'monitor.js'), `${source.stdout}\nmodule.exports = servingMonitor;\n`);

// A service with a little work per request (routing, a middleware, JSON of a small list), and the
// bench's controls: the monitor on or off, a window's start and end, exit.
const SERVICE = `const fs = require('node:fs');
const express = require('express');
const servingMonitor = require(${JSON.stringify(join(dir, 'monitor.js'))});
const mainThreadNs = () => Number(fs.readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]);
const windows = [];
const stopped = [];
let monitor = null;
let windowStart = 0;
const app = express();
app.use((req, res, next) => {
  res.set('x-served', '1');
  next();
});
const router = express.Router();
router.get('/tasks/:id', (req, res) => {
  res.json(Array.from({ length: 50 }, (_, i) => ({ id: i, of: req.params.id })));
});
app.use('/v1', router);
// Each answers whether it started or stopped the monitor ('changed') or found it so already ('same').
app.get('/control/monitor-on', (req, res) => {
  const changed = monitor === null;
  if (changed) monitor = servingMonitor();
  res.send(changed ? 'changed' : 'same');
});
app.get('/control/monitor-off', (req, res) => {
  const changed = monitor !== null;
  if (changed) {
    monitor.stop();
    stopped.push(monitor);
    monitor = null;
  }
  res.send(changed ? 'changed' : 'same');
});
app.get('/control/window-start', (req, res) => {
  windowStart = mainThreadNs();
  res.send('started');
});
app.get('/control/window-end', (req, res) => {
  windows.push((mainThreadNs() - windowStart) / 1000);
  res.send(String(windows[windows.length - 1]));
});
app.get('/control/exit', (req, res) => {
  res.send('bye');
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
const server = app.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
`;
writeFileSync(join(dir, 'service.js'), SERVICE);

/** A seeded coin (xorshift32), so a run's order of windows can be drawn again. */
function coin(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return ((x >>> 0) & 1) === 1;
  };
}

function get(port, path, agent) {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path, agent }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (d) => (body += d));
      response.on('end', () => resolve(body));
    });
    request.setTimeout(10_000, () => request.destroy(new Error(`no answer to ${path} in 10 s`)));
    request.on('error', reject);
  });
}

/** `requests` requests, two at a time, as fast as they are answered; resolves with the seconds it took. */
async function flatOut(port, requests) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 2 });
  let sent = 0;
  const started = performance.now();
  const loop = async () => {
    while (sent < requests) await get(port, `/v1/tasks/${sent++ % 100}`, agent);
  };
  try {
    await Promise.all([loop(), loop()]);
  } finally {
    agent.destroy();
  }
  return (performance.now() - started) / 1000;
}

/** `requests` requests at `rate` a second, each sent when due (not when the last was answered). */
async function paced(port, requests, rate) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const started = performance.now();
  let sent = 0;
  const pending = [];
  try {
    await new Promise((resolve, reject) => {
      const timer = setInterval(() => {
        const due = Math.min(requests, Math.floor(((performance.now() - started) / 1000) * rate) + 1);
        while (sent < due) pending.push(get(port, `/v1/tasks/${sent++ % 100}`, agent).catch(reject));
        if (sent === requests) {
          clearInterval(timer);
          resolve();
        }
      }, 1);
    });
    await Promise.all(pending);
  } finally {
    agent.destroy();
  }
}

/** Starts the recorded service; resolves with its port and a function that stops it. */
function startService(name) {
  const child = spawn(process.execPath, [join(root, 'dist/cli.js'), 'record', '--out', join(dir, `profiles-${name}`), '--format', 'json', '--', process.execPath, join(dir, 'service.js')], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_PATH: join(root, 'node_modules'), HOTFRAME_SERVING_NOTES: 'off' },
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const closed = new Promise((resolve) => child.on('close', resolve));
  return new Promise((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`${name}: no port in 30 s: ${stderr.slice(-500)}`));
    }, 30_000);
    child.stdout.on('data', (chunk) => {
      buffered += chunk;
      const line = /\{"port":(\d+)\}/.exec(buffered);
      if (line === null) return;
      clearTimeout(timer);
      child.stdout.removeAllListeners('data');
      const port = Number(line[1]);
      resolve({
        port,
        kill: () => child.kill(),
        async stop() {
          await get(port, '/control/exit').catch(() => undefined);
          const code = await closed;
          if (code !== 0) throw new Error(`${name}: record exited with ${code}: ${stderr.slice(-500)}`);
        },
      });
    });
  });
}

/** One window of the paced load with the monitor on or off (settled first when that started or stopped it); its main-thread CPU in µs. */
async function window(port, rate, monitorOn) {
  const changed = (await get(port, monitorOn ? '/control/monitor-on' : '/control/monitor-off')) === 'changed';
  if (changed && SETTLE > 0) await paced(port, SETTLE, rate);
  await get(port, '/control/window-start');
  await paced(port, WINDOW, rate);
  return Number(await get(port, '/control/window-end'));
}

const quantile = (xs, q) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const pct = (x) => `${(100 * x).toFixed(1)}%`;
const meanAndError = (xs) => {
  const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
  const sd = Math.sqrt(xs.reduce((s, x) => s + (x - mean) ** 2, 0) / (xs.length - 1));
  return `mean ${pct(mean)} ± ${pct(sd / Math.sqrt(xs.length))}`;
};
const flip = coin(0x5eed25);

const withMonitor = [];
const sameAsSame = [];
const usPerRequest = [];
const rates = [];
try {
  for (let p = 0; p < PROCESSES; p++) {
    const service = await startService(`service-${p}`);
    try {
      const seconds = await flatOut(service.port, WARM_UP);
      // Half of what it served flat out: busy about half the time, its loop idle the rest.
      const rate = Math.round(WARM_UP / seconds / 2);
      rates.push(rate);
      const these = [];
      const noise = [];
      for (let i = 0; i < PAIRS; i++) {
        // A pair with the monitor in one window, then a pair with it in neither.
        const order = flip() ? [true, false] : [false, true];
        const cpu = {};
        for (const on of order) cpu[on] = await window(service.port, rate, on);
        these.push((cpu.true - cpu.false) / cpu.false);
        usPerRequest.push(cpu.false / WINDOW);
        // Which of the two counts as the one "with" is drawn too, as the order of the pair above is.
        const [first, second] = [await window(service.port, rate, false), await window(service.port, rate, false)];
        const [a, b] = flip() ? [first, second] : [second, first];
        noise.push((a - b) / b);
      }
      withMonitor.push(...these);
      sameAsSame.push(...noise);
      progress(`process ${p + 1}: ${rate} requests/s, monitor on vs off median ${pct(quantile(these, 0.5))}, off vs off ${pct(quantile(noise, 0.5))}`);
    } catch (error) {
      service.kill();
      throw error;
    }
    await service.stop();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const median = quantile(withMonitor, 0.5);
result({
  metric: `record: main-thread CPU added by the request counter, event-loop monitor and thread-clock readings (Express under record at a fixed rate, half busy; monitor on and off in one process, ${PROCESSES} processes × ${PAIRS} pairs of ${WINDOW}-request windows, ${SETTLE} requests settled after each start or stop, median)`,
  value: Math.round(1000 * median) / 10,
  unit: '%',
  spread: `interquartile ${pct(quantile(withMonitor, 0.25))} to ${pct(quantile(withMonitor, 0.75))}, ${meanAndError(withMonitor)}`,
  sameAsSame: `off against off, the same way: median ${pct(quantile(sameAsSame, 0.5))}, interquartile ${pct(quantile(sameAsSame, 0.25))} to ${pct(quantile(sameAsSame, 0.75))}, ${meanAndError(sameAsSame)}`,
  requestsPerSecond: rates.join(', '),
  usPerRequestWithout: Math.round(10 * quantile(usPerRequest, 0.5)) / 10,
  limit: '<= 3',
  pass: median <= 0.03,
  load: loadavg().map((l) => l.toFixed(2)).join(' '),
});
