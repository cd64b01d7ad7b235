// Editor latency: time from sending a didChange to receiving the publishDiagnostics for that
// version, on a 5,000-line handler-style file with violations (and a 500-line one), over 100
// incremental edits each: a character typed into a comment, or into a string inside a handler
// (code, a different token), in turn and each time in another block.
// The server is dist/server.js spoken to over stdio with vscode-jsonrpc, as an editor would.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import jsonrpc from 'vscode-jsonrpc/node.js';

const { createMessageConnection, StreamMessageReader, StreamMessageWriter } = jsonrpc;
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const server = join(root, 'dist', 'server.js');
const EDITS = 100;
const WARMUP = 5;

if (!existsSync(server)) {
  console.error('dist/server.js is missing: run `npm run build` first (npm run bench does)');
  process.exit(1);
}

/** One 25-line block of an express/mongoose/redis service, with the patterns of seeds 000-004. */
function block(i) {
  return `// ---- items ${i}: list, count, one, stats
function stamp${i}() {
  return Date.now(); // seed 000: a clock read per request
}
router.get('/items${i}', async (req, res) => {
  const items = await Item.find({ group: ${i} }); // seed 004: hydrated for res.json
  res.json({ items, at: stamp${i}() });
});
router.get('/items${i}/count', async (req, res) => {
  const all = await Item.find({ group: ${i} });
  res.json({ count: all.length }); // seed 004: counting by loading
});
router.get('/items${i}/:id', async (req, res, next) => {
  try {
    const item = await Item.findById(req.params.id).lean();
    if (!item) return res.status(404).end();
    const redis = new Redis(config.redis); // seed 002: a connection per request
    await redis.incr('views:${i}');
    res.json(item);
  } catch (error) {
    next(error);
  }
});
setInterval(() => { stats.disk${i} = String(execSync('df -k')); }, 5000); // seed 003
module.exports.block${i} = true;
`;
}

const header = `'use strict';
const { execSync } = require('child_process');
const express = require('express');
const mongoose = require('mongoose');
const Redis = require('ioredis');
const config = { redis: { host: '127.0.0.1', port: 6379 } };
const stats = {};
const Item = mongoose.model('Item', new mongoose.Schema({ group: Number, name: String }));
const router = express.Router();
`;
/** A service file of at least `lines` lines: the header, then blocks. */
function serviceFile(lines) {
  let text = header;
  for (let i = 0; text.split('\n').length < lines; i++) text += block(i);
  return text;
}
const headerLines = header.split('\n').length - 1;

const child = spawn(process.execPath, [server, '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
const waiting = new Map();
const lastCount = new Map();
connection.onNotification('textDocument/publishDiagnostics', (params) => {
  lastCount.set(params.uri, params.diagnostics.length);
  const key = `${params.uri}#${params.version}`;
  const resolve = waiting.get(key);
  if (resolve) {
    waiting.delete(key);
    resolve(process.hrtime.bigint());
  }
});
connection.onRequest('workspace/configuration', (params) => params.items.map(() => ({})));
connection.onRequest('client/registerCapability', () => null);
connection.listen();
await connection.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: { workspace: { configuration: true } } });
await connection.sendNotification('initialized', {});

const published = (uri, version) => new Promise((resolve) => waiting.set(`${uri}#${version}`, resolve));

/** CPU seconds the server process has used (Linux /proc; null elsewhere): the load-independent figure. */
function serverCpuSeconds() {
  try {
    const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks of 10 ms
  } catch {
    return null;
  }
}

/** Where block `b`'s edit of turn `i` goes: its opening comment, or the Redis key string in its third handler. */
const REDIS_KEY_AT = "    await redis.incr('views:".length;
function editAt(b, i) {
  return i % 2 === 0 ? { line: headerLines + 25 * b, character: 3 } : { line: headerLines + 25 * b + 17, character: REDIS_KEY_AT };
}

/** Opens a service file of `size` lines, types one character per edit into a different block (incremental sync). */
async function measure(size) {
  const text = serviceFile(size);
  const lineCount = text.split('\n').length;
  const blocks = Math.floor((lineCount - headerLines) / 25);
  const keyAt = editAt(1, 1);
  if (!text.split('\n')[keyAt.line].slice(0, keyAt.character).endsWith("'views:")) throw new Error('the Redis key edit is misplaced');
  const uri = `file:///bench/service/routes${size}.js`;
  let version = 1;
  let done = published(uri, version);
  await connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'javascript', version, text } });
  await done;
  const findings = lastCount.get(uri);
  const cpuBefore = serverCpuSeconds();
  const latencies = [];
  for (let i = 0; i < WARMUP + EDITS; i++) {
    version++;
    const at = editAt((i * 37) % blocks, i);
    done = published(uri, version);
    const start = process.hrtime.bigint();
    await connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version },
      contentChanges: [{ range: { start: at, end: at }, text: 'x' }],
    });
    const end = await done;
    if (i >= WARMUP) latencies.push(Number(end - start) / 1e6);
  }
  if (lastCount.get(uri) !== findings) throw new Error(`the typing changed the findings: ${findings} -> ${lastCount.get(uri)}`);
  const cpuAfter = serverCpuSeconds();
  const cpuPerEditMs = cpuBefore === null || cpuAfter === null ? null : ((cpuAfter - cpuBefore) * 1000) / (WARMUP + EDITS);
  await connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)];
  const cpu = cpuPerEditMs === null ? 'n/a' : `${cpuPerEditMs.toFixed(0)} ms`;
  console.error(`${lineCount} lines, ${findings} diagnostics per publish, ${EDITS} edits after ${WARMUP} warm-up; min ${latencies[0].toFixed(1)} ms, max ${latencies.at(-1).toFixed(1)} ms; server CPU per edit ${cpu}`);
  return { lineCount, p50: pct(50), p95: pct(95), cpuPerEditMs };
}

// The limit is for the 5,000-line stress file; the 500-line one shows an everyday file.
for (const size of [5000, 500]) {
  const { lineCount, p50, p95, cpuPerEditMs } = await measure(size);
  const limits = size === 5000 ? { limit: '<= 100', aim: '30', pass: p95 <= 100 } : {};
  console.log(JSON.stringify({ bench: 'lspLatency', metric: `didChange -> diagnostics p50 (${lineCount} lines)`, value: Number(p50.toFixed(1)), unit: 'ms' }));
  console.log(JSON.stringify({ bench: 'lspLatency', metric: `didChange -> diagnostics p95 (${lineCount} lines)`, value: Number(p95.toFixed(1)), unit: 'ms', ...limits }));
  if (cpuPerEditMs !== null) console.log(JSON.stringify({ bench: 'lspLatency', metric: `server CPU per edit (${lineCount} lines)`, value: Number(cpuPerEditMs.toFixed(1)), unit: 'ms' }));
}

await connection.sendRequest('shutdown');
const exited = new Promise((resolve) => child.once('exit', resolve));
await connection.sendNotification('exit');
if ((await exited) !== 0) throw new Error('the server did not exit cleanly');
