// The GC's own trace: what `node --trace-gc` prints, one line per collection, read into
// collections (kind, time, pause, heap before/after) and summarized the way seed 001's team read
// it: collections by kind, the pause distribution (mean, p99, max), and the share of wall time the
// main thread spent paused. Pure: text in, numbers out; a line that is not a collection is skipped.
//
//   [5013:0x3f57be70]      279 ms: Scavenge 3.8 (4.0) -> 3.6 (5.0) MB, 11.64 / 0.00 ms  (average mu = …) allocation failure;
//   [5047:0x2c114090]     1012 ms: Mark-Compact 32.6 (34.4) -> 9.3 (14.2) MB, 44.49 / 0.00 ms  (+ 72.4 ms in 20 steps …) …
//
// The pause is the first figure after the sizes (the main thread's time in the collection); the
// second is time in the background threads (not a pause). Incremental marking steps ("+ 72.4 ms in
// 20 steps") ran on the main thread before the final pause, between the program's own work: they
// are counted as incremental time, apart from the pauses.

export interface GcCollection {
  /** Process and isolate as the line names them ("5013:0x3f57be70"). */
  isolate: string;
  /** ms since the isolate started. */
  atMs: number;
  /** "Scavenge", "Mark-Compact", "Mark-Compact (reduce)", "Minor Mark-Compact", … */
  kind: string;
  heapBeforeMb: number;
  heapAfterMb: number;
  pauseMs: number;
  /** Incremental marking on the main thread before this collection's pause ("+ N ms in K steps"). */
  incrementalMs: number;
}

export interface GcKindSummary {
  kind: string;
  count: number;
  totalPauseMs: number;
  meanPauseMs: number;
  p99PauseMs: number;
  maxPauseMs: number;
}

export interface GcTraceSummary {
  collections: number;
  /** From the first line's time to the last's (ms); 0 with fewer than two lines. */
  spanMs: number;
  totalPauseMs: number;
  incrementalMs: number;
  /** Pauses (and incremental steps) as a share of the span's wall time, 0..100. */
  pausePercent: number;
  meanPauseMs: number;
  p99PauseMs: number;
  maxPauseMs: number;
  byKind: GcKindSummary[];
  /** The heap (MB) before and after the last collection of each kind ending a full GC: what is live. */
  lastFullGc: { heapBeforeMb: number; heapAfterMb: number } | null;
  /** More than one isolate (a process with workers, several processes): the summary is of all together. */
  isolates: string[];
}

const LINE = /\[(\d+:0x[0-9a-f]+)\]\s+(\d+(?:\.\d+)?) ms: ([A-Za-z][A-Za-z -]*?(?: \([a-z ]+\))?) (\d+(?:\.\d+)?) \((\d+(?:\.\d+)?)\) -> (\d+(?:\.\d+)?) \((\d+(?:\.\d+)?)\) MB, (\d+(?:\.\d+)?) \/ (\d+(?:\.\d+)?) ms(.*)$/;
const INCREMENTAL = /\(\+ (\d+(?:\.\d+)?) ms in \d+ steps/;

/**
 * True when `head` (the first bytes of a file) holds a --trace-gc line. A service's own output is
 * often interleaved (the GC writes to the same stdout), and log collectors prefix each line
 * (pm2's "0|app  | "): a collection is found anywhere in its line.
 */
export function looksLikeGcTrace(head: string): boolean {
  return head.split('\n').some((line) => LINE.test(line.replace(/\r$/, '')));
}

/** Every collection line of `text`, in order. */
export function readGcTrace(text: string): GcCollection[] {
  const out: GcCollection[] = [];
  for (const raw of text.split('\n')) {
    const m = LINE.exec(raw.replace(/\r$/, ''));
    if (m === null) continue;
    const incremental = INCREMENTAL.exec(m[10]);
    out.push({
      isolate: m[1],
      atMs: Number(m[2]),
      kind: m[3],
      heapBeforeMb: Number(m[4]),
      heapAfterMb: Number(m[6]),
      pauseMs: Number(m[8]),
      incrementalMs: incremental === null ? 0 : Number(incremental[1]),
    });
  }
  return out;
}

/** The `q` quantile (0..1) of sorted values, nearest rank. */
function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

function pauses(collections: readonly GcCollection[]): { total: number; mean: number; p99: number; max: number } {
  const sorted = collections.map((c) => c.pauseMs).sort((a, b) => a - b);
  const total = sorted.reduce((a, b) => a + b, 0);
  return { total, mean: sorted.length === 0 ? 0 : total / sorted.length, p99: quantile(sorted, 0.99), max: sorted.at(-1) ?? 0 };
}

export function summarizeGcTrace(collections: readonly GcCollection[]): GcTraceSummary {
  const all = pauses(collections);
  const incrementalMs = collections.reduce((a, c) => a + c.incrementalMs, 0);
  // Each isolate's own clock: the span is the longest of theirs (they run side by side).
  const isolates = [...new Set(collections.map((c) => c.isolate))];
  let spanMs = 0;
  for (const isolate of isolates) {
    const times = collections.filter((c) => c.isolate === isolate).map((c) => c.atMs);
    spanMs = Math.max(spanMs, Math.max(...times) - Math.min(...times));
  }
  const kinds = [...new Set(collections.map((c) => c.kind))];
  const byKind = kinds
    .map((kind) => {
      const ofKind = collections.filter((c) => c.kind === kind);
      const p = pauses(ofKind);
      return { kind, count: ofKind.length, totalPauseMs: p.total, meanPauseMs: p.mean, p99PauseMs: p.p99, maxPauseMs: p.max };
    })
    .sort((a, b) => b.totalPauseMs - a.totalPauseMs || a.kind.localeCompare(b.kind));
  const full = collections.filter((c) => c.kind.startsWith('Mark-Compact')).at(-1);
  return {
    collections: collections.length,
    spanMs,
    totalPauseMs: all.total,
    incrementalMs,
    pausePercent: spanMs > 0 ? ((all.total + incrementalMs) / (spanMs * isolates.length)) * 100 : 0,
    meanPauseMs: all.mean,
    p99PauseMs: all.p99,
    maxPauseMs: all.max,
    byKind,
    lastFullGc: full === undefined ? null : { heapBeforeMb: full.heapBeforeMb, heapAfterMb: full.heapAfterMb },
    isolates,
  };
}
