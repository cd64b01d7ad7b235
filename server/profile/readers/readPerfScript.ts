// Reads Linux `perf script` output (from `perf record -g`) and folded stacks (stackcollapse-perf.pl's
// `process;outer;…;leaf count` lines) into the normalized model, line by line: each sample's whole
// stack is kept, kernel, native and JavaScript frames together (perfFrames.ts says which is
// which), so kernel time under a user's call is charged to that call by the same attribution as a
// V8 profile's native time.
//
// Weights. `cpu-clock` / `task-clock` samples carry their period in nanoseconds: that is their
// time. Other events (`cycles`, page faults) count something else: each sample is then weighted
// by the sampling interval, measured as the median gap between consecutive samples on one CPU
// (perf samples at a fixed frequency per CPU while it runs), said in a note; events that are not
// sampled by time (page faults, tracepoints) count 1 sample as 1 ms, said in a note. Folded stacks carry
// counts only: 1 sample is shown as 1 ms, said in a note. Like stackcollapse-perf.pl, only the
// first event type of a recording is read (a recording of cycles and instructions mixes units).
// Samples of the idle task (`swapper`, pid 0) are idle time.
import { CallTreeBuilder } from '../model/callTreeBuilder';
import { IDLE_NAME } from '../model/categories';
import type { NormalizedProfile } from '../model/types';
import { classifyPerfFrame, type PerfFrame } from './perfFrames';
import { ProfileInputError } from './profileInputError';

/** The deepest stack read; perf's own limit (kernel.perf_event_max_stack) is 127 by default. */
export const MAX_PERF_STACK_FRAMES = 4096;

export type PerfTextFormat = 'perf-script' | 'folded';

/**
 * A sample's header line: `comm pid[/tid] [cpu] time: [period] event[:modifiers]: [frame]`, with
 * cpu, time and period optional (perf script -F chooses), comm possibly right-aligned or with spaces.
 */
const HEADER = /^\s*(\S.*?)\s+(\d+)(?:\/(\d+))?\s+(?:\[(\d+)\]\s+)?(?:(\d+\.\d+):\s+)?(?:(\d+)\s+)?([^\s:]+)(?::\S*)?:\s*(.*)$/;
/** A stack frame line: an address, the symbol, the object in parentheses (optional). */
const FRAME = /^\s*([0-9a-fA-F]+)\s+(\S.*)$/;
/** A folded line: the stack, a space, the count. */
const FOLDED = /^(\S.*) (\d+(?:\.\d+)?)$/;
const ANNOTATION = /_\[([kjiw])\]$/;
/** Events perf samples at a frequency while the CPU runs (so the gap between samples is time); page faults or tracepoints count events. */
const SAMPLED_BY_TIME = /^(cpu-clock|task-clock|cycles|cpu-cycles|ref-cycles|instructions|cpu\/|cpu_core\/|cpu_atom\/)/;

/** Which of the two text formats `text` (the file's first bytes) starts as, or null. */
export function sniffPerfText(text: string): PerfTextFormat | null {
  const lines = text.split('\n');
  if (lines.length > 1) lines.pop(); // the last one may be cut by the sniff window
  let folded = 0;
  for (const raw of lines) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '' || line.startsWith('#')) continue;
    if (folded === 0 && !line.includes(';') && HEADER.test(line)) return 'perf-script';
    if (!FOLDED.test(line)) return null;
    // The first stack line decides; the reader refuses a later malformed line with its number.
    if (line.includes(';')) return 'folded';
    if (++folded === 50) break;
  }
  return null;
}

interface Stack {
  /** Leaf first. */
  frames: PerfFrame[];
  idle: boolean;
}

export class PerfStackReader {
  private readonly builder = new CallTreeBuilder();
  private readonly funcOf = new Map<string, number>();
  /** Per node: samples and summed period (or count) of the samples whose leaf it is. */
  private nodeSamples: number[] = [];
  private nodePeriod: number[] = [];
  private lineNumber = 0;
  private samples = 0;
  private skippedEvents = 0;
  private event: string | undefined;
  private clockPeriods = true;
  private readonly processes = new Map<string, number>();
  /** The sample being read (perf script): its frames, leaf first. */
  private current: Stack | null = null;
  private currentPeriod = 0;
  private currentSkipped = false;
  /** Per CPU (or thread): the last sample's time, and the gaps seen (for the sampling interval). */
  private readonly lastTime = new Map<string, number>();
  private readonly gaps: number[] = [];
  private firstTime = Infinity;
  private lastTimeSeen = -Infinity;

