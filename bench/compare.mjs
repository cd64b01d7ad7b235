// Old and new in one run: runs each bench file in two checkouts (a base, e.g. a worktree of the
// previous release, and this one), alternating which goes first each round so neither always
// meets a warm or a busy machine first, and prints each metric's value in both with the spread
// over the rounds. Both checkouts must be built (`npm run build` in each).
//
//   git worktree add /tmp/base <commit> && (cd /tmp/base && npm ci && npm run build)
//   node bench/compare.mjs --base /tmp/base --rounds 3 lspLatency profile
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const head = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values, positionals } = parseArgs({
  options: { base: { type: 'string' }, rounds: { type: 'string', default: '2' } },
  allowPositionals: true,
});
if (values.base === undefined) {
  console.error('usage: node bench/compare.mjs --base <checkout> [--rounds N] [bench names...]');
  process.exit(2);
}
const base = resolve(values.base);
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) {
  console.error(`--rounds must be a positive integer, not ${values.rounds}`);
  process.exit(2);
}

const benchFiles = (root) => readdirSync(join(root, 'bench')).filter((f) => f.endsWith('.bench.mjs'));
const files = benchFiles(head)
  .filter((f) => existsSync(join(base, 'bench', f)))
  .filter((f) => positionals.length === 0 || positionals.some((p) => f.includes(p)))
  .sort();

/** Runs one bench file in one checkout; its result lines, by metric. */
function run(root, file) {
  const child = spawnSync(process.execPath, ['--expose-gc', join(root, 'bench', file)], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
  if (child.status !== 0) process.stderr.write(`${file} in ${root} exited with ${child.status}\n`);
  const rows = new Map();
  for (const line of child.stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const row = JSON.parse(line);
      // A row that states its own spread ("(median of 3, 1.2-1.5 s)") or the size of an input
      // recorded in the run ("41.3 MB raw V8 log") is keyed without it, so the same metric of
      // every run and checkout lines up.
      const metric = String(row.metric).replace(/ \(median of [^)]*\)/, '');
      rows.set(metric.replace(/\b\d+(\.\d+)? MB\b/g, 'N MB'), { ...row, metric });
    } catch {
      // progress, not a result line
    }
  }
  return rows;
}

/** metric -> { name, base: number[], head: number[], unit, ratio: { base: number[], head: number[] } } (ratio: to the row's peer, measured in the same run) */
const seen = new Map();
for (const file of files) {
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? [['base', base], ['head', head]] : [['head', head], ['base', base]];
    for (const [side, root] of order) {
      process.stderr.write(`== ${file} round ${round + 1}/${rounds}: ${side}\n`);
      for (const [metric, row] of run(root, file)) {
        if (typeof row.value !== 'number') continue;
        const entry = seen.get(metric) ?? { name: row.metric, base: [], head: [], unit: row.unit ?? '', ratio: { base: [], head: [] } };
        entry[side].push(row.value);
        if (typeof row.ratio === 'number' && row.peer) entry.ratio[side].push(row.ratio);
        seen.set(metric, entry);
      }
    }
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (v) => (Math.abs(v) >= 100 ? v.toFixed(0) : v.toPrecision(3));
const spread = (xs) => (xs.length > 1 ? ` (${fmt(Math.min(...xs))}-${fmt(Math.max(...xs))})` : '');
console.log(`| benchmark | base ${base} | head | head / base | ratio to the row's peer, base → head |`);
console.log('|---|---|---|---|---|');
for (const { name, base: b, head: h, unit, ratio: r } of seen.values()) {
  if (b.length === 0 || h.length === 0) continue;
  const ratio = median(b) === 0 ? '' : (median(h) / median(b)).toFixed(2);
  const toPeer = r.base.length > 0 && r.head.length > 0 ? `${fmt(median(r.base))}${spread(r.base)} → ${fmt(median(r.head))}${spread(r.head)}` : '';
  console.log(`| ${name} | ${fmt(median(b))} ${unit}${spread(b)} | ${fmt(median(h))} ${unit}${spread(h)} | ${ratio} | ${toPeer} |`);
}
