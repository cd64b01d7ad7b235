// Reads the notes a Hotframe recording keeps beside a CPU profile (`<profile>.serving.json`,
// written by the preload of server/shared/servingRecorder.ts): the requests the process's HTTP
// servers received and the spans its event loop was held (late ticks of its timer). The file comes from
// anywhere: it is read only when it is a regular file of bounded size, every record is checked
// (a record that is not what the writer writes is skipped and counted), and what it becomes is
// bounded (the writer's own limits). Times become ms since the profile's start, the axis of
// `SampleTimeline.atMs`.
import { SERVING_FORMAT, SERVING_SUFFIX, SERVING_VERSION, MAX_CPU_READINGS, MAX_GAPS, MAX_PATH_CHARS, MAX_REQUESTS } from '../../shared/servingRecorder';
import { basename } from 'node:path';

import { readGuardedText } from '../../shared/guardedRead';

/** A sidecar larger than this is not read (the writer's limits give well under it). */
const MAX_SERVING_BYTES = 64 * 1024 * 1024;

export interface ServedRequest {
  method: string;
  path: string;
  /** ms since the profile's start; `endMs` null when the response had not finished at exit. */
  startMs: number;
  endMs: number | null;
}

export interface LoopGap {
  /**
   * A span the loop was held, ran none of its timers (ms since the profile's start): it ends at the
   * late tick. Version 2 writes the span itself (from the loop's idle clock); a version 1 file
   * wrote the tick before and the late one, read as held from when that tick was due.
   */
  fromMs: number;
  toMs: number;
}

export interface ServingLog {
  /** How requests were observed: 'diagnostics_channel' or 'emit' (older Node). */
  observer: string;
  requests: ServedRequest[];
  /** Requests the servers received, including those past the kept count. */
  requestsSeen: number;
  /** Records that were not well formed, skipped. */
  skipped: number;
  loop: { tickMs: number; minGapMs: number; gaps: LoopGap[]; gapsSeen: number };
  /**
   * Readings of the main thread's CPU clock (Linux), one a loop tick: at `atMs` (ms since the
   * profile's start, ascending) the thread had spent `cpuMs` on a CPU (ascending too). Absent
   * where the recorder could not read it.
   */
  threadCpu?: { atMs: number[]; cpuMs: number[] };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const finite = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** The sidecar's path for a profile file. */
export function servingLogPath(profileFile: string): string {
  return profileFile + SERVING_SUFFIX;
}

/** The parsed notes, or a one-line reason they cannot be used. */
export function parseServingLog(text: string): ServingLog | { error: string } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { error: 'not JSON' };
  }
  if (!isRecord(data) || data.format !== SERVING_FORMAT || (data.version !== 1 && data.version !== SERVING_VERSION) || data.clock !== 'hrtime-us') return { error: `not a ${SERVING_FORMAT} file of version 1 or ${SERVING_VERSION}` };
  const startUs = finite(data.profileStartUs);
  if (startUs === null) return { error: 'no profileStartUs' };
  const ms = (us: unknown): number | null => {
    const value = finite(us);
    return value === null ? null : (value - startUs) / 1000;
  };
  let skipped = 0;
  const requests: ServedRequest[] = [];
  for (const record of Array.isArray(data.requests) ? data.requests.slice(0, MAX_REQUESTS) : []) {
    const startMs = Array.isArray(record) ? ms(record[2]) : null;
    const endMs = Array.isArray(record) && record[3] !== null ? ms(record[3]) : null;
    if (!Array.isArray(record) || typeof record[0] !== 'string' || typeof record[1] !== 'string' || startMs === null || (record[3] !== null && endMs === null)) {
      skipped++;
      continue;
    }
    requests.push({ method: record[0].slice(0, 16).toUpperCase(), path: record[1].slice(0, MAX_PATH_CHARS), startMs, endMs: endMs !== null && endMs >= startMs ? endMs : null });
  }
  const loop = isRecord(data.loop) ? data.loop : {};
  const tickMs = finite(loop.tickMs) ?? 0;
  // Version 1's gap began at the tick before: the loop was held from when the next one was due.
  const dueAfter = data.version === 1 ? Math.max(0, tickMs) : 0;
  const gaps: LoopGap[] = [];
  for (const gap of Array.isArray(loop.gaps) ? loop.gaps.slice(0, MAX_GAPS) : []) {
    const fromMs = Array.isArray(gap) ? ms(gap[0]) : null;
    const toMs = Array.isArray(gap) ? ms(gap[1]) : null;
    if (fromMs === null || toMs === null || toMs < fromMs) {
      skipped++;
      continue;
    }
    gaps.push({ fromMs: Math.min(fromMs + dueAfter, toMs), toMs });
  }
  const count = (value: unknown, atLeast: number): number => {
    const n = finite(value);
    return n === null || n < atLeast ? atLeast : Math.floor(n);
  };
  // A clock only goes forward: a reading before the one kept last (in time or in CPU) is skipped.
  const clock = isRecord(data.threadCpu) && data.threadCpu.unit === 'us' && Array.isArray(data.threadCpu.readings) ? data.threadCpu.readings.slice(0, MAX_CPU_READINGS) : [];
  const threadCpu = { atMs: [] as number[], cpuMs: [] as number[] };
  for (const reading of clock) {
    const atMs = Array.isArray(reading) ? ms(reading[0]) : null;
    const cpuUs = Array.isArray(reading) ? finite(reading[1]) : null;
    if (atMs === null || cpuUs === null || cpuUs < 0 || (threadCpu.atMs.length > 0 && (atMs < threadCpu.atMs.at(-1)! || cpuUs / 1000 < threadCpu.cpuMs.at(-1)!))) {
      skipped++;
      continue;
    }
    threadCpu.atMs.push(atMs);
    threadCpu.cpuMs.push(cpuUs / 1000);
  }
  return {
    observer: typeof data.observer === 'string' ? data.observer.slice(0, 40) : 'unknown',
    requests,
    requestsSeen: count(data.requestsSeen, requests.length),
    skipped,
    loop: { tickMs, minGapMs: finite(loop.minGapMs) ?? 0, gaps, gapsSeen: count(loop.gapsSeen, gaps.length) },
    ...(threadCpu.atMs.length >= 2 ? { threadCpu } : {}),
  };
}

