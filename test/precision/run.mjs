#!/usr/bin/env node
// `npm run precision`: the rules judged on real projects. Each project of corpus.tsv is fetched by
// exact version from the npm registry (`npm pack`), checked against its recorded sha512, extracted
// into test/precision/.cache/ (ignored by git), and analyzed by dist/cli.js on its own source. The
// findings are compared with labels.tsv, labelled by hand by reading the code as a reviewer would.
//
//   node test/precision/run.mjs [--show-unlabelled N] [--context N] [--project NAME] [--rule ID]
//
// Prints precision per rule and overall, recall on the labelled misses, and every finding not yet
// labelled. Exit code 1 when a target is missed (see TARGETS) or the corpus cannot be installed.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../..');
const cache = join(here, '.cache');
const cli = join(repo, 'dist/cli.js');

/** What the issue asks of the corpus and the rules (issue 11). */
const TARGETS = { labelledFindings: 250, labelledMisses: 30, overall: 0.9, perRule: 0.8 };

const { values: options } = parseArgs({
  options: {
    'show-unlabelled': { type: 'string', default: '1000' },
    context: { type: 'string', default: '0' },
    project: { type: 'string' },
    rule: { type: 'string' },
  },
});

/** Rows of a tab-separated file, without `#` comments and blank lines. */
function readRows(file) {
  return readFileSync(file, 'utf8').split('\n')
    .map((line) => line.replace(/\r$/, ''))
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => line.split('\t'));
}

function projectKey(name, version) {
  return `${name}@${version}`;
}

function dirOf(name, version) {
  return join(cache, 'projects', `${name.replace(/^@/, '').replace('/', '+')}@${version}`);
}

