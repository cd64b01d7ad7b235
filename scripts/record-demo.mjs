#!/usr/bin/env node
// `npm run demo:record`: records the demo service's CPU profiles under load, as found ("before":
// /v1 routes, FIXED unset) and fixed ("after": /v2 routes, FIXED=1, --max-semi-space-size=64 as
// in seed 001). Starts redis-server and the fake MongoDB on loopback ports 41717/41779, runs the
// app once with --cpu-prof and once with --prof per phase, drives each run with the same load
// (autocannon at a fixed request rate plus a Redis publisher at a fixed message rate), stops
// it with SIGINT (the app exits through process.exit so the profile is written) and copies
// profiles/{before,after}.cpuprofile and {before,after}.v8.log (gzipped when over 3 MB).
// Every process started here is stopped on success, failure and Ctrl-C.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import Redis from 'ioredis';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const appDir = join(root, 'examples', 'demo-app');
// DEMO_OUT_DIR: record somewhere else (a trial run) instead of replacing the committed profiles.
const outDir = process.env.DEMO_OUT_DIR ? resolve(process.env.DEMO_OUT_DIR) : join(appDir, 'profiles');
const PORTS = { mongo: 41717, redis: 41779, http: 41780 };
const LOAD_SECONDS = Number(process.env.DEMO_LOAD_SECONDS ?? 9);
// Seed 003's pods had ~16k (13,793 seen by execve); at that size one execSync costs ~2 s here and
// drowns every other incident in the profile, so the default is smaller. The cost grows with the
// square of the count: DEMO_ENV_VARS=15000 shows the incident's scale.
const SERVICE_LINK_VARS = Number(process.env.DEMO_ENV_VARS ?? 3000);
const GZIP_OVER_BYTES = 3 * 1024 * 1024;
const REQUESTS_PER_SECOND = 20;
const MESSAGES_PER_SECOND = 4000;
const REDIS_SERVER = process.env.REDIS_SERVER ?? 'redis-server';

class RecordError extends Error {}

const children = new Set();
/** The scratch folder of this run (profiles before they are copied), removed however the run ends. */
let scratch = null;

/** Starts a process whose output is kept (last 4 KB) for error messages. */
function start(name, command, args, options) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
  child.label = name;
  child.output = '';
  const keep = (chunk) => {
    child.output = (child.output + chunk.toString()).slice(-4096);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  children.add(child);
  child.exited = new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      children.delete(child);
      resolve(code ?? signal);
    });
    child.on('error', (error) => {
      children.delete(child);
      child.output += `\n${error.message}`;
      resolve(-1);
    });
  });
  return child;
}

function lastLine(text) {
  return text.trim().split('\n').pop() ?? '';
}

function waitForOutput(child, pattern, timeoutMs) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(`no '${pattern.source}' within ${timeoutMs} ms`), timeoutMs);
    const check = () => {
      const match = pattern.exec(child.output);
      if (match !== null) {
        clearTimeout(timer);
        resolve(match);
      }
    };
    function fail(why) {
      clearTimeout(timer);
      reject(new RecordError(`${child.label}: ${why}: ${lastLine(child.output)}`));
    }
    child.stdout.on('data', check);
    child.stderr.on('data', check);
    child.exited.then((code) => fail(`exited (${code}) before it was ready`));
    check();
  });
}

/** SIGINT, then SIGKILL after `graceMs`; resolves with the exit code or signal. */
async function stop(child, graceMs = 15000) {
  if (!children.has(child)) return child.exited;
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  const code = await child.exited;
  clearTimeout(timer);
  return code;
}

function cleanUp() {
  for (const child of children) child.kill('SIGKILL');
  if (scratch !== null) rmSync(scratch, { recursive: true, force: true });
  scratch = null;
}

function assertPortFree(port) {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', () => reject(new RecordError(`port ${port} is in use (is another recording running?)`)));
    probe.listen(port, '127.0.0.1', () => probe.close(resolve));
  });
}

/** Kubernetes-style service links (7 variables per service), like the pods of seed 003. */
function serviceLinkEnv(count) {
  const env = {};
  let n = 0;
  for (let i = 0; n < count; i++) {
    const name = `SVC_${i}`;
    const ip = `10.96.${(i >> 8) & 255}.${i & 255}`;
    const vars = {
      [`${name}_SERVICE_HOST`]: ip,
      [`${name}_SERVICE_PORT`]: '6379',
      [`${name}_PORT`]: `tcp://${ip}:6379`,
      [`${name}_PORT_6379_TCP`]: `tcp://${ip}:6379`,
      [`${name}_PORT_6379_TCP_PROTO`]: 'tcp',
      [`${name}_PORT_6379_TCP_PORT`]: '6379',
      [`${name}_PORT_6379_TCP_ADDR`]: ip,
    };
    for (const [key, value] of Object.entries(vars)) {
      if (n === count) break;
      env[key] = value;
      n++;
    }
  }
  return env;
}

