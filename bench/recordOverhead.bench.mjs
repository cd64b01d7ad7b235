// What the request counter, the event-loop monitor and the thread-clock readings of a Hotframe
// recording cost the recorded service (issue 25: at most 3% of its CPU at a fixed load).
//
// Method. The comparison is made inside one process: two copies of the service run side by side
// on this 2-core VM settle at a CPU per request up to 25% apart (JIT and GC), which no number of
// windows averages away. An Express service recorded by `dist/cli.js record` with the notes off
// (HOTFRAME_SERVING_NOTES=off) serves a steady rate of requests (half of what it served flat out in
// its warm-up, so it is about half busy and its loop also sleeps, when a timer costs most), over
// keep-alive loopback connections, while the bench starts and stops the monitor in it between
// windows of WINDOW requests: the same `servingMonitor` source the recorder's preload and
// `hotframe attach` run (server/shared/servingRecorder.ts), whose stop removes every trace of it.
// A stopped monitor's notes stay referenced, as a recording keeps them until it exits.
//
// The service keeps a subscriber that does nothing on the two HTTP channels the monitor listens
// to, in every window. Without it, each start or stop of the monitor would change the channel
// objects' prototype (the first subscriber makes a channel active, the last one's leaving makes it
// inactive again), which throws away the optimised code of the functions that publish on them
// (`parserOnIncoming`, `resOnFinish` of node:_http_server: --trace-deopt); V8 took about 2,250
// requests to optimise them again, which a recording (subscribed before its first request) never
// pays, so the windows had to wait 3,000 requests after each switch (until 2026-11-30) and were
// few and long. With the keeper the switch costs nothing lasting, and the windows are short and
// many. What the keeper hides is what any subscriber costs a request's publishing (an object of
// four members and a call: about 0.1 µs of a request's few hundred).
//
// Before each window the service runs a full garbage collection (not measured), so that an old-
// space collection does not fall in one window of a four and not in the others: what the monitor
// adds to the young collections (its records promoted) is in the windows; what its kept records
// add to marking the old space is not (marking tens of thousands of small arrays: well under 1 ms
// a collection, and the old space is collected far less often than the young).
//
// Windows come in fours, A B B A or B A A B by a seeded coin (a linear drift of the machine falls
// on both arms alike), A the monitor and B none; per four, the main-thread CPU of the A windows over
// that of the B windows, less one. Between them, fours in which A is none as well: the method's own
// noise, which must centre on zero. Main-thread CPU is the thread's own clock (schedstat: user and
// kernel time, in ns): the monitor's work is all on that thread, while the profiler's sampling
// thread and V8's GC helpers, whose time grows with the machine's contention, are left out (their
// share is also printed: the whole process's user+system time). This VM has no hardware counters
// (`perf stat -e instructions`: not supported), so instructions cannot be counted. (How often the
// main thread slept was tried as a count of the timer's wakes: it is confounded, a busier thread
// finds more requests waiting and sleeps less often, and it fell with every monitor. Each arm's
// lower quartile of window CPU was tried too: off against off it read +2.6%, no steadier.) So the
// figure is CPU time, and what tells it apart is the count of fours: at a load of 4-8 on this VM
// one four's figure spreads over ±6% (off against off), the mean of 30 by about ±1.7%.
//
// With HOTFRAME_BENCH_BASE (another checkout, e.g. a worktree of main; or a file holding a
// `servingMonitor` source) its monitor is measured too, in the same processes, its fours
// interleaved with this checkout's: old and new in one run. HOTFRAME_BENCH_ALSO=name=file,...
// adds more monitors the same way (variants, to see which part of a monitor costs).
//
// After the loaded fours, each process also serves nothing for a while: fours of IDLE_MS windows with
// no requests, the monitor on and off the same way, give what its timer alone costs a second when
// every tick wakes a sleeping loop (HOTFRAME_BENCH_IDLE_FOURS, default 3 a process; 0 for none);
// over the loaded service's main-thread CPU a second, that bounds the timer's share from above.
//
// HOTFRAME_BENCH_PROCESSES (default 2), HOTFRAME_BENCH_FOURS (default 15 of each kind per process),
// HOTFRAME_BENCH_WINDOW (default 600 requests), HOTFRAME_BENCH_SETTLE (default 200 requests after
// each start or stop, not measured, so the monitor's own code is warm), HOTFRAME_BENCH_MONITOR (a
// file holding another `servingMonitor` source to measure instead of this checkout's, e.g. a
// variant being tried).
import { spawn, spawnSync } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PROCESSES = Number(process.env.HOTFRAME_BENCH_PROCESSES || 2);
const FOURS = Number(process.env.HOTFRAME_BENCH_FOURS || 15);
const WINDOW = Number(process.env.HOTFRAME_BENCH_WINDOW || 600);
const SETTLE = Number(process.env.HOTFRAME_BENCH_SETTLE ?? 200);
const IDLE_FOURS = Number(process.env.HOTFRAME_BENCH_IDLE_FOURS ?? 3);
const IDLE_MS = 2000;
const WARM_UP = 6000; // requests each process serves flat out before the first measured window
const result = (row) => console.log(JSON.stringify({ bench: 'recordOverhead', ...row }));
const progress = (text) => console.log(`recordOverhead: ${text}`);
const dir = mkdtempSync(join(tmpdir(), 'hotframe-bench-record-'));

