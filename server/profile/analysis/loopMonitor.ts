// The stalls from samples (stalls.ts) joined with what a Hotframe recording's event-loop monitor
// saw (server/shared/servingRecorder.ts: a timer ticking every few ms; when a tick runs late, the
// span the loop was held before it). Two measures of one thing: a stall of the samples is a span
// with JavaScript on every stack and no return to the loop; a gap is a span in which the loop ran
// none of its timers. A stall and a gap that overlap are one stall: the stall keeps its line and
// duration from the samples, and carries the gap (its delay: how long the loop was held) as the
// monitor's confirmation.
// A gap over the threshold that no stall overlaps held the loop without JavaScript on the sampled
// stacks (a long GC, native work outside JavaScript, the process not scheduled, the profiler
// itself): it is listed apart, with no line, since the samples cannot name one. Pure.
import type { LoopGapSeen, LoopMonitorSummary, Stall, StallReport } from '../../protocol/wire';

export type { LoopGapSeen, LoopMonitorSummary };

/** Monitor-only gaps listed one by one, at most (the longest kept). */
export const MAX_MONITOR_ONLY = 1000;

export interface LoopNotes {
  tickMs: number;
  gaps: readonly { fromMs: number; toMs: number }[];
  gapsSeen: number;
}

const overlaps = (stall: Stall, gap: { fromMs: number; toMs: number }): boolean => gap.fromMs < stall.startMs + stall.durationMs && gap.toMs > stall.startMs;

/** The report with each stall's gap, and the monitor's summary. */
export function withLoopMonitor(report: StallReport, loop: LoopNotes): StallReport {
  const gaps: LoopGapSeen[] = [...loop.gaps]
    .map((g) => ({ fromMs: g.fromMs, toMs: g.toMs, delayMs: Math.max(0, g.toMs - g.fromMs) }))
    .sort((a, b) => a.fromMs - b.fromMs);
  const joined = new Set<LoopGapSeen>();
  // Both lists in time order: a stall looks only at the gaps that start before it ends.
  let first = 0;
  const stalls = report.stalls.map((stall) => {
    while (first < gaps.length && gaps[first].toMs <= stall.startMs) first++;
    let best: LoopGapSeen | null = null;
    for (let i = first; i < gaps.length && gaps[i].fromMs < stall.startMs + stall.durationMs; i++) {
      if (!overlaps(stall, gaps[i])) continue;
      joined.add(gaps[i]);
      if (best === null || gaps[i].delayMs > best.delayMs) best = gaps[i];
    }
    return best === null ? stall : { ...stall, loop: best };
  });
  const serving = stalls.filter((s) => s.startup !== true);
  const alone = gaps.filter((g) => !joined.has(g) && g.delayMs > report.thresholdMs);
  const monitorOnly = alone.length <= MAX_MONITOR_ONLY ? alone : [...alone].sort((a, b) => b.delayMs - a.delayMs).slice(0, MAX_MONITOR_ONLY).sort((a, b) => a.fromMs - b.fromMs);
  const monitor: LoopMonitorSummary = {
    tickMs: loop.tickMs,
    gapsSeen: loop.gapsSeen,
    confirmed: serving.filter((s) => s.loop !== undefined).length,
    unconfirmed: serving.filter((s) => s.loop === undefined).length,
    monitorOnly,
  };
  return { ...report, stalls, monitor };
}
