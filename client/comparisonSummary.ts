// The comparison's text summary in the editor (issue 23.6): a read-only document holding what
// `hotframe diff BEFORE AFTER` prints for the two loaded profiles. The server computes it with the
// CLI's model and formatter (server/profile/analysis/diffText.ts), so the figures are the same.
import * as vscode from 'vscode';

import { Requests } from '../server/protocol/lsp';
import type { HotframeContext } from './ctx';

export const COMPARISON_SCHEME = 'hotframe-comparison';

/** What the document says when no comparison is loaded (the profile was cleared or replaced). */
export const NO_COMPARISON_TEXT = 'No comparison loaded: run "Hotframe: Compare With Profile…".\n';

export class ComparisonSummary implements vscode.TextDocumentContentProvider, vscode.Disposable {
  /** One document, refreshed in place: a swap or a new comparison does not open another tab. */
  static readonly uri = vscode.Uri.from({ scheme: COMPARISON_SCHEME, path: '/Hotframe comparison.txt' });
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  /** Plain text in a text document (no icons, no Markdown): the CLI's formatter escapes control characters (printable). */
  private content = NO_COMPARISON_TEXT;
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly ctx: HotframeContext) {
    this.subscriptions = [
      vscode.workspace.registerTextDocumentContentProvider(COMPARISON_SCHEME, this),
      // A comparison that ended leaves no stale figures behind.
      ctx.onDidChangeProfile(() => {
        if (ctx.baseline === null) this.set(NO_COMPARISON_TEXT);
      }),
    ];
  }

  provideTextDocumentContent(): string {
    return this.content;
  }

  /** Asks the server for the comparison's text and shows it beside the diff; answers the text. */
  async show(): Promise<string> {
    this.set(await this.ctx.request(Requests.comparisonText));
    const document = await vscode.workspace.openTextDocument(ComparisonSummary.uri);
    await vscode.window.showTextDocument(document, { preview: true, preserveFocus: true, viewColumn: vscode.ViewColumn.Beside });
    return this.content;
  }

  private set(text: string): void {
    if (text === this.content) return;
    this.content = text;
    this.changed.fire(ComparisonSummary.uri);
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.changed.dispose();
  }
}