/** A checkout's `servingMonitor` source (from the module the recorder is built from), or a file's. */
function monitorSource(from) {
  const source = statSync(from).isFile()
    ? { status: 0, stdout: readFileSync(from, 'utf8'), stderr: '' }
    : spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', "const m = await import('./server/shared/servingRecorder.ts'); process.stdout.write(m.SERVING_MONITOR ?? m.default.SERVING_MONITOR)"], { cwd: from, encoding: 'utf8' });
  if (source.status !== 0 || !source.stdout.startsWith('function servingMonitor()')) throw new Error(`could not read SERVING_MONITOR from ${from}: ${source.stderr.slice(0, 500)}`);
  return source.stdout;
}
const monitors = { new: monitorSource(process.env.HOTFRAME_BENCH_MONITOR ? resolve(process.env.HOTFRAME_BENCH_MONITOR) : root) };
if (process.env.HOTFRAME_BENCH_BASE) monitors.old = monitorSource(resolve(process.env.HOTFRAME_BENCH_BASE));
for (const also of (process.env.HOTFRAME_BENCH_ALSO || '').split(',').filter(Boolean)) {
  const [name, file] = also.split('=');
  if (!/^[a-z][a-z0-9-]*$/.test(name) || name in monitors || name === 'none' || name === 'off' || !file) throw new Error(`HOTFRAME_BENCH_ALSO: name=file[,name=file...], not ${also}`);
  monitors[name] = monitorSource(resolve(file));
}
for (const [name, source] of Object.entries(monitors)) writeFileSync(join(dir, `monitor-${name}.js`), `${source}\nmodule.exports = servingMonitor;\n`);

