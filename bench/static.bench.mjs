// `hotframe analyze` against ESLint 9 on the same corpus, same machine, same run, interleaved
// (so background load hits both alike), median of HOTFRAME_BENCH_RUNS (default 3) runs each.
// Corpus: mongoose/lib, express/lib, eslint/lib and typescript/lib/typescript.js from
// node_modules, copied into a temp folder so that node_modules skipping does not apply.
// ESLint runs a generated flat config with n/no-sync, security/detect-child-process and
// no-await-in-loop, the nearest rules it has to ours; its JSON output is checked to prove it
// linted every file (no fatal parse errors hiding skipped work).
// Two rows: the whole corpus (hotframe skips typescript.js, 9 MB, as too large; ESLint lints it)
// and the corpus without typescript.js, where both tools analyze exactly the same files.
//
// Old and new in one run: HOTFRAME_BENCH_BASE=<a built checkout> also times its dist/cli.js on the
// same corpus, the two CLIs and ESLint taking turns in each run (the order alternating from run
// to run), and prints a row for it beside the head's; each row states its spread and the load.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'dist', 'cli.js');
const eslintBin = join(root, 'node_modules', 'eslint', 'bin', 'eslint.js');
const runs = Number(process.env.HOTFRAME_BENCH_RUNS ?? 3);
const base = process.env.HOTFRAME_BENCH_BASE || null;
const baseCli = base === null ? null : join(base, 'dist', 'cli.js');
if (baseCli !== null && !existsSync(baseCli)) {
  console.error(`HOTFRAME_BENCH_BASE: ${baseCli} is missing: build that checkout first`);
  process.exit(1);
}

if (!existsSync(cli)) {
  console.error('dist/cli.js is missing: run `npm run build` first (npm run bench does)');
  process.exit(1);
}

const work = mkdtempSync(join(tmpdir(), 'hotframe-static-bench-'));
const corpus = join(work, 'corpus');
const sources = [
  ['node_modules/mongoose/lib', 'mongoose'],
  ['node_modules/express/lib', 'express'],
  ['node_modules/eslint/lib', 'eslint'],
  ['node_modules/typescript/lib/typescript.js', 'typescript/typescript.js'],
];
for (const [from, to] of sources) cpSync(join(root, from), join(corpus, to), { recursive: true });

/** .js/.mjs/.cjs files under a folder, with their line count. */
function jsFiles(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) jsFiles(path, out);
    else if (/\.[cm]?js$/.test(entry.name)) out.push({ path, lines: readFileSync(path, 'utf8').split('\n').length, bytes: statSync(path).size });
  }
  return out;
}

const pluginUrl = (name, main) => pathToFileURL(join(root, 'node_modules', name, main)).href;
const config = join(work, 'eslint.config.mjs');
writeFileSync(
  config,
  `import n from ${JSON.stringify(pluginUrl('eslint-plugin-n', 'lib/index.js'))};
import security from ${JSON.stringify(pluginUrl('eslint-plugin-security', 'index.js'))};
export default [
  {
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    languageOptions: { ecmaVersion: 'latest', sourceType: 'commonjs' },
    linterOptions: { reportUnusedDisableDirectives: 'off' },
    plugins: { n, security },
    rules: { 'n/no-sync': 'warn', 'security/detect-child-process': 'warn', 'no-await-in-loop': 'warn' },
  },
  { files: ['**/*.mjs'], languageOptions: { sourceType: 'module' } },
];
`,
);

/** CPU seconds used by this process's waited-for children (Linux /proc; null elsewhere). */
function childrenCpuSeconds() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100; // cutime + cstime, clock ticks of 10 ms
  } catch {
    return null;
  }
}

/** Wall seconds, and CPU seconds: the figure that background load on a shared machine does not skew. */
function timed(args, env = {}) {
  const cpuStart = childrenCpuSeconds();
  const start = process.hrtime.bigint();
  const run = spawnSync(process.execPath, args, { cwd: work, encoding: 'utf8', maxBuffer: 512 * 1024 * 1024, env: { ...process.env, ...env } });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const cpuEnd = childrenCpuSeconds();
  if (run.error) throw run.error;
  return { seconds, cpu: cpuStart === null || cpuEnd === null ? null : cpuEnd - cpuStart, run };
}

function runHotframe(target, which = cli) {
  const { seconds, cpu, run } = timed([which, 'analyze', target, '--format', 'json']);
  if (run.status !== 0 && run.status !== 1) throw new Error(`hotframe exited ${run.status}: ${run.stderr.trim()}`);
  const json = JSON.parse(run.stdout);
  return { seconds, cpu, analyzed: json.filesAnalyzed, skipped: json.skipped, findings: json.findings.length };
}

