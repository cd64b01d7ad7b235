// `hotframe profile FILE` on what `node --trace-gc` printed: the GC's own account of a run
// (server/profile/gcTrace/gcTrace.ts), as text and JSON.
import { formatMs, formatNumber, formatPercent } from '../shared/format';
import type { GcTraceSummary } from '../profile/gcTrace/gcTrace';
import { printable } from './printable';
import { round, roundPercent } from './profileCommand';

export { gcTraceOf, MAX_GC_TRACE_BYTES } from '../profile/gcTrace/gcTraceFile';

function pad(text: string, width: number): string {
  return text.length >= width ? text : ' '.repeat(width - text.length) + text;
}

export function gcTraceText(name: string, s: GcTraceSummary): string {
  const out = [
    `${printable(name)}: --trace-gc output, ${s.collections} collections over ${formatMs(s.spanMs)}${s.isolates.length > 1 ? ` (${s.isolates.length} isolates together)` : ''}`,
    `GC paused the main thread ${formatMs(s.totalPauseMs)}${s.incrementalMs > 0 ? ` and marked incrementally ${formatMs(s.incrementalMs)}` : ''}: ` +
      `${formatPercent(s.pausePercent)} of the wall time; pauses mean ${formatMs(s.meanPauseMs)}, p99 ${formatMs(s.p99PauseMs)}, max ${formatMs(s.maxPauseMs)}`,
    '',
    `  ${'kind'.padEnd(24)} ${pad('count', 7)} ${pad('total', 10)} ${pad('mean', 9)} ${pad('p99', 9)} ${pad('max', 9)}`,
  ];
  for (const k of s.byKind) {
    out.push(`  ${printable(k.kind).padEnd(24)} ${pad(String(k.count), 7)} ${pad(formatMs(k.totalPauseMs), 10)} ${pad(formatMs(k.meanPauseMs), 9)} ${pad(formatMs(k.p99PauseMs), 9)} ${pad(formatMs(k.maxPauseMs), 9)}`);
  }
  if (s.lastFullGc !== null) out.push('', `Last full GC: ${formatNumber(s.lastFullGc.heapBeforeMb)} MB -> ${formatNumber(s.lastFullGc.heapAfterMb)} MB (what was live after it)`);
  return out.join('\n') + '\n';
}

export function gcTraceJson(s: GcTraceSummary): Record<string, unknown> {
  return {
    format: 'trace-gc',
    collections: s.collections,
    spanMs: round(s.spanMs),
    totalPauseMs: round(s.totalPauseMs),
    incrementalMs: round(s.incrementalMs),
    pausePercent: roundPercent(s.pausePercent),
    meanPauseMs: round(s.meanPauseMs),
    p99PauseMs: round(s.p99PauseMs),
    maxPauseMs: round(s.maxPauseMs),
    byKind: s.byKind.map((k) => ({ ...k, totalPauseMs: round(k.totalPauseMs), meanPauseMs: round(k.meanPauseMs), p99PauseMs: round(k.p99PauseMs), maxPauseMs: round(k.maxPauseMs) })),
    lastFullGc: s.lastFullGc,
    isolates: s.isolates,
  };
}