/** Runs a program with arguments (never through a shell); throws with its stderr when it fails. */
function run(program, args, cwd) {
  const result = spawnSync(program, args, { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (result.error) throw result.error;
  return result;
}

/** Fetches and extracts one project unless the cache has it; returns its directory. */
function install({ name, version, integrity }) {
  const dir = dirOf(name, version);
  if (existsSync(join(dir, 'package.json'))) return dir;
  const tarballs = join(cache, 'tarballs');
  mkdirSync(tarballs, { recursive: true });
  const packed = run('npm', ['pack', `${name}@${version}`, '--json', '--ignore-scripts', '--pack-destination', tarballs], repo);
  if (packed.status !== 0) throw new Error(`npm pack ${name}@${version} failed: ${packed.stderr.trim().split('\n').pop()}`);
  const [{ filename }] = JSON.parse(packed.stdout);
  const file = join(tarballs, filename);
  const actual = `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}`;
  if (actual !== integrity) throw new Error(`${name}@${version}: integrity ${actual} is not the recorded ${integrity}`);
  const partial = `${dir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  const extracted = run('tar', ['-xzf', file, '-C', partial, '--strip-components=1', '--no-same-owner', '--no-same-permissions'], repo);
  if (extracted.status !== 0) throw new Error(`extracting ${file} failed: ${extracted.stderr.trim()}`);
  // Each project is its own work tree, as a checkout of it would be: the cache's place inside this
  // repository (whose .gitignore ignores it) must not hide its files from `analyze`.
  mkdirSync(join(partial, '.git'));
  renameSync(partial, dir);
  return dir;
}

/** The findings of `analyze` on one project, keyed by "rule\tfile:line". */
function analyze(dir) {
  const result = run(process.execPath, [cli, 'analyze', '.', '--format', 'json'], dir);
  if (result.status !== 0 && result.status !== 1) throw new Error(`analyze ${dir} exited ${result.status}: ${result.stderr.trim()}`);
  return JSON.parse(result.stdout);
}

function pct(part, whole) {
  return whole === 0 ? '—' : (part / whole).toFixed(2);
}

function sourceLines(dir, file, line, around) {
  try {
    const lines = readFileSync(join(dir, file), 'utf8').split('\n');
    const out = [];
    for (let n = Math.max(1, line - around); n <= Math.min(lines.length, line + around); n++) {
      out.push(`      ${n === line ? '>' : ' '}${String(n).padStart(5)}| ${lines[n - 1].slice(0, 160)}`);
    }
    return out.join('\n');
  } catch {
    return '';
  }
}

if (!existsSync(cli)) {
  console.error('dist/cli.js is missing: run `npm run build` first (`npm run precision` does).');
  process.exit(2);
}

const corpus = readRows(join(here, 'corpus.tsv')).map(([name, version, integrity, shape]) => ({ name, version, integrity, shape }));
const labels = new Map();
// labels.tsv and any labels-<who>.tsv beside it (engineers labelling different rules), in one format.
const labelFiles = readdirSync(here).filter((name) => /^labels(?:-[\w-]+)?\.tsv$/.test(name)).sort();
for (const [project, rule, where, verdict, reason] of labelFiles.flatMap((name) => readRows(join(here, name)))) {
  if (!['tp', 'fp', 'miss'].includes(verdict) || !reason) throw new Error(`labels: bad row ${[project, rule, where, verdict].join(' ')}`);
  const key = `${project}\t${rule}\t${where}`;
  if (labels.has(key)) throw new Error(`labels: ${project} ${rule} ${where} is labelled twice`);
  labels.set(key, { project, rule, where, verdict, reason });
}

const perRule = new Map();
const ruleStats = (rule) => {
  if (!perRule.has(rule)) perRule.set(rule, { findings: 0, tp: 0, fp: 0, unlabelled: 0, misses: 0, missesFound: 0, lostTp: 0, goneFp: 0, bySeverity: {} });
  return perRule.get(rule);
};
const unlabelled = [];
const seen = new Set();
let failed = false;

for (const project of corpus) {
  const key = projectKey(project.name, project.version);
  if (options.project && options.project !== key && options.project !== project.name) continue;
  let dir;
  let report;
  try {
    dir = install(project);
    report = analyze(dir);
  } catch (error) {
    console.error(`${key}: ${error.message}`);
    failed = true;
    continue;
  }
  const counts = {};
  for (const finding of report.findings) {
    if (options.rule && finding.ruleId !== options.rule) continue;
    const where = `${finding.file}:${finding.line}`;
    const labelKey = `${key}\t${finding.ruleId}\t${where}`;
    if (seen.has(labelKey)) continue; // two findings of one rule on one line are one review decision
    seen.add(labelKey);
    const stats = ruleStats(finding.ruleId);
    stats.findings++;
    stats.bySeverity[finding.severity] = (stats.bySeverity[finding.severity] ?? 0) + 1;
    counts[finding.ruleId] = (counts[finding.ruleId] ?? 0) + 1;
    const label = labels.get(labelKey);
    if (!label) {
      stats.unlabelled++;
      unlabelled.push({ key, dir, finding, where });
    } else if (label.verdict === 'fp') {
      stats.fp++;
    } else {
      stats.tp++;
      if (label.verdict === 'miss') stats.missesFound++;
    }
  }
  const summary = Object.entries(counts).map(([rule, n]) => `${rule} ${n}`).join(', ');
  console.log(`${key.padEnd(28)} ${String(report.filesAnalyzed).padStart(5)} files, ${String(report.skipped.length).padStart(4)} skipped  ${summary}`);
}

// Labels whose finding did not appear: misses still missed, and labelled findings that went away.
for (const [labelKey, label] of labels) {
  if (options.project && !label.project.startsWith(options.project)) continue;
  if (options.rule && options.rule !== label.rule) continue;
  const stats = ruleStats(label.rule);
  if (label.verdict === 'miss') stats.misses++;
  if (seen.has(labelKey)) continue;
  if (label.verdict === 'tp') stats.lostTp++;
  if (label.verdict === 'fp') stats.goneFp++;
}

const total = { findings: 0, tp: 0, fp: 0, unlabelled: 0, misses: 0, missesFound: 0, lostTp: 0, goneFp: 0 };
console.log('\n| rule | findings | labelled | worth acting on | noise | precision | misses found / labelled | labelled findings gone (tp / fp) | severities |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const [rule, s] of [...perRule].sort()) {
  for (const k of Object.keys(total)) total[k] += s[k];
  const severities = Object.entries(s.bySeverity).map(([sev, n]) => `${sev} ${n}`).join(', ');
  console.log(`| \`${rule}\` | ${s.findings} | ${s.tp + s.fp} | ${s.tp} | ${s.fp} | ${pct(s.tp, s.tp + s.fp)} | ${s.missesFound} / ${s.misses} | ${s.lostTp} / ${s.goneFp} | ${severities} |`);
}
console.log(`| **all** | ${total.findings} | ${total.tp + total.fp} | ${total.tp} | ${total.fp} | ${pct(total.tp, total.tp + total.fp)} | ${total.missesFound} / ${total.misses} | ${total.lostTp} / ${total.goneFp} | |`);

const limit = Number(options['show-unlabelled']);
const around = Number(options.context);
if (unlabelled.length > 0) {
  console.log(`\n${unlabelled.length} finding(s) not labelled yet:`);
  for (const { key, dir, finding, where } of unlabelled.slice(0, limit)) {
    console.log(`${key}\t${finding.ruleId}\t${where}\t[${finding.severity}] ${finding.message.slice(0, 140)}`);
    if (around > 0) console.log(sourceLines(dir, finding.file, finding.line, around));
  }
}

// Targets: judged only on a full run (a filtered run is for labelling).
if (!options.project && !options.rule) {
  const problems = [];
  // Label rows of findings, including those a rule change made disappear (they document the class fixed).
  const rows = [...labels.values()].filter((label) => label.verdict !== 'miss').length;
  const labelled = total.tp + total.fp;
  console.log(`\nlabels.tsv: ${rows} labelled findings (${labelled} of them still reported), ${total.misses} labelled misses.`);
  if (rows < TARGETS.labelledFindings) problems.push(`${rows} labelled findings, target ${TARGETS.labelledFindings}`);
  if (total.misses < TARGETS.labelledMisses) problems.push(`${total.misses} labelled misses, target ${TARGETS.labelledMisses}`);
  if (labelled > 0 && total.tp / labelled < TARGETS.overall) problems.push(`overall precision ${pct(total.tp, labelled)} < ${TARGETS.overall}`);
  for (const [rule, s] of perRule) {
    if (s.tp + s.fp > 0 && s.tp / (s.tp + s.fp) < TARGETS.perRule) problems.push(`${rule} precision ${pct(s.tp, s.tp + s.fp)} < ${TARGETS.perRule}`);
  }
  if (total.unlabelled > 0) problems.push(`${total.unlabelled} finding(s) not labelled`);
  console.log(problems.length === 0 && !failed
    ? `\nTargets met: ≥ ${TARGETS.labelledFindings} labelled findings, ≥ ${TARGETS.labelledMisses} misses, precision ≥ ${TARGETS.overall} overall and ≥ ${TARGETS.perRule} per rule.`
    : `\nTargets not met: ${problems.join('; ')}${failed ? '; some projects could not be installed or analyzed' : ''}.`);
  if (problems.length > 0 || failed) process.exitCode = 1;
}
