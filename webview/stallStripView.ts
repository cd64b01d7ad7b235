// The stall strip under the details bar (issue 25): the run as a horizontal track, each event-loop
// stall a mark as wide as it lasted (stallStrip.ts places them). Hovering or focusing a mark shows
// its text beside the summary (and as the mark's title); clicking one whose line the host may open
// posts its index. Everything is set as text or through the CSSOM, never as HTML.
import type { StallStrip } from '../server/protocol/wire';
import { element, setText } from './dom';
import { stallStripModel } from './stallStrip';

const HINT = 'Hover a stall for its line and route; click it to open the line';

export class StallStripView {
  readonly node = element('section', 'stall-strip');
  private readonly summary = element('span', 'stall-summary');
  private readonly hover = element('span', 'stall-hover');
  private readonly track = element('div', 'stall-track');

  constructor(private readonly open: (index: number) => void) {
    this.node.setAttribute('aria-label', 'Event-loop stalls on the run\u2019s timeline');
    this.hover.setAttribute('aria-live', 'polite');
    const head = element('div', 'stall-head');
    head.append(this.summary, this.hover);
    this.track.setAttribute('role', 'list');
    this.node.append(head, this.track);
    this.node.hidden = true;
  }

  /** Draws `strip`, or hides the strip when the graph carries none (diff view, a format without sample order). */
  show(strip: StallStrip | undefined, canOpen: (file: string) => boolean): void {
    if (strip === undefined || !Array.isArray(strip.stalls)) {
      this.node.hidden = true;
      this.track.replaceChildren();
      return;
    }
    let model: ReturnType<typeof stallStripModel>;
    try {
      model = stallStripModel(strip, canOpen);
    } catch {
      // A malformed strip from the host must not take the flame graph down with it.
      this.node.hidden = true;
      return;
    }
    setText(this.summary, model.summary);
    setText(this.hover, model.marks.length > 0 ? HINT : '');
    const marks = model.marks.map((mark) => {
      const node = element('button', `stall-mark${mark.startup ? ' startup' : ''}${mark.openable ? ' openable' : ''}`);
      node.type = 'button';
      node.setAttribute('role', 'listitem');
      node.title = mark.label;
      node.setAttribute('aria-label', mark.label);
      node.style.left = `${mark.leftPercent}%`;
      node.style.width = `${mark.widthPercent}%`;
      node.disabled = !mark.openable;
      const say = (): void => setText(this.hover, mark.label);
      node.addEventListener('mouseenter', say);
      node.addEventListener('focus', say);
      if (mark.openable) node.addEventListener('click', () => this.open(mark.index));
      return node;
    });
    this.track.replaceChildren(...marks);
    this.node.hidden = false;
  }
}
