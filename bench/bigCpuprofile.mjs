// The big .cpuprofile the benches load (profile.bench.mjs: the readers; editor.bench.mjs: the
// editor), generated at bench time from the recorded test/fixtures/profiles/service.cpuprofile:
// nothing big is committed.
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const MB = 1024 * 1024;
const WORKLOADS = '/test/fixtures/workloads/';

/** The url of a recorded frame's file in copy `k`: module<k>/ before the file name, under sourceRoot if given. */
function moduleUrl(url, k, sourceRoot) {
  const copied = url.replace(/\/([^/]+)$/, `/module${k}/$1`);
  const at = copied.indexOf(WORKLOADS);
  if (sourceRoot === undefined || at < 0) return copied;
  return `${pathToFileURL(sourceRoot).href}/${copied.slice(at + WORKLOADS.length)}`;
}

/**
 * Streams a big cpuprofile: the recorded tree copied into `copies` modules, then samples until the
 * size is reached. A frame of the recorded workload (test/fixtures/workloads/<rel>) becomes
 * <sourceRoot>/module<k>/<rel>'s file name in copy k; sourceRoot defaults to the workloads folder
 * the profile was recorded in (the files need not exist for the readers).
 */
export function writeBigCpuprofile(path, targetBytes, { sourceRoot } = {}) {
  const base = JSON.parse(readFileSync(join(root, 'test/fixtures/profiles/service.cpuprofile'), 'utf8'));
  const rootNode = base.nodes.find((n) => n.callFrame.functionName === '(root)');
  const others = base.nodes.filter((n) => n !== rootNode);
  const stride = Math.max(...base.nodes.map((n) => n.id)) + 1;
  const fd = openSync(path, 'w');
  let pending = [];
  let pendingBytes = 0;
  let written = 0;
  const out = (s) => {
    pending.push(s);
    pendingBytes += s.length;
    if (pendingBytes > 4 * MB) flush();
  };
  const flush = () => {
    const text = pending.join('');
    writeSync(fd, text);
    written += Buffer.byteLength(text);
    pending = [];
    pendingBytes = 0;
  };
  // About half the bytes in nodes, half in samples + deltas, as in a long run of a big app.
  const perCopy = Buffer.byteLength(JSON.stringify(others)) + 20 * others.length;
  const copies = Math.max(1, Math.round(targetBytes / 2 / perCopy));
  const rootChildren = [];
  for (let k = 0; k < copies; k++) for (const c of rootNode.children ?? []) rootChildren.push(c + k * stride);
  out(`{"nodes":[${JSON.stringify({ ...rootNode, children: rootChildren })}`);
  for (let k = 0; k < copies; k++) {
    for (const n of others) {
      const url = n.callFrame.url.startsWith('file://') ? moduleUrl(n.callFrame.url, k, sourceRoot) : n.callFrame.url;
      const node = { ...n, id: n.id + k * stride, callFrame: { ...n.callFrame, url } };
      if (n.children) node.children = n.children.map((c) => c + k * stride);
      out(`,${JSON.stringify(node)}`);
    }
  }
  out(`],"startTime":${base.startTime}`);
  flush();
  const sampleBytes = targetBytes - written;
  // Each sample costs its id and its delta in the two arrays.
  const avg = (base.samples.map((s) => String(s + copies * stride).length).reduce((a, b) => a + b, 0) + base.timeDeltas.map((d) => String(d).length).reduce((a, b) => a + b, 0)) / base.samples.length + 2;
  const count = Math.ceil(sampleBytes / avg);
  const samples = new Array(count);
  const deltas = new Array(count);
  let time = base.startTime;
  for (let i = 0; i < count; i++) {
    const j = i % base.samples.length;
    const copy = Math.floor(i / base.samples.length) % copies;
    const id = base.samples[j];
    samples[i] = id === rootNode.id ? id : id + copy * stride;
    deltas[i] = Math.max(0, base.timeDeltas[j]);
    time += deltas[i];
  }
  out(`,"endTime":${time},"samples":[`);
  for (let i = 0; i < count; i += 100_000) out((i ? ',' : '') + samples.slice(i, i + 100_000).join(','));
  out('],"timeDeltas":[');
  for (let i = 0; i < count; i += 100_000) out((i ? ',' : '') + deltas.slice(i, i + 100_000).join(','));
  out(']}');
  flush();
  closeSync(fd);
  return { nodes: 1 + copies * others.length, samples: count };
}
