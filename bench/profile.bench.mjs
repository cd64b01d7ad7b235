// Profile readers (issue 3). Generates its inputs in a temp dir (nothing is committed):
//  - a >= 100 MB .cpuprofile, scaled up from the recorded test/fixtures/profiles/service.cpuprofile
//    by replicating its call tree into many modules (distinct urls) and replaying its samples;
//  - a >= 25 MB raw V8 log, recorded with `node --prof` from a generated deep-stack workload.
// Then, each in a fresh child process (min of 2 runs): loadProfile vs bare JSON.parse of the
// same file, loadProfile vs `node --prof-process`, and peak RSS vs file size. The JS self ticks
// of the big log are also compared with what prof-process printed for it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { writeBigCpuprofile } from './bigCpuprofile.mjs';
import { writeBigTrace } from './bigTrace.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tmp = mkdtempSync(join(tmpdir(), 'hotframe-bench-profile-'));
const MB = 1024 * 1024;
const CPUPROFILE_BYTES = Number(process.env.HOTFRAME_BENCH_CPUPROFILE_MB || 110) * MB;
const LOG_BYTES = Number(process.env.HOTFRAME_BENCH_LOG_MB || 40) * MB;
// HOTFRAME_BENCH_PROFILE=cpuprofile, =log or =big runs one part (the log part waits ~1-2 min for
// prof-process; the big part writes and reads GB-sized files for several minutes).
const PARTS = (process.env.HOTFRAME_BENCH_PROFILE || 'cpuprofile,log,big').split(',');
// Past JSON.parse's reach (V8 strings end near 512 MB): a .cpuprofile and a trace of each size, read streamed.
const BIG_MB = (process.env.HOTFRAME_BENCH_BIG_MB || '1024,2048').split(',').map(Number);

const result = (row) => console.log(JSON.stringify({ bench: 'profile', ...row }));
const progress = (text) => console.log(`profile: ${text}`);

/** A workload with deep, varied JS stacks (handlers calling handlers through a table, so they are not inlined). */
function writeDeepWorkload(path) {
  const handlers = [];
  for (let k = 0; k < 40; k++) {
    handlers.push(`function handler${k}(depth, i) {
  if (depth === 0) return leaf(i);
  const next = table[(i * 7 + depth + ${k}) % table.length];
  return next(depth - 1, i + 1) + 1;
}`);
  }
  writeFileSync(
    path,
    `'use strict';
${handlers.join('\n')}
const table = [${handlers.map((_, k) => `handler${k}`).join(', ')}];
function getTimestamp() {
  return Date.now();
}
function leaf(i) {
  let s = 0;
  for (let j = 0; j < 30; j++) s += (getTimestamp() % 3) + JSON.stringify({ i, j }).length;
  return s;
}
const end = Date.now() + Number(process.env.MS);
let k = 0;
let out = 0;
while (Date.now() < end) out += table[k % table.length](60 + (k++ % 120), k);
process.stdout.write(out > 0 ? '' : 'never\\n');
`,
  );
}

