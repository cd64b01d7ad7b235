// The extension-host side of the flame graph: one webview panel, created on first show and
// revealed afterwards. It posts ToWebview messages and validates every FromWebview message
// (client/flameMessages.ts) before acting on it; the language client is wired in by the caller.
import * as vscode from 'vscode';
import type { FlameGraphResult, FlameMode } from '../server/protocol';
import type { FromWebview, ToWebview } from '../webview/protocol';
import { createNonce, flameHtml } from './flameHtml';
import { parseWebviewMessage } from './flameMessages';

export interface FlamePanelOptions {
  extensionUri: vscode.Uri;
  /** Asks the server for a recomputed tree (toggles in the webview). */
  requestGraph: (mode: FlameMode, onlyMyCode: boolean) => Promise<FlameGraphResult>;
  openFile: (file: string, line: number) => void;
  /** Where a rejected webview message is reported (once per panel); default console.warn. */
  log?: (line: string) => void;
}

export class FlamePanel implements vscode.Disposable {
  static readonly viewType = 'hotframe.flameGraph';

  private panel: vscode.WebviewPanel | null = null;
  private ready = false;
  /** The last message for the webview, re-sent when it (re)loads and says `ready`. */
  private last: ToWebview | null = null;
  private openable: ReadonlySet<string> = new Set();
  private mode: FlameMode = 'normal';
  private onlyMyCode = false;
  private requestSeq = 0;
  private warned = false;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly options: FlamePanelOptions) {}

  /** What the panel shows now, for a caller that re-requests after a profile change. */
  get view(): { mode: FlameMode; onlyMyCode: boolean } {
    return { mode: this.mode, onlyMyCode: this.onlyMyCode };
  }

  get visible(): boolean {
    return this.panel !== null;
  }

  show(graph: FlameGraphResult): void {
    this.mode = graph.mode;
    this.openable = new Set(graph.openableFiles);
    this.post({ type: 'render', graph, onlyMyCode: this.onlyMyCode });
  }

  showError(message: string): void {
    this.post({ type: 'error', message });
  }

  /** Recomputes the current view (e.g. after a new profile was loaded); errors are shown in the panel. */
  refresh(): Promise<void> {
    return this.request(this.mode, this.onlyMyCode);
  }

  dispose(): void {
    this.panel?.dispose();
  }

  private post(message: ToWebview): void {
    this.last = message;
    const panel = this.reveal();
    if (this.ready) void panel.webview.postMessage(message);
  }

  private reveal(): vscode.WebviewPanel {
    if (this.panel) {
      if (!this.panel.visible) this.panel.reveal(undefined, true);
      return this.panel;
    }
    const dist = vscode.Uri.joinPath(this.options.extensionUri, 'dist');
    const panel = vscode.window.createWebviewPanel(
      FlamePanel.viewType,
      'Hotframe: Flame Graph',
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: true },
      { enableScripts: true, retainContextWhenHidden: true, localResourceRoots: [dist] },
    );
    const webview = panel.webview;
    const uri = (name: string) => webview.asWebviewUri(vscode.Uri.joinPath(dist, name)).toString();
    webview.html = flameHtml({
      cspSource: webview.cspSource,
      nonce: createNonce(),
      scriptUri: uri('webview.js'),
      styleUris: [uri('d3-flamegraph.css'), uri('flame.css')],
    });
    this.subscriptions.push(
      webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
      panel.onDidDispose(() => {
        this.panel = null;
        this.ready = false;
        for (const s of this.subscriptions.splice(0)) s.dispose();
      }),
    );
    this.panel = panel;
    return panel;
  }

  private receive(raw: unknown): void {
    const message: FromWebview | null = parseWebviewMessage(raw, this.openable);
    if (!message) {
      if (!this.warned) {
        this.warned = true;
        (this.options.log ?? console.warn)(`Hotframe: ignored an invalid message from the flame graph view: ${describe(raw)}`);
      }
      return;
    }
    switch (message.type) {
      case 'ready':
        this.ready = true;
        if (this.last && this.panel) void this.panel.webview.postMessage(this.last);
        return;
      case 'open':
        this.options.openFile(message.file, message.line);
        return;
      case 'request':
        void this.request(message.mode, message.onlyMyCode);
        return;
    }
  }

  private async request(mode: FlameMode, onlyMyCode: boolean): Promise<void> {
    const seq = ++this.requestSeq;
    this.onlyMyCode = onlyMyCode;
    try {
      const graph = await this.options.requestGraph(mode, onlyMyCode);
      // A later toggle has superseded this answer.
      if (seq === this.requestSeq) this.show(graph);
    } catch (error) {
      if (seq === this.requestSeq) this.showError(firstLine(error));
    }
  }
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n', 1)[0]!.slice(0, 500) || 'The flame graph could not be computed.';
}

/** A short, single-line description of a rejected message for the log (never its full content). */
function describe(raw: unknown): string {
  const type = typeof raw === 'object' && raw !== null && 'type' in raw ? String((raw as { type: unknown }).type) : typeof raw;
  return JSON.stringify(type.slice(0, 40));
}
