// Draws a FlameGraphResult with d3-flame-graph and owns its interactions: zoom on click, the
// open gesture, literal search, colours by category or by delta. Everything d3 writes from the
// profile goes through .text() (labels) or our own tooltip; no HTML is built from frame data.
import flamegraph, { type FlameChart, type FlameFrame } from 'd3-flame-graph/src/flamegraph.js';
import { select } from 'd3-selection';
import { interrupt } from 'd3-transition';
import type { FlameGraphResult, FlameMode, FlameNode } from '../server/protocol/wire';
import { drawableTree, foldThreshold } from './drawableTree';
import { changeCounts, graphScale, type GraphScale } from './frameText';
import { categoryColour, diffColour, readPalette, type Palette } from './palette';
import { frameMatches, normalizeSearchTerm } from './search';
import type { Tooltip } from './tooltip';

export interface FlameViewEvents {
  /** A frame was clicked (and zoomed to); `open` when the click asked for its source. */
  select(node: FlameNode, open: boolean): void;
  /** The zoom went back to the root. */
  deselect(): void;
  searchResult(matches: number, matchedValue: number, totalValue: number): void;
}

export interface RenderStats {
  /** Nodes handed to d3 after folding. */
  nodes: number;
  /** Input nodes folded into a parent by the webview's guard. */
  folded: number;
  empty: boolean;
}

const CELL_HEIGHT = 20;
/** Frames narrower than this (px) are not put in the DOM at all, at every zoom level. */
const MIN_FRAME_PX = 1;
/** Above this many nodes, animations cost more than they help: transitions are switched off. */
const ANIMATED_NODE_LIMIT = 2000;
const TRANSITION_MS = 250;

type FrameElement = Element & { __data__?: FlameFrame<FlameNode> };

export class FlameView {
  private chart: FlameChart<FlameNode> | null = null;
  private scale: GraphScale = { rootValue: 0, cpuMs: 0, basis: { unit: 'ms' } };
  private root: FlameNode | null = null;
  private mode: FlameMode = 'normal';
  private palette: Palette | null = null;
  private searchTerm = '';
  private openGesture = false;
  private resetting = false;
  private animate = false;
  private drawnWidth = 0;
  /** The frame under the first press of the current click sequence (a double-click's first click). */
  private pressedFrame: FlameFrame<FlameNode> | undefined;

  constructor(
    private readonly container: HTMLElement,
    private readonly tooltip: Tooltip,
    private readonly events: FlameViewEvents,
    /** The callers half of a callers/callees split draws its root (the function) at the bottom. */
    private readonly options: { rootAtBottom?: boolean } = {},
  ) {
    // d3 hands the click handler the frame but not the event: note the modifiers first.
    container.addEventListener('click', (event) => (this.openGesture = event.ctrlKey || event.metaKey || event.altKey), true);
    // A double-click opens the frame its first press was on: the first click zooms and selects,
    // and whatever that redraws must not turn the second click into a click on a neighbour.
    container.addEventListener('mousedown', (event) => {
      if (event.detail <= 1) this.pressedFrame = frameOf(event.target);
    }, true);
    container.addEventListener('dblclick', (event) => {
      const frame = this.pressedFrame ?? frameOf(event.target);
      if (frame) events.select(frame.data, true);
    });
  }

  get currentScale(): GraphScale {
    return this.scale;
  }

  /** The drawn root ("all"): it holds idle time too, so it shows no share of CPU time. */
  isRoot(node: FlameNode): boolean {
    return node === this.root;
  }

