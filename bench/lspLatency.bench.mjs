// Editor latency: time from sending a didChange to receiving the publishDiagnostics for that
// version, for every kind of edit on its own row, on files of different shapes:
// - the generated service file (express + mongoose + redis blocks with seeds 000-004's patterns),
// - a handler-dense controller file of another shape (exported handlers, pg, execFileSync, switch),
// - a real module from npm (mongoose's lib/model.js, as installed),
// - two real service modules copied from npm packages with their licence (bench/inputs/, issue 26):
//   iobroker.js-controller's build/cjs/main.js (a device controller: many top-level functions,
//   message and state handlers) and apostrophe's page module (one `module.exports = {...}` object
//   holding every route and handler),
// - the generated file with recoverable errors (its blocks repeated: names declared again),
// - a 20,000-line generated file.
// Kinds: Enter, deleting a line, pasting a 30-line block, undoing the paste, typing an identifier
// character, typing an argument, typing in a comment, typing in a string, and typing in a comment
// while a call near the top is left unclosed (a syntax error elsewhere); the findings kept when the
// file is opened with that call unclosed.
// Also the heap each open document costs (measured in a process of its own).
// Every edit is counted from the first after open (HOTFRAME_BENCH_WARMUP=n leaves n out of each row);
// each row also prints its max, and the first edit after open has a line of its own.
// Every measured edit is followed by its reverse (sent and awaited, not timed; the paste's reverse
// is the "undo" row), so the edit sites found once on the original text stay valid.
// HOTFRAME_BENCH_FILES=<text> measures only the files whose name holds it ('(real, npm)': the two real modules).
// The server is dist/server.js spoken to over stdio with vscode-jsonrpc, as an editor would.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from '@babel/parser';
import jsonrpc from 'vscode-jsonrpc/node.js';

const { createMessageConnection, StreamMessageReader, StreamMessageWriter } = jsonrpc;
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const server = join(root, 'dist', 'server.js');
const EDITS = Number(process.env.HOTFRAME_BENCH_EDITS ?? 20);
// Issue 26: the first edit after open is counted (an editor's user pays it); a warm-up is opt-in.
const WARMUP = Number(process.env.HOTFRAME_BENCH_WARMUP ?? 0);

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

/** A service file of at least `lines` lines; `distinct` blocks repeated (names declared again) when given. */
function serviceFile(lines, distinct = Infinity) {
  let text = header;
  for (let i = 0; text.split('\n').length < lines; i++) text += block(i % distinct);
  return text;
}

/** Another shape: exported controller functions, a pg client per request, execFileSync, switch-registered routes. */
function controllerFile(lines) {
  let text = `'use strict';
const { execFileSync } = require('child_process');
const express = require('express');
const mongoose = require('mongoose');
const pg = require('pg');
const config = require('./config');
const Order = mongoose.model('Order', new mongoose.Schema({ shop: String, state: String, items: Array }));
const app = express();
`;
  for (let i = 0; text.split('\n').length < lines; i++) {
    text += `/* orders ${i}: list with totals, a report per request */
exports.listOrders${i} = async function listOrders${i}(req, res, next) {
  try {
    const filter = { shop: req.params.shop, state: 'open-${i}' };
    const orders = await Order.find(filter).sort({ at: -1 });
    const started = Date.now();
    for (const order of orders) {
      order.total = order.items.reduce((sum, item) => sum + item.price * item.count, 0);
    }
    res.json({ orders, took: Date.now() - started });
  } catch (error) {
    next(error);
  }
};
app.post('/orders${i}', express.json(), async (req, res) => {
  const client = new pg.Client(config.pg);
  await client.connect();
  const { rows } = await client.query('select * from orders where id = $1', [req.body.id]);
  const report = execFileSync('/usr/bin/report', ['--shop', String(${i})]);
  res.send({ rows, report: String(report) });
  await client.end();
});
switch (process.env.MODE_${i % 3}) {
  case 'x': app.use('/x${i}', (req, res) => res.end(String(Date.now())));
    break;
  default:
}
`;
  }
  return text + 'app.get(\'/orders\', exports.listOrders0);\n';
}

/** 30 lines pasted between two top-level statements (names made unique by `n`). */
function pastedBlock(n) {
  return `
// pasted ${n}: a handler copied from another route file
async function pastedHandler${n}(req, res, next) {
  try {
    const rows = await Item.find({ owner: req.user.id });
    const started = Date.now();
    const result = [];
    for (const row of rows) {
      if (!row.visible) continue;
      result.push({ id: row.id, name: row.name, at: started });
    }
    res.json({ result, count: rows.length });
  } catch (error) {
    next(error);
  }
}
function pastedHelper${n}(value) {
  const parts = String(value).split(',');
  let total = 0;
  for (const part of parts) {
    total += Number(part) || 0;
  }
  return total;
}
const pastedConfig${n} = {
  path: '/pasted/${n}',
  handler: pastedHandler${n},
  helper: pastedHelper${n},
  retries: 3,
};
`;
}

