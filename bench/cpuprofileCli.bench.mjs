// Loading a .cpuprofile nobody here shaped, the whole CLI run (issue 26): `hotframe profile FILE`
// (process start, module load, reading, the report) against a bare `node -e JSON.parse(...)` of
// the same file, on a profile recorded at bench time by `node --cpu-prof` of a real program: the
// TypeScript compiler (the npm package) type-checking this repository. Its call tree is a real
// one (hundreds of thousands of nodes, deep recursive stacks), unlike the bench's generated
// profiles (a small recorded tree copied into modules, then samples). It is made bigger by
// sampling more often (--cpu-prof-interval), never by writing nodes.
//
// Old and new in one run: HOTFRAME_BENCH_BASE=<a built checkout> times its dist/cli.js on the same
// file, the CLIs and JSON.parse alternating over the rounds; min and spread of each.
//   HOTFRAME_BENCH_CPUPROFILE_CLI_MB (default 130): the size of profile to record.
//   HOTFRAME_BENCH_CPUPROFILE_FILE=<file>: time that profile instead (nothing recorded).
//   HOTFRAME_BENCH_CPUPROFILE_KEEP=<file>: a copy of the recorded profile is kept there.
//   HOTFRAME_BENCH_ROUNDS (default 3).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const base = process.env.HOTFRAME_BENCH_BASE || null;
const MB = 1024 * 1024;
const TARGET = Number(process.env.HOTFRAME_BENCH_CPUPROFILE_CLI_MB || 130) * MB;
const ROUNDS = Number(process.env.HOTFRAME_BENCH_ROUNDS || 3);
const tmp = mkdtempSync(join(tmpdir(), 'hotframe-bench-cpuprofile-cli-'));
const result = (row) => console.log(JSON.stringify({ bench: 'cpuprofileCli', ...row }));
const progress = (text) => console.log(`cpuprofileCli: ${text}`);

/** `node --cpu-prof` of tsc checking this repository, sampled every `intervalUs`; the profile's path. */
function record(intervalUs) {
  const dir = join(tmp, `rec-${intervalUs}`);
  const tsc = join(root, 'node_modules/typescript/lib/tsc.js');
  const run = spawnSync(process.execPath, ['--cpu-prof', `--cpu-prof-interval=${intervalUs}`, `--cpu-prof-dir=${dir}`, tsc, '-p', root, '--noEmit'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'], timeout: 15 * 60_000 });
  // tsc exits 0 (no errors) or 1/2 (type errors found): both recorded a whole run.
  if (run.error || run.signal) throw new Error(`recording tsc failed: ${run.error?.message ?? run.signal}`);
  const [file] = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`tsc wrote no profile: ${run.stderr.slice(0, 500)}`);
  return join(dir, file);
}

// The child's own CPU time (user + system), printed as it exits: on a shared machine the wall
// time swings with the neighbours' load, its CPU time much less.
const CPU_PRELOAD = join(tmp, 'cpu.cjs');
writeFileSync(CPU_PRELOAD, "process.on('exit', () => { const u = process.cpuUsage(); process.stderr.write('HOTFRAME_CPU_US ' + (u.user + u.system) + '\\n'); });\n");

/** One run in a fresh node: wall seconds and CPU seconds. */
function timed(args) {
  const started = performance.now();
  const run = spawnSync(process.execPath, ['-r', CPU_PRELOAD, ...args], { encoding: 'utf8', maxBuffer: 256 * MB, stdio: ['ignore', 'pipe', 'pipe'] });
  const s = (performance.now() - started) / 1000;
  if (run.status !== 0) throw new Error(`${args.join(' ')} failed: ${run.stderr.slice(0, 500)}`);
  const cpu = Number(/HOTFRAME_CPU_US (\d+)/.exec(run.stderr)?.[1] ?? NaN) / 1e6;
  return { s, cpu };
}

const spread = (xs) => `${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)} s`;
const PARSE = "JSON.parse(require('node:fs').readFileSync(process.argv[1], 'utf8'))";

try {
  let profile = process.env.HOTFRAME_BENCH_CPUPROFILE_FILE || null;
  let what = 'given profile';
  if (profile === null) {
    // A first recording at 100 µs; if short of the size, once more sampling proportionally more often.
    let interval = 100;
    profile = record(interval);
    const size = statSync(profile).size;
    if (size < TARGET * 0.9) {
      interval = Math.max(10, Math.floor((interval * size) / TARGET));
      profile = record(interval);
    }
    what = `recorded at bench time from tsc checking this repository (--cpu-prof-interval=${interval})`;
    if (process.env.HOTFRAME_BENCH_CPUPROFILE_KEEP) copyFileSync(profile, process.env.HOTFRAME_BENCH_CPUPROFILE_KEEP);
  }
  const size = statSync(profile).size;
  progress(`${(size / MB).toFixed(1)} MB .cpuprofile, ${what}`);
  const runs = { new: [], base: [], parse: [] };
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? ['parse', 'new', 'base'] : ['base', 'new', 'parse'];
    for (const which of order) {
      if (which === 'parse') runs.parse.push(timed(['-e', PARSE, profile]));
      else if (which === 'new') runs.new.push(timed([join(root, 'dist/cli.js'), 'profile', profile]));
      else if (base !== null) runs.base.push(timed([join(base, 'dist/cli.js'), 'profile', profile]));
    }
  }
  const load = loadavg().map((l) => l.toFixed(2)).join(' ');
  const cpus = Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, v.map((r) => r.cpu)]));
  for (const k of Object.keys(runs)) runs[k] = runs[k].map((r) => r.s);
  const best = (xs) => Math.min(...xs);
  progress(`hotframe profile ${spread(runs.new)}${base ? `, base ${spread(runs.base)}` : ''}, node -e JSON.parse ${spread(runs.parse)} (${ROUNDS} rounds, load ${load})`);
  const ratio = best(runs.new) / best(runs.parse);
  const metric = `hotframe profile (whole CLI run), ${(size / MB).toFixed(1)} MB .cpuprofile of tsc recorded at bench time`;
  result({ metric, value: best(runs.new), unit: 's', spread: spread(runs.new), peer: 'node -e JSON.parse(readFileSync)', peerValue: best(runs.parse), peerSpread: spread(runs.parse), ratio, limit: '<= 1.5', aim: '1.1', pass: ratio <= 1.5, load });
  if (base !== null) result({ metric: `${metric}, base checkout`, value: best(runs.base), unit: 's', spread: spread(runs.base), peer: 'node -e JSON.parse(readFileSync)', peerValue: best(runs.parse), ratio: best(runs.base) / best(runs.parse), base, load });
  progress(`CPU time (user + system): hotframe profile ${spread(cpus.new)}${base ? `, base ${spread(cpus.base)}` : ''}, node -e JSON.parse ${spread(cpus.parse)}`);
  result({ metric: `CPU time of that run (user + system), same profile`, value: best(cpus.new), unit: 's', spread: spread(cpus.new), peer: 'node -e JSON.parse(readFileSync)', peerValue: best(cpus.parse), ratio: best(cpus.new) / best(cpus.parse), load });
  if (base !== null) result({ metric: `CPU time of that run (user + system), same profile, base checkout`, value: best(cpus.base), unit: 's', spread: spread(cpus.base), peer: 'node -e JSON.parse(readFileSync)', peerValue: best(cpus.parse), ratio: best(cpus.base) / best(cpus.parse), base, load });
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
