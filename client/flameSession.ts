// What the flame graph panel remembers between messages, without the vscode API (so it is
// unit-tested): the last message for the webview (re-sent when the webview says `ready`), the
// files it may open, the current mode and filter, and which graph request is the latest.
import type { FlameGraphResult, FlameMode, FlameNode, SandwichParams, SandwichResult } from '../server/protocol/wire';
import type { ToWebview } from '../server/protocol/webview';
import { parseWebviewMessage } from './flameMessages';

export interface FlameSessionHost {
  /** Delivers a message to the webview (only called once it is ready). */
  post(message: ToWebview): void;
  requestGraph(mode: FlameMode, onlyMyCode: boolean): Promise<FlameGraphResult>;
  openFile(file: string, line: number): void;
  /** Swaps the comparison's two profiles (the webview's swap button; only a diff graph has it). */
  swap(): void;
  /** Shows the callers and callees of a frame of the graph shown (issue 29); absent: the panel offers none. */
  sandwich?(question: SandwichParams): void;
  /**
   * Whether a file may be opened at the webview's request: only inside the workspace folders or
   * an explicit path mapping (a profile is untrusted and could declare /etc/passwd openable).
   */
  mayOpen(file: string): boolean;
  log(line: string): void;
}

/** True when `file` (absolute) lies inside one of `folders` (absolute). */
export function isInsideFolders(file: string, folders: readonly string[], pathApi: { relative(from: string, to: string): string; isAbsolute(path: string): boolean }): boolean {
  return folders.some((folder) => {
    const rel = pathApi.relative(folder, file);
    return rel !== '' && !rel.startsWith('..') && !pathApi.isAbsolute(rel);
  });
}

export class FlameSession {
  private ready = false;
  private last: ToWebview | null = null;
  private graph: FlameGraphResult | null = null;
  /** The callers and callees drawn now instead of the graph (null: the graph is drawn). */
  private split: SandwichResult | null = null;
  private openable: ReadonlySet<string> = new Set();
  private mode: FlameMode = 'normal';
  private onlyMyCode = false;
  private requestSeq = 0;
  private warned = false;

  constructor(private readonly host: FlameSessionHost) {}

  get view(): { mode: FlameMode; onlyMyCode: boolean } {
    return { mode: this.mode, onlyMyCode: this.onlyMyCode };
  }

  /** The graph drawn now (an error shows over it, and it stays). */
  get shown(): FlameGraphResult | null {
    return this.graph;
  }

  /** The callers and callees split shown now; null when the graph is. */
  get shownSandwich(): SandwichResult | null {
    return this.split;
  }

  /** Callers and callees from a command: drawn instead of the graph, which a toggle brings back. */
  showSandwich(sandwich: SandwichResult): void {
    this.requestSeq++;
    this.split = sandwich;
    this.openable = new Set([...(this.graph?.openableFiles ?? []), ...sandwich.openableFiles]);
    this.send({ type: 'sandwich', sandwich });
  }

  /** A graph from the caller (a command): it also supersedes any toggle still waiting for its answer. */
  show(graph: FlameGraphResult): void {
    this.requestSeq++;
    this.render(graph);
  }

  private render(graph: FlameGraphResult): void {
    this.graph = graph;
    this.split = null;
    this.mode = graph.mode;
    this.openable = new Set(graph.openableFiles);
    this.send({ type: 'render', graph, onlyMyCode: this.onlyMyCode });
  }

  /** Shown over the current graph, which stays. */
  showError(message: string): void {
    this.send({ type: 'error', message });
  }

  /** The webview was (re)created: nothing reaches it until it posts `ready` again. */
  reset(): void {
    this.ready = false;
  }

  /**
   * The panel was closed: what it showed goes with it, so a panel opened before its next graph
   * arrives starts empty instead of drawing the old one (the mode and filter stay).
   */
  forget(): void {
    this.reset();
    this.last = null;
    this.graph = null;
    this.split = null;
    this.openable = new Set();
  }