/** Edit sites of each kind in `text`, found once with Babel (never on the measured path). */
function editSites(text) {
  const ast = parse(text, { sourceType: 'unambiguous', errorRecovery: true, allowReturnOutsideFunction: true, plugins: [] });
  const sites = { enter: [], deleteLine: [], identifier: [], argument: [], string: [], topLevelEnds: [], breakable: [] };
  const lineStart = (offset) => text.lastIndexOf('\n', offset - 1) + 1;
  const lineEnd = (offset) => {
    const end = text.indexOf('\n', offset);
    return end < 0 ? text.length : end;
  };
  const visit = (node, inFunction, parent, key) => {
    if (!node || typeof node.type !== 'string') return;
    const isFunction = /Function|Method/.test(node.type) && node.body;
    if (inFunction) {
      if (node.type === 'BlockStatement') {
        for (const statement of node.body) {
          sites.enter.push({ at: statement.start, remove: 0, insert: '\n' });
          const start = lineStart(statement.start);
          const end = lineEnd(statement.end);
          if (statement.type === 'ExpressionStatement' && text.slice(start, end).trim() === text.slice(statement.start, statement.end) && !text.slice(start, end).includes('//')) {
            sites.deleteLine.push({ at: start, remove: end + 1 - start, insert: '' });
          }
          if (statement.type === 'ExpressionStatement' && statement.expression.type === 'CallExpression' && text[statement.expression.end - 1] === ')') {
            sites.breakable.push({ at: statement.expression.end - 1, remove: 1, insert: '' });
          }
        }
      }
      if (node.type === 'Identifier' && key !== 'key' && key !== 'property' && key !== 'id' && key !== 'params') sites.identifier.push({ at: node.end, remove: 0, insert: 'x' });
      if (node.type === 'CallExpression' && node.arguments.length > 0 && node.arguments.at(-1).type !== 'SpreadElement') {
        sites.argument.push({ at: node.arguments.at(-1).end, remove: 0, insert: ', 1' });
      }
      if (node.type === 'StringLiteral' && key !== 'key' && parent?.type !== 'ImportDeclaration') sites.string.push({ at: node.start + 1, remove: 0, insert: 'x' });
    }
    for (const [childKey, value] of Object.entries(node)) {
      if (childKey === 'loc' || childKey === 'extra' || childKey === 'leadingComments' || childKey === 'trailingComments' || childKey === 'innerComments') continue;
      if (Array.isArray(value)) for (const child of value) visit(child, inFunction || isFunction, node, childKey);
      else if (value && typeof value === 'object') visit(value, inFunction || isFunction, node, childKey);
    }
  };
  visit(ast.program, false, null, null);
  for (const statement of ast.program.body) sites.topLevelEnds.push(statement.end);
  sites.comment = (ast.comments ?? []).map((comment) => ({ at: comment.start + 2, remove: 0, insert: 'x' }));
  return sites;
}

/** `count` items spread evenly over `items`. */
function spread(items, count) {
  if (items.length === 0) throw new Error('no edit site of a kind');
  return Array.from({ length: count }, (_, i) => items[Math.floor(((i * 7919) % count + 0.5) * items.length / count)]);
}

