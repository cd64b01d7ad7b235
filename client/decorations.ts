// Heat decorations: a line background and overview-ruler mark whose strength follows the line's
// self time, an end-of-line note on the hottest lines and a note on each function's declaration.
// Numbers come from the server (`hotframe/fileHeat`); this file only turns them into decorations.
import * as vscode from 'vscode';
import { readConfig, affectsHeat } from './config';
import type { HotframeContext } from './ctx';
import { Requests, type FileHeatParams } from '../server/protocol/lsp';
import type { FileHeat } from '../server/protocol/wire';
import { formatMs, formatPercent, formatWeight, SHARE_OF_SHORT, type WeightUnit } from '../server/shared/format';

/** Decoration types cannot vary their background per range, so heat is quantized into buckets. */
const BUCKETS = 8;
const MAX_ALPHA = 0.5;
/** At most this many lines per file get an end-of-line note, hottest first. */
const MAX_LINE_NOTES = 10;

export interface AppliedHeat {
  /** 1-based lines with a background, with their bucket (1..BUCKETS). */
  lines: { line: number; bucket: number }[];
  /** 1-based lines that make a call, with the bucket of the call's total (a gutter bar of their own). */
  callLines: { line: number; bucket: number }[];
  /** End-of-line notes by 1-based line. */
  notes: { line: number; text: string }[];
}

/** sqrt of the share, as austin-vscode does, so a 1% line is still visible next to a 40% one. */
export function heatBucket(percent: number): number {
  if (!(percent > 0)) return 0;
  return Math.min(BUCKETS, Math.max(1, Math.ceil(Math.sqrt(Math.min(percent, 100) / 100) * BUCKETS)));
}

/** A figure in the profile's unit; every label carries its unit. */
function amount(value: number, unit: WeightUnit): string {
  return unit === 'ms' ? formatMs(value) : formatWeight(value, unit);
}

/** "12.3 ms · 4.20% CPU": the line's self time and its share of CPU time (idle excluded); an allocation profile's "allocates 1.20 MiB · 4.20% of bytes". */
export function lineNote(percent: number, selfMs: number, unit: WeightUnit = 'ms'): string {
  return unit === 'ms' ? `${formatMs(selfMs)} · ${formatPercent(percent)} ${SHARE_OF_SHORT}` : `allocates ${amount(selfMs, unit)} · ${formatPercent(percent)} of ${unit}`;
}

/** "this call (parseEvents): 933 ms · 7.20% CPU": the total under the call made on the line; in an allocation profile "this call (parse): allocates 3.00 MiB · 7.20% of bytes". */
export function callNote(callee: string, percent: number, ms: number, unit: WeightUnit = 'ms'): string {
  const name = callee || '(anonymous)';
  return unit === 'ms' ? `this call (${name}): ${formatMs(ms)} · ${formatPercent(percent)} ${SHARE_OF_SHORT}` : `this call (${name}): allocates ${amount(ms, unit)} · ${formatPercent(percent)} of ${unit}`;
}

/** "self 1.20 ms · total 42.0 ms · 4.20% CPU" (the share is the total's, like the hover's), or for an allocation profile "allocates 366 MiB · 37.0% of bytes (self 300 MiB)". */
export function functionNote(selfMs: number, totalMs: number, percent: number, unit: WeightUnit = 'ms', inferred = false): string {
  if (unit === 'ms') return `self ${formatMs(selfMs)} · total ${formatMs(totalMs)} · ${formatPercent(percent)} ${SHARE_OF_SHORT}`;
  return `allocates ${amount(totalMs, unit)} · ${formatPercent(percent)} of ${unit} (self ${amount(selfMs, unit)})${inferred ? ' · placed by name (no URL in the profile)' : ''}`;
}

/** Works out what to draw for one file; pure so that it is testable without an editor. */
export function planHeat(heat: FileHeat, thresholdPercent: number, lineCount: number): AppliedHeat {
  const inFile = (line: number): boolean => line >= 1 && line <= lineCount;
  const lines = heat.lines
    .filter((l) => inFile(l.line) && heatBucket(l.percent) > 0)
    .map((l) => ({ line: l.line, bucket: heatBucket(l.percent) }));
  const notes = new Map<number, string[]>();
  const add = (line: number, text: string): void => {
    const list = notes.get(line) ?? [];
    list.push(text);
    notes.set(line, list);
  };
  const unit = heat.profile?.unit ?? 'ms';
  for (const fn of heat.functions) {
    if (inFile(fn.line) && fn.totalMs > 0) add(fn.line, `${fn.name}: ${functionNote(fn.selfMs, fn.totalMs, fn.percent, unit, fn.inferred === true)}`);
  }
  const hottest = heat.lines
    .filter((l) => inFile(l.line) && l.percent >= thresholdPercent)
    .sort((a, b) => b.percent - a.percent)
    .slice(0, MAX_LINE_NOTES);
  for (const l of hottest) add(l.line, lineNote(l.percent, l.selfMs, unit));
  const callLines = (heat.callLines ?? [])
    .filter((c) => inFile(c.line) && heatBucket(c.percent) > 0)
    .map((c) => ({ line: c.line, bucket: heatBucket(c.percent) }));
  const hottestCalls = (heat.callLines ?? [])
    .filter((c) => inFile(c.line) && c.percent >= thresholdPercent)
    .sort((a, b) => b.percent - a.percent)
    .slice(0, MAX_LINE_NOTES);
  for (const c of hottestCalls) add(c.line, callNote(c.callee, c.percent, c.ms, unit));
  return {
    lines,
    callLines,
    notes: [...notes].sort((a, b) => a[0] - b[0]).map(([line, texts]) => ({ line, text: texts.join('  |  ') })),
  };
}

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
  /** What was last drawn per document, for `hotframe._debugState`. */
  readonly applied = new Map<string, AppliedHeat>();
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly ctx: HotframeContext) {
    for (let bucket = 1; bucket <= BUCKETS; bucket++) {
      const alpha = (MAX_ALPHA * bucket) / BUCKETS;
      this.bucketTypes.push(
        vscode.window.createTextEditorDecorationType({
          isWholeLine: true,
          backgroundColor: `rgba(255, 90, 20, ${alpha.toFixed(3)})`,
          overviewRulerColor: `rgba(255, 90, 20, ${Math.min(1, alpha * 2).toFixed(3)})`,
          overviewRulerLane: vscode.OverviewRulerLane.Right,
          rangeBehavior: vscode.DecorationRangeBehavior.ClosedClosed,
        }),
      );
      this.callTypes.push(
        vscode.window.createTextEditorDecorationType({
          isWholeLine: true,
          borderWidth: '0 0 0 4px',
          borderStyle: 'solid',
          borderColor: `rgba(200, 40, 160, ${Math.min(1, 0.25 + (0.75 * bucket) / BUCKETS).toFixed(3)})`,
          overviewRulerColor: `rgba(200, 40, 160, ${Math.min(1, alpha * 2).toFixed(3)})`,
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

  /** Resolves once every visible editor has been (re)decorated; used by commands and tests. */
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
