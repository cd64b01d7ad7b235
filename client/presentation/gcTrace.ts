// What the Hotframe view shows of a --trace-gc output (issue 29): the figures `hotframe profile
// gc.log` prints (server/cli/gcTraceText.ts), written with the same formatter, one row each, and
// the CPU profile's GC share beside them when both are of one run (the server decides the pairing:
// server/profile/gcTrace/pairing.ts). Names here come from the log (collection kinds, the file
// name): client/views.ts shows every label without links. No vscode import (unit-tested).
import type { GcTraceView, ProfileSummary } from '../../server/protocol/wire';
import { formatMs, formatNumber, formatPercent } from '../../server/shared/format';

export interface GcTraceRow {
  label: string;
  description: string;
  tooltip: string;
  icon: string;
}

/** How the pairing is decided, as the view says it when a loaded CPU profile is not paired. */
export const PAIRING_RULE = 'A trace and a CPU profile are of one run when they are in the same folder and the profile\'s file name carries the process id of one of the trace\'s isolates (as --cpu-prof, --prof and Hotframe\'s recordings name them).';

/** The section's heading: the file and how much it holds. */
export function gcTraceHeading(view: GcTraceView): { label: string; description: string; tooltip: string } {
  const s = view.summary;
  const isolates = s.isolates.length > 1 ? ` (${s.isolates.length} isolates together)` : '';
  return {
    label: `GC trace: ${view.name}`,
    description: `${s.collections} collections over ${formatMs(s.spanMs)}${isolates}`,
    tooltip: `${view.path}\n--trace-gc output, ${s.collections} collections over ${formatMs(s.spanMs)}${isolates}`,
  };
}

/** The rows under the heading: GC share, pauses, one row per kind, the heap, and the CPU profile of the same run. */
export function gcTraceRows(view: GcTraceView, profile: ProfileSummary | null): GcTraceRow[] {
  const s = view.summary;
  const incremental = s.incrementalMs > 0 ? ` and marked incrementally ${formatMs(s.incrementalMs)}` : '';
  const rows: GcTraceRow[] = [
    {
      label: 'GC share of wall time',
      description: `${formatPercent(s.pausePercent)} · ${formatMs(s.totalPauseMs + s.incrementalMs)}`,
      tooltip: `GC paused the main thread ${formatMs(s.totalPauseMs)}${incremental}: ${formatPercent(s.pausePercent)} of the wall time (from the first collection to the last, per isolate)`,
      icon: 'dashboard',
    },
    {
      label: 'Pauses',
      description: `mean ${formatMs(s.meanPauseMs)} · p99 ${formatMs(s.p99PauseMs)} · max ${formatMs(s.maxPauseMs)}`,
      tooltip: `Each collection's pause on the main thread (background threads' time excluded), over ${s.collections} collections: mean ${formatMs(s.meanPauseMs)}, p99 ${formatMs(s.p99PauseMs)}, max ${formatMs(s.maxPauseMs)}`,
      icon: 'debug-pause',
    },
  ];
  for (const k of s.byKind) {
    rows.push({
      label: k.kind,
      description: `${k.count} · total ${formatMs(k.totalPauseMs)} · mean ${formatMs(k.meanPauseMs)} · p99 ${formatMs(k.p99PauseMs)} · max ${formatMs(k.maxPauseMs)}`,
      tooltip: `${k.count} collections of this kind, pauses: total ${formatMs(k.totalPauseMs)}, mean ${formatMs(k.meanPauseMs)}, p99 ${formatMs(k.p99PauseMs)}, max ${formatMs(k.maxPauseMs)}`,
      icon: 'trash',
    });
  }
  if (s.lastFullGc !== null) {
    rows.push({
      label: 'Heap at the last full GC',
      description: `${formatNumber(s.lastFullGc.heapBeforeMb)} MB → ${formatNumber(s.lastFullGc.heapAfterMb)} MB`,
      tooltip: `Last full GC: ${formatNumber(s.lastFullGc.heapBeforeMb)} MB -> ${formatNumber(s.lastFullGc.heapAfterMb)} MB (what was live after it)`,
      icon: 'database',
    });
  }
  if (view.cpuProfile !== null) {
    rows.push({
      label: 'CPU profile of this run: GC share',
      description: `${formatPercent(view.cpuProfile.gcPercent)} of CPU time · ${view.cpuProfile.name}`,
      tooltip: `${view.cpuProfile.name}: the garbage collector's share of the profile's CPU time (idle excluded), ${formatPercent(view.cpuProfile.gcPercent)}, beside the trace's ${formatPercent(s.pausePercent)} of wall time. ${PAIRING_RULE}`,
      icon: 'pulse',
    });
  } else if (profile !== null && profile.unit === 'ms') {
    rows.push({ label: 'The loaded CPU profile is of another run', description: profile.name, tooltip: `Its GC share is not set beside this trace. ${PAIRING_RULE}`, icon: 'info' });
  }
  return rows;
}
