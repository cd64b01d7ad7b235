// Event-loop stalls read from a profile's sample timeline: a span of samples during which the
// thread never went back to the event loop, longer than a threshold, named by the user line on
// top of its stacks (the line that called into the library or native code that blocked: an
// execSync, a JSON.parse, a pbkdf2Sync, a regular expression).
//
// What "back to the event loop" means, from what every format records (docs/profiles.md):
// - a sample whose stack holds no JavaScript frame (only `(idle)`, `(program)`, `(root)`, or native
//   code such as `epoll_wait` in a raw log) was taken while no JavaScript ran: the loop was
//   waiting or between callbacks. It ends a stall.
// - a `(garbage collector)` sample without a JavaScript frame (a .cpuprofile records GC without the
//   stack that triggered it) neither starts nor ends a stall: collection between two busy samples
//   belongs to the task; collection after a task's last busy sample does not lengthen it (V8 also
//   runs GC as tasks of its own between callbacks), and collection alone is not a stall.
// - every other sample (a JavaScript frame on the stack, whatever is on top) keeps the loop blocked.
// A stall lasts from its first busy sample to the end of its last one (the next sample's time, or
// the end of the profile): the span the loop could not run any other callback.
import { formatMs } from '../../shared/format';
import type { SampleTimeline } from '../model/types';
import type { StallLine, StallReport, StallSite, Stall } from '../../protocol/wire';

export type { StallLine, StallReport, StallSite, Stall };

/** The default threshold (the `hotframe.stallThresholdMs` setting, `--stall-ms`). */
export const DEFAULT_STALL_MS = 50;
/** A stall is named after a line only when that line holds at least this share of its time. */
export const NAMED_SHARE = 0.5;
/** Stalls listed one by one (the longest kept when there are more); lines are computed from all. */
export const MAX_STALLS_LISTED = 1000;

/** What a sample says about the event loop (see the top of this file). */
export const enum LoopState {
  Busy = 0,
  Loop = 1,
  Neutral = 2,
}

export interface StallSpan {
  /** Index of the first sample of the span, and one past its last. */
  first: number;
  end: number;
  startMs: number;
  durationMs: number;
}

/** Spans of the timeline with no return to the event loop, longer than `thresholdMs`, in time order. */
export function findStallSpans(timeline: SampleTimeline, stateOf: (node: number) => LoopState, thresholdMs: number): StallSpan[] {
  const { node, atMs, endMs } = timeline;
  const spans: StallSpan[] = [];
  let first = -1;
  const close = (end: number, untilMs: number): void => {
    const durationMs = untilMs - atMs[first];
    if (durationMs > thresholdMs) spans.push({ first, end, startMs: atMs[first], durationMs });
    first = -1;
  };
  // One past the last busy sample of the open span: neutral samples after it do not lengthen it.
  let lastBusy = -1;
  for (let i = 0; i < node.length; i++) {
    const state = stateOf(node[i]);
    if (state === LoopState.Busy) {
      if (first === -1) first = i;
      lastBusy = i + 1;
    } else if (state === LoopState.Loop && first !== -1) close(lastBusy, atMs[lastBusy]);
  }
  if (first !== -1) close(lastBusy, lastBusy < node.length ? atMs[lastBusy] : endMs);
  return spans;
}

/** The user line a sample is charged to, with a key that identifies the line. */
export interface SampleSite extends StallSite {
  key: string;
}

export interface StallInputs {
  timeline: SampleTimeline;
  stateOf: (node: number) => LoopState;
  /** The user line on top of the node's stack (null: no user frame on it, or no line known). */
  siteOf: (node: number) => SampleSite | null;
  /** Whether the node's stack runs the main module or a preloaded one (start-up, not serving; a lazy require later is not). */
  startupOf: (node: number) => boolean;
  /** The route whose code is on the node's stack, when routes are known. */
  routeOf?: (node: number) => string | null;
  thresholdMs: number;
}

function sampleMs(timeline: SampleTimeline, i: number): number {
  return (i + 1 < timeline.atMs.length ? timeline.atMs[i + 1] : timeline.endMs) - timeline.atMs[i];
}

