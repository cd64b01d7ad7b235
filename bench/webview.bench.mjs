// Flame graph webview speed: a generated profile tree of 500,000 nodes is collapsed with the
// server's own function (server/profile/analysis/flameTree.ts toFlameNodes, subtrees < 1/2000 of the
// root folded into "(N small frames)"), then rendered in headless Chromium by the real
// dist/webview.js under the panel's CSP (test/webview/harness.ts), transitions off.
// Render: from the `render` message to the second animation frame after it (drawn and painted).
// Zoom: from a click on a frame to the second animation frame (median of ZOOMS clicks, each
// followed by a reset). Limits: render <= 1000 ms, zoom <= 100 ms. Two tree shapes (see SHAPES),
// and once more with the server's collapse skipped, to measure the webview's own guard.
// Also writes screenshots, test-results/flamegraph-bench-<shape>.png.
import { mkdirSync } from 'node:fs';
import { tsImport } from 'tsx/esm/api';

const NODES = 500_000;
const ZOOMS = 7;
const RENDERS = 3;
const { MergedTree, toFlameNodes } = await tsImport('../server/profile/analysis/flameTree.ts', import.meta.url);
const { launchBrowser, openHarness } = await tsImport('../test/webview/harness.ts', import.meta.url);

/** Seeded, so every run draws the same tree. */
function mulberry32(seed) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CATEGORY_NAMES = ['user', 'dependency', 'node', 'native', 'gc', 'program', 'idle'];
const LABELS = Array.from({ length: 4000 }, (_, i) => ({
  name: `${['handle', 'Query.exec', 'emit', 'JSON.parse', 'Scavenge', '(program)', '(idle)'][i % 7]}#${i}`,
  category: CATEGORY_NAMES[i % 7],
  file: i % 7 < 3 ? `/srv/app/${i % 7 === 1 ? 'node_modules/lib/' : 'lib/'}f${i}.js` : '',
  line: 1 + (i % 400),
}));

/** Heavy-tailed self samples: most nodes 0-2, a few thousands. */
function selfSamples(random) {
  return Math.floor(Math.pow(1 - random(), -1 / 1.15)) - 1;
}

/** A random walk of stacks under `start`: up to `maxDepth` deep, deepening 62% of the time. */
function growRandom(tree, random, start, nodes, maxDepth) {
  const depth = new Map([[start, 0]]);
  const limit = tree.count + nodes;
  let cursor = start;
  for (let guard = 0; tree.count < limit && guard < nodes * 20; guard++) {
    if (depth.get(cursor) < maxDepth && random() < 0.62) {
      // Few distinct functions near the root (event loop, server, router), more further down.
      const d = depth.get(cursor);
      const pool = Math.min(LABELS.length, 3 + 6 * d * d);
      const node = tree.child(cursor, Math.floor(random() * pool));
      if (!depth.has(node)) depth.set(node, depth.get(cursor) + 1);
      tree.self[node] += selfSamples(random);
      tree.selfMs[node] = tree.self[node];
      cursor = node;
    } else {
      for (let up = 1 + Math.floor(random() * 4); up > 0 && cursor !== start; up--) cursor = tree.parent[cursor];
    }
  }
}

const SHAPES = {
  /** One service's stacks: 60 deep at most, 4,000 distinct functions, hot spots. */
  service() {
    const tree = new MergedTree(LABELS);
    growRandom(tree, mulberry32(2026), 0, NODES, 60);
    return tree;
  },
  /**
   * Many equally busy request handlers (1,600, each just over 1/2000 of the samples), each
   * under an 8-frame middleware chain and over a ~300-node random subtree: far more frames
   * survive the server's collapse than in the service shape.
   */
  wide() {
    const tree = new MergedTree(LABELS);
    const random = mulberry32(7);
    const handlers = 1600;
    for (let h = 0; h < handlers; h++) {
      let at = tree.child(0, h);
      for (let m = 0; m < 8; m++) at = tree.child(at, 1600 + ((h + m) % 800));
      growRandom(tree, random, at, Math.floor(NODES / handlers) - 9, 30);
      tree.self[at] += 400;
      tree.selfMs[at] = tree.self[at];
    }
    return tree;
  },
};

const SCENARIOS = [
  { shape: 'service', serverCollapse: true },
  { shape: 'wide', serverCollapse: true },
  { shape: 'service', serverCollapse: false },
];

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function countNodes(root) {
  let n = 0;
  const stack = [root];
  while (stack.length) {
    const node = stack.pop();
    n++;
    for (const c of node.children) stack.push(c);
  }
  return n;
}

