// Helpers of the hostile-input suite: every input is built at test time in a temp folder, and
// every probe runs the real CLI (or language server) as a child process, bounded in time and
// memory: a V8 heap limit, a kill after PROBE_TIMEOUT_MS, and the peak resident memory read
// back from the child (process.resourceUsage().maxRSS, written by a preloaded hook on exit).
import { strict as assert } from 'node:assert';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { bundles } from '../unit/bundles';

/** A probe that has not ended by then hangs: the child is killed and the test fails. */
export const PROBE_TIMEOUT_MS = 60_000;
/** The bound for any input. */
export const MAX_PEAK_MB = 1536;
/** The child's V8 heap limit: a runaway fails fast instead of taking the machine. */
const HEAP_LIMIT_MB = 1024;

export function tempDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `hotframe-hostile-${name}-`));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export function mkfifo(path: string): string {
  execFileSync('mkfifo', [path]);
  return path;
}

export interface ProbeResult {
  code: number | null;
  stdout: string;
  stderr: string;
  peakMb: number;
}

let preload: string | null = null;

function peakHook(): string {
  if (preload === null) {
    const dir = mkdtempSync(join(tmpdir(), 'hotframe-hostile-hook-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    preload = join(dir, 'peak.cjs');
    writeFileSync(preload, "process.on('exit', () => require('fs').writeFileSync(process.env.HOTFRAME_PEAK_FILE, String(process.resourceUsage().maxRSS)));\n");
  }
  return preload;
}

/** Runs `hotframe <args>` in `cwd`; resolves when it exits, rejects when it outlives the timeout. */
export async function runCli(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<ProbeResult> {
  const { cli } = await bundles();
  const peakDir = mkdtempSync(join(tmpdir(), 'hotframe-hostile-peak-'));
  const peakFile = join(peakDir, 'peak');
  const child = spawn(process.execPath, [`--max-old-space-size=${HEAP_LIMIT_MB}`, '--require', peakHook(), cli, ...args], {
    cwd,
    env: { ...process.env, ...env, HOTFRAME_PEAK_FILE: peakFile },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`hotframe ${args.join(' ')} did not end within ${PROBE_TIMEOUT_MS / 1000} s`));
    }, PROBE_TIMEOUT_MS);
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      resolve(exitCode);
    });
  });
  const peakMb = existsSync(peakFile) ? Number(readFileSync(peakFile, 'utf8')) / 1024 : Infinity;
  rmSync(peakDir, { recursive: true, force: true });
  return { code, stdout, stderr, peakMb };
}

/** Exit 2 with one line on stderr matching `pattern`, within the memory bound. */
export function assertRefused(run: ProbeResult, pattern: RegExp): void {
  assert.equal(run.code, 2, `exit code (stderr: ${run.stderr.slice(0, 300)})`);
  assert.match(run.stderr, /^hotframe: [^\n]*\n$/, 'one line on stderr');
  assert.match(run.stderr, pattern);
  assert.doesNotMatch(run.stderr, /internal error|\n\s+at /, 'no stack, no internal error');
  assertBounded(run);
}

export function assertBounded(run: ProbeResult): void {
  assert.ok(run.peakMb < MAX_PEAK_MB, `peak memory ${Math.round(run.peakMb)} MB is under ${MAX_PEAK_MB} MB`);
}

/** A V8 log with one builtin inside `library` and one tick in its native code, so nm is asked to name it. */
export function nativeLog(library: string, script?: { url: string }): string {
  const lines = [
    'v8-version,11,3,244,8,0,0',
    `shared-library,${library},0x400000,0x2600000,0`,
    'code-creation,Builtin,2,1000,0x500000,0x100,ArrayPrototypePush',
  ];
  if (script !== undefined) {
    lines.push(`code-creation,JS,0,1100,0x7f0000001000,0x200,work ${script.url}:1:1,0x1,*`);
    lines.push('code-source-info,0x7f0000001000,1,0,50,C0O0C10O20,,');
  }
  for (let i = 0; i < 50; i++) lines.push(`tick,0x700${(i % 16).toString(16)}00,${10000 + i * 1000},0,0x0,0${script === undefined ? '' : ',0x7f0000001010'}`);
  return lines.join('\n') + '\n';
}

/** A trace of one profile whose one ProfileChunk holds `samples` samples of node 2 (no deltas). */
export function traceOfSamples(samples: number): Buffer {
  const head =
    '{"traceEvents":[{"name":"Profile","ph":"P","pid":1,"tid":1,"id":"0x1","ts":0,"args":{"data":{"startTime":0}}},' +
    '{"name":"ProfileChunk","ph":"P","pid":1,"tid":1,"id":"0x1","ts":0,"args":{"data":{"cpuProfile":{"nodes":[' +
    '{"id":1,"callFrame":{"functionName":"(root)","url":"","lineNumber":-1,"columnNumber":-1}},' +
    '{"id":2,"parent":1,"callFrame":{"functionName":"f","url":"/app.js","lineNumber":0,"columnNumber":0}}],"samples":[';
  return Buffer.concat([Buffer.from(head), Buffer.alloc(samples * 2 - 1, '2,'), Buffer.from(']}}}}]}')]);
}
