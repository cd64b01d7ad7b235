// What the request counter and the event-loop monitor of `hotframe record` cost the recorded
// service (issue 25): an Express service recorded by `dist/cli.js record` serves a fixed load (the
// same requests, two at a time, on loopback), once with the serving notes (requests and loop gaps
// beside the profile) and once without (HOTFRAME_SERVING_NOTES=off: the recorder as it was before
// them), alternating which goes first each round. The service measures its own CPU time
// (process.cpuUsage from listening to exit, user + system: start-up, the same in both and no
// request's, would dilute the share) and wall time under the load; the metric is the CPU
// added by the notes, as a share of the CPU without them, median of the rounds with the spread.
// The machine this runs on may be shared: the spread says how far one round is from another.
//
// HOTFRAME_BENCH_ROUNDS (default 3), HOTFRAME_BENCH_REQUESTS (default 4000).
import { spawn } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = Number(process.env.HOTFRAME_BENCH_ROUNDS || 3);
const REQUESTS = Number(process.env.HOTFRAME_BENCH_REQUESTS || 4000);
const result = (row) => console.log(JSON.stringify({ bench: 'recordOverhead', ...row }));
const progress = (text) => console.log(`recordOverhead: ${text}`);
const dir = mkdtempSync(join(tmpdir(), 'hotframe-bench-record-'));

// A service with a little work per request (routing, a middleware, JSON of a small list).
const SERVICE = `const fs = require('node:fs');
const express = require('express');
const app = express();
app.use((req, res, next) => { res.set('x-served', '1'); next(); });
const router = express.Router();
router.get('/tasks/:id', (req, res) => res.json(Array.from({ length: 50 }, (_, i) => ({ id: i, of: req.params.id }))));
app.use('/v1', router);
app.get('/exit', (req, res) => {
  res.send('bye');
  const { user, system } = process.cpuUsage(cpuAtListen);
  fs.writeFileSync(process.argv[2], JSON.stringify({ cpuUs: user + system, wallMs: performance.now() - started }));
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
let started = 0;
let cpuAtListen;
const server = app.listen(0, '127.0.0.1', () => { started = performance.now(); cpuAtListen = process.cpuUsage(); console.log(JSON.stringify({ port: server.address().port })); });
`;
writeFileSync(join(dir, 'service.js'), SERVICE);

function load(port) {
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
    while (sent < REQUESTS) await one(`/v1/tasks/${sent++ % 100}`);
  };
  return Promise.all([loop(), loop()]).finally(() => agent.destroy());
}

/** One recorded run of the service under the load; its own CPU and wall time. */
function run(notes) {
  const measured = join(dir, `measured-${notes ? 'notes' : 'plain'}.json`);
  const child = spawn(process.execPath, [join(root, 'dist/cli.js'), 'record', '--out', join(dir, 'profiles'), '--format', 'json', '--', process.execPath, join(dir, 'service.js'), measured], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_PATH: join(root, 'node_modules'), ...(notes ? {} : { HOTFRAME_SERVING_NOTES: 'off' }) },
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    let buffered = '';
    let loaded = false;
    child.stdout.on('data', async (chunk) => {
      buffered += chunk;
      const line = /\{"port":(\d+)\}/.exec(buffered);
      if (line === null || loaded) return;
      loaded = true;
      try {
        await load(Number(line[1]));
        await new Promise((done) => http.get({ host: '127.0.0.1', port: Number(line[1]), path: '/exit' }, (r) => r.resume().on('end', done)).on('error', done));
      } catch (error) {
        child.kill();
        reject(error);
      }
    });
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`record exited with ${code}: ${stderr.slice(-500)}`));
      resolve(JSON.parse(readFileSync(measured, 'utf8')));
    });
  });
}

const ratios = [];
const rows = { notes: [], plain: [] };
try {
  for (let round = 0; round < ROUNDS; round++) {
    const pair = {};
    for (const notes of round % 2 === 0 ? [true, false] : [false, true]) pair[notes ? 'notes' : 'plain'] = await run(notes);
    rows.notes.push(pair.notes);
    rows.plain.push(pair.plain);
    ratios.push((pair.notes.cpuUs - pair.plain.cpuUs) / pair.plain.cpuUs);
    progress(`round ${round + 1}: CPU ${(pair.plain.cpuUs / 1000).toFixed(0)} ms without the notes, ${(pair.notes.cpuUs / 1000).toFixed(0)} ms with (${(100 * ratios.at(-1)).toFixed(1)}%); wall ${pair.plain.wallMs.toFixed(0)} / ${pair.notes.wallMs.toFixed(0)} ms`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (x) => `${(100 * x).toFixed(1)}%`;
const loadAverage = loadavg().map((l) => l.toFixed(2)).join(' ');
result({
  metric: `record: CPU added by the request counter and event-loop monitor (${REQUESTS} requests to Express, median of ${ROUNDS})`,
  value: Math.round(1000 * median(ratios)) / 10,
  unit: '%',
  spread: `${pct(Math.min(...ratios))} to ${pct(Math.max(...ratios))}`,
  withoutMs: median(rows.plain.map((r) => r.cpuUs / 1000)),
  withMs: median(rows.notes.map((r) => r.cpuUs / 1000)),
  limit: '<= 3',
  pass: median(ratios) <= 0.03,
  load: loadAverage,
});
