// The flame graph webview's entry (bundled to dist/webview.js). Builds the page, connects the
// toolbar, the chart and the details bar, and talks to the host (client/flamePanel.ts).
import type { FlameGraphResult, FlameNode } from '../server/protocol/wire';
import { DetailsBar } from './detailsBar';
import { element, setText } from './dom';
import { FlameView } from './flameView';
import { cpuShare, frameFacts, type FrameFacts } from './frameText';
import { connectHost } from './hostChannel';
import { Legend } from './legend';
import { StallStripView } from './stallStripView';
import { SandwichSplit } from './sandwichSplit';
import type { ToWebview } from '../server/protocol/webview';
import { Toolbar } from './toolbar';
import { Tooltip } from './tooltip';

const NO_GRAPH = 'No flame graph yet. Load a profile (Hotframe: Load Profile) to see where the time goes.';
const NO_SAMPLES = 'This view has no samples. With \u201conly my code\u201d on, a profile that never ran your code is empty.';

const app = document.getElementById('app') ?? document.body;
let graph: FlameGraphResult | null = null;
let openable: ReadonlySet<string> = new Set();

const host = connectHost(receive);
const describe = (node: FlameNode): FrameFacts => (split.current !== null ? frameFacts(node, split.scaleOf()) : frameFacts(node, view.currentScale, view.isRoot(node)));
const canOpen = (node: FlameNode) => openable.has(node.file);
const openSource = (node: FlameNode) => {
  if (canOpen(node)) host.post({ type: 'open', file: node.file, line: node.line > 0 ? node.line : 1 });
};

const toolbar = new Toolbar({
  search: (text) => view.search(text),
  resetZoom: () => view.resetZoom(),
  request: (mode, onlyMyCode) => host.post({ type: 'request', mode, onlyMyCode }),
  swap: () => host.post({ type: 'swap' }),
});
const legend = new Legend();
const banner = element('div', 'banner');
banner.setAttribute('role', 'alert');
banner.hidden = true;
// "Callers and callees" of the selected frame: the host checks the frame is one it sent.
const askSandwich = (node: FlameNode) => host.post({ type: 'sandwich', file: node.file, line: node.line, name: node.name || '(anonymous)' });
const details = new DetailsBar(describe, canOpen, openSource, askSandwich);
const stallStrip = new StallStripView((index) => host.post({ type: 'openStall', index }));
const chartArea = element('main', 'chart');
chartArea.setAttribute('aria-label', 'Flame graph: the width of a frame is its share of the time');
const empty = element('div', 'empty', NO_GRAPH);
const tooltip: Tooltip = new Tooltip(document.body, describe);
const split: SandwichSplit = new SandwichSplit(tooltip, {
  select(node, open) {
    details.select(node);
    if (open) openSource(node);
  },
  deselect: () => details.clear(),
  searchResult: () => undefined,
});
app.append(toolbar.node, legend.node, banner, details.node, stallStrip.node, chartArea, split.node, empty);
const view: FlameView = new FlameView(chartArea, tooltip, {
  select(node, open) {
    details.select(node);
    if (open) openSource(node);
  },
  deselect: () => details.clear(),
  searchResult(matches, matched) {
    toolbar.setSearchSummary(
      matches === 0 && toolbar.searchText().trim() === '' ? '' : `${matches} match${matches === 1 ? '' : 'es'} \u00b7 ${cpuShare(matched, view.currentScale)}`,
    );
  },
});

function receive(message: ToWebview): void {
  if (message.type === 'error') {
    toolbar.requestFailed();
    setText(banner, message.message);
    banner.hidden = false;
    return;
  }
  if (message.type === 'sandwich') {
    banner.hidden = true;
    details.clear();
    view.destroy();
    chartArea.hidden = true;
    empty.hidden = true;
    stallStrip.show(undefined, () => false);
    openable = new Set([...openable, ...message.sandwich.openableFiles.filter((f): f is string => typeof f === 'string')]);
    try {
      split.show(message.sandwich);
      toolbar.setStatus(`callers and callees of ${message.sandwich.target.name}`);
    } catch (error) {
      setText(banner, `Cannot draw these callers and callees: ${error instanceof Error ? error.message : String(error)}`);
      banner.hidden = false;
    }
    return;
  }
  split.hide();
  graph = message.graph;
  openable = new Set(graph.openableFiles.filter((f): f is string => typeof f === 'string'));
  banner.hidden = true;
  toolbar.showGraph(graph.title, graph.mode, message.onlyMyCode);
  legend.show(graph.mode);
  details.clear();
  stallStrip.show(graph.stalls, (file) => openable.has(file));
  try {
    const stats = view.render(graph);
    empty.hidden = !stats.empty;
    setText(empty, NO_SAMPLES);
    chartArea.hidden = stats.empty;
    toolbar.setStatus(stats.empty ? '' : `${stats.nodes.toLocaleString('en-US')} frames${stats.folded > 0 ? ` \u00b7 ${stats.folded.toLocaleString('en-US')} tiny folded` : ''}`);
  } catch (error) {
    setText(banner, `Cannot draw this flame graph: ${error instanceof Error ? error.message : String(error)}`);
    banner.hidden = false;
  }
}

document.addEventListener('keydown', (event) => {
  const typing = event.target instanceof HTMLInputElement;
  if (event.key === 'Escape') {
    view.resetZoom();
    details.clear();
  } else if (event.key === '/' && !typing) {
    event.preventDefault();
    toolbar.focusSearch();
  }
});

let resizeTimer: ReturnType<typeof setTimeout> | undefined;
window.addEventListener('resize', () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => (split.current !== null ? split.resize() : graph && view.resize()), 100);
});

host.post({ type: 'ready' });