  constructor(
    private readonly label: string,
    private readonly format: PerfTextFormat,
  ) {}

  line(text: string): void {
    this.lineNumber++;
    if (this.format === 'folded') this.foldedLine(text);
    else this.scriptLine(text);
  }

  private refuse(what: string): never {
    throw new ProfileInputError(`${this.label}: line ${this.lineNumber}: ${what}; not ${this.format === 'folded' ? 'folded stacks' : 'perf script output'}`);
  }

  private scriptLine(text: string): void {
    if (text.trim() === '') {
      this.endSample();
      return;
    }
    if (this.current === null && text.startsWith('#')) return;
    // Inside a sample a tab-indented line is a frame; a header never starts with a tab.
    if (this.current !== null && (text.startsWith('\t') || !HEADER.test(text))) {
      this.frameLine(text);
      return;
    }
    const header = HEADER.exec(text);
    if (header === null) this.refuse('neither a sample header (comm pid time: event:) nor a stack frame');
    this.endSample();
    const [, comm, pid, tid, cpu, time, period, event, rest] = header;
    if (this.event === undefined) this.event = event;
    this.currentSkipped = event !== this.event;
    if (this.currentSkipped) this.skippedEvents++;
    this.current = { frames: [], idle: pid === '0' && /^swapper/.test(comm) };
    if (period === undefined) this.clockPeriods = false;
    this.currentPeriod = period === undefined ? 1 : Number(period);
    if (!this.currentSkipped) {
      const process = `${comm.trim()} ${pid}`;
      this.processes.set(process, (this.processes.get(process) ?? 0) + 1);
      if (time !== undefined) this.seeTime(cpu ?? tid ?? pid, Number(time) * 1000);
    }
    // Without -g the one frame follows the event on the same line.
    if (rest !== '') this.frameLine(rest);
  }

  private frameLine(text: string): void {
    if (this.current === null) this.refuse('a stack frame before any sample header');
    const m = FRAME.exec(text);
    if (m === null) this.refuse('not a stack frame (address symbol (object))');
    const { symbol, dso } = splitObject(m[2]);
    if (this.current.frames.length === MAX_PERF_STACK_FRAMES) this.refuse(`a stack deeper than ${MAX_PERF_STACK_FRAMES} frames`);
    this.current.frames.push(classifyPerfFrame(symbol, dso));
  }

  private endSample(): void {
    const sample = this.current;
    this.current = null;
    if (sample === null || this.currentSkipped) return;
    this.add(sample.frames, sample.idle, this.currentPeriod);
  }

  private seeTime(key: string, ms: number): void {
    const last = this.lastTime.get(key);
    if (last !== undefined && ms > last && this.gaps.length < 100_000) this.gaps.push(ms - last);
    this.lastTime.set(key, ms);
    if (ms < this.firstTime) this.firstTime = ms;
    if (ms > this.lastTimeSeen) this.lastTimeSeen = ms;
  }

  private foldedLine(text: string): void {
    if (text.trim() === '' || text.startsWith('#')) return;
    const m = FOLDED.exec(text);
    if (m === null) this.refuse('not "frame;frame;… count"');
    const count = Number(m[2]);
    if (!(count <= Number.MAX_SAFE_INTEGER)) this.refuse('a count too large');
    const names = m[1].split(';');
    if (names.length > MAX_PERF_STACK_FRAMES + 1) this.refuse(`a stack deeper than ${MAX_PERF_STACK_FRAMES} frames`);
    // stackcollapse-perf.pl starts each stack with the process name (comm, comm-pid or comm-pid/tid).
    const process = names[0];
    this.processes.set(process, (this.processes.get(process) ?? 0) + count);
    const frames: PerfFrame[] = [];
    for (let i = names.length - 1; i >= 1; i--) {
      const annotated = ANNOTATION.exec(names[i]);
      const name = annotated === null ? names[i] : names[i].slice(0, -annotated[0].length);
      frames.push(classifyPerfFrame(name, '', annotated === null ? '' : annotated[1]));
    }
    this.add(frames, /^swapper(-0(\/0)?)?$/.test(process), count);
  }