/** Publishes MESSAGES_PER_SECOND batches of 50 task events (seed 000's traffic) until stopped. */
function startPublisher() {
  const redis = new Redis({ host: '127.0.0.1', port: PORTS.redis });
  const types = ['task.created', 'task.updated', 'task.moved', 'task.commented', 'task.done'];
  // Built once: the publisher's own CPU goes to publishing, not to JSON.stringify.
  const batches = [];
  for (let b = 0; b < 64; b++) {
    const events = [];
    for (let e = 0; e < 50; e++) events.push({ type: types[(b + e) % types.length], taskId: (b * 50 + e) % 6000 });
    batches.push(JSON.stringify(events));
  }
  const started = performance.now();
  let sent = 0;
  const timer = setInterval(() => {
    // Catch up with the schedule (timers run late on a busy machine), 300 messages at most per tick.
    const due = Math.min(Math.floor(((performance.now() - started) / 1000) * MESSAGES_PER_SECOND) - sent, 300);
    if (due <= 0) return;
    const pipeline = redis.pipeline();
    for (let m = 0; m < due; m++) pipeline.publish('task-events', batches[sent++ % batches.length]);
    pipeline.exec().catch(() => {});
  }, 5);
  return {
    async stop() {
      clearInterval(timer);
      await redis.quit();
      return sent;
    },
  };
}

/**
 * The same request rate in both phases (open loop), so that the profiles compare the CPU one
 * workload costs before and after the fixes, not how much work a busy machine let each run do.
 */
function load(version) {
  const requests = [];
  for (const project of [3, 7, 12]) {
    requests.push(
      { method: 'GET', path: `/${version}/projects/${project}/tasks` },
      { method: 'GET', path: `/${version}/projects/${project}/tasks/count` },
      { method: 'GET', path: `/${version}/projects/${project}/board` },
      { method: 'GET', path: `/${version}/projects/${project}/reports/tags` },
      { method: 'POST', path: `/${version}/tasks/${project * 11}/views` },
    );
  }
  return autocannon({ url: `http://127.0.0.1:${PORTS.http}`, connections: 8, overallRate: REQUESTS_PER_SECOND, duration: LOAD_SECONDS, requests });
}

/** Share of the recording the app's thread was not idle, from a .cpuprofile. */
function busyPercent(cpuprofilePath) {
  const profile = JSON.parse(readFileSync(cpuprofilePath, 'utf8'));
  const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
  let busy = 0;
  let total = 0;
  profile.samples.forEach((id, i) => {
    total += profile.timeDeltas[i];
    if (!idle.has(id)) busy += profile.timeDeltas[i];
  });
  return total > 0 ? Math.round((busy / total) * 1000) / 10 : 0;
}

function newestFile(dir, suffix) {
  const files = readdirSync(dir).filter((f) => f.endsWith(suffix));
  if (files.length === 0) throw new RecordError(`no *${suffix} written in ${dir}`);
  return join(dir, files.sort().pop());
}

/** Stages the raw log as <name>.v8.log, or <name>.v8.log.gz when over 3 MB. */
function stageV8Log(source, name, stageDir) {
  const plain = join(stageDir, `${name}.v8.log`);
  const gz = `${plain}.gz`;
  if (statSync(source).size <= GZIP_OVER_BYTES) {
    copyFileSync(source, plain);
    return plain;
  }
  writeFileSync(gz, gzipSync(readFileSync(source), { level: 9 }));
  return gz;
}

/** One run of the app under load with one profiler: V8 gives --prof almost no ticks when --cpu-prof runs too. */
async function recordRun(phase, profiler, tmp, stageDir, mongoUri) {
  const dir = join(tmp, `${phase.name}-${profiler}`);
  mkdirSync(dir);
  const profilerFlags =
    profiler === 'cpuprofile'
      ? ['--cpu-prof', `--cpu-prof-dir=${dir}`]
      : ['--prof', `--logfile=${join(dir, 'isolate.log')}`, '--no-logfile-per-isolate'];
  const env = {
    ...process.env,
    ...serviceLinkEnv(SERVICE_LINK_VARS),
    PORT: String(PORTS.http),
    REDIS_PORT: String(PORTS.redis),
    MONGODB_URI: mongoUri,
    FIXED: phase.fixed ? '1' : '0',
  };
  process.stdout.write(`\n== ${phase.name} (${profiler}): node ${[...profilerFlags.slice(0, 1), ...phase.nodeFlags, 'server.js'].join(' ')}, FIXED=${env.FIXED}, ${SERVICE_LINK_VARS} service-link env vars, ${LOAD_SECONDS} s of load on /${phase.version}\n`);
  const app = start('demo-app', process.execPath, [...profilerFlags, ...phase.nodeFlags, 'server.js'], { cwd: appDir, env });
  await waitForOutput(app, /listening on/, 30000);
  const publisher = startPublisher();
  const result = await load(phase.version);
  const messages = await publisher.stop();
  const code = await stop(app);
  if (code !== 0) throw new RecordError(`demo-app exited with ${code}: ${lastLine(app.output)}`);

  const file =
    profiler === 'cpuprofile'
      ? join(stageDir, `${phase.name}.cpuprofile`)
      : stageV8Log(join(dir, 'isolate.log'), phase.name, stageDir);
  if (profiler === 'cpuprofile') copyFileSync(newestFile(dir, '.cpuprofile'), file);
  const run = {
    file: relative(appDir, join(outDir, basename(file))),
    bytes: statSync(file).size,
    ...(profiler === 'cpuprofile' ? { cpuBusyPercent: busyPercent(file) } : {}),
    requests: result.requests.total,
    requestsPerSecond: result.requests.average,
    latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
    non2xx: result.non2xx,
    errors: result.errors,
    redisMessages: messages,
  };
  process.stdout.write(
    `   ${run.requests} requests (${run.requestsPerSecond.toFixed(0)}/s)${run.cpuBusyPercent === undefined ? '' : `, app thread busy ${run.cpuBusyPercent}%`}, latency p50 ${run.latencyMs.p50} ms, p99 ${run.latencyMs.p99} ms, max ${run.latencyMs.max} ms, ` +
      `${run.non2xx} non-2xx, ${run.errors} errors, ${messages} redis messages\n   recorded ${run.file} (${(run.bytes / 1024).toFixed(0)} KB)\n`,
  );
  if (run.non2xx > 0 || run.errors > 0) throw new RecordError(`${phase.name}: ${run.non2xx} non-2xx responses and ${run.errors} errors under load`);
  return run;
}

