// CPU profiles inside a Chrome / DevTools performance trace (an array of trace events or
// `{ traceEvents: [...] }`): "Profile" gives the start time, "ProfileChunk" events carry nodes
// (linked by `parent`), samples and time deltas; older traces hold one "CpuProfile" event with a
// whole profile. TraceProfiles takes the events one at a time, from a parsed JSON
// (readTraceProfile) or from the file's bytes (scanTrace.ts, for traces past what JSON.parse can
// hold), and keeps only what the profiles need: nodes in CpuprofileParts, samples and deltas in
// typed arrays (a sample costs 8 bytes, about what its text took).
import { traceEventBudget } from './budgets';
import { MAX_STREAMED_JSON_BYTES } from './byteCaps';
import { buildCpuprofile, CpuprofileParts, readCpuprofile } from './readCpuprofile';
import { ProfileInputError } from './profileInputError';
import type { NormalizedProfile } from '../model/types';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const finite = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** A sample id that is not a 32-bit integer: no node has it (buildCpuprofile counts it unknown). */
const NOT_AN_ID = -0x80000000;

/** One thread's CPU profile in a trace. */
export interface TraceThread {
  /** "pid:tid" as the trace names them. */
  id: string;
  name: string;
  samples: number;
}

/** A growable array of 32-bit integers. */
class Int32List {
  values = new Int32Array(1024);
  length = 0;

  push(v: number): void {
    if (this.length === this.values.length) {
      const grown = new Int32Array(Math.ceil(this.values.length * 1.5));
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = v;
  }

  get view(): Int32Array {
    return this.values.subarray(0, this.length);
  }
}

interface TraceProfile {
  thread: TraceThread;
  start: number | undefined;
  /** Nodes of the chunks read so far. */
  parts: CpuprofileParts;
  samples: Int32List;
  /** µs, one per sample; rounded to whole µs (what traces record). */
  deltas: Int32List;
  /** Time of the last sample since start, µs (negative deltas count as 0). */
  elapsedUs: number;
  chunks: number;
  /** A whole profile from one `CpuProfile` event (DevTools traces of 2018). */
  whole: Record<string, unknown> | undefined;
}

const toInt32 = (v: number): number => (v > 0x7fffffff ? 0x7fffffff : v < -0x7fffffff ? -0x7fffffff : Math.round(v));

export class TraceProfiles {
  private readonly names = new Map<string, string>();
  private readonly profiles = new Map<string, TraceProfile>();
  private events = 0;
  private readonly eventBudget: number;

  /** `label` names the trace in errors; `capBytes` is the byte cap it was read within (budgets.ts). */
  constructor(
    private readonly label = 'trace',
    capBytes = MAX_STREAMED_JSON_BYTES,
  ) {
    this.eventBudget = traceEventBudget(capBytes);
  }

  /** Counts one event, read or skipped: past the budget the trace is refused (docs/security.md, "Budgets"). */
  count(): void {
    if (++this.events > this.eventBudget) throw new ProfileInputError(`${this.label}: a trace of more than ${this.eventBudget.toLocaleString('en-US')} events; not read (the trace budgets, docs/security.md)`);
  }

  /** Takes one trace event (anything else is ignored). */
  add(event: unknown): void {
    this.count();
    if (!isRecord(event) || !isRecord(event.args)) return;
    if (event.name === 'thread_name' && typeof event.args.name === 'string') {
      this.names.set(threadOf(event), event.args.name);
      return;
    }
    if (!isRecord(event.args.data)) return;
    const data = event.args.data;
    if (event.name === 'Profile') {
      // Chunks come from the sampler's thread: the profiled thread is the Profile event's.
      const p = this.profileOf(event, `id:${String(event.id)}:${String(event.pid)}`);
      p.start = finite(data.startTime);
      p.thread.id = threadOf(event);
    } else if (event.name === 'ProfileChunk' && isRecord(data.cpuProfile)) {
      const p = this.profileOf(event, `id:${String(event.id)}:${String(event.pid)}`);
      p.chunks++;
      const cpu = data.cpuProfile;
      if (Array.isArray(cpu.nodes)) for (const node of cpu.nodes) p.parts.addNode(node);
      const samples = Array.isArray(cpu.samples) ? cpu.samples : [];
      const deltas = Array.isArray(data.timeDeltas) ? data.timeDeltas : [];
      for (let i = 0; i < samples.length; i++) {
        const id: unknown = samples[i];
        p.samples.push(typeof id === 'number' && (id | 0) === id && id !== NOT_AN_ID ? id : NOT_AN_ID);
        const us = toInt32(finite(deltas[i]) ?? 0);
        p.deltas.push(us);
        p.elapsedUs += Math.max(0, us);
      }
      p.thread.samples += samples.length;
    } else if (event.name === 'CpuProfile' && isRecord(data.cpuProfile) && Array.isArray(data.cpuProfile.nodes)) {
      const p = this.profileOf(event, `event:${this.profiles.size}`);
      p.whole = data.cpuProfile;
      p.thread.samples = Array.isArray(data.cpuProfile.samples) ? data.cpuProfile.samples.length : 0;
    }
  }