  /** One sample (or a folded line's count of them): its stack, root first, and its leaf's weight. */
  private add(frames: PerfFrame[], idle: boolean, period: number): void {
    let node = 0;
    if (idle) node = this.builder.child(0, this.intern({ name: IDLE_NAME, url: '', line: 0, column: 0, kind: 'vm' }), 0);
    else {
      for (let i = frames.length - 1; i >= 0; i--) node = this.builder.child(node, this.intern(frames[i]), 0);
      if (frames.length === 0) node = this.builder.child(0, this.intern({ name: '[unknown]', url: '', line: 0, column: 0, kind: 'native' }), 0);
    }
    const samples = this.format === 'folded' ? period : 1;
    this.nodeSamples[node] = (this.nodeSamples[node] ?? 0) + samples;
    this.nodePeriod[node] = (this.nodePeriod[node] ?? 0) + period;
    this.samples += samples;
  }

  private intern(frame: PerfFrame): number {
    const key = `${frame.kind}\u0000${frame.name}\u0000${frame.url}\u0000${frame.line}\u0000${frame.column}`;
    let func = this.funcOf.get(key);
    if (func === undefined) {
      func = this.builder.internFunction(frame.name, frame.url, frame.line, frame.column, frame.kind);
      this.funcOf.set(key, func);
    }
    return func;
  }

  finish(): NormalizedProfile {
    this.endSample();
    if (this.samples === 0) throw new ProfileInputError(`${this.label}: no samples${this.format === 'folded' ? '' : ' (perf script output without sample lines)'}; not a profile`);
    const notes: string[] = [];
    const warnings: string[] = [];
    // How a sample becomes ms (see the file's comment).
    let msOf: (samples: number, period: number) => number;
    let intervalMs = 0;
    const clock = this.format === 'perf-script' && this.clockPeriods && /^(cpu|task)-clock$/.test(this.event ?? '');
    if (clock) {
      msOf = (_samples, period) => period / 1e6;
      notes.push(`perf ${this.event} samples, weighted by their period (ns)`);
    } else if (this.gaps.length > 0 && SAMPLED_BY_TIME.test(this.event ?? '')) {
      intervalMs = median(this.gaps);
      msOf = (samples) => samples * intervalMs;
      notes.push(`perf ${this.event ?? ''} samples: each weighted by the sampling interval measured between consecutive samples of one CPU (${intervalMs.toPrecision(3)} ms); times are estimates`);
    } else {
      msOf = (samples) => samples;
      notes.push(
        this.format === 'folded'
          ? 'folded stacks carry counts only: 1 sample is shown as 1 ms'
          : this.gaps.length > 0
            ? `perf ${this.event ?? ''} samples count events, not time: 1 sample is shown as 1 ms`
            : 'perf samples without timestamps: 1 sample is shown as 1 ms',
      );
    }
    let totalMs = 0;
    for (let node = 0; node < this.nodeSamples.length; node++) {
      const samples = this.nodeSamples[node];
      if (samples === undefined) continue;
      const ms = msOf(samples, this.nodePeriod[node]);
      this.builder.addSelf(node, samples, ms);
      totalMs += ms;
    }
    if (this.skippedEvents > 0) warnings.push(`${this.skippedEvents} sample(s) of events other than ${this.event} were left out (one event type is read, as stackcollapse-perf.pl does)`);
    if (this.processes.size > 1) {
      const named = [...this.processes].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([name]) => name);
      notes.push(`${this.processes.size} processes or threads in one recording (${named.join(', ')}${this.processes.size > 5 ? ', …' : ''}), their stacks merged`);
    }
    const spanMs = Number.isFinite(this.firstTime) ? this.lastTimeSeen - this.firstTime + intervalMs : 0;
    const profile = this.builder.build(this.format, this.samples, spanMs > 0 ? spanMs : totalMs, warnings);
    profile.notes = notes;
    return profile;
  }
}

/** `sym+0x1f (/usr/bin/node)` -> symbol and object; the object is the last balanced parenthesis (`(/x (deleted))`). */
function splitObject(text: string): { symbol: string; dso: string } {
  const trimmed = text.trimEnd();
  if (!trimmed.endsWith(')')) return { symbol: trimmed, dso: '' };
  let depth = 0;
  for (let i = trimmed.length - 1; i >= 0; i--) {
    const c = trimmed[i];
    if (c === ')') depth++;
    else if (c === '(' && --depth === 0) {
      if (i === 0 || trimmed[i - 1] !== ' ') break;
      return { symbol: trimmed.slice(0, i - 1).trimEnd(), dso: trimmed.slice(i + 1, -1) };
    }
  }
  return { symbol: trimmed, dso: '' };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