  render(graph: FlameGraphResult): RenderStats {
    this.destroy();
    const width = this.width();
    const rootValue = typeof graph.root?.value === 'number' ? graph.root.value : 0;
    const tree = drawableTree(graph.root, foldThreshold(rootValue, width));
    this.mode = graph.mode;
    this.scale = graphScale(graph, tree.root.value);
    this.root = tree.root;
    if (tree.root.value <= 0) return { nodes: tree.nodes, folded: tree.folded, empty: true };

    this.palette = readPalette(getComputedStyle(this.container));
    const animate = tree.nodes <= ANIMATED_NODE_LIMIT && !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    this.animate = animate;
    this.drawnWidth = width;
    const chart = flamegraph<FlameNode>()
      .width(width)
      .cellHeight(CELL_HEIGHT)
      .minFrameSize(MIN_FRAME_PX)
      .transitionDuration(animate ? TRANSITION_MS : 0)
      // Root on top in every mode, so the widest frames are in view without scrolling.
      .inverted(this.options.rootAtBottom !== true)
      .sort(false)
      .title('')
      .selfValue(false)
      .tooltip(this.tooltip.forChart())
      .setColorMapper((frame) => this.colour(frame))
      .setSearchMatch((frame, term) => frameMatches(frame.data, term))
      .setSearchHandler((results, sum, total) => this.events.searchResult(results.length, sum, total))
      .onClick((frame) => this.clicked(frame));
    select(this.container).datum(tree.root).call(chart);
    this.chart = chart;
    if (this.searchTerm !== '') chart.search(this.searchTerm);
    this.snapNewFrames();
    return { nodes: tree.nodes, folded: tree.folded, empty: false };
  }

  search(text: string): void {
    this.searchTerm = normalizeSearchTerm(text);
    if (!this.chart) return;
    if (this.searchTerm === '') {
      this.chart.clear();
      this.events.searchResult(0, 0, this.scale.rootValue);
    } else {
      this.chart.search(this.searchTerm);
    }
  }

  resetZoom(): void {
    if (!this.chart) return;
    this.resetting = true;
    try {
      this.chart.resetZoom();
    } finally {
      this.resetting = false;
    }
  }

  resize(): void {
    if (!this.chart) return;
    this.drawnWidth = this.width();
    this.chart.width(this.drawnWidth).update();
    this.snapNewFrames();
  }

  destroy(): void {
    this.tooltip.hide();
    this.chart?.destroy();
    this.chart = null;
  }

  /** The content width: clientWidth includes the container's padding. */
  private width(): number {
    const style = getComputedStyle(this.container);
    const padding = Number.parseFloat(style.paddingLeft) + Number.parseFloat(style.paddingRight);
    return Math.max(200, Math.floor(this.container.clientWidth - (Number.isFinite(padding) ? padding : 0)));
  }

  /**
   * d3-flame-graph grows every newly drawn rect with a 250 ms transition even when
   * transitionDuration is 0 (it sets no duration on that one). Without animation, cancel it and
   * give the rects their final width now: thousands of growing rects are what makes a big zoom slow.
   */
  private snapNewFrames(): void {
    if (this.animate) return;
    this.container.querySelectorAll<SVGRectElement>('g.frame > rect').forEach((rect) => {
      const frame = (rect as Element as FrameElement).__data__;
      if (!frame) return;
      interrupt(rect);
      rect.setAttribute('width', String((frame.x1 - frame.x0) * this.drawnWidth));
    });
  }

  private clicked(frame: FlameFrame<FlameNode>): void {
    // Runs at the end of every zoom (and reset), after d3 has updated the frames.
    this.snapNewFrames();
    if (this.resetting || frame.parent === null) {
      // Zooming to the root is a reset, not a selection.
      if (frame.parent === null && !this.resetting) this.events.select(frame.data, this.openGesture);
      else this.events.deselect();
      return;
    }
    this.events.select(frame.data, this.openGesture);
  }

  private colour(frame: FlameFrame<FlameNode>): string {
    const palette = this.palette!;
    if (frame.highlight) return palette.match;
    const data = frame.data;
    // Idle and the VM's own work follow load and recording, not code: never coloured as a change.
    if (this.mode === 'diff') return diffColour(palette, changeCounts(data) ? (data.delta ?? 0) : 0, data.value);
    return categoryColour(palette, data.category, data.name);
  }
}

function frameOf(target: EventTarget | null): FlameFrame<FlameNode> | undefined {
  if (!(target instanceof Element)) return undefined;
  const group = target.closest('g.frame') as FrameElement | null;
  return group?.__data__;
}