// A service with a little work per request (routing, a middleware, JSON of a small list), and the
// bench's controls: a monitor on or off, a window's start and end, exit.
const SERVICE = `const fs = require('node:fs');
const channels = require('node:diagnostics_channel');
const express = require('express');
const monitors = { ${Object.keys(monitors).map((name) => `${JSON.stringify(name)}: require(${JSON.stringify(join(dir, `monitor-${name}.js`))})`).join(', ')} };
// The keeper (see the bench's header): the channels stay active whatever the monitor does.
const keeper = () => {};
channels.subscribe('http.server.request.start', keeper);
channels.subscribe('http.server.response.finish', keeper);
const mainThreadNs = () => Number(fs.readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]);
const processUs = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
const stopped = [];
let monitor = null;
let running = 'off';
let start = null;
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
// Answers whether it changed which monitor runs ('changed') or found it so already ('same').
app.get('/control/monitor/:name', (req, res) => {
  const name = req.params.name;
  if (name === running) return res.send('same');
  if (monitor !== null) {
    monitor.stop();
    stopped.push(monitor);
    monitor = null;
  }
  if (name !== 'off') monitor = monitors[name]();
  running = name;
  res.send('changed');
});
app.get('/control/window-start', (req, res) => {
  // A full collection first, so that none falls in one window and not the next (see the header).
  global.gc();
  start = { threadNs: mainThreadNs(), processUs: processUs(), at: process.hrtime.bigint() };
  res.send('started');
});
app.get('/control/window-end', (req, res) => {
  res.json({ threadUs: (mainThreadNs() - start.threadNs) / 1000, processUs: processUs() - start.processUs, seconds: Number(process.hrtime.bigint() - start.at) / 1e9 });
});
// An idle window: no requests for \`ms\`; the main thread's CPU over it, in µs.
app.get('/control/idle-window/:ms', (req, res) => {
  const before = mainThreadNs();
  setTimeout(() => res.send(String((mainThreadNs() - before) / 1000)), Number(req.params.ms));
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
  const child = spawn(process.execPath, [join(root, 'dist/cli.js'), 'record', '--out', join(dir, `profiles-${name}`), '--format', 'json', '--', process.execPath, '--expose-gc', join(dir, 'service.js')], {
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

/** One window of the paced load with `name` running (settled first when that started or stopped a monitor); what the process measured over it. */
async function window(port, rate, name) {
  const changed = (await get(port, `/control/monitor/${name}`)) === 'changed';
  if (changed && SETTLE > 0) await paced(port, SETTLE, rate);
  await get(port, '/control/window-start');
  await paced(port, WINDOW, rate);
  return JSON.parse(await get(port, '/control/window-end'));
}

const quantile = (xs, q) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const pct = (x) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}%`;
const meanAndError = (xs) => {
  const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
  const sd = Math.sqrt(xs.reduce((s, x) => s + (x - mean) ** 2, 0) / (xs.length - 1));
  return { mean, error: sd / Math.sqrt(xs.length) };
};
const summary = (xs) => {
  const { mean, error } = meanAndError(xs);
  return `median ${pct(quantile(xs, 0.5))}, interquartile ${pct(quantile(xs, 0.25))} to ${pct(quantile(xs, 0.75))}, mean ${pct(mean)} ± ${pct(error)}`;
};
const flip = coin(0x5eed25);

