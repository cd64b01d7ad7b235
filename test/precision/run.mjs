#!/usr/bin/env node
// `npm run precision`: the rules judged on real projects. Each project of corpus.tsv is fetched by
// exact version from the npm registry (`npm pack`), checked against its recorded sha512, extracted
// into test/precision/.cache/ (ignored by git), and analyzed by dist/cli.js on its own source. The
// findings are compared with labels.tsv, labelled by hand by reading the code as a reviewer would.
//
//   node test/precision/run.mjs [--half tuning|test|all] [--show-unlabelled N] [--context N]
//                               [--project NAME] [--rule ID]
//
// The corpus is split into a tuning half and a test half by a seeded hash of each project's name
// (see halfOf): rules are changed by looking at the tuning half only, and the test half measures
// whether the change generalises. A project's half never changes when the corpus grows.
//
// Prints, per half: precision of the findings shown at information or above, overall and per rule;
// the share of their messages whose claim is true; recall of the real instances labelled by hand;
// and every finding not labelled yet. Exit code 1 when the test half misses a target (TARGETS) or
// the corpus cannot be installed.
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

/** What issue 22 asks of the test half. */
const TARGETS = { overall: 0.9, perRule: 0.8, claims: 0.98, recall: 0.8, instances: 40 };

/**
 * The split's seed, fixed before any rule was changed for issue 22. Changing it would let the
 * test half be chosen after the fact: never change it.
 */
const SPLIT_SEED = 'hotframe-i22';
const HALVES = ['tuning', 'test'];

/** Levels a user sees by default; `hint` findings are not shown, so not judged. */
const SHOWN = new Set(['information', 'warning', 'error']);

const { values: options } = parseArgs({
  options: {
    half: { type: 'string', default: 'all' },
    'show-unlabelled': { type: 'string', default: '1000' },
    context: { type: 'string', default: '0' },
    project: { type: 'string' },
    rule: { type: 'string' },
  },
});
if (![...HALVES, 'all'].includes(options.half)) {
  console.error(`--half expects tuning, test or all, got '${options.half}'`);
  process.exit(2);
}

/**
 * The half of a project: the first hex digit of sha256(seed, name) below 8 is tuning, else test.
 * Keyed by the name alone so that neither a new project nor a new version of one moves a project
 * from one half to the other.
 */
function halfOf(name) {
  const digest = createHash('sha256').update(`${SPLIT_SEED}\n${name}`).digest('hex');
  return parseInt(digest[0], 16) < 8 ? 'tuning' : 'test';
}

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

const corpus = readRows(join(here, 'corpus.tsv')).map(([name, version, integrity, shape, added]) => ({ name, version, integrity, shape, added, half: halfOf(name) }));
// The batches a project can be added in (the `added` column), in the order they were added.
const BATCHES = [...new Set(corpus.map((project) => project.added).filter(Boolean))];
const count = (half, batch) => corpus.filter((project) => project.half === half && (!batch || project.added === batch)).length;
console.log(`Split (seed ${SPLIT_SEED}): ${HALVES.map((half) => `${count(half)} ${half} (${BATCHES.map((batch) => `${count(half, batch)} added in ${batch}`).join(', ')})`).join(', ')} of ${corpus.length} projects.`);
const projectOfKey = new Map(corpus.map((project) => [projectKey(project.name, project.version), project]));

// labels.tsv and any labels-<who>.tsv beside it (engineers labelling different rules), in one format
// (see README.md beside this file): project, rule, where, verdict, reason[, claim, claim reason].
const VERDICTS = ['tp', 'fp', 'miss', 'real'];
const labels = new Map();
const labelFiles = readdirSync(here).filter((name) => /^labels(?:-[\w-]+)?\.tsv$/.test(name)).sort();
for (const [project, rule, where, verdict, reason, claim, claimReason] of labelFiles.flatMap((name) => readRows(join(here, name)))) {
  if (!VERDICTS.includes(verdict) || !reason) throw new Error(`labels: bad row ${[project, rule, where, verdict].join(' ')}`);
  if (claim !== undefined && !(['true', 'false'].includes(claim) && claimReason)) throw new Error(`labels: bad claim on ${[project, rule, where].join(' ')}`);
  const key = `${project}\t${rule}\t${where}`;
  if (labels.has(key)) throw new Error(`labels: ${project} ${rule} ${where} is labelled twice`);
  labels.set(key, { project, rule, where, verdict, reason, claim: claim === undefined ? undefined : claim === 'true' });
}

