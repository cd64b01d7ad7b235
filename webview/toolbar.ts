// The toolbar: title, search box with its match count, reset zoom, and the two toggles that ask
// the server for a recomputed tree (only my code, inverted / bottom-up).
import type { FlameMode } from '../server/protocol/wire';
import { element, setText } from './dom';

export interface ToolbarActions {
  search(text: string): void;
  resetZoom(): void;
  /** A toggle changed: the host must send a new graph. */
  request(mode: FlameMode, onlyMyCode: boolean): void;
  /** The comparison's swap button: the host loads the two profiles the other way round. */
  swap(): void;
}

/** Search as you type, but not on every key for a big tree. */
const SEARCH_DELAY_MS = 120;

export class Toolbar {
  readonly node = element('header', 'toolbar');
  private readonly title = element('span', 'title', 'Hotframe flame graph');
  private readonly modeBadge = element('span', 'mode-badge');
  private readonly searchBox = element('input', 'search');
  private readonly searchSummary = element('span', 'search-summary');
  private readonly resetButton = element('button', 'reset', 'Reset zoom');
  private readonly swapButton = element('button', 'swap', 'Swap before/after');
  private readonly onlyMyCode = element('input');
  private readonly inverted = element('input');
  private readonly status = element('span', 'status');
  private mode: FlameMode = 'normal';
  /** The toggles as they were for the graph on screen, to go back to when a request fails. */
  private shown = { onlyMyCode: false, inverted: false };
  private searchTimer: ReturnType<typeof setTimeout> | undefined;
  /** What the status says when nothing is loading (frame counts). */
  private idleStatus = '';

  constructor(private readonly actions: ToolbarActions) {
    this.searchBox.type = 'search';
    this.searchBox.placeholder = 'Search frames (text, any case)';
    this.searchBox.setAttribute('aria-label', 'Search frames by name or file');
    this.searchBox.addEventListener('input', () => {
      clearTimeout(this.searchTimer);
      this.searchTimer = setTimeout(() => actions.search(this.searchBox.value), SEARCH_DELAY_MS);
    });
    this.searchBox.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') {
        clearTimeout(this.searchTimer);
        actions.search(this.searchBox.value);
      }
    });
    this.resetButton.type = 'button';
    this.resetButton.title = 'Show the whole tree again (Esc)';
    this.resetButton.addEventListener('click', () => actions.resetZoom());
    this.swapButton.type = 'button';
    this.swapButton.title = 'Compare the other way round: the AFTER becomes the BEFORE';
    this.swapButton.hidden = true;
    // Not a busy state: the swap reloads both profiles in the host, which may fail there (a file gone).
    this.swapButton.addEventListener('click', () => actions.swap());

    this.onlyMyCode.type = 'checkbox';
    this.onlyMyCode.className = 'only-my-code';
    this.inverted.type = 'checkbox';
    this.inverted.className = 'inverted';
    this.onlyMyCode.addEventListener('change', () => this.requestGraph());
    this.inverted.addEventListener('change', () => this.requestGraph());

    const searchGroup = element('span', 'search-group');
    searchGroup.append(this.searchBox, this.searchSummary);
    this.node.append(
      this.title,
      this.modeBadge,
      searchGroup,
      this.resetButton,
      this.swapButton,
      this.toggle(this.onlyMyCode, 'Only my code', 'Hide frames outside your code; their time is charged to the calling frame'),
      this.toggle(this.inverted, 'Inverted (bottom-up)', 'Roots are the functions that spent the time; below them, their callers'),
      this.status,
    );
  }

  /** Reflects the graph now shown; `onlyMyCode` is what the host says it computed. */
  showGraph(title: string, mode: FlameMode, onlyMyCode: boolean | undefined): void {
    this.mode = mode;
    setText(this.title, title || 'Hotframe flame graph');
    this.title.title = title;
    setText(this.modeBadge, mode === 'diff' ? 'differential' : mode === 'inverted' ? 'bottom-up' : '');
    this.modeBadge.hidden = mode === 'normal';
    this.inverted.checked = mode === 'inverted';
    // The differential view compares two top-down trees; there is no inverted diff.
    this.inverted.disabled = mode === 'diff';
    this.swapButton.hidden = mode !== 'diff';
    if (onlyMyCode !== undefined) this.onlyMyCode.checked = onlyMyCode;
    this.onlyMyCode.disabled = false;
    this.shown = { onlyMyCode: this.onlyMyCode.checked, inverted: this.inverted.checked };
    this.setStatus('');
  }

  /** A request failed: the graph on screen is still the old one, so are the toggles. */
  requestFailed(): void {
    this.onlyMyCode.checked = this.shown.onlyMyCode;
    this.inverted.checked = this.shown.inverted;
    this.setBusy(false);
  }

  setBusy(busy: boolean): void {
    this.onlyMyCode.disabled = busy;
    this.inverted.disabled = busy || this.mode === 'diff';
    setText(this.status, busy ? 'Loading\u2026' : this.idleStatus);
  }

  setStatus(text: string): void {
    this.idleStatus = text;
    setText(this.status, text);
  }

  setSearchSummary(text: string): void {
    setText(this.searchSummary, text);
  }

  searchText(): string {
    return this.searchBox.value;
  }

  focusSearch(): void {
    this.searchBox.focus();
    this.searchBox.select();
  }

  private requestGraph(): void {
    const mode: FlameMode = this.mode === 'diff' ? 'diff' : this.inverted.checked ? 'inverted' : 'normal';
    this.setBusy(true);
    this.actions.request(mode, this.onlyMyCode.checked);
  }

  private toggle(input: HTMLInputElement, text: string, hint: string): HTMLLabelElement {
    const label = element('label', 'toggle');
    label.title = hint;
    label.append(input, document.createTextNode(` ${text}`));
    return label;
  }
}