// Per kind of four (a monitor's name, or 'none' for the off-against-off fours): the main thread's
// CPU added per four, and the whole process's.
const kinds = [...Object.keys(monitors), 'none'];
const added = Object.fromEntries(kinds.map((k) => [k, { thread: [], process: [] }]));
const idle = Object.fromEntries(kinds.map((k) => [k, []]));
const usPerRequest = [];
const rates = [];
const loads = [loadavg()[0]];
const sum = (ws, key) => ws.reduce((s, w) => s + w[key], 0);
try {
  for (let p = 0; p < PROCESSES; p++) {
    const service = await startService(`service-${p}`);
    try {
      const seconds = await flatOut(service.port, WARM_UP);
      // Half of what it served flat out: busy about half the time, its loop idle the rest.
      const rate = Math.round(WARM_UP / seconds / 2);
      rates.push(rate);
      for (let i = 0; i < FOURS; i++) {
        for (const kind of kinds) {
          const a = kind === 'none' ? 'off' : kind;
          const order = flip() ? [a, 'off', 'off', a] : ['off', a, a, 'off'];
          const windows = [];
          for (const name of order) windows.push(await window(service.port, rate, name));
          // The A windows are the first and last of the four, or the middle two.
          const [on, off] = order[0] === a ? [[windows[0], windows[3]], [windows[1], windows[2]]] : [[windows[1], windows[2]], [windows[0], windows[3]]];
          added[kind].thread.push(sum(on, 'threadUs') / sum(off, 'threadUs') - 1);
          added[kind].process.push(sum(on, 'processUs') / sum(off, 'processUs') - 1);
          usPerRequest.push(sum(off, 'threadUs') / (2 * WINDOW));
        }
        loads.push(loadavg()[0]);
      }
      // Idle: no requests, so the monitor's cost is its timer alone, every tick a wake.
      for (let i = 0; i < IDLE_FOURS; i++) {
        for (const kind of kinds) {
          const a = kind === 'none' ? 'off' : kind;
          const order = flip() ? [a, 'off', 'off', a] : ['off', a, a, 'off'];
          const cpu = [];
          for (const name of order) {
            await get(service.port, `/control/monitor/${name}`);
            cpu.push(Number(await get(service.port, `/control/idle-window/${IDLE_MS}`)));
          }
          const [on, off] = order[0] === a ? [cpu[0] + cpu[3], cpu[1] + cpu[2]] : [cpu[1] + cpu[2], cpu[0] + cpu[3]];
          idle[kind].push((on - off) / 2 / (IDLE_MS / 1000));
        }
      }
      progress(`process ${p + 1}: ${rate} requests/s; ${kinds.map((k) => `${k} ${pct(quantile(added[k].thread.slice(-FOURS), 0.5))}`).join(', ')} (median main-thread CPU added)`);
    } catch (error) {
      service.kill();
      throw error;
    }
    await service.stop();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const summary2 = (k) => summary(added[k].thread);
const median = quantile(added.new.thread, 0.5);
const serviceUsPerSecond = quantile(usPerRequest, 0.5) * (rates.reduce((s, r) => s + r, 0) / rates.length);
result({
  metric: `record: main-thread CPU added by the request counter, event-loop monitor and thread-clock readings (Express under record at a fixed rate, half busy; monitor on and off in one process, ${PROCESSES} processes × ${FOURS} fours of ${WINDOW}-request windows, A B B A, median)`,
  value: Math.round(1000 * median) / 10,
  unit: '%',
  spread: summary2('new'),
  ...(monitors.old ? { base: `the base's monitor, in the same processes: ${summary2('old')}` } : {}),
  ...Object.fromEntries(Object.keys(monitors).filter((k) => k !== 'new' && k !== 'old').map((k) => [k, summary2(k)])),
  sameAsSame: `off against off, the same way: ${summary2('none')}`,
  processCpu: `whole process (all threads): ${summary(added.new.process)}; off against off ${summary(added.none.process)}`,
  ...(IDLE_FOURS > 0 ? { idleTimer: `main-thread CPU a second added while no requests come (the timer alone, every tick a wake; ${IDLE_FOURS} fours of ${IDLE_MS / 1000} s windows a process, median): ${kinds.map((k) => `${k} ${Math.round(quantile(idle[k], 0.5))} µs/s`).join(', ')}` } : {}),
  // The timer's share of the loaded service's main-thread CPU if every tick still woke the loop: a
  // bound from above on the timer's part (under load some ticks find the loop awake), steadier
  // than the fours because an idle window's CPU is small and little else runs in it.
  ...(IDLE_FOURS > 0 ? { timerBound: `the idle timer's CPU over the loaded service's (${Math.round(serviceUsPerSecond / 1000)} ms a second): ${kinds.filter((k) => k !== 'none').map((k) => `${k} ${pct(quantile(idle[k], 0.5) / serviceUsPerSecond)}`).join(', ')}` } : {}),
  requestsPerSecond: rates.join(', '),
  usPerRequestWithout: Math.round(10 * quantile(usPerRequest, 0.5)) / 10,
  limit: '<= 3',
  pass: median <= 0.03,
  load: `1-minute load ${Math.min(...loads).toFixed(2)}-${Math.max(...loads).toFixed(2)}`,
});
