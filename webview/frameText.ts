// The words shown for a frame in the tooltip and the details bar. Plain strings: callers put
// them in the page with textContent only, since frame names come from the profile (untrusted).
import type { FlameGraphResult } from '../server/protocol';
import type { Category, FlameNode } from '../server/profile/types';
import { formatWeight } from '../server/shared/format';

/** How to turn a frame's value (samples or ms) into milliseconds and a share of the root. */
export interface GraphScale {
  rootValue: number;
  msPerUnit: number;
  /** Allocation profiles: values are this weight, shown as it is (bytes, objects), never as time. */
  weight?: 'bytes' | 'objects';
}

export function graphScale(graph: Pick<FlameGraphResult, 'unit' | 'totalMs'>, rootValue: number): GraphScale {
  if (graph.unit === 'bytes' || graph.unit === 'objects') return { rootValue, msPerUnit: 1, weight: graph.unit };
  const msPerUnit = graph.unit === 'ms' ? 1 : rootValue > 0 ? graph.totalMs / rootValue : 0;
  return { rootValue, msPerUnit };
}

/** A frame's value in the graph's unit. */
export function formatValue(value: number, scale: GraphScale): string {
  return scale.weight !== undefined ? formatWeight(value, scale.weight) : formatMs(value * scale.msPerUnit);
}

export function formatMs(ms: number): string {
  const abs = Math.abs(ms);
  if (abs >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  if (abs >= 100) return `${ms.toFixed(0)} ms`;
  if (abs >= 10) return `${ms.toFixed(1)} ms`;
  return `${ms.toFixed(2)} ms`;
}

export function formatPercent(part: number, whole: number): string {
  if (whole <= 0) return '0%';
  const percent = (100 * part) / whole;
  if (percent > 0 && percent < 0.1) return '<0.1%';
  return `${percent.toFixed(1)}%`;
}

const categoryWords: Record<Category, string> = {
  user: 'your code',
  dependency: 'dependency (node_modules)',
  node: 'Node.js internals',
  native: 'native / V8 builtins',
  gc: 'garbage collection',
  program: 'VM (program)',
  idle: 'idle',
};

export function categoryLabel(category: Category): string {
  return categoryWords[category];
}

/** `file:line`, or null when the frame has no source file (native code, VM states). */
export function frameLocation(node: Pick<FlameNode, 'file' | 'line'>): string | null {
  if (node.file === '') return null;
  return node.line > 0 ? `${node.file}:${node.line}` : node.file;
}

export interface FrameFacts {
  name: string;
  total: string;
  self: string;
  location: string;
  category: string;
  /** Present in the differential view. */
  delta?: string;
  /** Present when tiny frames were folded into this one. */
  folded?: string;
}

export function frameFacts(node: FlameNode, scale: GraphScale): FrameFacts {
  const facts: FrameFacts = {
    name: node.name === '' ? '(anonymous)' : node.name,
    total: `total ${formatValue(node.value, scale)} (${formatPercent(node.value, scale.rootValue)})`,
    self: `self ${formatValue(node.self, scale)} (${formatPercent(node.self, scale.rootValue)})`,
    location: frameLocation(node) ?? 'no source file',
    category: categoryLabel(node.category),
  };
  if (node.delta !== undefined) {
    const sign = node.delta > 0 ? '+' : node.delta < 0 ? '\u2212' : '\u00b1';
    const verdict = scale.weight !== undefined ? (node.delta > 0 ? 'allocates more' : node.delta < 0 ? 'allocates less' : 'unchanged') : node.delta > 0 ? 'slower' : node.delta < 0 ? 'faster' : 'unchanged';
    // Diff deltas are in ms for CPU profiles and in the weight itself for allocation profiles.
    facts.delta = `${sign}${scale.weight !== undefined ? formatWeight(Math.abs(node.delta), scale.weight) : formatMs(Math.abs(node.delta))} vs baseline (${verdict})`;
  }
  if (node.collapsed) facts.folded = `${node.collapsed} tiny frame${node.collapsed === 1 ? '' : 's'} folded in`;
  return facts;
}