// HOTFRAME_BENCH_CPU_PROF=<dir>: the server writes a CPU profile of the whole session there (to see where an edit's time goes).
const profileDir = process.env.HOTFRAME_BENCH_CPU_PROF;
const serverArgs = profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir, server, '--stdio'] : [server, '--stdio'];
const child = spawn(process.execPath, serverArgs, { stdio: ['pipe', 'pipe', 'inherit'] });
const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
const waiting = new Map();
const lastCount = new Map();
connection.onNotification('textDocument/publishDiagnostics', (params) => {
  lastCount.set(params.uri, params.diagnostics);
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

/** The server's resident memory in MB (Linux /proc), for the cost of keeping a document open. */
function serverRssMb() {
  try {
    const line = readFileSync(`/proc/${child.pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
    return Number(line.split(/\s+/)[1]) / 1024;
  } catch {
    return null;
  }
}

/** LSP position of an offset. */
function positionAt(text, offset) {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length - 1, character: offset - lineStart };
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** Opens `text` and measures each kind of edit on it. */
async function measureFile(name, text, limit) {
  // A path a service's module has: under a folder named bench/ (or test/, scripts/, …) a file is
  // tooling to the rules (rules/detectors/toolingFiles.ts), which report nothing there.
  const uri = `file:///srv/service/${name.replace(/[^a-z0-9]+/gi, '-')}.js`;
  const lineCount = text.split('\n').length;
  const sites = editSites(text);
  let version = 1;
  let current = text;
  const rssBefore = serverRssMb();
  let done = published(uri, version);
  await connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'javascript', version, text } });
  await done;
  const rssOpen = serverRssMb();
  const diagnosticsAtOpen = lastCount.get(uri).length;
  const parseErrorsAtOpen = lastCount.get(uri).filter((d) => d.code === 'parse-error').length;

  /** Sends one change (offsets in `current`) and returns ms to its diagnostics. */
  const send = async ({ at, remove, insert }) => {
    version++;
    const range = { start: positionAt(current, at), end: positionAt(current, at + remove) };
    current = current.slice(0, at) + insert + current.slice(at + remove);
    done = published(uri, version);
    const start = process.hrtime.bigint();
    await connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ range, text: insert }] });
    return Number((await done) - start) / 1e6;
  };
  const reverse = (edit, removed) => ({ at: edit.at, remove: edit.insert.length, insert: removed });

  const count = WARMUP + EDITS;
  const pasteAt = spread(sites.topLevelEnds, count);
  const kinds = [
    ['Enter', spread(sites.enter, count)],
    ['delete a line', spread(sites.deleteLine, count)],
    ['paste 30 lines', pasteAt.map((at, i) => ({ at, remove: 0, insert: pastedBlock(i) }))],
    ['type an identifier', spread(sites.identifier, count)],
    ['type an argument', spread(sites.argument, count)],
    ['type in a comment', spread(sites.comment, count)],
    ['type in a string', spread(sites.string, count)],
  ];
  const rows = [];
  let firstEdit = null;
  const cpuBefore = serverCpuSeconds();
  let measured = 0;
  for (const [kind, edits] of kinds) {
    const forward = [];
    const backward = [];
    for (const [i, edit] of edits.entries()) {
      const removed = current.slice(edit.at, edit.at + edit.remove);
      const ms = await send(edit);
      firstEdit ??= ms;
      const back = await send(reverse(edit, removed));
      if (i >= WARMUP) {
        forward.push(ms);
        backward.push(back);
        measured += 2;
      }
    }
    rows.push([kind, forward]);
    if (kind === 'paste 30 lines') rows.push(['undo the paste', backward]);
  }
  if (current !== text) throw new Error('the edits and their reverses did not restore the text');
  if (lastCount.get(uri).length !== diagnosticsAtOpen) throw new Error(`${name}: diagnostics changed after reverting: ${diagnosticsAtOpen} -> ${lastCount.get(uri).length}`);
  // A syntax error near the top (a call left unclosed), then typing in comments below it.
  const breakSite = sites.breakable.find((site) => site.at > text.length * 0.02) ?? sites.breakable[0];
  const withError = [];
  let keptWhileBroken = 0;
  await send(breakSite);
  const brokenDiagnostics = lastCount.get(uri);
  keptWhileBroken = brokenDiagnostics.filter((d) => d.code !== 'parse-error').length;
  const parseErrors = brokenDiagnostics.filter((d) => d.code === 'parse-error').length;
  const after = spread(sites.comment.filter((site) => site.at > breakSite.at), count).map((site) => ({ ...site, at: site.at - breakSite.remove }));
  for (const [i, edit] of after.entries()) {
    const removed = current.slice(edit.at, edit.at + edit.remove);
    const ms = await send(edit);
    await send(reverse(edit, removed));
    if (i >= WARMUP) {
      withError.push(ms);
      measured += 2;
    }
  }
  await send(reverse(breakSite, text.slice(breakSite.at, breakSite.at + breakSite.remove)));
  rows.push(['type while a syntax error is elsewhere', withError]);
  // The same error present when the file is opened (no earlier tree to keep): issue 26.
  const brokenUri = `${uri.slice(0, -3)}-opened-broken.js`;
  const brokenText = text.slice(0, breakSite.at) + text.slice(breakSite.at + breakSite.remove);
  const openedBroken = published(brokenUri, 1);
  await connection.sendNotification('textDocument/didOpen', { textDocument: { uri: brokenUri, languageId: 'javascript', version: 1, text: brokenText } });
  await openedBroken;
  const openedDiagnostics = lastCount.get(brokenUri);
  const keptWhenOpenedBroken = openedDiagnostics.filter((d) => d.code !== 'parse-error').length;
  const parseErrorsWhenOpenedBroken = openedDiagnostics.length - keptWhenOpenedBroken;
  await connection.sendNotification('textDocument/didClose', { textDocument: { uri: brokenUri } });
  const cpuAfter = serverCpuSeconds();
  const cpuPerEdit = cpuBefore === null || cpuAfter === null ? null : ((cpuAfter - cpuBefore) * 1000) / measured;
  await connection.sendNotification('textDocument/didClose', { textDocument: { uri } });

  // RSS moves with the collector's timing (it fell on some opens): printed for a look, not a row.
  console.error(`${name}: ${lineCount} lines, ${diagnosticsAtOpen} diagnostics; with a syntax error: ${keptWhileBroken} findings kept, ${parseErrors} parse error(s); server RSS ${rssBefore?.toFixed(0)} -> ${rssOpen?.toFixed(0)} MB on open`);
  for (const [kind, latencies] of rows) {
    latencies.sort((a, b) => a - b);
    const p50 = percentile(latencies, 50);
    const p95 = percentile(latencies, 95);
    console.error(`  ${kind}: p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, max ${latencies.at(-1).toFixed(1)} ms`);
    console.log(JSON.stringify({ bench: 'lspLatency', metric: `edit -> diagnostics p95, ${name} (${lineCount} lines): ${kind}`, value: Number(p95.toFixed(1)), unit: 'ms', limit: `<= ${limit}`, aim: limit === 100 ? '30' : undefined, pass: p95 <= limit }));
    console.log(JSON.stringify({ bench: 'lspLatency', metric: `edit -> diagnostics max, ${name} (${lineCount} lines): ${kind}`, value: Number(latencies.at(-1).toFixed(1)), unit: 'ms', aim: '100' }));
  }
  console.log(JSON.stringify({ bench: 'lspLatency', metric: `first edit after open -> diagnostics, ${name} (${lineCount} lines)`, value: Number(firstEdit.toFixed(1)), unit: 'ms', aim: '30' }));
  if (cpuPerEdit !== null) console.log(JSON.stringify({ bench: 'lspLatency', metric: `server CPU per change, ${name} (edits and reverses, mean)`, value: Number(cpuPerEdit.toFixed(1)), unit: 'ms' }));
  const findingsAtOpen = diagnosticsAtOpen - parseErrorsAtOpen;
  console.log(JSON.stringify({ bench: 'lspLatency', metric: `findings kept while a call near the top is unclosed, ${name}`, value: keptWhileBroken, unit: `of ${findingsAtOpen}` }));
  console.log(JSON.stringify({ bench: 'lspLatency', metric: `findings kept when opened with that call unclosed, ${name}`, value: keptWhenOpenedBroken, unit: `of ${findingsAtOpen}` }));
  console.log(JSON.stringify({ bench: 'lspLatency', metric: `parse errors reported when opened with that call unclosed, ${name}`, value: parseErrorsWhenOpenedBroken, unit: 'errors', aim: '1' }));
  console.log(JSON.stringify({ bench: 'lspLatency', metric: `heap per open document (tree, scopes, statement records, findings), ${name}`, value: documentHeapMb(text), unit: 'MB' }));
}

