// The words shown for a frame in the tooltip and the details bar. Plain strings: callers put
// them in the page with textContent only, since frame names come from the profile (untrusted).
import type { FlameGraphResult, FlameNode } from '../server/protocol/wire';
import { categoryLabel } from './categories';
import { formatDeltaMs, formatMs, formatPercent, formatWeight, percentOf, shareOfShort, type ShareBasis } from '../server/shared/format';

/** What a frame's value (ms) is a share of: the profile's CPU time, idle excluded (a merged capture: of all its processes; allocation profiles: all their bytes). */
export interface GraphScale {
  rootValue: number;
  cpuMs: number;
  /** Allocation profiles: values are this weight, shown as it is (bytes, objects), never as time. */
  weight?: 'bytes' | 'objects';
  /** What every share is of, as the loaded profile says (the graph's `shareBasis`). */
  basis: ShareBasis;
}

export function graphScale(graph: Pick<FlameGraphResult, 'cpuMs' | 'shareBasis'>, rootValue: number): GraphScale {
  const basis = graph.shareBasis;
  if (basis.unit === 'bytes' || basis.unit === 'objects') return { rootValue, cpuMs: graph.cpuMs, weight: basis.unit, basis };
  return { rootValue, cpuMs: graph.cpuMs, basis };
}

/** A share with the profile's denominator named, as the editor's notes write it: "4.20% CPU", "4.20% CPU, all processes", "4.20% of bytes". */
export function cpuShare(ms: number, scale: Pick<GraphScale, 'cpuMs' | 'basis'>): string {
  return `${formatPercent(percentOf(ms, scale.cpuMs))} ${shareOfShort(scale.basis)}`;
}

/** A frame's value in the graph's unit. */
export function formatValue(value: number, scale: Pick<GraphScale, 'weight'>): string {
  return scale.weight !== undefined ? formatWeight(value, scale.weight) : formatMs(value);
}

/** Idle is not CPU time, and the root holds idle: neither has a share of CPU time. */
function hasShare(node: FlameNode, isRoot: boolean): boolean {
  return !isRoot && node.category !== 'idle';
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

/** `isRoot`: the frame is the graph's root ("all"), which holds idle time too. */
export function frameFacts(node: FlameNode, scale: GraphScale, isRoot = false): FrameFacts {
  const withShare = (ms: number): string => (hasShare(node, isRoot) ? `${formatValue(ms, scale)} (${cpuShare(ms, scale)})` : formatValue(ms, scale));
  const facts: FrameFacts = {
    name: node.name === '' ? '(anonymous)' : node.name,
    total: `total ${withShare(node.value)}`,
    self: `self ${withShare(node.self)}`,
    location: frameLocation(node) ?? 'no source file',
    category: categoryLabel(node.category) + (isRoot ? (scale.weight === undefined ? ` · CPU time (idle excluded) ${formatMs(scale.cpuMs)}` : ` · allocated ${formatValue(scale.cpuMs, scale)}`) : ''),
  };
  if (node.delta !== undefined) {
    if (scale.weight !== undefined) {
      // Allocation profiles compare bytes (or objects) as they are.
      const verdict = node.delta > 0 ? 'allocates more' : node.delta < 0 ? 'allocates less' : 'unchanged';
      facts.delta = `${node.delta > 0 ? '+' : node.delta < 0 ? '\u2212' : '\u00b1'}${formatWeight(Math.abs(node.delta), scale.weight)} vs baseline (${verdict})`;
    } else {
      const verdict = !changeCounts(node) ? 'idle and VM time are not compared' : node.delta > 0 ? 'slower' : node.delta < 0 ? 'faster' : 'unchanged';
      facts.delta = `${formatDeltaMs(node.delta)} vs baseline (${verdict})`;
    }
  }
  // What this frame's figures hold besides its own code, so a wide frame says why it is wide.
  const folded: string[] = [];
  if (node.collapsed) folded.push(`${node.collapsed} tiny frame${node.collapsed === 1 ? '' : 's'} folded in`);
  if (node.libraryMs) folded.push(`self includes ${formatValue(node.libraryMs, scale)} in library code it called (only my code)`);
  if (node.smallCalleesMs) folded.push(`includes ${formatValue(node.smallCalleesMs, scale)} in small functions it called, merged into it`);
  if (folded.length > 0) facts.folded = folded.join(' · ');
  return facts;
}

/** Idle and the VM's own work (program) change with load and recording, not with code: never a regression. */
export function changeCounts(node: Pick<FlameNode, 'category' | 'name'>): boolean {
  return node.category !== 'idle' && node.category !== 'program';
}
