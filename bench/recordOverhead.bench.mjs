// What the request counter and the event-loop monitor of a Hotframe recording cost the recorded
// service (issue 25: at most 3% of its CPU at a fixed load).
//
// Two whole recorded runs one after the other, one with the notes and one without, differed by
// more than the notes cost: a short run's CPU for the same requests varied by ±10% (warm-up, JIT
// and GC timing, neighbours on a shared machine). Here old and new run side by side instead: two
// copies of an Express service are recorded by `dist/cli.js record` at once, one with the notes
// and one without (HOTFRAME_SERVING_NOTES=off, the recorder as it was before them). After a
// warm-up, the load goes to one copy and then the other in windows of WINDOW requests, the order
// of each pair of windows drawn by a seeded coin. Each copy measures every window itself: its
// main thread's time on a CPU (the thread's schedstat, in ns; the monitor's work is all on that
// thread, while the profiler's sampling thread and V8's GC helpers, whose time grows with the
// machine's contention, are left out of both) from a window's first request to its last answer.
// Per pair: the CPU the copy with the notes added over the one without, as a share of the latter.
// The figure is the median of all pairs over PROCESSES pairs of copies (a pair of processes can
// carry its own bias, so there is more than one), with the interquartile range and the extremes.
// Requests come two at a time over keep-alive loopback connections, as fast as they are answered.
// Not counted: the idle time between a copy's windows, and writing the notes at exit (once).
// The same comparison is then made between two copies both without the notes (`sameAsSame`): it
// is the method's own noise. On this 2-core VM two processes of the same service settled at CPU
// per request up to 25% apart (JIT and GC), so a figure within that noise says no more than it.
//
// HOTFRAME_BENCH_PROCESSES (default 3), HOTFRAME_BENCH_PAIRS (default 15 per pair of copies),
// HOTFRAME_BENCH_WINDOW (default 1000 requests).
import { spawn } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PROCESSES = Number(process.env.HOTFRAME_BENCH_PROCESSES || 3);
const PAIRS = Number(process.env.HOTFRAME_BENCH_PAIRS || 15);
const WINDOW = Number(process.env.HOTFRAME_BENCH_WINDOW || 1000);
const WARM_UP = 3 * WINDOW; // requests each copy serves before the first measured window
const result = (row) => console.log(JSON.stringify({ bench: 'recordOverhead', ...row }));
const progress = (text) => console.log(`recordOverhead: ${text}`);
const dir = mkdtempSync(join(tmpdir(), 'hotframe-bench-record-'));

