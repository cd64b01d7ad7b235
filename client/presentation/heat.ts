// What heat looks like: the buckets a line's share falls in, their colours, the end-of-line
// notes, and the plan of what to draw on one file. No vscode import: client/decorations.ts turns
// the plan into decorations, and the unit tests read it directly.
import type { CallLine, FileHeat, StallLine } from '../../server/protocol/wire';
import { formatAmount, formatCostShort, formatMs, type ShareBasis } from '../../server/shared/format';

/** Decoration types cannot vary their background per range, so heat is quantized into buckets. */
export const BUCKETS = 8;
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

/** "12.3 ms · 4.20% CPU", "12.3 ms · 4.20% CPU, all processes", "allocates 1.20 MiB · 4.20% of bytes": a figure and its share, the profile's denominator named (its `shareBasis`). */
function figure(percent: number, value: number, basis: ShareBasis): string {
  return `${basis.unit === 'ms' ? '' : 'allocates '}${formatCostShort(value, percent, basis)}`;
}

/** "12.3 ms · 4.20% CPU": the line's self time and its share; an allocation profile's "allocates 1.20 MiB · 4.20% of bytes". */
export function lineNote(percent: number, selfMs: number, basis: ShareBasis): string {
  return figure(percent, selfMs, basis);
}

/** "this call (parseEvents): 933 ms · 7.20% CPU": the total under the call made on the line; in an allocation profile "this call (parse): allocates 3.00 MiB · 7.20% of bytes". */
export function callNote(callee: string, percent: number, ms: number, basis: ShareBasis): string {
  return `this call (${callee || '(anonymous)'}): ${figure(percent, ms, basis)}`;
}

/** Calls named in one note; the rest are counted (the hover lists them all). */
const CALLS_NAMED = 2;

/**
 * The note of a line that makes calls: one call told apart, "this call (parseEvents): 696 ms ·
 * 9.03% CPU"; several, each its own figure, "parseEvents(): 696 ms · 9.03% CPU, getTimestamp():
 * 151 ms · 1.96% CPU, +1 more call"; calls the profile cannot tell apart (more calls in the source
 * than callees measured), "calls on this line (parseEvents…): 933 ms · 12.1% CPU".
 */
export function callLineNote(call: Pick<CallLine, 'callee' | 'ms' | 'percent' | 'calls' | 'untold'>, basis: ShareBasis): string {
  const calls = call.calls ?? [];
  if (calls.length >= 2) {
    const named = calls.slice(0, CALLS_NAMED).map((c) => `${c.callee || '(anonymous)'}(): ${figure(c.percent, c.ms, basis)}`);
    const rest = calls.length - CALLS_NAMED;
    return named.join(', ') + (rest > 0 ? `, +${rest} more call${rest === 1 ? '' : 's'}` : '');
  }
  if (call.untold === true) return `calls on this line (${call.callee || '(anonymous)'}…): ${figure(call.percent, call.ms, basis)}`;
  return callNote(call.callee, call.percent, call.ms, basis);
}

/**
 * An end-of-line note longer than this is cut: it sits after the code, so a long line plus a long
 * note runs off the right edge. The hover (server/lsp/profileFeatures.ts) has every figure.
 */
export const MAX_NOTE_CHARS = 90;

/** One figure noted on a line, with the amount (ms or the profile's unit) that ranks it among the line's others. */
export interface NotePart {
  text: string;
  amount: number;
  /** Leads the note whatever the amounts: a stall is wall time the event loop was blocked, not a CPU figure to rank against the others. */
  leads?: true;
}

/**
 * A line's note: only its largest figure (the first of equals, in the order they were added; a
 * figure that `leads`, such as the line's stalls, before any other),
 * then how many others the hover shows ("+3 more (hover)"), so a line with a function
 * declaration, a hot self time, calls and a route still gets one short note.
 */
export function joinNotes(parts: readonly NotePart[]): string {
  if (parts.length === 0) return '';
  let largest = parts[0]!;
  const before = (part: NotePart, other: NotePart): boolean => (part.leads === other.leads ? part.amount > other.amount : part.leads === true);
  for (const part of parts) if (before(part, largest)) largest = part;
  const text = largest.text.length > MAX_NOTE_CHARS ? `${largest.text.slice(0, MAX_NOTE_CHARS - 1)}…` : largest.text;
  const left = parts.length - 1;
  return left > 0 ? `${text}  |  +${left} more (hover)` : text;
}

