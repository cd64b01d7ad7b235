// The callers and callees of one function (issue 29) as a split: its callers inverted above (the
// function at the bottom, each caller above what it calls), what it calls below (the function on
// top). Two charts drawn by FlameView from the server's trees; every text set with textContent.
import type { FlameGraphResult, FlameNode, SandwichEntry, SandwichResult } from '../server/protocol/wire';
import { element, setText } from './dom';
import { FlameView, type FlameViewEvents } from './flameView';
import { formatMs, formatPercent, formatWeight, percentOf } from '../server/shared/format';
import type { Tooltip } from './tooltip';

/** A server entry as a frame: widths are its total, in the profile's unit. */
function frameOf(entry: SandwichEntry): FlameNode {
  return { name: entry.name, value: entry.totalMs, self: entry.selfMs, category: entry.category, file: entry.file, line: entry.line, children: entry.children.map(frameOf) };
}

export class SandwichSplit {
  readonly node = element('section', 'sandwich');
  private readonly heading = element('div', 'sandwich-heading');
  private readonly callersArea = element('div', 'chart sandwich-callers');
  private readonly calleesArea = element('div', 'chart sandwich-callees');
  private readonly callers: FlameView;
  private readonly callees: FlameView;
  private shown: SandwichResult | null = null;

  constructor(tooltip: Tooltip, events: FlameViewEvents) {
    this.node.hidden = true;
    this.callersArea.setAttribute('aria-label', 'Callers: every path to the function, merged; the function at the bottom');
    this.calleesArea.setAttribute('aria-label', 'Callees: what the function calls, merged; the function on top');
    this.node.append(this.heading, element('div', 'sandwich-label', 'Callers (inverted: each caller above what it calls)'), this.callersArea, element('div', 'sandwich-label', 'Callees'), this.calleesArea);
    this.callers = new FlameView(this.callersArea, tooltip, events, { rootAtBottom: true });
    this.callees = new FlameView(this.calleesArea, tooltip, events);
  }

  get current(): SandwichResult | null {
    return this.shown;
  }

  /** The figures of a frame of either chart: its share of the profile (the split's root is the function, not "all"). */
  scaleOf(): { rootValue: number; cpuMs: number; weight?: 'bytes' | 'objects' } {
    const s = this.shown;
    if (s === null) return { rootValue: 0, cpuMs: 0 };
    return s.unit === 'ms' ? { rootValue: s.target.totalMs, cpuMs: s.cpuMs } : { rootValue: s.target.totalMs, cpuMs: s.cpuMs, weight: s.unit };
  }

  show(s: SandwichResult): void {
    this.shown = s;
    this.node.hidden = false;
    const amount = (v: number): string => (s.unit === 'ms' ? formatMs(v) : formatWeight(v, s.unit));
    const share = (v: number): string => formatPercent(percentOf(v, s.cpuMs));
    setText(this.heading, `${s.target.name} \u00b7 self ${amount(s.target.selfMs)} (${share(s.target.selfMs)}) \u00b7 total ${amount(s.target.totalMs)} (${share(s.target.totalMs)}) \u00b7 every % is ${s.shareOf}`);
    const graph = (root: SandwichEntry): FlameGraphResult => ({ title: s.title, mode: 'normal', unit: s.unit, cpuMs: s.cpuMs, root: frameOf(root), openableFiles: s.openableFiles });
    this.callers.render(graph(s.callers));
    this.callees.render(graph(s.callees));
  }

  hide(): void {
    this.shown = null;
    this.node.hidden = true;
    this.callers.destroy();
    this.callees.destroy();
  }

  resize(): void {
    if (this.shown === null) return;
    this.callers.resize();
    this.callees.resize();
  }
}
