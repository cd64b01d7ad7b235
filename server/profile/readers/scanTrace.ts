// Reads a Chrome / DevTools trace straight from its bytes, one event at a time, so a trace larger
// than JSON.parse can take (V8 strings stop near 512 MB) opens in memory about the size of the
// profile it holds: the events array is walked through a window over the file; an event is
// JSON.parsed alone, and only when its bytes name one of the events TraceProfiles reads (a
// profile, its chunks, a thread's name); the others are only measured and skipped. Anything
// unusual around the events (no events array, an event that is not an object, bad JSON in an
// event read) returns null: the caller parses the file whole, which also words the error.
import { ByteWindow, CLOSE_BRACE, CLOSE_BRACKET, COMMA, endOfValue, memberAt, OPEN_BRACE, OPEN_BRACKET, parseOrNull, skipSpace, startOfJson, WINDOW_BYTES, type ByteSource } from './jsonBytes';
import { countJsonValues, jsonValueBudget } from './budgets';
import { MAX_JSON_BYTES, MAX_STREAMED_JSON_BYTES } from './byteCaps';
import { ProfileInputError } from './profileInputError';
import { TraceProfiles } from './readTrace';

/** Where the trace comes from, for errors, and the byte cap it is read within (the budgets follow it). */
export interface TraceLimits {
  label?: string;
  capBytes?: number;
}

/** What a read event's bytes contain: every event TraceProfiles takes is named so ("Profile", "ProfileChunk", "CpuProfile", "thread_name"). */
const WANTED = [Buffer.from('Profile"'), Buffer.from('thread_name"')];

/**
 * The next position at or after `from` where `needle` occurs in the window's bytes, found by
 * Buffer.indexOf (native) once per window rather than once per event; Infinity when it is not
 * in the bytes read so far.
 */
class Finder {
  private at = -1;
  private searchedBuf: Buffer | null = null;
  private searchedBase = -1;
  private searchedEnd = -1;
  private searchedFrom = -1;

  constructor(
    private readonly w: ByteWindow,
    private readonly needle: Buffer,
  ) {}

  next(from: number): number {
    const { w } = this;
    const stale = this.searchedBuf !== w.buf || this.searchedBase !== w.base || this.searchedEnd !== w.end || from < this.searchedFrom;
    if (stale || this.at < from) {
      const k = w.buf.indexOf(this.needle, from - w.base);
      this.at = k === -1 || k + this.needle.length > w.end ? Infinity : w.base + k;
      this.searchedBuf = w.buf;
      this.searchedBase = w.base;
      this.searchedEnd = w.end;
      this.searchedFrom = from;
    }
    return this.at;
  }
}

/** The trace's profiles (TraceProfiles, not yet finished), or null when the bytes are not a trace this scanner reads. */
export function scanTrace(input: Buffer | ByteSource, windowBytes = WINDOW_BYTES, limits: TraceLimits = {}): TraceProfiles | null {
  const w = new ByteWindow(input, windowBytes);
  const label = limits.label ?? 'trace';
  const newProfiles = (): TraceProfiles => new TraceProfiles(label, limits.capBytes ?? MAX_STREAMED_JSON_BYTES);
  let i = startOfJson(w);
  const first = w.at(i);
  if (first === OPEN_BRACKET) {
    const profiles = newProfiles();
    const end = readEvents(w, i, profiles, label);
    if (end < 0 || w.at(skipSpace(w, end)) !== -1) return null;
    return profiles;
  }
  if (first !== OPEN_BRACE) return null;
  let profiles: TraceProfiles | null = null;
  i = skipSpace(w, i + 1);
  if (w.at(i) === CLOSE_BRACE) return null;
  for (;;) {
    const member = memberAt(w, i);
    if (member === null) return null;
    const key = member.key;
    i = member.value;
    let end: number;
    if (key === 'traceEvents' && profiles === null) {
      if (w.at(i) !== OPEN_BRACKET) return null;
      profiles = newProfiles();
      end = readEvents(w, i, profiles, label);
    } else end = endOfValue(w, i);
    if (end < 0) return null;
    i = skipSpace(w, end);
    const c = w.at(i);
    if (c === COMMA) {
      i = skipSpace(w, i + 1);
      continue;
    }
    if (c !== CLOSE_BRACE || w.at(skipSpace(w, i + 1)) !== -1) return null;
    return profiles;
  }
}

/** Reads the events array whose `[` is at `open`; the position after its `]`, or -1. */
function readEvents(w: ByteWindow, open: number, profiles: TraceProfiles, label: string): number {
  const finders = WANTED.map((needle) => new Finder(w, needle));
  // An event read is JSON parsed at once: what it becomes is bounded as for a file read whole.
  const valueBudget = jsonValueBudget(MAX_JSON_BYTES);
  let i = skipSpace(w, open + 1);
  if (w.at(i) === CLOSE_BRACKET) return i + 1;
  for (;;) {
    if (w.at(i) !== OPEN_BRACE) return -1;
    const end = endOfValue(w, i);
    if (end < 0) return -1;
    if (finders.some((f) => f.next(i) < end)) {
      const text = w.text(i, end, 'utf8');
      if (countJsonValues(text, valueBudget) > valueBudget) throw new ProfileInputError(`${label}: a trace event of more than ${valueBudget.toLocaleString('en-US')} JSON values; not read (the budget for JSON read whole, docs/security.md)`);
      const event = parseOrNull(text);
      if (event === null) return -1;
      profiles.add(event);
    } else profiles.count();
    const next = skipSpace(w, end);
    const c = w.at(next);
    if (c === CLOSE_BRACKET) return next + 1;
    if (c !== COMMA) return -1;
    i = skipSpace(w, next + 1);
  }
}
