// The hover tooltip. d3-flame-graph's bundled tooltip writes innerHTML, so this one replaces it
// (plugged in through chart.tooltip()) and builds its lines with textContent.
import type { FlameFrame, FlameTooltip } from 'd3-flame-graph/src/flamegraph.js';
import type { FlameNode } from '../server/protocol/wire';
import { element } from './dom';
import type { FrameFacts } from './frameText';

const OFFSET = 14;

export class Tooltip {
  readonly node = element('div', 'tooltip');
  private pointer = { x: 0, y: 0 };

  constructor(
    host: HTMLElement,
    private readonly describe: (node: FlameNode) => FrameFacts,
  ) {
    this.node.setAttribute('role', 'tooltip');
    this.node.hidden = true;
    host.append(this.node);
    // Positioned from the last pointer position: d3 only passes the frame element to show().
    host.addEventListener('mousemove', (event) => {
      this.pointer = { x: event.clientX, y: event.clientY };
      if (!this.node.hidden) this.place();
    });
  }

  /** The object d3-flame-graph calls; it also stops d3 from adding <title> elements. */
  forChart(): FlameTooltip<FlameNode> {
    const tip = (() => undefined) as unknown as FlameTooltip<FlameNode>;
    tip.show = (frame: FlameFrame<FlameNode>) => this.show(frame.data);
    tip.hide = () => this.hide();
    return tip;
  }

  show(data: FlameNode): void {
    const facts = this.describe(data);
    const lines = [element('div', 'tooltip-name', facts.name), element('div', 'tooltip-cost', `${facts.total} · ${facts.self}`)];
    if (facts.delta) lines.push(element('div', 'tooltip-delta', facts.delta));
    lines.push(element('div', 'tooltip-location', facts.location));
    lines.push(element('div', 'tooltip-category', facts.category + (facts.folded ? ` · ${facts.folded}` : '')));
    this.node.replaceChildren(...lines);
    this.node.hidden = false;
    this.place();
  }

  hide(): void {
    this.node.hidden = true;
  }

  /** Next to the pointer, flipped to stay inside the window. */
  private place(): void {
    const { innerWidth, innerHeight } = window;
    const box = this.node.getBoundingClientRect();
    let x = this.pointer.x + OFFSET;
    let y = this.pointer.y + OFFSET;
    if (x + box.width > innerWidth) x = Math.max(0, this.pointer.x - OFFSET - box.width);
    if (y + box.height > innerHeight) y = Math.max(0, this.pointer.y - OFFSET - box.height);
    this.node.style.transform = `translate(${Math.round(x)}px, ${Math.round(y)}px)`;
  }
}
