// What the Callers and Callees view shows (issue 29): the function picked, its callers (each
// path to it, merged, with the call lines and the findings on them) and its callees, each row's
// label, description, tooltip and target. No vscode import (unit-tested); client/sandwichView.ts
// turns the rows into TreeItems. Every figure is the server's, written by server/shared/format.ts.
import * as path from 'node:path';
import type { CallLineFinding, SandwichEntry, SandwichResult } from '../../server/protocol/wire';
import { formatMs, formatPercent, formatWeight, percentOf } from '../../server/shared/format';

export type SandwichNode =
  | { kind: 'section'; which: 'callers' | 'callees' }
  | { kind: 'entry'; which: 'callers' | 'callees'; entry: SandwichEntry }
  | { kind: 'finding'; entry: SandwichEntry; finding: CallLineFinding }
  | { kind: 'more'; count: number };

export interface SandwichRow {
  label: string;
  description?: string;
  tooltip?: string;
  collapsible: 'none' | 'collapsed' | 'expanded';
  icon?: string;
  /** A click opens this line (a caller's call line, a callee's function, a finding). */
  open?: { file: string; line: number };
}

function amount(value: number, s: SandwichResult): string {
  return s.unit === 'ms' ? formatMs(value) : formatWeight(value, s.unit);
}

function share(value: number, s: SandwichResult): string {
  return formatPercent(percentOf(value, s.cpuMs));
}

function openable(file: string, line: number): SandwichRow['open'] {
  // Frames such as `node:internal/...` or native code have no file to open.
  return path.isAbsolute(file) && line > 0 ? { file, line } : undefined;
}

function where(e: { file: string; line: number }): string {
  return e.file === '' ? '' : e.line > 0 ? `${path.basename(e.file)}:${e.line}` : path.basename(e.file);
}

/** "fib · self 165 ms (12.5%) · total 1.20 s (90.8%)": the view's message line, the CLI's figures. */
export function sandwichHeadline(s: SandwichResult): string {
  const t = s.target;
  return `${t.name} · self ${amount(t.selfMs, s)} (${share(t.selfMs, s)}) · total ${amount(t.totalMs, s)} (${share(t.totalMs, s)})`;
}

export function sandwichChildren(s: SandwichResult, node?: SandwichNode): SandwichNode[] {
  if (node === undefined) return [{ kind: 'section', which: 'callers' }, { kind: 'section', which: 'callees' }];
  const entries = (which: 'callers' | 'callees', e: SandwichEntry): SandwichNode[] => [
    ...e.children.map((entry): SandwichNode => ({ kind: 'entry', which, entry })),
    ...(e.more !== undefined && e.more > 0 ? [{ kind: 'more' as const, count: e.more }] : []),
  ];
  switch (node.kind) {
    case 'section':
      return entries(node.which, node.which === 'callers' ? s.callers : s.callees);
    case 'entry':
      // A caller's findings on its call lines come first, then its own callers.
      return [...(node.entry.findings ?? []).map((finding): SandwichNode => ({ kind: 'finding', entry: node.entry, finding })), ...entries(node.which, node.entry)];
    default:
      return [];
  }
}

export function sandwichRow(node: SandwichNode, s: SandwichResult): SandwichRow {
  switch (node.kind) {
    case 'section': {
      const callers = node.which === 'callers';
      return {
        label: callers ? `Callers of ${s.target.name}` : `Callees of ${s.target.name}`,
        description: callers ? `total ${amount(s.target.totalMs, s)} (${share(s.target.totalMs, s)})` : `self ${amount(s.target.selfMs, s)} (${share(s.target.selfMs, s)})`,
        tooltip: `${sandwichHeadline(s)}\n${callers ? 'Every path to it, merged: the time of the function reached through each caller' : 'What it calls, merged by function'}\nEvery % is ${s.shareOf}`,
        collapsible: 'expanded',
        icon: callers ? 'call-incoming' : 'call-outgoing',
      };
    }
    case 'entry': {
      const e = node.entry;
      const figures = node.which === 'callers' ? `${amount(e.totalMs, s)} (${share(e.totalMs, s)})` : `self ${amount(e.selfMs, s)} · total ${amount(e.totalMs, s)} (${share(e.totalMs, s)})`;
      const calls = e.callLines.length === 0 ? '' : ` · calls on line${e.callLines.length === 1 ? '' : 's'} ${e.callLines.join(', ')}`;
      const findings = e.findings?.length ?? 0;
      const hasChildren = e.children.length > 0 || findings > 0 || (e.more ?? 0) > 0;
      return {
        label: e.name,
        description: `${figures}${calls}${findings > 0 ? ` · ${findings} finding${findings === 1 ? '' : 's'}` : ''}`,
        tooltip: [where(e) || '(no source file)', node.which === 'callers' ? `reaches ${s.target.name} with ${figures}` : figures, ...(e.callLines.length > 0 ? [`calls on line${e.callLines.length === 1 ? '' : 's'} ${e.callLines.join(', ')} (click: the first)`] : []), `(${e.category})`].join('\n'),
        collapsible: hasChildren ? (findings > 0 ? 'expanded' : 'collapsed') : 'none',
        icon: 'symbol-function',
        // A caller opens at its call line; a callee (or a caller whose call line is unknown) at its function.
        open: openable(e.file, e.callLines[0] ?? e.line),
      };
    }
    case 'finding':
      return {
        label: node.finding.rule,
        description: `line ${node.finding.line}: ${node.finding.message}`,
        tooltip: `${where({ file: node.entry.file, line: node.finding.line })}\n${node.finding.message}`,
        collapsible: 'none',
        icon: 'warning',
        open: openable(node.entry.file, node.finding.line),
      };
    case 'more':
      return { label: `${node.count} more…`, tooltip: 'Narrower than 0.1% of the function\u2019s total, or past the first 20: hotframe profile --function NAME --top N lists more', collapsible: 'none' };
  }
}

/** Every row the view draws once expanded, "label — description" indented by depth (the extension's API reports it). */
export function sandwichText(s: SandwichResult): string[] {
  const lines: string[] = [sandwichHeadline(s)];
  const walk = (node: SandwichNode, depth: number): void => {
    const row = sandwichRow(node, s);
    lines.push(`${'  '.repeat(depth)}${row.label}${row.description !== undefined ? ` \u2014 ${row.description}` : ''}`);
    for (const child of sandwichChildren(s, node)) walk(child, depth + 1);
  };
  for (const node of sandwichChildren(s)) walk(node, 0);
  return lines;
}
