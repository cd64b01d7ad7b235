// The editor's semi-space sweep result (issue 29): a read-only document holding what
// `hotframe record --semi-space` prints for the same runs. The server computes it with the CLI's
// model and formatter (server/profile/gcTrace/semiSpace.ts, semiSpaceText.ts), so the figures are
// the same; one document, refreshed in place by the next sweep.
import * as vscode from 'vscode';

export const SWEEP_SCHEME = 'hotframe-sweep';

export class SweepResult implements vscode.TextDocumentContentProvider, vscode.Disposable {
  static readonly uri = vscode.Uri.from({ scheme: SWEEP_SCHEME, path: '/Hotframe semi-space sweep.txt' });
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private content = 'No semi-space sweep yet: run "Hotframe: Record CPU Profile…" and pick the semi-space sweep.\n';
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(SWEEP_SCHEME, this);

  provideTextDocumentContent(): string {
    return this.content;
  }

  async show(text: string): Promise<void> {
    this.content = text;
    this.changed.fire(SweepResult.uri);
    const document = await vscode.workspace.openTextDocument(SweepResult.uri);
    await vscode.window.showTextDocument(document, { preview: true });
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
  }
}