function runEslint(target) {
  const output = join(work, 'eslint-output.json');
  const { seconds, cpu, run } = timed([eslintBin, '--no-config-lookup', '-c', config, '--format', 'json', '-o', output, target]);
  if (run.status !== 0 && run.status !== 1) throw new Error(`eslint exited ${run.status}: ${run.stderr.trim()}`);
  const results = JSON.parse(readFileSync(output, 'utf8'));
  const fatal = results.filter((r) => r.messages.some((m) => m.fatal));
  return { seconds, cpu, analyzed: results.length - fatal.length, fatal: fatal.map((r) => r.filePath), findings: results.reduce((n, r) => n + r.messages.length, 0) };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function compare(label, target, files) {
  const lines = files.reduce((n, f) => n + f.lines, 0);
  const mb = files.reduce((n, f) => n + f.bytes, 0) / 1e6;
  console.error(`${label}: ${files.length} files, ${lines} lines, ${mb.toFixed(1)} MB; ${runs} interleaved run(s) each`);
  const hot = [];
  const esl = [];
  const old = [];
  for (let i = 0; i < runs; i++) {
    const steps = [() => hot.push(runHotframe(target)), () => esl.push(runEslint(target))];
    if (baseCli !== null) steps.push(() => old.push(runHotframe(target, baseCli)));
    for (const step of i % 2 === 0 ? steps : [...steps].reverse()) step();
    const cpu = (r) => (r.cpu === null ? '' : ` (${r.cpu.toFixed(2)} s CPU)`);
    const oldText = baseCli === null ? '' : `, base ${old[i].seconds.toFixed(2)} s${cpu(old[i])}`;
    console.error(`  run ${i + 1}: hotframe ${hot[i].seconds.toFixed(2)} s${cpu(hot[i])}${oldText}, eslint ${esl[i].seconds.toFixed(2)} s${cpu(esl[i])}`);
  }
  if (baseCli !== null && old[0].findings !== hot[0].findings) console.error(`  base reported ${old[0].findings} findings, head ${hot[0].findings}`);
  const h = hot[0];
  const e = esl[0];
  console.error(`  hotframe analyzed ${h.analyzed} files (${h.findings} findings), skipped ${h.skipped.map((s) => `${s.file}: ${s.reason}`).join('; ') || 'none'}`);
  console.error(`  eslint linted ${e.analyzed} files (${e.findings} messages), fatal parse errors: ${e.fatal.length}`);
  if (e.analyzed + e.fatal.length !== files.length) throw new Error(`eslint reported ${e.analyzed + e.fatal.length} files, corpus has ${files.length}`);
  if (e.analyzed < files.length * 0.95) throw new Error(`eslint failed to parse ${e.fatal.length} files: ${e.fatal.slice(0, 3).join(', ')}`);
  const peerValue = median(esl.map((r) => r.seconds));
  const cpuPeerValue = esl[0].cpu === null ? null : median(esl.map((r) => r.cpu));
  const spread = (xs) => `${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)} s`;
  const load = loadavg().map((l) => l.toFixed(2)).join(' ');
  const row = (results, metric, extra) => {
    const value = median(results.map((r) => r.seconds));
    const ratio = value / peerValue;
    const cpuValue = results[0].cpu === null ? null : median(results.map((r) => r.cpu));
    return {
      bench: 'static',
      metric,
      value: Number(value.toFixed(3)),
      unit: 's',
      spread: spread(results.map((r) => r.seconds)),
      peer: 'eslint 9',
      peerValue: Number(peerValue.toFixed(3)),
      peerSpread: spread(esl.map((r) => r.seconds)),
      ratio: Number(ratio.toFixed(3)),
      limit: '<= 1.0',
      aim: '0.5',
      pass: ratio <= 1.0,
      ...(cpuValue === null ? {} : { cpuSeconds: cpuValue, peerCpuSeconds: cpuPeerValue, cpuRatio: Number((cpuValue / cpuPeerValue).toFixed(3)) }),
      load,
      ...extra,
    };
  };
  const metric = `analyze ${label} (${files.length} files, ${Math.round(lines / 1000)}k lines)`;
  console.log(JSON.stringify(row(hot, metric, {})));
  if (baseCli !== null) console.log(JSON.stringify(row(old, `${metric}, base checkout`, { base })));
}

try {
  const all = jsFiles(corpus);
  compare('whole corpus', corpus, all);
  // The same files for both tools: without the 9 MB typescript.js that hotframe refuses.
  rmSync(join(corpus, 'typescript'), { recursive: true, force: true });
  compare('corpus minus typescript.js', corpus, jsFiles(corpus));
} finally {
  rmSync(work, { recursive: true, force: true });
}