/** The heap one open document costs, measured in a process of its own (bench/editor/documentHeap.ts). */
function documentHeapMb(text) {
  const dir = mkdtempSync(join(tmpdir(), 'hotframe-heap-'));
  try {
    const file = join(dir, 'document.js');
    writeFileSync(file, text);
    const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', join(root, 'bench', 'editor', 'documentHeap.ts'), file], { cwd: root, encoding: 'utf8' });
    return JSON.parse(out).mb;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const files = [
  ['generated service', serviceFile(5000), 100],
  ['handler-dense controllers', controllerFile(5000), 100],
  ['mongoose lib/model.js', readFileSync(join(root, 'node_modules', 'mongoose', 'lib', 'model.js'), 'utf8'), 100],
  ['iobroker.js-controller main.js (real, npm)', readFileSync(join(root, 'bench', 'inputs', 'iobroker-js-controller-main.js'), 'utf8'), 100],
  ['apostrophe page module (real, npm)', readFileSync(join(root, 'bench', 'inputs', 'apostrophe-page-index.js'), 'utf8'), 100],
  ['service with redeclarations', serviceFile(5000, 40), 100],
  ['generated service 20k', serviceFile(20000), 250],
];
const only = process.env.HOTFRAME_BENCH_FILES;
for (const [name, text, limit] of files) {
  if (only && !name.includes(only)) continue;
  await measureFile(name, text, limit);
}

await connection.sendRequest('shutdown');
const exited = new Promise((resolve) => child.once('exit', resolve));
await connection.sendNotification('exit');
if ((await exited) !== 0) throw new Error('the server did not exit cleanly');