function recordBigLog(path, targetBytes) {
  const script = join(tmp, 'deep-service.js');
  writeDeepWorkload(script);
  let ms = 5000;
  for (let attempt = 0; attempt < 4; attempt++) {
    const run = spawnSync(process.execPath, ['--prof', '--prof-sampling-interval=250', '--no-logfile-per-isolate', `--logfile=${path}`, script], { env: { ...process.env, MS: String(ms) }, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`recording failed: ${run.stderr}`);
    const size = statSync(path).size;
    if (size >= targetBytes) return;
    ms = Math.ceil((ms * targetBytes * 1.15) / size);
  }
  throw new Error(`could not record a ${targetBytes} byte log`);
}

/** Runs `code` in a fresh node; it prints one JSON line. Returns that object plus the child's peak RSS. */
function child(code, args) {
  const run = spawnSync(process.execPath, ['-e', code, ...args], { encoding: 'utf8', maxBuffer: 256 * MB });
  if (run.status !== 0) throw new Error(`child failed: ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').pop());
}

const RSS = 'const rss = process.resourceUsage().maxRSS * 1024; const cpu = (process.cpuUsage().user + process.cpuUsage().system) / 1e6;';
const PARSE = `const { readFileSync } = require('node:fs');
const t = performance.now();
let j = JSON.parse(readFileSync(process.argv[1], 'utf8'));
const s = (performance.now() - t) / 1000;
${RSS}
console.log(JSON.stringify({ s, rss, keys: Object.keys(j).length }));`;
const LOAD = `const { loadProfile } = require(process.argv[2]);
const t = performance.now();
// 'self': prof-process's folded view (inlined functions counted in their callers), to compare with it.
loadProfile(process.argv[1], process.argv[3] === 'self' ? { inlinedFrames: false } : {}).then((p) => {
  const s = (performance.now() - t) / 1000;
  ${RSS}
  const self = {};
  if (process.argv[3] === 'self') for (let i = 1; i < p.tree.count; i++) {
    const f = p.functions[p.tree.func[i]];
    if (f.url === '' || p.tree.selfSamples[i] === 0) continue;
    const key = f.url + ':' + f.line + ':' + f.column;
    self[key] = (self[key] || 0) + p.tree.selfSamples[i];
  }
  console.log(JSON.stringify({ s, rss, cpu, samples: p.samples, nodes: p.tree.count, warnings: p.warnings.length, self }));
});`;

const best = (runs) => runs.reduce((a, b) => (b.s < a.s ? b : a));
const repeat = (n, f) => best(Array.from({ length: n }, f));
const mb = (bytes) => Math.round((bytes / MB) * 10) / 10;

try {
  const loader = join(tmp, 'load.cjs');
  buildSync({ entryPoints: [join(root, 'server/profile/readers/load.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: loader, logLevel: 'warning' });

  // --- .cpuprofile ---
  if (PARTS.includes('cpuprofile')) {
  const cpuprofile = join(tmp, 'big.cpuprofile');
  const shape = writeBigCpuprofile(cpuprofile, CPUPROFILE_BYTES);
  const cpuSize = statSync(cpuprofile).size;
  progress(`generated ${mb(cpuSize)} MB cpuprofile: ${shape.nodes} nodes, ${shape.samples} samples`);
  const parse = repeat(2, () => child(PARSE, [cpuprofile]));
  const load = repeat(2, () => child(LOAD, [cpuprofile, loader]));
  progress(`cpuprofile: JSON.parse ${parse.s.toFixed(2)} s (peak RSS ${mb(parse.rss)} MB), loadProfile ${load.s.toFixed(2)} s (${load.samples} samples, ${load.nodes} tree nodes)`);
  result({ metric: `loadProfile, ${mb(cpuSize)} MB .cpuprofile`, value: load.s, unit: 's', peer: 'JSON.parse(readFileSync)', peerValue: parse.s, ratio: load.s / parse.s, limit: '<= 2.5', aim: '1.5', pass: load.s / parse.s <= 2.5 });
  result({ metric: 'peak RSS loading the .cpuprofile / file size', value: mb(load.rss), unit: 'MB', peer: 'file size', peerValue: mb(cpuSize), ratio: load.rss / cpuSize, limit: '<= 3', pass: load.rss / cpuSize <= 3 });
  rmSync(cpuprofile);
  }

  // --- raw V8 log ---
  if (PARTS.includes('log')) {
  const log = join(tmp, 'big.v8.log');
  recordBigLog(log, LOG_BYTES);
  const logSize = statSync(log).size;
  progress(`recorded ${mb(logSize)} MB V8 log`);
  const read = repeat(2, () => child(LOAD, [log, loader, 'time']));
  const started = performance.now();
  const prof = spawnSync(process.execPath, ['--prof-process', log], { encoding: 'utf8', maxBuffer: 256 * MB });
  const profSeconds = (performance.now() - started) / 1000;
  if (prof.status !== 0) throw new Error(`--prof-process failed: ${prof.stderr}`);
  progress(`V8 log: loadProfile ${read.s.toFixed(2)} s (${read.samples} ticks), node --prof-process ${profSeconds.toFixed(1)} s`);
  result({ metric: `loadProfile, ${mb(logSize)} MB raw V8 log`, value: read.s, unit: 's', peer: 'node --prof-process', peerValue: profSeconds, ratio: read.s / profSeconds, limit: '<= 0.1', aim: '0.03', pass: read.s / profSeconds <= 0.1 });
  result({ metric: 'peak RSS loading the V8 log / file size', value: mb(read.rss), unit: 'MB', peer: 'file size', peerValue: mb(logSize), ratio: read.rss / logSize, limit: '<= 3', pass: read.rss / logSize <= 3 });

  // Same log, same answer: JS self ticks per function against prof-process's flat list.
  const expected = {};
  const section = prof.stdout.split('\n [JavaScript]:\n')[1]?.split('\n\n')[0] ?? '';
  for (const row of section.split('\n').slice(1)) {
    const m = /^\s*(\d+)\s+[\d.]+%\s+[\d.]+%\s+(\w+): [~*^+]?.*?(\S+:\d+:\d+)$/.exec(row);
    if (m && m[2] !== 'Builtin' && m[2] !== 'RegExp' && !m[3].startsWith(':')) expected[m[3]] = (expected[m[3]] ?? 0) + Number(m[1]);
  }
  const folded = child(LOAD, [log, loader, 'self']).self;
  const keys = new Set([...Object.keys(expected), ...Object.keys(folded)]);
  const differing = [...keys].filter((k) => (expected[k] ?? 0) !== (folded[k] ?? 0));
  progress(`agreement: ${keys.size} JS functions, ${differing.length} differ${differing.length ? `: ${differing.slice(0, 5).join(', ')}` : ''}`);
  result({ metric: 'JS functions whose self ticks differ from prof-process (big log)', value: differing.length, unit: 'functions', peer: 'JS functions compared', peerValue: keys.size, limit: '0', pass: differing.length === 0 });
  }
  // --- past JSON.parse's reach: 1 GB and 2 GB, .cpuprofile and trace, streamed ---
  if (PARTS.includes('big')) {
    for (const size of BIG_MB) {
      const limit = size <= 1024 ? 10 : 20;
      for (const [kind, write] of [['.cpuprofile', writeBigCpuprofile], ['trace (ProfileChunk events)', writeBigTrace]]) {
        const path = join(tmp, kind === '.cpuprofile' ? 'huge.cpuprofile' : 'huge.trace.json');
        const shape = write(path, size * MB);
        const bytes = statSync(path).size;
        const parse = spawnSync(process.execPath, ['-e', PARSE, path], { encoding: 'utf8' });
        const parseFailure = parse.status === 0 ? 'read' : (/Error: (.*)/.exec(parse.stderr)?.[1] ?? `exit ${parse.status}`);
        progress(`generated ${mb(bytes)} MB ${kind}: ${shape.nodes} nodes, ${shape.samples} samples; JSON.parse(readFileSync): ${parseFailure}`);
        let load;
        try {
          load = child(LOAD, [path, loader]);
        } catch (error) {
          progress(`${kind}: ${String(error.message).split('\n').find((l) => l.includes('Error')) ?? error.message}`);
          result({ metric: `loadProfile, ${mb(bytes)} MB ${kind}`, value: 'failed', unit: 's', limit: `<= ${limit}`, pass: false });
          rmSync(path);
          continue;
        }
        progress(`${kind}: loadProfile ${load.s.toFixed(2)} s (CPU ${load.cpu.toFixed(2)} s), peak RSS ${mb(load.rss)} MB, ${load.samples} samples, ${load.nodes} tree nodes`);
        result({ metric: `loadProfile, ${mb(bytes)} MB ${kind}, streamed`, value: load.s, unit: 's', peer: 'JSON.parse(readFileSync)', peerValue: parse.status === 0 ? undefined : 'fails', limit: `<= ${limit}`, pass: load.s <= limit });
        result({ metric: `CPU time of that load (user + system; the machine's load does not inflate it), ${mb(bytes)} MB ${kind}`, value: load.cpu, unit: 's' });
        result({ metric: `peak RSS loading the ${mb(bytes)} MB ${kind} / file size`, value: mb(load.rss), unit: 'MB', peer: 'file size', peerValue: mb(bytes), ratio: load.rss / bytes, limit: '<= 1.5', pass: load.rss / bytes <= 1.5 });
        rmSync(path);
      }
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