  /** Asks for the graph of `mode`/`onlyMyCode`; an answer overtaken by a later request is dropped. */
  async request(mode: FlameMode, onlyMyCode: boolean): Promise<void> {
    const seq = ++this.requestSeq;
    this.onlyMyCode = onlyMyCode;
    try {
      const graph = await this.host.requestGraph(mode, onlyMyCode);
      if (seq === this.requestSeq) this.render(graph);
    } catch (error) {
      if (seq === this.requestSeq) this.showError(firstLine(error));
    }
  }

  /** A message from the webview: validated, then acted on; anything invalid is logged once. */
  receive(raw: unknown): void {
    const message = parseWebviewMessage(raw, this.openable);
    if (!message) {
      if (!this.warned) {
        this.warned = true;
        this.host.log(`Hotframe: ignored an invalid message from the flame graph view (type ${describeType(raw)})`);
      }
      return;
    }
    switch (message.type) {
      case 'ready':
        this.ready = true;
        if (this.last) this.host.post(this.last);
        return;
      case 'open':
        if (this.host.mayOpen(message.file)) this.host.openFile(message.file, message.line);
        else this.host.log(`Hotframe: not opening ${JSON.stringify(message.file.slice(0, 200))}: outside the workspace and the path mappings`);
        return;
      case 'request':
        void this.request(message.mode, message.onlyMyCode);
        return;
      case 'openStall':
        this.openStall(message.index);
        return;
      case 'sandwich':
        // Only a frame the shown graph holds (or the split's own frames): the webview names, the host checks.
        if (this.host.sandwich !== undefined && (holds(this.graph?.root, message) || holdsEntry(this.split, message))) this.host.sandwich({ file: message.file, line: message.line, name: message.name });
        else this.host.log('Hotframe: callers and callees asked for a frame the flame graph does not show');
        return;
      case 'swap':
        // Only a comparison can be swapped: a stale button under another graph does nothing.
        if (this.mode === 'diff') this.host.swap();
        else this.host.log('Hotframe: swap ignored: the flame graph shows no comparison');
        return;
    }
  }

  /** Opens the user line the shown graph's stall `index` is named by (the server's data, not the webview's). */
  private openStall(index: number): void {
    const at = this.graph?.stalls?.stalls[index]?.at ?? null;
    if (at === null) {
      this.host.log(`Hotframe: the flame graph view asked for stall ${index}, which the shown graph does not name a line for`);
      return;
    }
    if (this.openable.has(at.file) && this.host.mayOpen(at.file)) this.host.openFile(at.file, Math.max(1, at.line));
    else this.host.log(`Hotframe: not opening ${JSON.stringify(at.file.slice(0, 200))}: not a local file inside the workspace or the path mappings`);
  }

  private send(message: ToWebview): void {
    this.last = message;
    if (this.ready) this.host.post(message);
  }
}

/** Whether `root` holds a frame of that file, line and name (a walk bounded by the tree sent). */
function holds(root: FlameNode | undefined, q: { file: string; line: number; name: string }): boolean {
  const stack = root === undefined ? [] : [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.file === q.file && node.line === q.line && (node.name || '(anonymous)') === q.name) return true;
    stack.push(...node.children);
  }
  return false;
}

/** Whether the split shown holds that function (its callers' and callees' entries). */
function holdsEntry(split: SandwichResult | null, q: { file: string; line: number; name: string }): boolean {
  if (split === null) return false;
  const stack = [split.callers, split.callees];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    if (entry.file === q.file && entry.line === q.line && entry.name === q.name) return true;
    stack.push(...entry.children);
  }
  return false;
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n', 1)[0]!.slice(0, 500) || 'The flame graph could not be computed.';
}

/** The rejected message's type, short and quoted: never its whole (untrusted) content. */
function describeType(raw: unknown): string {
  const type = typeof raw === 'object' && raw !== null && 'type' in raw ? String((raw as { type: unknown }).type) : typeof raw;
  return JSON.stringify(type.slice(0, 40));
}
