// Heat decorations: a line background and overview-ruler mark whose strength follows the line's
// self time, an end-of-line note on the hottest lines and a note on each function's declaration.
// Numbers come from the server (`hotframe/fileHeat`), what to draw from client/presentation/heat.ts;
// this file only turns the plan into decorations.
import * as vscode from 'vscode';
import { readConfig, affectsHeat } from './config';
import type { HotframeContext } from './ctx';
import { Requests, type FileHeatParams } from '../server/protocol/lsp';
import type { FileHeat } from '../server/protocol/wire';
import { BUCKETS, bucketColors, planHeat, type AppliedHeat } from './presentation/heat';

export class HeatDecorations implements vscode.Disposable {
  private readonly bucketTypes: vscode.TextEditorDecorationType[] = [];
  /** Call lines: a left bar whose strength follows the call's total, apart from the self-time background. */
  private readonly callTypes: vscode.TextEditorDecorationType[] = [];
  private readonly noteType = vscode.window.createTextEditorDecorationType({
    after: { margin: '0 0 0 3em', color: new vscode.ThemeColor('editorCodeLens.foreground'), fontStyle: 'italic' },
    rangeBehavior: vscode.DecorationRangeBehavior.ClosedClosed,
  });
  /** Server answers by document URI; dropped when the profile changes or the file is saved. */
  private readonly cache = new Map<string, Promise<FileHeat | null>>();
  /** What is drawn per visible document (read by the extension's API, client/api.ts). */
  readonly applied = new Map<string, AppliedHeat>();
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly ctx: HotframeContext) {
    for (let bucket = 1; bucket <= BUCKETS; bucket++) {
      const colors = bucketColors(bucket);
      this.bucketTypes.push(
        vscode.window.createTextEditorDecorationType({
          isWholeLine: true,
          backgroundColor: colors.background,
          overviewRulerColor: colors.ruler,
          overviewRulerLane: vscode.OverviewRulerLane.Right,
          rangeBehavior: vscode.DecorationRangeBehavior.ClosedClosed,
        }),
      );
      this.callTypes.push(
        vscode.window.createTextEditorDecorationType({
          isWholeLine: true,
          borderWidth: '0 0 0 4px',
          borderStyle: 'solid',
          borderColor: colors.callBar,
          overviewRulerColor: colors.callRuler,
          overviewRulerLane: vscode.OverviewRulerLane.Left,
          rangeBehavior: vscode.DecorationRangeBehavior.ClosedClosed,
        }),
      );
    }
    this.subscriptions.push(
      ctx.onDidChangeProfile(() => this.refreshAll(true)),
      // A tab made visible again gets a new TextEditor without decorations.
      vscode.window.onDidChangeVisibleTextEditors((editors) => {
        this.forgetHidden();
        editors.forEach((e) => void this.apply(e));
      }),
      // Edits move decoration ranges by themselves; a save is when the server's view catches up.
      vscode.workspace.onDidSaveTextDocument((doc) => {
        this.cache.delete(doc.uri.toString());
        this.editorsOf(doc).forEach((e) => void this.apply(e));
      }),
      vscode.workspace.onDidCloseTextDocument((doc) => this.applied.delete(doc.uri.toString())),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (affectsHeat(event)) this.refreshAll(false);
      }),
    );
    this.refreshAll(false);
  }

  refreshAll(dropCache: boolean): void {
    if (dropCache) this.cache.clear();
    this.forgetHidden();
    for (const editor of vscode.window.visibleTextEditors) void this.apply(editor);
  }

  /** Resolves once every visible editor has been (re)decorated. */
  async settle(): Promise<void> {
    await Promise.all(vscode.window.visibleTextEditors.map((e) => this.apply(e)));
  }

  /** A hidden editor loses its decorations; it is decorated afresh when shown again. */
  private forgetHidden(): void {
    const visible = new Set(vscode.window.visibleTextEditors.map((e) => e.document.uri.toString()));
    for (const key of [...this.applied.keys()]) if (!visible.has(key)) this.applied.delete(key);
  }

  private editorsOf(doc: vscode.TextDocument): readonly vscode.TextEditor[] {
    return vscode.window.visibleTextEditors.filter((e) => e.document === doc);
  }

  private async apply(editor: vscode.TextEditor): Promise<void> {
    const doc = editor.document;
    const key = doc.uri.toString();
    const config = readConfig(doc.uri);
    const heat = config.heatEnabled && this.ctx.profile && doc.uri.scheme === 'file' ? await this.heatOf(doc.uri) : null;
    if (editor.document.isClosed) return;
    const plan: AppliedHeat = heat ? planHeat(heat, config.hotThresholdPercent, doc.lineCount) : { lines: [], callLines: [], notes: [] };
    this.bucketTypes.forEach((type, index) => {
      const ranges = plan.lines.filter((l) => l.bucket === index + 1).map((l) => doc.lineAt(l.line - 1).range);
      editor.setDecorations(type, ranges);
    });
    this.callTypes.forEach((type, index) => {
      editor.setDecorations(
        type,
        plan.callLines.filter((l) => l.bucket === index + 1).map((l) => doc.lineAt(l.line - 1).range),
      );
    });
    editor.setDecorations(
      this.noteType,
      plan.notes.map(({ line, text }) => {
        const end = doc.lineAt(line - 1).range.end;
        return { range: new vscode.Range(end, end), renderOptions: { after: { contentText: text } } };
      }),
    );
    if (plan.lines.length > 0 || plan.callLines.length > 0 || plan.notes.length > 0) this.applied.set(key, plan);
    else this.applied.delete(key);
  }

  private heatOf(uri: vscode.Uri): Promise<FileHeat | null> {
    const key = uri.toString();
    let pending = this.cache.get(key);
    if (!pending) {
      const params: FileHeatParams = { uri: key };
      pending = this.ctx.request(Requests.fileHeat, params).catch((error: unknown) => {
        // Heat is decoration only: log the failure instead of interrupting the user.
        this.ctx.output.appendLine(`[heat] ${uri.fsPath}: ${error instanceof Error ? error.message : String(error)}`);
        this.cache.delete(key);
        return null;
      });
      this.cache.set(key, pending);
    }
    return pending;
  }

  dispose(): void {
    this.subscriptions.forEach((s) => s.dispose());
    this.bucketTypes.forEach((t) => t.dispose());
    this.callTypes.forEach((t) => t.dispose());
    this.noteType.dispose();
  }
}