/**
 * The notes beside `profileFile`, null when there are none (a profile not recorded by Hotframe),
 * or a one-line reason when the file is there but cannot be used.
 */
export function readServingLog(profileFile: string): ServingLog | { error: string } | null {
  let text: string;
  try {
    text = readGuardedText(servingLogPath(profileFile), MAX_SERVING_BYTES);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return { error: error instanceof Error ? error.message.split('\n')[0] : 'cannot be read' };
  }
  return parseServingLog(text);
}

/** Requests kept one by one over the parts of a merged capture; past this only `requestsSeen` grows. */
export const MAX_MERGED_REQUESTS = 1_000_000;

/**
 * The notes of several profiles read as one (the processes of an attach capture, merged): their
 * requests together, since a request is matched to a route by its method and path alone. Their
 * loop gaps are left out: each is on its own process's clock, and a merged profile has no one
 * timeline. Parts without notes (worker threads, a process that exited) add no requests. Null
 * when no part has notes; one part's unusable notes make the whole a one-line reason, since the
 * counts of some parts would read as those of all.
 */
export function readServingLogs(profileFiles: readonly string[]): ServingLog | { error: string } | null {
  if (profileFiles.length === 1) return readServingLog(profileFiles[0]);
  const logs: ServingLog[] = [];
  for (const file of profileFiles) {
    const log = readServingLog(file);
    if (log === null) continue;
    if ('error' in log) return { error: `${basename(file)}${SERVING_SUFFIX}: ${log.error}` };
    logs.push(log);
  }
  if (logs.length === 0) return null;
  const requests: ServedRequest[] = [];
  let requestsSeen = 0;
  let skipped = 0;
  for (const log of logs) {
    requestsSeen += log.requestsSeen;
    skipped += log.skipped;
    for (const request of log.requests) {
      if (requests.length >= MAX_MERGED_REQUESTS) break;
      requests.push(request);
    }
  }
  return { observer: [...new Set(logs.map((l) => l.observer))].join(', '), requests, requestsSeen, skipped, loop: { tickMs: logs[0]!.loop.tickMs, minGapMs: logs[0]!.loop.minGapMs, gaps: [], gapsSeen: 0 } };
}
