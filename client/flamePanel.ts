// The extension-host side of the flame graph: one webview panel, created on first show and
// revealed afterwards, with a strict CSP (client/flameHtml.ts). Message state and validation
// live in FlameSession (client/flameSession.ts); the language client is wired in by the caller.
import * as vscode from 'vscode';
import type { FlameGraphResult, FlameMode, SandwichParams, SandwichResult } from '../server/protocol/wire';
import { createNonce, flameHtml } from './flameHtml';
import { FlameSession } from './flameSession';

export interface FlamePanelOptions {
  extensionUri: vscode.Uri;
  /** Asks the server for a recomputed tree (the webview's toggles). */
  requestGraph: (mode: FlameMode, onlyMyCode: boolean) => Promise<FlameGraphResult>;
  openFile: (file: string, line: number) => void;
  /** Whether the webview may open this file (inside the workspace or a path mapping). */
  mayOpen: (file: string) => boolean;
  /** The comparison's swap button (client/commands.ts: hotframe.swapComparison). */
  swap: () => void;
  /** Callers and callees of a frame the webview picked (checked against the graph shown). */
  sandwich?: (question: SandwichParams) => void;
  /** Where a rejected webview message is reported (once per panel); default console.warn. */
  log?: (line: string) => void;
}

export class FlamePanel implements vscode.Disposable {
  static readonly viewType = 'hotframe.flameGraph';

  private panel: vscode.WebviewPanel | null = null;
  private readonly session: FlameSession;
  private subscriptions: vscode.Disposable[] = [];

  constructor(private readonly options: FlamePanelOptions) {
    this.session = new FlameSession({
      post: (message) => void this.panel?.webview.postMessage(message),
      requestGraph: options.requestGraph,
      openFile: options.openFile,
      mayOpen: options.mayOpen,
      swap: options.swap,
      ...(options.sandwich !== undefined ? { sandwich: options.sandwich } : {}),
      log: options.log ?? ((line) => console.warn(line)),
    });
  }

  /** The mode and filter shown now, for a caller that re-requests after a profile change. */
  get view(): { mode: FlameMode; onlyMyCode: boolean } {
    return this.session.view;
  }

  get isOpen(): boolean {
    return this.panel !== null;
  }

  /** The graph the open panel shows; null when it is closed. */
  get graph(): FlameGraphResult | null {
    return this.panel ? this.session.shown : null;
  }

  /**
   * Opens (or reveals) the panel before its graph is known: the webview starts while the server
   * computes the graph, instead of after it (a big profile: both take about a second).
   */
  open(): void {
    this.reveal();
  }

  show(graph: FlameGraphResult): void {
    this.reveal();
    this.session.show(graph);
  }

  /** The callers and callees split (issue 29), drawn instead of the graph until a toggle asks for a graph. */
  showSandwich(sandwich: SandwichResult): void {
    this.reveal();
    this.session.showSandwich(sandwich);
  }

  /** The split the open panel shows; null when closed or showing a graph. */
  get sandwich(): SandwichResult | null {
    return this.panel ? this.session.shownSandwich : null;
  }

  showError(message: string): void {
    this.reveal();
    this.session.showError(message);
  }

  /** Recomputes the current view (e.g. after a new profile was loaded); errors show in the panel. */
  refresh(): Promise<void> {
    const { mode, onlyMyCode } = this.session.view;
    // A new profile ends a comparison: its graph is the plain one until Compare is run again.
    return this.session.request(mode === 'diff' ? 'normal' : mode, onlyMyCode);
  }

  dispose(): void {
    this.panel?.dispose();
  }

  private reveal(): void {
    if (this.panel) {
      if (!this.panel.visible) this.panel.reveal(undefined, true);
      return;
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
    this.session.reset();
    this.subscriptions = [
      webview.onDidReceiveMessage((raw: unknown) => this.session.receive(raw)),
      panel.onDidDispose(() => {
        this.panel = null;
        this.session.forget();
        for (const s of this.subscriptions) s.dispose();
        this.subscriptions = [];
      }),
    ];
    webview.html = flameHtml({
      cspSource: webview.cspSource,
      nonce: createNonce(),
      scriptUri: uri('webview.js'),
      styleUris: [uri('d3-flamegraph.css'), uri('flame.css')],
    });
    this.panel = panel;
  }
}