/** "self 1.20 ms · total 42.0 ms · 4.20% CPU" (the share is the total's, like the hover's), or for an allocation profile "allocates 366 MiB · 37.0% of bytes (self 300 MiB)". */
export function functionNote(selfMs: number, totalMs: number, percent: number, basis: ShareBasis, inferred = false): string {
  if (basis.unit === 'ms') return `self ${formatMs(selfMs)} · total ${formatCostShort(totalMs, percent, basis)}`;
  return `allocates ${formatCostShort(totalMs, percent, basis)} (self ${formatAmount(selfMs, basis.unit)})${inferred ? ' · placed by name (no URL in the profile)' : ''}`;
}

/** "2 stalls over 50.0 ms, longest 212 ms, 405 ms in all · GET /report": the figures of `hotframe profile --stalls`. */
export function stallNote(line: Pick<StallLine, 'count' | 'longestMs' | 'totalMs' | 'routes'>, thresholdMs: number): string {
  const stalls = `${line.count.toLocaleString('en-US')} stall${line.count === 1 ? '' : 's'} over ${formatMs(thresholdMs)}`;
  return `${stalls}, longest ${formatMs(line.longestMs)}, ${formatMs(line.totalMs)} in all${line.routes.length > 0 ? ` · ${line.routes.join(', ')}` : ''}`;
}

/** Works out what to draw for one file; pure so that it is testable without an editor. */
export function planHeat(heat: FileHeat, thresholdPercent: number, lineCount: number): AppliedHeat {
  const inFile = (line: number): boolean => line >= 1 && line <= lineCount;
  const lines = heat.lines
    .filter((l) => inFile(l.line) && heatBucket(l.percent) > 0)
    .map((l) => ({ line: l.line, bucket: heatBucket(l.percent) }));
  const notes = new Map<number, NotePart[]>();
  const add = (line: number, text: string, amount: number, leads = false): void => {
    const list = notes.get(line) ?? [];
    list.push({ text, amount, ...(leads ? { leads: true as const } : {}) });
    notes.set(line, list);
  };
  // The denominator the loaded profile's shares are of (one process, a capture merged, an allocation profile's unit).
  const basis: ShareBasis = heat.profile?.shareBasis ?? { unit: heat.profile?.unit ?? 'ms' };
  for (const fn of heat.functions) {
    if (inFile(fn.line) && fn.totalMs > 0) add(fn.line, `${fn.name}: ${functionNote(fn.selfMs, fn.totalMs, fn.percent, basis, fn.inferred === true)}`, fn.totalMs);
  }
  const hottest = heat.lines
    .filter((l) => inFile(l.line) && l.percent >= thresholdPercent)
    .sort((a, b) => b.percent - a.percent)
    .slice(0, MAX_LINE_NOTES);
  for (const l of hottest) add(l.line, lineNote(l.percent, l.selfMs, basis), l.selfMs);
  const callLines = (heat.callLines ?? [])
    .filter((c) => inFile(c.line) && heatBucket(c.percent) > 0)
    .map((c) => ({ line: c.line, bucket: heatBucket(c.percent) }));
  const hottestCalls = (heat.callLines ?? [])
    .filter((c) => inFile(c.line) && c.percent >= thresholdPercent)
    .sort((a, b) => b.percent - a.percent)
    .slice(0, MAX_LINE_NOTES);
  for (const c of hottestCalls) add(c.line, callLineNote(c, basis), c.ms);
  // Route registrations that ran: "GET /v1/tasks: 289 ms · 3.74% CPU" (issue 25).
  for (const r of heat.routes ?? []) if (inFile(r.line) && r.ms > 0) add(r.line, `${r.route}: ${formatCostShort(r.ms, r.percent, basis)}`, r.ms);
  // Lines that stalled the event loop: "2 stalls over 50.0 ms, longest 212 ms, 405 ms in all · GET /report" (issue 25).
  for (const s of heat.stalls?.lines ?? []) if (inFile(s.line)) add(s.line, stallNote(s, heat.stalls?.thresholdMs ?? 0), s.totalMs, true);
  return {
    lines,
    callLines,
    notes: [...notes].sort((a, b) => a[0] - b[0]).map(([line, texts]) => ({ line, text: joinNotes(texts) })),
  };
}

/** The colours of one bucket (1..BUCKETS): self-time background and ruler, call-line bar and ruler. */
export function bucketColors(bucket: number): { background: string; ruler: string; callBar: string; callRuler: string } {
  const alpha = (MAX_ALPHA * bucket) / BUCKETS;
  return {
    background: `rgba(255, 90, 20, ${alpha.toFixed(3)})`,
    ruler: `rgba(255, 90, 20, ${Math.min(1, alpha * 2).toFixed(3)})`,
    callBar: `rgba(200, 40, 160, ${Math.min(1, 0.25 + (0.75 * bucket) / BUCKETS).toFixed(3)})`,
    callRuler: `rgba(200, 40, 160, ${Math.min(1, alpha * 2).toFixed(3)})`,
  };
}
