// A big Chrome / DevTools trace for the streamed trace reader, generated at bench time (nothing
// big is committed) from the recorded test/fixtures/profiles/service.cpuprofile: its call tree
// copied into many modules and its samples replayed, sent as the ProfileChunk events Chrome and
// DevTools write (nodes with `parent`, ~100 samples per chunk), between other events of the
// kinds a recorded trace is mostly made of (RunTask, FunctionCall, v8 events), one per chunk.
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const MB = 1024 * 1024;
const PID = 4242;
const TID = 259;

/** Streams the trace into `path` until it holds about `targetBytes`; returns its shape. */
export function writeBigTrace(path, targetBytes) {
  const base = JSON.parse(readFileSync(join(root, 'test/fixtures/profiles/service.cpuprofile'), 'utf8'));
  const parentOf = new Map();
  for (const n of base.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);
  const rootNode = base.nodes.find((n) => parentOf.get(n.id) === undefined);
  const others = base.nodes.filter((n) => n !== rootNode);
  const stride = Math.max(...base.nodes.map((n) => n.id)) + 1;
  const fd = openSync(path, 'w');
  let pending = [];
  let pendingBytes = 0;
  let written = 0;
  const flush = () => {
    const text = pending.join('');
    writeSync(fd, text);
    written += Buffer.byteLength(text);
    pending = [];
    pendingBytes = 0;
  };
  const out = (s) => {
    pending.push(s);
    pendingBytes += s.length;
    if (pendingBytes > 4 * MB) flush();
  };
  let ts = 1_000_000;
  const event = (name, cat, args, extra = {}) => out(`,${JSON.stringify({ args, cat, name, ph: 'X', pid: PID, tid: TID, ts, ...extra })}`);
  const filler = (k) => {
    event('RunTask', 'disabled-by-default-devtools.timeline', {}, { dur: 120 + (k % 50), tdur: 110 });
    event('FunctionCall', 'devtools.timeline', { data: { frame: 'F1', functionName: `handler${k % 40}`, scriptId: '17', url: 'file:///srv/app/routes.js', lineNumber: k % 300, columnNumber: 10 } }, { dur: 90 });
    event('V8.Execute', 'v8', {}, { dur: 80 + (k % 20) });
  };
  out(`{"traceEvents":[${JSON.stringify({ args: { name: 'CrRendererMain' }, cat: '__metadata', name: 'thread_name', ph: 'M', pid: PID, tid: TID, ts: 0 })}`);
  out(`,${JSON.stringify({ args: { data: { startTime: ts } }, cat: 'disabled-by-default-v8.cpu_profiler', id: '0x1', name: 'Profile', ph: 'P', pid: PID, tid: TID, ts })}`);
  // Nodes first (about half the bytes, as in a long run of a big app), 200 per chunk, then samples.
  const chunk = (nodes, samples, deltas) =>
    out(`,${JSON.stringify({ args: { data: { cpuProfile: { nodes, samples }, timeDeltas: deltas } }, cat: 'disabled-by-default-v8.cpu_profiler', id: '0x1', name: 'ProfileChunk', ph: 'P', pid: PID, tid: 260, ts })}`);
  const node = (n, k) => {
    const url = n.callFrame.url.startsWith('file://') ? n.callFrame.url.replace(/\/([^/]+)$/, `/module${k}/$1`) : n.callFrame.url;
    const parent = parentOf.get(n.id);
    const out = { callFrame: { ...n.callFrame, url }, id: n.id + k * stride };
    if (parent !== undefined) out.parent = parent === rootNode.id ? parent : parent + k * stride;
    return out;
  };
  let nodes = [{ callFrame: rootNode.callFrame, id: rootNode.id }];
  let copies = 0;
  let count = 0;
  for (let k = 0; written + pendingBytes < targetBytes / 2; k++, copies++) {
    for (const n of others) {
      nodes.push(node(n, k));
      if (nodes.length === 200) {
        chunk(nodes, [], []);
        nodes = [];
        filler(count++);
      }
    }
  }
  if (nodes.length > 0) chunk(nodes, [], []);
  let i = 0;
  let samples = 0;
  while (written + pendingBytes < targetBytes - 1024) {
    const ids = [];
    const deltas = [];
    for (let s = 0; s < 100; s++, i++) {
      const j = i % base.samples.length;
      const copy = Math.floor(i / base.samples.length) % copies;
      const id = base.samples[j];
      ids.push(id === rootNode.id ? id : id + copy * stride);
      const d = Math.max(0, base.timeDeltas[j]);
      deltas.push(d);
      ts += d;
    }
    samples += ids.length;
    chunk([], ids, deltas);
    filler(count++);
  }
  out(`],"metadata":{"source":"DevTools","startTime":"2026-11-27T00:00:00.000Z"}}`);
  flush();
  closeSync(fd);
  return { nodes: 1 + copies * others.length, samples };
}