/** The most frequent value by weight (the first of equals), or null. */
function heaviest<T>(weights: readonly { value: T; ms: number }[]): { value: T; ms: number } | null {
  let best: { value: T; ms: number } | null = null;
  for (const entry of weights) if (best === null || entry.ms > best.ms) best = entry;
  return best;
}

/**
 * A span's time by site and by route, in the order they first ran in it. A big profile's stalls
 * cover millions of samples: each sample adds to an array slot (the site and route of its node
 * looked up once per node, a site keyed by its line), the same sums in the same order as a map by
 * key per sample, at a fraction of the cost.
 */
class SpanSums {
  /** Per node: its site's number (-1: none), -2 until looked up; the same for its route; whether it runs start-up code (once its site is looked up). */
  private readonly siteOfNode: Int32Array;
  private readonly routeOfNode: Int32Array;
  private readonly startupOfNode: Uint8Array;
  private readonly siteIds = new Map<string, number>();
  private readonly routeIds = new Map<string, number>();
  private readonly routeNames: string[] = [];
  /** Per site and route number: the span it was last summed in (from 1), and its sum there. */
  private siteSpan = new Int32Array(64);
  private siteMs = new Float64Array(64);
  private siteFirst: SampleSite[] = [];
  private routeSpan = new Int32Array(64);
  private routeMs = new Float64Array(64);
  private span = 0;

  constructor(
    spans: readonly StallSpan[],
    private readonly timeline: SampleTimeline,
  ) {
    let nodes = 0;
    const { node } = timeline;
    for (const { first, end } of spans) {
      for (let i = first; i < end; i++) if (node[i] >= nodes) nodes = node[i] + 1;
    }
    this.siteOfNode = new Int32Array(nodes).fill(-2);
    this.routeOfNode = new Int32Array(nodes).fill(-2);
    this.startupOfNode = new Uint8Array(nodes);
  }

  of(span: StallSpan, inputs: StallInputs): { sites: { value: SampleSite; ms: number }[]; routes: { value: string; ms: number }[]; startup: boolean } {
    const { timeline } = this;
    const { node } = timeline;
    const { siteOfNode, routeOfNode, startupOfNode } = this;
    const mark = ++this.span;
    const sites: number[] = [];
    const routes: number[] = [];
    const routeOf = inputs.routeOf;
    let startup = false;
    for (let i = span.first; i < span.end; i++) {
      const n = node[i];
      const ms = sampleMs(timeline, i);
      let site = siteOfNode[n];
      if (site === -2) {
        site = siteOfNode[n] = this.siteNumber(inputs.siteOf(n));
        startupOfNode[n] = inputs.startupOf(n) ? 1 : 0;
      }
      if (startupOfNode[n] === 1) startup = true;
      if (site >= 0) {
        if (this.siteSpan[site] !== mark) {
          this.siteSpan[site] = mark;
          this.siteMs[site] = 0;
          // The span names a line by its first node's site (its function and call), as before.
          this.siteFirst[site] = inputs.siteOf(n) as SampleSite;
          sites.push(site);
        }
        this.siteMs[site] += ms;
      }
      if (routeOf === undefined) continue;
      let route = routeOfNode[n];
      if (route === -2) route = routeOfNode[n] = this.routeNumber(routeOf(n));
      if (route >= 0) {
        if (this.routeSpan[route] !== mark) {
          this.routeSpan[route] = mark;
          this.routeMs[route] = 0;
          routes.push(route);
        }
        this.routeMs[route] += ms;
      }
    }
    return {
      sites: sites.map((site) => ({ value: this.siteFirst[site], ms: this.siteMs[site] })),
      routes: routes.map((route) => ({ value: this.routeNames[route], ms: this.routeMs[route] })),
      startup,
    };
  }

  private siteNumber(site: SampleSite | null): number {
    if (site === null) return -1;
    let id = this.siteIds.get(site.key);
    if (id === undefined) {
      id = this.siteIds.size;
      this.siteIds.set(site.key, id);
      if (id === this.siteSpan.length) {
        this.siteSpan = grownInt(this.siteSpan);
        this.siteMs = grownFloat(this.siteMs);
      }
    }
    return id;
  }