/** Per half and rule: what was shown, how it was judged, and the labelled real instances. */
function emptyStats() {
  return { findings: 0, hints: 0, tp: 0, fp: 0, unlabelled: 0, claimsTrue: 0, claimsFalse: 0, claimsUnlabelled: 0, instances: 0, instancesShown: 0, lostTp: 0, goneFp: 0 };
}
// Figures per half, and per half for each batch of added projects alone (`<half>+i22`, `<half>+i22b`):
// i22's were added before any rule was tuned on them; i22b's later, while rules were being tuned on
// the tuning half, by someone who changed no rule.
const stats = new Map();
/** Adds one to `field` of the rule's figures in the project's half (and its batch's group). */
const tally = (project, rule, field) => {
  for (const group of project.added ? [project.half, `${project.half}+${project.added}`] : [project.half]) {
    if (!stats.has(group)) stats.set(group, new Map());
    const byRule = stats.get(group);
    if (!byRule.has(rule)) byRule.set(rule, emptyStats());
    byRule.get(rule)[field]++;
  }
};
const unlabelled = new Map(HALVES.map((half) => [half, []]));
const claimUnlabelled = new Map(HALVES.map((half) => [half, []]));
const shown = new Set();
const projectsRun = new Map(HALVES.map((half) => [half, 0]));
let failed = false;

const wanted = (project) => (options.half === 'all' || project.half === options.half)
  && (!options.project || options.project === projectKey(project.name, project.version) || options.project === project.name);

for (const project of corpus.filter(wanted)) {
  const key = projectKey(project.name, project.version);
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
  projectsRun.set(project.half, projectsRun.get(project.half) + 1);
  const counts = {};
  const seen = new Set();
  for (const finding of report.findings) {
    if (options.rule && finding.ruleId !== options.rule) continue;
    const where = `${finding.file}:${finding.line}`;
    const labelKey = `${key}\t${finding.ruleId}\t${where}`;
    if (seen.has(labelKey)) continue; // two findings of one rule on one line are one review decision
    seen.add(labelKey);
    const add = (field) => tally(project, finding.ruleId, field);
    if (!SHOWN.has(finding.severity)) {
      add('hints');
      continue;
    }
    shown.add(labelKey);
    add('findings');
    counts[finding.ruleId] = (counts[finding.ruleId] ?? 0) + 1;
    const label = labels.get(labelKey);
    if (!label) {
      add('unlabelled');
      unlabelled.get(project.half).push({ key, dir, finding, where });
      continue;
    }
    add(label.verdict === 'fp' ? 'fp' : 'tp');
    if (label.claim === true) add('claimsTrue');
    else if (label.claim === false) add('claimsFalse');
    else {
      add('claimsUnlabelled');
      claimUnlabelled.get(project.half).push({ key, dir, finding, where });
    }
  }
  const summary = Object.entries(counts).map(([rule, n]) => `${rule} ${n}`).join(', ');
  console.log(`${project.half.padEnd(6)} ${key.padEnd(34)} ${String(report.filesAnalyzed).padStart(5)} files, ${String(report.skipped.length).padStart(4)} skipped  ${summary}`);
}

// Labels whose finding was not shown: real instances missed, and labelled findings that went away.
const ran = new Set(corpus.filter(wanted).map((project) => projectKey(project.name, project.version)));
for (const [labelKey, label] of labels) {
  const project = projectOfKey.get(label.project);
  if (!project || !ran.has(label.project)) continue;
  if (options.rule && options.rule !== label.rule) continue;
  const add = (field) => tally(project, label.rule, field);
  const isShown = shown.has(labelKey);
  // `miss` and `real` rows are real instances found by hand, whether the rule shows them or not.
  if (label.verdict === 'miss' || label.verdict === 'real') {
    add('instances');
    if (isShown) add('instancesShown');
  }
  if (isShown) continue;
  if (label.verdict === 'tp') add('lostTp');
  if (label.verdict === 'fp') add('goneFp');
}