// A service with a little work per request (routing, a middleware, JSON of a small list). It
// measures each window of WINDOW requests (after the warm-up) and writes them when asked to exit.
const SERVICE = `const fs = require('node:fs');
const express = require('express');
const mainThreadNs = () => Number(fs.readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]);
const windows = [];
let arrived = 0;
let answered = 0;
let windowStart = 0;
const app = express();
app.use((req, res, next) => {
  if (arrived++ >= ${WARM_UP} && (arrived - ${WARM_UP}) % ${WINDOW} === 1) windowStart = mainThreadNs();
  res.set('x-served', '1');
  next();
});
const router = express.Router();
router.get('/tasks/:id', (req, res) => {
  res.json(Array.from({ length: 50 }, (_, i) => ({ id: i, of: req.params.id })));
  if (++answered > ${WARM_UP} && (answered - ${WARM_UP}) % ${WINDOW} === 0) windows.push((mainThreadNs() - windowStart) / 1000);
});
app.use('/v1', router);
app.get('/exit', (req, res) => {
  res.send('bye');
  fs.writeFileSync(process.argv[2], JSON.stringify(windows));
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

/** `requests` requests to one copy, two at a time on keep-alive connections. */
async function load(port, requests) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 2 });
  let sent = 0;
  const one = (path) => new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path, agent }, (response) => {
      response.resume();
      response.on('end', resolve);
    });
    request.setTimeout(10_000, () => request.destroy(new Error('no answer in 10 s')));
    request.on('error', reject);
  });
  const loop = async () => {
    while (sent < requests) await one(`/v1/tasks/${sent++ % 100}`);
  };
  try {
    await Promise.all([loop(), loop()]);
  } finally {
    agent.destroy();
  }
}

/** Starts one recorded copy; resolves with its port and a function that stops it and answers its windows. */
function startCopy(name, notes) {
  const measured = join(dir, `${name}.json`);
  const child = spawn(process.execPath, [join(root, 'dist/cli.js'), 'record', '--out', join(dir, `profiles-${name}`), '--format', 'json', '--', process.execPath, join(dir, 'service.js'), measured], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_PATH: join(root, 'node_modules'), ...(notes ? {} : { HOTFRAME_SERVING_NOTES: 'off' }) },
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
          await new Promise((done) => http.get({ host: '127.0.0.1', port, path: '/exit' }, (r) => r.resume().on('end', done)).on('error', done));
          const code = await closed;
          if (code !== 0) throw new Error(`${name}: record exited with ${code}: ${stderr.slice(-500)}`);
          return JSON.parse(readFileSync(measured, 'utf8'));
        },
      });
    });
  });
}

const quantile = (xs, q) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const pct = (x) => `${(100 * x).toFixed(1)}%`;
const flip = coin(0x5eed25);

/**
 * PROCESSES pairs of copies, the first of each with the notes when `notes`; per window pair, the
 * first copy's CPU over the second's, less one; and each copy's µs per request.
 */
async function comparePairs(notes, label) {
  const ratios = [];
  const perRequest = { first: [], second: [] };
  for (let p = 0; p < PROCESSES; p++) {
    const copies = [await startCopy(`${label}-a-${p}`, notes), await startCopy(`${label}-b-${p}`, false)];
    try {
      for (const copy of copies) await load(copy.port, WARM_UP);
      for (let i = 0; i < PAIRS; i++) for (const copy of flip() ? copies : [...copies].reverse()) await load(copy.port, WINDOW);
    } catch (error) {
      for (const copy of copies) copy.kill();
      throw error;
    }
    const [first, second] = [await copies[0].stop(), await copies[1].stop()];
    if (first.length !== PAIRS || second.length !== PAIRS) throw new Error(`the copies measured ${first.length} and ${second.length} windows, not ${PAIRS}`);
    const these = first.map((us, i) => (us - second[i]) / second[i]);
    ratios.push(...these);
    perRequest.first.push(...first.map((us) => us / WINDOW));
    perRequest.second.push(...second.map((us) => us / WINDOW));
    progress(`${label}, pair of copies ${p + 1}: median ${pct(quantile(these, 0.5))}, ${quantile(second, 0.5) / WINDOW | 0} µs of main-thread CPU per request in the second copy`);
  }
  return { ratios, perRequest };
}

let notes;
let calibration;
try {
  // The notes against none; then, as the method's own noise, none against none (two copies alike).
  notes = await comparePairs(true, 'notes vs none');
  calibration = await comparePairs(false, 'none vs none');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const ratios = notes.ratios;
const perRequest = { with: notes.perRequest.first, without: notes.perRequest.second };
const median = quantile(ratios, 0.5);
result({
  metric: `record: CPU added by the request counter and event-loop monitor (Express under record, ${PROCESSES} pairs of copies side by side, ${PAIRS} pairs of ${WINDOW}-request windows each, median)`,
  value: Math.round(1000 * median) / 10,
  unit: '%',
  spread: `interquartile ${pct(quantile(ratios, 0.25))} to ${pct(quantile(ratios, 0.75))}, all ${pct(Math.min(...ratios))} to ${pct(Math.max(...ratios))}`,
  withoutUsPerRequest: Math.round(10 * quantile(perRequest.without, 0.5)) / 10,
  withUsPerRequest: Math.round(10 * quantile(perRequest.with, 0.5)) / 10,
  sameAsSame: `two copies without the notes, compared the same way: median ${pct(quantile(calibration.ratios, 0.5))}, interquartile ${pct(quantile(calibration.ratios, 0.25))} to ${pct(quantile(calibration.ratios, 0.75))}`,
  limit: '<= 3',
  pass: median <= 0.03,
  load: loadavg().map((l) => l.toFixed(2)).join(' '),
});
