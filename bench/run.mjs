// Runs every bench/*.bench.mjs in its own process, one after another (2 cores: never in
// parallel), and prints the README's table. A bench prints one JSON object per line:
//   {"bench":"static","metric":"hotframe analyze vs ESLint","value":1.23,"unit":"s",
//    "peer":"eslint 9","peerValue":2.46,"ratio":0.5,"limit":"<= 1.0","aim":"0.5","pass":true}
// Anything else it prints is passed through as progress.
import { spawnSync } from 'node:child_process';
import { readdirSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.mjs'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

const rows = [];
let failed = false;
for (const file of files) {
  process.stderr.write(`\n== ${file}\n`);
  const run = spawnSync(process.execPath, ['--expose-gc', join(here, file)], {
    cwd: join(here, '..'),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
  for (const line of run.stdout.split('\n')) {
    if (line.startsWith('{')) {
      try {
        rows.push(JSON.parse(line));
        continue;
      } catch {
        // not a result line
      }
    }
    if (line.trim()) process.stderr.write(line + '\n');
  }
  if (run.status !== 0) {
    failed = true;
    process.stderr.write(`${file} exited with ${run.status}\n`);
  }
}

const fmt = (v) => (typeof v === 'number' ? (Math.abs(v) >= 100 ? v.toFixed(0) : v.toPrecision(3)) : v ?? '');
const table = [
  '| benchmark | Hotframe | peer | ratio | limit | aim | pass |',
  '|---|---|---|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${r.metric} | ${fmt(r.value)} ${r.unit ?? ''} | ${r.peer ? `${r.peer}: ${fmt(r.peerValue)} ${r.unit ?? ''}` : ''} | ${fmt(r.ratio)} | ${r.limit ?? ''} | ${r.aim ?? ''} | ${r.pass === undefined ? '' : r.pass ? 'yes' : 'NO'} |`,
  ),
].join('\n');
mkdirSync(join(here, 'results'), { recursive: true });
writeFileSync(join(here, 'results', 'latest.md'), `Measured ${new Date().toISOString()} on ${process.platform} ${process.arch}, node ${process.version}\n\n${table}\n`);
console.log(table);
if (failed || rows.some((r) => r.pass === false)) process.exitCode = 1;
