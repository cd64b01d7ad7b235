// Requests and event-loop gaps of an attached process (issue 25): the same notes `hotframe record`'s
// preload keeps (server/shared/servingRecorder.ts), for a process that was not started with it.
// The monitor is started in the target through its inspector (Runtime.evaluate) just before the
// profiler and stopped just after it, under one global symbol; its stop answers what it observed
// and removes every trace of it (channel subscriptions, timer). Host-side, the notes are cut to
// the profile's own window (its startTime..endTime, on the same hrtime clock), so a request counts
// when it started while the profiler ran, and become `<profile>.serving.json` beside the main
// thread's profile. Worker threads' servers are not observed (a diagnostics channel is per thread).
//
// Should Hotframe itself die between start and stop, the monitor removes itself at a deadline
// (the capture's duration plus a margin), so nothing stays in the service.
import { MAX_GAPS, MAX_REQUESTS, SERVING_MONITOR } from '../shared/servingRecorder';
import type { CapturedThread } from './capture';
import type { InspectorSession } from './inspectorClient';

const KEY = "Symbol.for('hotframe.attach.serving')";
/** Past the capture's end, the monitor a Hotframe that went away left behind removes itself. */
const SELF_REMOVAL_MARGIN_MS = 120_000;

/** The expression that starts the monitor; evaluate with includeCommandLineAPI (`require`). 'started', or 'busy' when one already runs. */
export function observerStartExpression(durationMs: number): string {
  return `(() => {
  const key = ${KEY};
  if (globalThis[key]) return 'busy';
  ${SERVING_MONITOR}
  const monitor = servingMonitor();
  const deadline = setTimeout(() => {
    try { monitor.stop(); } catch {}
    if (globalThis[key] && globalThis[key].monitor === monitor) delete globalThis[key];
  }, ${JSON.stringify(Math.max(0, Math.round(durationMs)) + SELF_REMOVAL_MARGIN_MS)});
  deadline.unref();
  globalThis[key] = { monitor, deadline };
  return 'started';
})()`;
}

/** The expression that stops the monitor, removes it and answers its notes as JSON text ('null' when none ran). */
export function observerStopExpression(): string {
  return `(() => {
  const key = ${KEY};
  const state = globalThis[key];
  if (!state) return 'null';
  delete globalThis[key];
  clearTimeout(state.deadline);
  state.monitor.stop();
  return JSON.stringify(state.monitor.notes(null));
})()`;
}

/** Whether the monitor of an attach is present in the target (the tests check it is gone). */
export function observerPresentExpression(): string {
  return `(() => (globalThis[${KEY}] ? 'present' : 'absent'))()`;
}

/** The notes as the target answered them: checked here only as far as cutting them needs; the reader checks every record. */
export type RawServingNotes = Record<string, unknown>;

export async function startServingObserver(session: InspectorSession, durationMs: number, timeoutMs: number): Promise<boolean> {
  return (await session.evaluateString(observerStartExpression(durationMs), timeoutMs)) === 'started';
}

/** Stops and removes the monitor; its notes, or null when there were none or they are not an object. */
export async function stopServingObserver(session: InspectorSession, timeoutMs: number): Promise<RawServingNotes | null> {
  const text = await session.evaluateString(observerStopExpression(), timeoutMs);
  try {
    const notes = JSON.parse(text) as unknown;
    return typeof notes === 'object' && notes !== null && !Array.isArray(notes) ? (notes as RawServingNotes) : null;
  } catch {
    return null;
  }
}

const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/**
 * The notes for one CPU profile: the requests that started and the loop gaps that overlap its
 * window (µs of hrtime, the profile's startTime and endTime), placed by its startTime. Null when
 * the profile has no window. Requests past the monitor's kept count are all later than the kept
 * ones: they count as seen when the kept ones reach the window's end.
 */
export function notesForProfile(notes: RawServingNotes, profile: unknown): RawServingNotes | null {
  const window = profile as { startTime?: unknown; endTime?: unknown } | null;
  if (typeof window !== 'object' || window === null || !finite(window.startTime) || !finite(window.endTime)) return null;
  const from = window.startTime;
  const to = window.endTime;
  const requests = Array.isArray(notes.requests) ? notes.requests.slice(0, MAX_REQUESTS) : [];
  const kept = requests.filter((r: unknown) => Array.isArray(r) && finite(r[2]) && r[2] >= from && r[2] <= to);
  const seen = finite(notes.requestsSeen) ? notes.requestsSeen : requests.length;
  const lastKept = requests.at(-1) as unknown;
  const unkeptInWindow = seen > requests.length && Array.isArray(lastKept) && finite(lastKept[2]) && lastKept[2] <= to ? seen - requests.length : 0;
  const loop = typeof notes.loop === 'object' && notes.loop !== null ? (notes.loop as Record<string, unknown>) : {};
  const gaps = Array.isArray(loop.gaps) ? loop.gaps.slice(0, MAX_GAPS).filter((g: unknown) => Array.isArray(g) && finite(g[0]) && finite(g[1]) && g[1] >= from && g[0] <= to) : [];
  const allGaps = Array.isArray(loop.gaps) ? loop.gaps : [];
  const lastGap = allGaps.at(-1) as unknown;
  const unkeptGaps = finite(loop.gapsSeen) && loop.gapsSeen > allGaps.length && Array.isArray(lastGap) && finite(lastGap[0]) && lastGap[0] <= to ? loop.gapsSeen - allGaps.length : 0;
  const gapsSeen = gaps.length + unkeptGaps;
  return { ...notes, profileStartUs: from, endUs: Math.min(finite(notes.endUs) ? notes.endUs : to, to), requests: kept, requestsSeen: kept.length + unkeptInWindow, loop: { ...loop, gaps, gapsSeen } };
}

/**
 * Runs `startProfiler` (the agent's start) with the monitor started just before it when `on`; if
 * the start fails, the monitor is removed again. Answers the start's value and whether the monitor runs.
 */
export async function withObserverStarted<T extends object>(session: InspectorSession, on: boolean, durationMs: number, timeoutMs: number, startProfiler: () => Promise<T>): Promise<T & { serving: boolean }> {
  const serving = on ? await startServingObserver(session, durationMs, timeoutMs).catch(() => false) : false;
  try {
    return { ...(await startProfiler()), serving };
  } catch (error) {
    if (serving) await stopServingObserver(session, timeoutMs).catch(() => null);
    throw error;
  }
}

/** Runs `stopProfiler` (the agent's stop), then stops and removes the monitor when one runs, whatever the stop gave. */
export async function withObserverStopped<T>(session: InspectorSession, on: boolean, timeoutMs: number, stopProfiler: () => Promise<T>): Promise<{ answer: T; serving: RawServingNotes | null }> {
  try {
    const answer = await stopProfiler();
    return { answer, serving: on ? await stopServingObserver(session, timeoutMs).catch(() => null) : null };
  } catch (error) {
    if (on) await stopServingObserver(session, timeoutMs).catch(() => null);
    throw error;
  }
}

/** Puts the notes, cut to its window, on the main thread's capture (the one the monitor watched). */
export function withServingNotes(threads: CapturedThread[], notes: RawServingNotes | null): CapturedThread[] {
  if (notes === null) return threads;
  return threads.map((thread) => {
    if (thread.title !== 'main' || thread.partial !== undefined) return thread;
    const cut = notesForProfile(notes, thread.profile);
    return cut === null ? thread : { ...thread, serving: cut };
  });
}