const browser = await launchBrowser();
let failed = false;
try {
  for (const { shape, serverCollapse } of SCENARIOS) {
    const started = performance.now();
    const merged = SHAPES[shape]();
    // minFraction 0: nothing folded, the webview's own guard (drawableTree) must cope alone.
    const root = toFlameNodes(merged, { rootName: '(root)', minFraction: serverCollapse ? undefined : 0 });
    const kept = countNodes(root);
    const how = serverCollapse ? `collapsed to ${kept} by the server's toFlameNodes` : `${kept} nodes sent uncollapsed`;
    console.log(`${shape}: generated ${merged.count} nodes, ${how} (${(performance.now() - started).toFixed(0)} ms)`);
    const name = serverCollapse ? shape : `${shape}-uncollapsed`;
    const graph = { title: `generated 500k-node profile (${name})`, mode: 'normal', unit: 'ms', cpuMs: root.value, root, openableFiles: [] };
    const result = await measure(name, graph);
    failed ||= result.problems.length > 0;
    const what = serverCollapse ? `${kept} after collapse` : `${kept} merged nodes, not collapsed: webview guard only`;
    console.log(JSON.stringify({ bench: 'webview', metric: `flame render, 500k-node ${shape} profile (${what})`, value: result.render, unit: 'ms', limit: '<= 1000', pass: result.render <= 1000 }));
    console.log(JSON.stringify({ bench: 'webview', metric: `flame zoom, ${name} profile (click to painted)`, value: result.zoom, unit: 'ms', limit: '<= 100', pass: result.zoom <= 100 }));
  }
} finally {
  await browser.close();
}
if (failed) process.exitCode = 1;

async function measure(shape, graph) {
  const h = await openHarness(browser, { width: 1400, height: 900 });
  const page = h.page;
  await page.evaluate((g) => {
    window.__benchGraph = g;
  }, graph);

  const renders = [];
  let frames = 0;
  for (let i = 0; i < RENDERS; i++) {
    const r = await page.evaluate(async () => {
      const t0 = performance.now();
      window.dispatchEvent(new MessageEvent('message', { data: { type: 'render', graph: window.__benchGraph } }));
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      return { ms: performance.now() - t0, frames: document.querySelectorAll('g.frame').length };
    });
    renders.push(r.ms);
    frames = r.frames;
  }
  const status = await page.locator('.status').textContent();
  console.log(`${shape} render: ${renders.map((r) => r.toFixed(0)).join(', ')} ms; ${frames} frames in the DOM; status "${status}"`);

  const zooms = [];
  for (let i = 0; i < ZOOMS; i++) {
    const z = await page.evaluate(async (pick) => {
      // A frame one to four levels down, wide enough to click, a different one each time.
      const candidates = Array.from(document.querySelectorAll('g.frame')).filter((g) => {
        const d = g.__data__;
        return d && d.children && d.depth >= 1 && d.depth <= 4 && d.x1 - d.x0 > 0.002 && d.x1 - d.x0 < 0.5;
      });
      const target = candidates[pick % candidates.length];
      const before = document.querySelectorAll('g.frame').length;
      const t0 = performance.now();
      target.dispatchEvent(new MouseEvent('click', { bubbles: true }));
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      const ms = performance.now() - t0;
      const after = document.querySelectorAll('g.frame').length;
      const width = target.querySelector('rect').getBoundingClientRect().width;
      return { ms, before, after, width, candidates: candidates.length };
    }, i * 3);
    zooms.push(z.ms);
    if (i === 0) console.log(`${shape} zoom: ${z.candidates} candidates; frames ${z.before} -> ${z.after}; zoomed frame now ${z.width.toFixed(0)} px wide`);
    await page.click('button.reset');
    await h.settle();
  }
  console.log(`${shape} zoom: ${zooms.map((z) => z.toFixed(0)).join(', ')} ms`);
  mkdirSync('test-results', { recursive: true });
  await page.screenshot({ path: `test-results/flamegraph-bench-${shape}.png` });
  if (h.problems.length) console.log(`${shape} page problems: ${h.problems.join(' | ')}`);
  const problems = [...h.problems];
  await h.close();
  return { render: median(renders), zoom: median(zooms), problems };
}
