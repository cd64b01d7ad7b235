// `hotframe profile FILE --function NAME[:file]`: the callers and callees of one function, as text
// and as JSON, in the profile's unit, every % a share of the profile's total (CPU time, idle
// excluded, or the weight allocated).
import { SANDWICH_MAX_DEPTH, SANDWICH_MIN_SHARE, shownChildren, type Sandwich, type SandwichNode } from '../profile/analysis/sandwich';
import type { ProfileReport } from '../profile/model/types';
import { formatMs, formatPercent, formatWeight, percentOf } from '../shared/format';
import { printable } from './printable';
import { round, roundPercent } from './profileCommand';
import { where } from './profileText';

function amount(value: number, unit: ProfileReport['unit']): string {
  return unit === 'ms' ? formatMs(value) : formatWeight(value, unit);
}

function pad(text: string, width: number): string {
  return text.length >= width ? text : ' '.repeat(width - text.length) + text;
}

export function sandwichText(sandwich: Sandwich, report: ProfileReport, top: number, root: string): string {
  const { unit } = report;
  const share = (value: number): string => formatPercent(percentOf(value, report.cpuMs));
  const { target } = sandwich;
  const out = [
    `${printable(target.name)} (${where(target.file, target.line, root, target.category)}, ${target.category}): self ${amount(sandwich.selfMs, unit)} (${share(sandwich.selfMs)}), ` +
      `total ${amount(sandwich.totalMs, unit)} (${share(sandwich.totalMs)}); every % is ${report.shareOf}`,
  ];
  const floor = sandwich.totalMs * SANDWICH_MIN_SHARE;
  const rows = (node: SandwichNode, depth: number, callers: boolean): void => {
    const place = where(node.file, node.line, root, node.category);
    const called = node.callLines.length === 0 ? '' : ` (calls on line${node.callLines.length === 1 ? '' : 's'} ${node.callLines.join(', ')})`;
    const self = callers ? '' : `${pad(amount(node.selfMs, unit), 10)} `;
    out.push(`  ${self}${pad(amount(node.totalMs, unit), 10)} ${pad(share(node.totalMs), 7)}  ${'  '.repeat(depth)}${printable(node.name)}  ${place}${called}`);
    // The last level lists no children and says nothing of them.
    if (depth + 1 >= SANDWICH_MAX_DEPTH) return;
    const shown = shownChildren(node, floor, top, depth);
    for (const child of shown) rows(child, depth + 1, callers);
    const hidden = node.children.length - shown.length;
    if (hidden > 0) out.push(`  ${callers ? '' : ' '.repeat(11)}${' '.repeat(18)}  ${'  '.repeat(depth + 1)}… ${hidden} more`);
  };
  out.push('', `Callers: every path to ${printable(target.name)}, merged; the time of ${printable(target.name)} reached through each`, `  ${pad('total', 10)} ${pad('%', 7)}  caller  location`);
  rows(sandwich.callers, 0, true);
  out.push('', `Callees: what ${printable(target.name)} calls, merged by function`, `  ${pad('self', 10)} ${pad('total', 10)} ${pad('%', 7)}  function  location`);
  rows(sandwich.callees, 0, false);
  return out.join('\n') + '\n';
}

function nodeJson(node: SandwichNode, floor: number, top: number, depth: number): Record<string, unknown> {
  const children = shownChildren(node, floor, top, depth);
  return {
    name: node.name,
    category: node.category,
    file: node.file,
    line: node.line,
    ...(node.callLines.length > 0 ? { callLines: node.callLines } : {}),
    selfMs: round(node.selfMs),
    totalMs: round(node.totalMs),
    children: children.map((c) => nodeJson(c, floor, top, depth + 1)),
    ...(node.children.length > children.length ? { more: node.children.length - children.length } : {}),
  };
}

/** The sandwich for `--format json`: ms (or bytes) to the microsecond, lists cut like the text's. */
export function sandwichJson(sandwich: Sandwich, report: ProfileReport, top: number): Record<string, unknown> {
  const floor = sandwich.totalMs * SANDWICH_MIN_SHARE;
  return {
    unit: report.unit,
    shareOf: report.shareOf,
    total: round(report.cpuMs),
    function: {
      ...sandwich.target,
      selfMs: round(sandwich.selfMs),
      totalMs: round(sandwich.totalMs),
      selfPercent: roundPercent(percentOf(sandwich.selfMs, report.cpuMs)),
      totalPercent: roundPercent(percentOf(sandwich.totalMs, report.cpuMs)),
    },
    callers: nodeJson(sandwich.callers, floor, top, 0),
    callees: nodeJson(sandwich.callees, floor, top, 0),
  };
}
