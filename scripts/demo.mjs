#!/usr/bin/env node
// `npm run demo`: Hotframe's point on one screen, over the demo service (examples/demo-app) and
// the profiles recorded from it (npm run demo:record): static findings ranked by measured cost,
// where the CPU went, what the fixes changed, and the .vsix to install. Runs the built CLI
// (`npm run demo` builds first). Exit 0 when every step ran; `analyze` exiting 1 means "found
// something", which is the point here, not a failure.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const APP = 'examples/demo-app';
const BEFORE = `${APP}/profiles/before.cpuprofile`;
const AFTER = `${APP}/profiles/after.cpuprofile`;
const bold = process.stdout.isTTY ? (s) => `\x1b[1m${s}\x1b[0m` : (s) => s;

const failures = [];

function heading(text) {
  process.stdout.write(`\n${bold(text)}\n${'='.repeat(text.length)}\n`);
}

/** Runs a step; output is shown as is, a failure is summed up in one line and the demo goes on. */
function step(title, command, args, { okCodes = [0], quiet = false } = {}) {
  heading(title);
  process.stdout.write(`$ ${[command === process.execPath ? 'node' : command, ...args].join(' ')}\n\n`);
  const run = spawnSync(command, args, { cwd: root, encoding: 'utf8', stdio: quiet ? 'pipe' : ['ignore', 'inherit', 'inherit'], maxBuffer: 64 * 1024 * 1024 });
  const output = `${run.stdout ?? ''}${run.stderr ?? ''}`;
  if (run.error !== undefined || !okCodes.includes(run.status)) {
    const why = run.error?.message ?? (output.trim().split('\n').pop() || `exit code ${run.status}`);
    failures.push(`${title}: ${why}`);
    process.stdout.write(`(failed: ${why})\n`);
    return null;
  }
  return output;
}

function recording() {
  const file = join(root, APP, 'profiles', 'recording.json');
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
}

function loadLine() {
  const before = recording()?.before;
  if (before?.requestsPerSecondTarget === undefined) return '';
  return `${before.requestsPerSecondTarget} requests/s and ${before.redisMessagesPerSecondTarget} Redis messages/s for ${before.loadSeconds} s.`;
}

function recordingSummary() {
  const recorded = recording();
  if (recorded === null) return [];
  return ['before', 'after'].map((name) => {
    const phase = recorded[name];
    const run = phase.cpuprofile;
    const busy = run.cpuBusyPercent === undefined ? '' : `app thread busy ${run.cpuBusyPercent}%, `;
    return `  ${name.padEnd(6)} ${phase.routes} routes${phase.nodeFlags.length > 0 ? ` + ${phase.nodeFlags.join(' ')}` : ''}: ${busy}latency p50 ${run.latencyMs.p50} ms, p99 ${run.latencyMs.p99} ms`;
  });
}

const cli = 'dist/cli.js'; // run with cwd = root, shown as typed
if (!existsSync(join(root, cli))) {
  process.stderr.write('demo: dist/cli.js is missing; run `npm run demo` (it builds first) or `npm run build`\n');
  process.exit(2);
}
for (const profile of [BEFORE, AFTER]) {
  if (!existsSync(join(root, profile))) {
    process.stderr.write(`demo: ${profile} is missing; record it with \`npm run demo:record\`\n`);
    process.exit(2);
  }
}

heading('Hotframe demo');
process.stdout.write(
  [
    `${APP}: an express 5 + mongoose 8 + ioredis 5 + child_process service that reproduces five`,
    'production incidents (/v1 routes as found, /v2 fixed; see its README). Profiles recorded under load',
    `(npm run demo:record), the same load in both: ${loadLine()}`,
    ...recordingSummary(),
  ].join('\n') + '\n',
);

step('1. Findings, ranked by what their code cost in before.cpuprofile', process.execPath, [cli, 'analyze', APP, '--profile', BEFORE, '--root', APP], { okCodes: [0, 1] });
// The repository root, so that the recorded node_modules frames (/work/main/node_modules/...
// on the recording machine) find this clone's node_modules by suffix too, not only the demo's files.
step('2. Where the CPU went (before): categories, hot functions, user call sites, insights', process.execPath, [cli, 'profile', BEFORE, '--root', '.', '--top', '10']);
step('3. Before vs after the fixes', process.execPath, [cli, 'diff', BEFORE, AFTER, '--root', '.', '--top', '10']);

const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
if (existsSync(join(root, 'scripts', 'package.mjs'))) {
  const packaged = step('4. The VS Code extension', process.execPath, ['scripts/package.mjs'], { quiet: true });
  if (packaged !== null) {
    process.stdout.write(`${packaged.trim().split('\n').pop()}\n\ninstall it with:\n  code --install-extension hotframe-${version}.vsix\n`);
    process.stdout.write(`then open ${APP} and run "Hotframe: Open CPU Profile…" on ${BEFORE}\n`);
  }
} else {
  heading('4. The VS Code extension');
  process.stdout.write('(scripts/package.mjs is not there yet: no .vsix built)\n');
}

if (failures.length > 0) {
  heading('Steps that failed');
  for (const failure of failures) process.stdout.write(`  ${failure}\n`);
  process.exitCode = 1;
}