function sum(byRule) {
  const total = emptyStats();
  for (const s of byRule.values()) for (const k of Object.keys(total)) total[k] += s[k];
  return total;
}

function printHalf(half) {
  const byRule = stats.get(half) ?? new Map();
  const total = sum(byRule);
  console.log(`\n## ${half} half: ${projectsRun.get(half)} project(s)`);
  console.log('\n| rule | shown | labelled | worth acting on | noise | precision | true claims | real instances shown / labelled | labelled findings gone (tp / fp) | hints (not judged) |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  const row = (name, s) => `| ${name} | ${s.findings} | ${s.tp + s.fp} | ${s.tp} | ${s.fp} | ${pct(s.tp, s.tp + s.fp)} | ${s.claimsTrue} / ${s.claimsTrue + s.claimsFalse} (${pct(s.claimsTrue, s.claimsTrue + s.claimsFalse)}) | ${s.instancesShown} / ${s.instances} (${pct(s.instancesShown, s.instances)}) | ${s.lostTp} / ${s.goneFp} | ${s.hints} |`;
  for (const [rule, s] of [...byRule].sort()) console.log(row(`\`${rule}\``, s));
  console.log(row('**all**', total));
  for (const batch of BATCHES) {
    const fresh = stats.get(`${half}+${batch}`);
    if (fresh) console.log(row(batch === 'i22' ? 'of which projects added for issue 22' : `of which projects added in ${batch}`, sum(fresh)));
  }
  const limit = Number(options['show-unlabelled']);
  const around = Number(options.context);
  const list = (title, entries) => {
    if (entries.length === 0) return;
    console.log(`\n${half} half: ${entries.length} ${title}:`);
    for (const { key, dir, finding, where } of entries.slice(0, limit)) {
      console.log(`${key}\t${finding.ruleId}\t${where}\t[${finding.severity}] ${finding.message.slice(0, 200)}`);
      if (around > 0) console.log(sourceLines(dir, finding.file, finding.line, around));
    }
  };
  list('finding(s) not labelled yet', unlabelled.get(half));
  list('labelled finding(s) whose claim is not labelled yet', claimUnlabelled.get(half));
  return total;
}

const halves = options.half === 'all' ? HALVES : [options.half];
const totals = new Map(halves.map((half) => [half, printHalf(half)]));

// Targets: judged on the test half of a full run (a filtered run is for labelling).
if (totals.has('test') && !options.project && !options.rule) {
  const t = totals.get('test');
  const problems = [];
  const labelled = t.tp + t.fp;
  const claims = t.claimsTrue + t.claimsFalse;
  if (labelled > 0 && t.tp / labelled < TARGETS.overall) problems.push(`precision ${pct(t.tp, labelled)} < ${TARGETS.overall}`);
  for (const [rule, s] of stats.get('test') ?? []) {
    if (s.tp + s.fp > 0 && s.tp / (s.tp + s.fp) < TARGETS.perRule) problems.push(`${rule} precision ${pct(s.tp, s.tp + s.fp)} < ${TARGETS.perRule}`);
  }
  if (claims > 0 && t.claimsTrue / claims < TARGETS.claims) problems.push(`true claims ${pct(t.claimsTrue, claims)} < ${TARGETS.claims}`);
  if (t.instances < TARGETS.instances) problems.push(`${t.instances} labelled real instances, target ${TARGETS.instances}`);
  if (t.instances > 0 && t.instancesShown / t.instances < TARGETS.recall) problems.push(`recall ${pct(t.instancesShown, t.instances)} < ${TARGETS.recall}`);
  if (t.unlabelled > 0) problems.push(`${t.unlabelled} finding(s) not labelled`);
  if (t.claimsUnlabelled > 0) problems.push(`${t.claimsUnlabelled} claim(s) not labelled`);
  console.log(problems.length === 0 && !failed
    ? `\nTest half: targets met (precision ≥ ${TARGETS.overall} overall and ≥ ${TARGETS.perRule} per rule, true claims ≥ ${TARGETS.claims}, recall ≥ ${TARGETS.recall} of ≥ ${TARGETS.instances} labelled real instances).`
    : `\nTest half: targets not met: ${problems.join('; ')}${failed ? '; some projects could not be installed or analyzed' : ''}.`);
  if (problems.length > 0 || failed) process.exitCode = 1;
}
