// The colour legend: one swatch per category, or the slower/faster scale in the differential
// view. Swatch colours come from the same --hf-* CSS properties the frames use.
import type { FlameMode } from '../server/protocol/wire';
import { CATEGORIES, categoryLabel } from './categories';
import { element } from './dom';

export class Legend {
  readonly node = element('div', 'legend');

  constructor() {
    this.node.setAttribute('aria-label', 'Colour legend');
    this.show('normal');
  }

  show(mode: FlameMode): void {
    const items =
      mode === 'diff'
        ? [
            this.item('diff-slower', 'slower than baseline'),
            this.item('diff-faster', 'faster than baseline'),
            this.item('diff-unchanged', 'unchanged'),
            this.item('match', 'search match'),
          ]
        : [...CATEGORIES.map((c) => this.item(c, categoryLabel(c))), this.item('match', 'search match')];
    this.node.replaceChildren(...items);
  }

  private item(key: string, text: string): HTMLSpanElement {
    const item = element('span', 'legend-item');
    item.append(element('span', `swatch swatch-${key}`), element('span', 'legend-text', text));
    return item;
  }
}
