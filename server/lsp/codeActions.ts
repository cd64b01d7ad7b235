// Quick fixes from what the last validation found (never by running the rules again): each
// finding's own fixes (the first one preferred) and the two disable-comment fixes.
import { CodeActionKind } from 'vscode-languageserver';
import type { CodeAction, CodeActionParams, Diagnostic, Range, TextEdit, WorkspaceEdit } from 'vscode-languageserver';

import type { Fix } from '../../rules/api';
import { disableFixes } from '../static/disableComments';
import type { FindingDiagnosticData } from './diagnostics';
import type { ValidatedDocument } from './validation';

function isFindingData(data: unknown): data is FindingDiagnosticData {
  return typeof data === 'object' && data !== null && typeof (data as { findingIndex?: unknown }).findingIndex === 'number';
}

function before(a: { line: number; character: number }, b: { line: number; character: number }): boolean {
  return a.line < b.line || (a.line === b.line && a.character < b.character);
}

/** Inclusive at both ends, so a cursor (empty range) at either end of a squiggle still counts. */
function touches(a: Range, b: Range): boolean {
  return !before(a.end, b.start) && !before(b.end, a.start);
}

/** Indexes of the findings a request is about: those named by its diagnostics, else those under its range. */
function findingIndexes(result: ValidatedDocument, params: CodeActionParams): number[] {
  const named = params.context.diagnostics.map((d) => d.data).filter(isFindingData).map((d) => d.findingIndex);
  const indexes = new Set(named.filter((i) => i >= 0 && i < result.findings.length));
  result.diagnostics.forEach((diagnostic, index) => {
    if (index < result.findings.length && touches(diagnostic.range, params.range)) indexes.add(index);
  });
  return [...indexes].sort((a, b) => a - b);
}

function toWorkspaceEdit(result: ValidatedDocument, fix: Fix, versioned: boolean): WorkspaceEdit {
  const edits: TextEdit[] = fix.edits.map((edit) => ({
    range: { start: result.snapshot.positionAt(edit.start), end: result.snapshot.positionAt(edit.end) },
    newText: edit.text,
  }));
  // A versioned edit is refused by the client if the document moved on since validation.
  return versioned
    ? { documentChanges: [{ textDocument: { uri: result.uri, version: result.version }, edits }] }
    : { changes: { [result.uri]: edits } };
}

export function codeActionsFor(result: ValidatedDocument, params: CodeActionParams, versionedEdits: boolean): CodeAction[] {
  const only = params.context.only;
  // Kinds are dotted hierarchies: '' and 'quickfix' both ask for quick fixes, 'source' does not.
  const wantsQuickFix = (kind: string) => kind === CodeActionKind.Empty || kind === CodeActionKind.QuickFix || CodeActionKind.QuickFix.startsWith(kind + '.');
  if (only !== undefined && !only.some(wantsQuickFix)) return [];
  const actions: CodeAction[] = [];
  const text = result.snapshot.getText();
  for (const index of findingIndexes(result, params)) {
    const finding = result.findings[index];
    const diagnostic: Diagnostic = result.diagnostics[index];
    finding.fixes.forEach((fix, i) => {
      actions.push({ title: fix.title, kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], isPreferred: i === 0, edit: toWorkspaceEdit(result, fix, versionedEdits) });
    });
    for (const fix of disableFixes(finding, text)) {
      actions.push({ title: fix.title, kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], edit: toWorkspaceEdit(result, fix, versionedEdits) });
    }
  }
  return actions;
}