async function recordPhase(phase, tmp, stageDir, mongoUri) {
  return {
    routes: `/${phase.version}`,
    fixed: phase.fixed,
    nodeFlags: phase.nodeFlags,
    loadSeconds: LOAD_SECONDS,
    requestsPerSecondTarget: REQUESTS_PER_SECOND,
    redisMessagesPerSecondTarget: MESSAGES_PER_SECOND,
    cpuprofile: await recordRun(phase, 'cpuprofile', tmp, stageDir, mongoUri),
    v8log: await recordRun(phase, 'v8log', tmp, stageDir, mongoUri),
  };
}

async function main() {
  if (!Number.isFinite(LOAD_SECONDS) || LOAD_SECONDS < 1 || LOAD_SECONDS > 120) throw new RecordError(`DEMO_LOAD_SECONDS must be 1..120, got '${process.env.DEMO_LOAD_SECONDS}'`);
  if (!Number.isInteger(SERVICE_LINK_VARS) || SERVICE_LINK_VARS < 0 || SERVICE_LINK_VARS > 20000) throw new RecordError(`DEMO_ENV_VARS must be 0..20000, got '${process.env.DEMO_ENV_VARS}'`);
  for (const port of Object.values(PORTS)) await assertPortFree(port);
  mkdirSync(outDir, { recursive: true });
  scratch = mkdtempSync(join(tmpdir(), 'hotframe-demo-'));
  const tmp = scratch;
  try {
    const redis = start('redis-server', REDIS_SERVER, ['--port', String(PORTS.redis), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']);
    await waitForOutput(redis, /Ready to accept connections/, 10000);
    const mongo = start('fake-mongo', process.execPath, [join(appDir, 'fake-mongo', 'index.js'), '--port', String(PORTS.mongo)]);
    const [, mongoUri] = await waitForOutput(mongo, /listening on (\S+)/, 10000);

    const phases = [
      { name: 'before', version: 'v1', fixed: false, nodeFlags: [] },
      { name: 'after', version: 'v2', fixed: true, nodeFlags: ['--max-semi-space-size=64'] },
    ];
    // Profiles are staged and replace the committed ones only once every run succeeded, so that
    // profiles/ never mixes a new "before" with an old "after".
    const stageDir = join(tmp, 'staged');
    mkdirSync(stageDir);
    const recorded = {};
    for (const phase of phases) recorded[phase.name] = await recordPhase(phase, tmp, stageDir, mongoUri);
    for (const phase of phases) for (const old of [`${phase.name}.v8.log`, `${phase.name}.v8.log.gz`]) rmSync(join(outDir, old), { force: true });
    for (const staged of readdirSync(stageDir)) copyFileSync(join(stageDir, staged), join(outDir, staged));
    writeFileSync(
      join(outDir, 'recording.json'),
      JSON.stringify({ node: process.version, platform: `${process.platform} ${process.arch}`, recordedAt: new Date().toISOString(), serviceLinkEnvVars: SERVICE_LINK_VARS, ...recorded }, null, 2) + '\n',
    );
    await stop(mongo);
    await stop(redis);
    process.stdout.write(`\nprofiles in ${relative(root, outDir)}/; try: npm run demo\n`);
  } finally {
    cleanUp();
  }
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    cleanUp();
    process.exit(130);
  });
}

main().catch((error) => {
  cleanUp();
  process.stderr.write(`record-demo: ${error instanceof RecordError ? error.message : (error?.stack ?? String(error))}\n`);
  process.exitCode = error instanceof RecordError ? 2 : 1;
});