  private profileOf(event: Record<string, unknown>, key: string): TraceProfile {
    let p = this.profiles.get(key);
    if (p === undefined) {
      p = { thread: { id: threadOf(event), name: '', samples: 0 }, start: undefined, parts: new CpuprofileParts(), samples: new Int32List(), deltas: new Int32List(), elapsedUs: 0, chunks: 0, whole: undefined };
      this.profiles.set(key, p);
    }
    return p;
  }

  /**
   * The profile read: `thread` when given (its "pid:tid", tid or name), else the one with the
   * most samples; every thread's profile is listed (`threads`). Undefined when the events held
   * no profile.
   */
  finish(label: string, thread?: string): NormalizedProfile | undefined {
    const found = [...this.profiles.values()].filter((p) => p.chunks > 0 || p.whole !== undefined);
    if (found.length === 0) return undefined;
    for (const p of found) p.thread.name = this.names.get(p.thread.id) ?? '';
    // Two profiles of one thread (a trace recorded twice) stay apart: number the repeats.
    const seen = new Map<string, number>();
    for (const p of found) {
      const n = (seen.get(p.thread.id) ?? 0) + 1;
      seen.set(p.thread.id, n);
      if (n > 1) p.thread.id = `${p.thread.id}#${n}`;
    }
    let best: TraceProfile | undefined;
    if (thread !== undefined) {
      best = found.find((p) => p.thread.id === thread) ?? found.find((p) => p.thread.id.split(':')[1] === thread) ?? found.find((p) => p.thread.name === thread);
      if (best === undefined) {
        throw new ProfileInputError(`${label}: no thread "${thread}" with a CPU profile; threads: ${found.map((p) => describeThread(p.thread)).join(', ')}`);
      }
    } else for (const p of found) if (best === undefined || p.thread.samples > best.thread.samples) best = p;
    const chosen = best as TraceProfile;
    let profile: NormalizedProfile;
    if (chosen.whole !== undefined) profile = readCpuprofile(chosen.whole, label);
    else {
      const { parts } = chosen;
      parts.samples = chosen.samples.view;
      parts.timeDeltas = chosen.deltas.view;
      parts.startTime = chosen.start ?? 0;
      parts.endTime = parts.startTime + chosen.elapsedUs;
      profile = buildCpuprofile(parts, label);
    }
    if (found.length === 1) return profile;
    const threads = found.map((p) => p.thread);
    const how = thread === undefined ? 'the busiest' : 'as asked';
    profile.warnings.unshift(`the trace holds ${threads.length} threads with CPU profiles (${threads.map(describeThread).join(', ')}); read ${describeThread(chosen.thread)}, ${how}: choose another with --thread ID`);
    return { ...profile, threads, thread: chosen.thread.id };
  }
}

function threadOf(event: Record<string, unknown>): string {
  return event.pid === undefined && event.tid === undefined ? `profile ${String(event.id ?? '')}` : `${String(event.pid ?? '')}:${String(event.tid ?? '')}`;
}

/** The trace's events when the JSON is a trace (an array of events or `{ traceEvents: [...] }`). */
export function traceEventsOf(json: unknown): unknown[] | undefined {
  return Array.isArray(json) ? json : isRecord(json) && Array.isArray(json.traceEvents) ? json.traceEvents : undefined;
}

/** A CPU profile in a parsed trace (see TraceProfiles.finish); undefined when the JSON holds none. */
export function readTraceProfile(json: unknown, label: string, thread?: string, capBytes = MAX_STREAMED_JSON_BYTES): NormalizedProfile | undefined {
  const events = traceEventsOf(json);
  if (events === undefined) return undefined;
  const profiles = new TraceProfiles(label, capBytes);
  for (const event of events) profiles.add(event);
  return profiles.finish(label, thread);
}

export function describeThread(t: TraceThread): string {
  return `${t.id}${t.name === '' ? '' : ` "${t.name}"`} ${t.samples} samples`;
}