  private routeNumber(route: string | null): number {
    if (route === null) return -1;
    let id = this.routeIds.get(route);
    if (id === undefined) {
      id = this.routeNames.length;
      this.routeIds.set(route, id);
      this.routeNames.push(route);
      if (id === this.routeSpan.length) {
        this.routeSpan = grownInt(this.routeSpan);
        this.routeMs = grownFloat(this.routeMs);
      }
    }
    return id;
  }
}

function grownInt(values: Int32Array): Int32Array<ArrayBuffer> {
  const grown = new Int32Array(values.length * 2);
  grown.set(values);
  return grown;
}

function grownFloat(values: Float64Array): Float64Array<ArrayBuffer> {
  const grown = new Float64Array(values.length * 2);
  grown.set(values);
  return grown;
}

/** Stalls, each named by the user line holding most of its time, and the lines summed. */
export function analyzeStalls(inputs: StallInputs): StallReport {
  const { timeline, thresholdMs } = inputs;
  const spans = findStallSpans(timeline, inputs.stateOf, thresholdMs);
  const sums = new SpanSums(spans, timeline);
  const stalls: Stall[] = spans.map((span) => {
    const { sites, routes, startup } = sums.of(span, inputs);
    const top = heaviest(sites);
    const named = top !== null && top.ms >= NAMED_SHARE * span.durationMs;
    const { key: _key, ...site } = top?.value ?? { key: '' };
    const route = heaviest(routes);
    return {
      startMs: span.startMs,
      durationMs: span.durationMs,
      samples: span.end - span.first,
      at: named ? (site as StallSite) : null,
      atMs: named ? top.ms : 0,
      ...(!named && top !== null ? { mostly: { ...(site as StallSite), ms: top.ms } } : {}),
      ...(startup ? { startup } : {}),
      ...(route !== null && route.ms >= NAMED_SHARE * span.durationMs ? { route: route.value } : {}),
    };
  });
  const lines = new Map<string, StallLine>();
  for (const stall of stalls) {
    if (stall.at === null || stall.startup === true) continue;
    const key = `${stall.at.file}\u0000${stall.at.line}`;
    const line = lines.get(key) ?? { ...stall.at, count: 0, longestMs: 0, totalMs: 0, routes: [] };
    line.count++;
    line.longestMs = Math.max(line.longestMs, stall.durationMs);
    line.totalMs += stall.durationMs;
    if (stall.route !== undefined && !line.routes.includes(stall.route)) line.routes.push(stall.route);
    lines.set(key, line);
  }
  const serving = stalls.filter((s) => s.startup !== true);
  const listed = stalls.length <= MAX_STALLS_LISTED ? stalls : [...stalls].sort((a, b) => b.durationMs - a.durationMs).slice(0, MAX_STALLS_LISTED).sort((a, b) => a.startMs - b.startMs);
  return {
    thresholdMs,
    count: stalls.length,
    startupCount: stalls.length - serving.length,
    totalMs: serving.reduce((sum, s) => sum + s.durationMs, 0),
    unnamedCount: serving.filter((s) => s.at === null).length,
    stalls: listed,
    lines: [...lines.values()].sort((a, b) => b.totalMs - a.totalMs || a.file.localeCompare(b.file) || a.line - b.line),
  };
}

/** What a line's stalls say in the editor: "stalled the event loop 3 times (stalls over 50.0 ms): longest 354 ms, 472 ms in all". */
export function describeStallLine(line: StallLine, thresholdMs: number): string {
  const times = line.count === 1 ? 'once' : `${line.count.toLocaleString('en-US')} times`;
  const routes = line.routes.length > 0 ? `, serving ${line.routes.join(', ')}` : '';
  return `stalled the event loop ${times} (stalls over ${formatMs(thresholdMs)}): longest ${formatMs(line.longestMs)}, ${formatMs(line.totalMs)} in all${routes}`;
}
