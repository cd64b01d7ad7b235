// The bar under the legend: a hint before anything is selected, then the clicked frame's facts
// and an "Open" button when the frame's file is one the host can open.
import type { FlameNode } from '../server/protocol/wire';
import { element } from './dom';
import type { FrameFacts } from './frameText';

const HINT = 'Click a frame to zoom in and select it \u00b7 Ctrl/Cmd/Alt+click or double-click opens its source \u00b7 Esc resets the zoom \u00b7 / searches';

export class DetailsBar {
  readonly node = element('div', 'details');
  private selected: FlameNode | null = null;

  constructor(
    private readonly describe: (node: FlameNode) => FrameFacts,
    private readonly canOpen: (node: FlameNode) => boolean,
    private readonly open: (node: FlameNode) => void,
    /** Shows the frame's callers and callees (issue 29). */
    private readonly sandwich?: (node: FlameNode) => void,
  ) {
    this.node.setAttribute('aria-live', 'polite');
    this.clear();
  }

  clear(): void {
    this.selected = null;
    const hint = element('span', 'hint', HINT);
    hint.title = HINT; // the bar is one line: a narrow panel cuts the text
    this.node.replaceChildren(hint);
  }

  select(node: FlameNode): void {
    this.selected = node;
    const facts = this.describe(node);
    const name = element('span', 'details-name', facts.name);
    name.title = facts.name; // a long name is cut to keep the bar one line
    const parts: HTMLElement[] = [name, element('span', 'details-cost', `${facts.total} · ${facts.self}`)];
    if (facts.delta) parts.push(element('span', 'details-delta', facts.delta));
    parts.push(element('span', 'details-category', facts.category));
    if (facts.folded) parts.push(element('span', 'details-folded', facts.folded));
    if (this.canOpen(node)) {
      const button = element('button', 'open', `Open ${facts.location}`);
      button.type = 'button';
      button.title = facts.location;
      button.addEventListener('click', () => this.open(node));
      parts.push(button);
      if (this.sandwich !== undefined) {
        const ask = this.sandwich;
        const callers = element('button', 'open sandwich-button', 'Callers and callees');
        callers.type = 'button';
        callers.addEventListener('click', () => ask(node));
        parts.push(callers);
      }
    } else {
      const where = node.file === '' ? facts.location : `${facts.location} (not found locally)`;
      parts.push(element('span', 'details-location', where));
    }
    this.node.replaceChildren(...parts);
  }

  current(): FlameNode | null {
    return this.selected;
  }
}
