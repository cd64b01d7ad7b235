// Reads a raw `node --prof` isolate log, line by line, into the normalized model.
// Ticks are resolved against the code map as they arrive (code moves and dies while the log is
// written); each frame becomes a (code entry, offset) key and the ticks build a call tree over
// those keys. Only at the end are keys turned into functions and source lines, since the script
// sources needed for lines may come later in the log or from local files.
// Stack handling follows V8's tools/logreader.mjs + profile.mjs so that self ticks per JS
// function agree with `node --prof-process`: an external callback's address replaces the pc, a
// frameless JS caller (tos) is kept, addresses inside shared libraries are native, other
// bytecode-handler frames are skipped, an unknown top pc is '(unknown)', unknown callers dropped.
// Native frames are named by the builtin covering them, else by the symbol of Node's binary
// (nativeSymbols.ts, checked against the log), else by their library.
import { fileURLToPath } from 'node:url';
import { tryReadGuardedText } from '../../shared/guardedRead';
import { CallTreeBuilder, TimelineBuilder } from '../model/callTreeBuilder';
import { TickTimeline } from './tickTimeline';
import { GC_NAME, IDLE_NAME } from '../model/categories';
import { v8LogCodeEntryBudget, v8LogInlinedFrameBudget, v8LogSourceElementBudget } from './budgets';
import { MAX_LOG_BYTES } from './byteCaps';
import { AddressMemo } from './addressMemo';
import { CodeMap } from './codeMap';
import { nameNativeCode } from './nativeSymbols';
import { ProfileInputError } from './profileInputError';
import type { NormalizedProfile } from '../model/types';

/** V8's StateTag values that become leaves of their own. */
const VM_GC = 1;
const VM_IDLE = 8;

const enum EntryKind {
  Js,
  Builtin,
  BytecodeHandler,
  Other,
}
const JS_TYPES = new Set(['JS', 'Eval', 'Function', 'LazyCompile', 'Script']);

// Frame keys: code entries pack (entry, offset) into one number; the rest are small negatives.
const OFFSET_SPAN = 2 ** 22;
const KEY_GC = -1;
const KEY_IDLE = -2;
const KEY_UNKNOWN = -3;
const libraryKey = (library: number): number => -10 - library;
/** Addresses in shared libraries, named at the end from symbol tables (nativeSymbols.ts): below every library key. */
const NATIVE_PC_BASE = 2 ** 31;
const nativePcKey = (pc: number): number => -(NATIVE_PC_BASE + pc);

export interface V8LogOptions {
  /** Name C++ frames of Node's binary from its symbol table when it matches the log (default true). */
  nativeSymbols?: boolean;
  /**
   * Recover functions TurboFan inlined as frames of their own (default true): each inlined
   * function is a frame under the code's function, called from the line it was inlined at, with
   * its own self ticks. DevTools instead keeps the sample on the outer function (with the inlined
   * code's line); Hotframe splits it so a callee's cost is the same whether or not TurboFan inlined it.
   * False gives `node --prof-process`'s view: inlined code is its caller's, at the call line.
   */
  inlinedFrames?: boolean;
  /** Whether a script the log names but does not embed may be read for its line starts (default: none is). */
  mayReadScript?: (path: string) => boolean;
}

/** A script read for its line starts: larger ones are generated bundles or not scripts at all. */
const MAX_SCRIPT_BYTES = 16 * 1024 * 1024;
/** Symbol tables read per log (Node's binary is one; a crafted log may name thousands). */
const MAX_NM_RUNS = 2;

export interface SourcePositions {
  codeOffset: Int32Array;
  position: Int32Array;
  inlining: Int32Array;
  /** Per inlining id: the position in its caller, and the caller's inlining id (-1 = the code's own function). */
  inlinedAt: Int32Array;
  inlinedParent: Int32Array;
  /** Per inlining id: the index of the inlined function in `sfis`. */
  inlinedFunction: Int32Array;
  /** Addresses (as logged) of the inlined functions' SharedFunctionInfos, by index: only those the inlining table uses. */
  sfis: ReadonlyMap<number, string>;
  script: number;
}

/** Functions TurboFan inlined into a frame's code, outermost first, with the line each is at. */
interface InlinedFrames {
  names: string[];
  urls: string[];
  positions: number[];
  lines: Int32Array;
}

export class V8LogReader {
  private readonly code = new CodeMap();
  private readonly entryName: string[] = [];
  private readonly entryKind: EntryKind[] = [];
  private readonly entryInterpreted: boolean[] = [];
  private readonly entrySourceInfo: (string | undefined)[] = [];
  /** SFI address (as logged) -> the JS code entries created for it, oldest first (their names are entryName's). */
  private readonly sfiEntries = new Map<string, number[]>();
  /**
   * Per code entry: how many entries existed when its code-source-info line was read, so the
   * functions it inlined are named as they were then. A SharedFunctionInfo's address is reused
   * once the GC frees it: a later code-creation naming another function there must not rename
   * this code's ticks. (A number per entry, not a copy of the names: a log can list thousands of
   * SFIs on each of thousands of lines.)
   */
  private readonly entrySourceInfoSeq: number[] = [];
  /** Script id -> url, from script-source events. */
  private readonly scriptUrlById = new Map<number, string>();
  private readonly libraryNames: string[] = [];
  private readonly libraryStarts: number[] = [];
  private readonly libraryEnds: number[] = [];
  /**
   * Addresses above 2^53 (kernel, pointer-tagged, or a tos that is a double's bits) do not fit a
   * number exactly: they are kept as BigInts and stand in the stack as -(1 + index).
   */
  private readonly wide: bigint[] = [];
  private readonly wideIndex = new Map<bigint, number>();
  private readonly wideLibraries: { start: bigint; end: bigint; library: number }[] = [];
  /** Distinct addresses seen in shared libraries (outside builtins), to be named at the end. */
  private readonly nativePc = new Map<number, number>();
  private readonly nativePcAddress: number[] = [];
  private readonly nativePcLibrary: number[] = [];
  /** Name -> address of the builtins the log created (a few are enough to check a symbol table). */
  private readonly builtinAddresses = new Map<string, number>();
  private readonly scriptSources = new Map<number, string>();

  private readonly frameIndex = new Map<number, number>();
  private readonly frameKeys: number[] = [];
  private readonly raw = new CallTreeBuilder();
  /**
   * Frame keys of the addresses ticks named (NaN: skipped), for the top of a stack and for its
   * callers: a log names the same few thousand addresses in tens of thousands of ticks, and each
   * lookup walks two search trees. A code or library event forgets the addresses it covers.
   */
  private readonly topKeys = new AddressMemo();
  private readonly callerKeys = new AddressMemo();
  /** Per memoized key (the values of topKeys and callerKeys index these): the key, and its frame once numbered (-1 before). */
  private readonly memoKey: number[] = [];
  private readonly memoFrame: number[] = [];
  /**
   * Reused per tick, grown with the deepest stack: the addresses (from index 2: 0 and 1 are for
   * the pc and a frameless caller), their frame keys and the memo slot of each key (from index 1:
   * 0 is for the VM state's own leaf, slot -1). Typed arrays: no length resets, no unshift, no boxing.
   * Empty, then grown in the constructor: stored twice before use (see CallTreeBuilder's constructor).
   */
  private addresses = new Float64Array(0);
  private keys = new Float64Array(0);
  private slots = new Int32Array(0);
  /** The frames and call tree nodes of the previous tick, outermost first: a stack shares its outer frames with the one before. */
  private pathFrames = new Int32Array(0);
  private pathNodes = new Int32Array(0);
  private pathDepth = 0;

  private ticks = 0;
  private readonly timeline = new TickTimeline();
  private readonly samples = new TimelineBuilder();
  private lastNode = -1;
  private malformed = 0;
  private firstMalformed = '';
  /** What the log may make this reader build (budgets.ts, docs/security.md "Budgets"). */
  private readonly codeEntryBudget = v8LogCodeEntryBudget(MAX_LOG_BYTES);
  private sourceElementsLeft = v8LogSourceElementBudget(MAX_LOG_BYTES);
  private inlinedFramesLeft = v8LogInlinedFrameBudget(MAX_LOG_BYTES);

  constructor(
    private readonly label: string,
    private readonly options: V8LogOptions = {},
  ) {
    this.growTickBuffers(256);
  }

  line(text: string): void {
    const comma = text.indexOf(',');
    const type = comma === -1 ? text : text.slice(0, comma);
    switch (type) {
      case 'tick':
        // Read from its bytes, as the loader gives ticks. A file's text is latin1, a character each
        // byte; a wider one (a caller's own string) becomes 0xff, which no field reads as a digit either.
        return this.tickAt(Buffer.from(text.replace(/[\u0100-\uffff]/g, '\xff'), 'latin1'), 0, text.length);
      case 'code-creation':
        return this.codeCreation(text.split(','), text);
      case 'code-move':
        return this.codeMove(text.split(','), text);
      case 'code-delete': {
        const addr = parseAddress(text.slice(comma + 1));
        if (Number.isNaN(addr)) return this.bad(text);
        if (this.code.delete(addr) !== -1) this.codeChanged(this.code.changedFrom, this.code.changedTo);
        return;
      }
      case 'code-source-info':
        return this.codeSourceInfo(text);
      case 'script-source':
        return this.scriptSource(text);
      case 'shared-library':
        return this.sharedLibrary(text.split(','), text);
      case '':
        return;
      default:
        // Many other events (heap, timers, deopts, sfi-move, ICs, ...) do not change what ticks mean.
        if (!/^[A-Za-z][\w-]*$/.test(type)) this.bad(text);
    }
  }

  async finish(): Promise<NormalizedProfile> {
    if (this.ticks === 0 && this.entryName.length === 0) {
      throw new ProfileInputError(`not a CPU profile: ${this.label} has no V8 log events`);
    }
    const warnings: string[] = [];
    if (this.malformed > 0) warnings.push(`${this.malformed} malformed log line(s) were skipped, first: ${JSON.stringify(this.firstMalformed.slice(0, 80))}`);
    const earlier = this.timeline.warning();
    if (earlier !== null) warnings.push(earlier);
    if (this.ticks === 0) warnings.push('the log has no ticks (was it recorded with --prof?)');
    if (this.lastNode !== -1) this.raw.addSelf(this.lastNode, 0, this.timeline.lastTickMs());
    const durationMs = this.timeline.durationMs();

    const frames = await this.resolveFrames(warnings);
    const rawProfile = this.raw.build('v8log', 0, 0, []);
    const tree = rawProfile.tree;
    const builder = new CallTreeBuilder();
    const { funcs, inlinedFuncs } = frames.funcOf(builder);
    /** The line a frame's innermost function is at: where its callees were called from, or where it was sampled. */
    const leafLine = (frame: number): number => {
      const inl = frames.inlined[frame];
      return inl === undefined ? frames.line[frame] : inl.lines[inl.lines.length - 1];
    };
    const newIndex = new Int32Array(tree.count);
    for (let i = 1; i < tree.count; i++) {
      const frame = tree.func[i];
      const parent = tree.parent[i];
      const callLine = parent === 0 ? 0 : leafLine(tree.func[parent]);
      let node = builder.child(newIndex[parent], funcs[frame], callLine);
      // Inlined functions become frames of their own under the code's function, each called
      // from the line the previous one is at (the outermost from the inlined call's line).
      const inl = frames.inlined[frame];
      const inlFuncs = inlinedFuncs[frame];
      if (inl !== undefined && inlFuncs !== undefined) {
        // A call tree node per inlined function under every node of this frame: counted like the chains.
        this.spendInlinedFrames(inlFuncs.length);
        for (let k = 0; k < inlFuncs.length; k++) node = builder.child(node, inlFuncs[k], k === 0 ? frames.line[frame] : inl.lines[k - 1]);
      }
      newIndex[i] = node;
      if (tree.selfSamples[i] > 0 || tree.selfMs[i] > 0) {
        builder.addSelf(node, tree.selfSamples[i], tree.selfMs[i]);
        builder.addLine(node, leafLine(frame), tree.selfSamples[i], tree.selfMs[i]);
      }
    }
    const profile = builder.build('v8log', this.ticks, durationMs, warnings);
    if (this.samples.count > 0) {
      profile.timeline = this.samples.build(durationMs, this.samples.firstMs, (raw) => newIndex[raw]);
    }
    return profile;
  }

  /**
   * What the addresses in [from, to) resolve to may have changed: their memoized frame keys are
   * dropped (every address's, without a range). A forgotten address's slot is left unused: a slot
   * belongs to one address, and a log has no more of them than frames in its ticks.
   */
  private codeChanged(from?: number, to?: number): void {
    if (from === undefined || to === undefined) {
      this.topKeys.clear();
      this.callerKeys.clear();
      this.memoKey.length = 0;
      this.memoFrame.length = 0;
      return;
    }
    this.topKeys.forget(from, to);
    this.callerKeys.forget(from, to);
  }

  private bad(text: string): void {
    if (this.malformed++ === 0) this.firstMalformed = text;
  }

  /**
   * The name of the function at `sfi` as of `seq` entries: the latest code created for it before
   * then; an SFI with no code yet then takes the name logged for it last.
   */
  private sfiName(sfi: string, seq: number): string | undefined {
    const entries = this.sfiEntries.get(sfi);
    if (entries === undefined) return undefined;
    let lo = 0;
    let hi = entries.length - 1;
    let found = entries[hi];
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (entries[mid] < seq) {
        found = entries[mid];
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return this.entryName[found];
  }

  /** Takes `count` inlined frames from the budget, or refuses the log in one line. */
  private spendInlinedFrames(count: number): void {
    this.inlinedFramesLeft -= count;
    if (this.inlinedFramesLeft < 0) {
      const budget = v8LogInlinedFrameBudget(MAX_LOG_BYTES);
      throw new ProfileInputError(`${this.label}: more than ${budget.toLocaleString('en-US')} inlined frames (inlining chains of the ticked code); not read (the budget for V8 logs, docs/security.md)`);
    }
  }

  /** Takes `count` source-info elements from the budget, or refuses the log in one line. */
  private spendSourceElements(count: number): void {
    this.sourceElementsLeft -= count;
    if (this.sourceElementsLeft < 0) {
      const budget = v8LogSourceElementBudget(MAX_LOG_BYTES);
      throw new ProfileInputError(`${this.label}: more than ${budget.toLocaleString('en-US')} source positions and inlined functions (code-source-info); not read (the budget for V8 logs, docs/security.md)`);
    }
  }

  private codeCreation(f: string[], text: string): void {
    // code-creation,type,kind,timestamp,start,size,name[,sfi,state]
    if (f.length < 7) return this.bad(text);
    const start = parseAddress(f[4]);
    const size = Number(f[5]);
    if (Number.isNaN(start) || !Number.isFinite(size)) return this.bad(text);
    const type = f[1];
    if (this.entryName.length >= this.codeEntryBudget) {
      throw new ProfileInputError(`${this.label}: more than ${this.codeEntryBudget.toLocaleString('en-US')} code-creation entries; not read (the budget for V8 logs, docs/security.md)`);
    }
    const id = this.code.add(start, size);
    this.codeChanged(this.code.changedFrom, this.code.changedTo);
    this.entryName[id] = unescapeLog(unquote(f[6]));
    this.entryKind[id] = JS_TYPES.has(type) ? EntryKind.Js : type === 'Builtin' ? EntryKind.Builtin : type === 'BytecodeHandler' ? EntryKind.BytecodeHandler : EntryKind.Other;
    const state = f.length > 8 ? f[8] : '';
    this.entryInterpreted[id] = state === '~';
    this.entrySourceInfo[id] = undefined;
    this.entrySourceInfoSeq[id] = 0;
    if (this.entryKind[id] === EntryKind.Js && f.length > 7 && f[7] !== '') {
      const entries = this.sfiEntries.get(f[7]);
      if (entries === undefined) this.sfiEntries.set(f[7], [id]);
      else entries.push(id);
    }
    if (this.entryKind[id] === EntryKind.Other) this.entryName[id] = `${type}: ${this.entryName[id]}`;
    else if (this.entryKind[id] === EntryKind.Builtin && this.builtinAddresses.size < 64) this.builtinAddresses.set(this.entryName[id], start);
  }

  private codeMove(f: string[], text: string): void {
    const from = parseAddress(f[1] ?? '');
    const to = parseAddress(f[2] ?? '');
    if (Number.isNaN(from) || Number.isNaN(to)) return this.bad(text);
    if (this.code.move(from, to) !== -1) this.codeChanged(this.code.changedFrom, this.code.changedTo);
  }

  private codeSourceInfo(text: string): void {
    // code-source-info,addr,script,start,end,positions,inlined positions,inlined functions
    const second = text.indexOf(',', 17);
    const addr = parseAddress(text.slice(17, second === -1 ? undefined : second));
    if (Number.isNaN(addr) || second === -1) return this.bad(text);
    const id = this.code.at(addr);
    if (id === -1) return;
    this.entrySourceInfo[id] = text.slice(second + 1);
    // The last field lists the inlined functions' SFIs ("S0x1S0x2"): they are named as they are now.
    this.entrySourceInfoSeq[id] = this.entryName.length;
  }

  private scriptSource(text: string): void {
    // script-source,id,url,source (commas inside are escaped as \x2C)
    const a = text.indexOf(',', 14);
    const b = a === -1 ? -1 : text.indexOf(',', a + 1);
    const id = Number(text.slice(14, a));
    if (b === -1 || !Number.isInteger(id)) return this.bad(text);
    this.scriptSources.set(id, text.slice(b + 1));
    this.scriptUrlById.set(id, unescapeLog(text.slice(a + 1, b)));
  }

  private sharedLibrary(f: string[], text: string): void {
    const start = parseAddress(f[2] ?? '');
    const end = parseAddress(f[3] ?? '');
    if (Number.isNaN(start) || Number.isNaN(end)) return this.bad(text);
    const library = this.libraryNames.length;
    const name = unquote(f[1]);
    this.libraryNames.push(name);
    if (end >= 2 ** 53) {
      // Mapped above 2^53 (a kernel's): compared exactly, apart from the others.
      const wideStart = wideHex(f[2] ?? '');
      const wideEnd = wideHex(f[3] ?? '');
      if (wideStart !== null && wideEnd !== null) this.wideLibraries.push({ start: wideStart, end: wideEnd, library });
      this.libraryStarts.push(start);
      this.libraryEnds.push(start);
      // The addresses kept exactly (above 2^53) are memoized by index, not by value.
      this.codeChanged();
      return;
    }
    this.code.addLibrary(start, end, library);
    this.codeChanged(start, end);
    this.libraryStarts.push(start);
    this.libraryEnds.push(end);
  }

  /**
   * A tick line, read in place from the log's bytes between `start` and `end` (no decoding, no
   * split, no substrings: ticks are most of a log, and garbage is what makes a reader's memory grow).
   * tick,pc,timestamp,is_external_callback,tos_or_external_callback,vm_state,stack...
   */
  tickAt(bytes: Buffer, start: number, end: number): void {
    let addresses = this.addresses;
    let count = 2;
    let pc = NaN;
    let time = NaN;
    let external = false;
    let tos = NaN;
    let vmState = NaN;
    let field = 0;
    let previous = 0;
    for (let i = start; i <= end; field++) {
      let j = i;
      while (j < end && bytes[j] !== 44 /* , */) j++;
      if (field === 1) pc = this.hexAt(bytes, i, j);
      else if (field === 2) time = parseDecimalAt(bytes, i, j);
      else if (field === 3) external = j === i + 1 && bytes[i] === 49; /* '1' */
      else if (field === 4) tos = this.hexAt(bytes, i, j);
      else if (field === 5) {
        vmState = parseDecimalAt(bytes, i, j);
        previous = pc;
      } else if (field > 5 && j > i) {
        // Frames: absolute addresses, or +/- offsets from the previous relative frame (logreader.mjs).
        const c = bytes[i];
        let addr = NaN;
        if (c === 43 /* + */ || c === 45 /* - */) {
          const offset = parseHexAt(bytes, i + 1, j);
          if (!Number.isNaN(offset) && previous >= 0) {
            previous += c === 43 ? offset : -offset;
            addr = previous;
          }
        } else if (c !== 111 /* o(verflow) */) {
          // Parsed here (inlined: a number returned from a call is boxed); wider ones by hexAt.
          addr = parseHexAt(bytes, i, j);
          if (Number.isNaN(addr) && j - i > 13) addr = this.hexAt(bytes, i, j);
        }
        if (!Number.isNaN(addr)) {
          // One more for the VM state's leaf among the keys.
          if (count + 1 >= addresses.length) addresses = this.growTickBuffers();
          addresses[count++] = addr;
        }
      }
      i = j + 1;
    }
    if (field < 6 || Number.isNaN(pc) || Number.isNaN(time) || Number.isNaN(tos) || Number.isNaN(vmState)) return this.bad(bytes.toString('latin1', start, end));
    if (external) {
      // In an external callback the pc may point inside the callback: use the callback itself.
      pc = tos;
      tos = 0;
    } else if (tos < 0) tos = 0;
    else if (tos) {
      const entry = this.code.find(tos);
      if (entry === -1 || this.entryKind[entry] !== EntryKind.Js) tos = 0;
    }
    // The stack as prof-process builds it: pc, a frameless caller, then the logged frames.
    let first = 1;
    if (tos) {
      addresses[0] = pc;
      addresses[1] = tos;
      first = 0;
    } else addresses[1] = pc;

    // Resolve top to bottom, then walk the tree from the outermost caller.
    const keys = this.keys;
    const slots = this.slots;
    let depth = 1;
    for (let i = first; i < count; i++) {
      const addr = addresses[i];
      const memo = i === first ? this.topKeys : this.callerKeys;
      let slot = memo.get(addr);
      if (slot === -1) {
        slot = this.memoKey.length;
        this.memoKey.push(this.frameKey(addr, i > first, i === first) ?? NaN);
        this.memoFrame.push(-1);
        memo.set(addr, slot);
      }
      const key = this.memoKey[slot];
      if (!Number.isNaN(key)) {
        keys[depth] = key;
        slots[depth++] = slot;
      }
    }
    let top = 1;
    if (vmState === VM_GC || vmState === VM_IDLE) {
      // The VM state is the leaf; native code it was sampled in belongs to it.
      if (depth === 1 || !this.isNativeKey(keys[1])) top = 0;
      keys[top] = vmState === VM_GC ? KEY_GC : KEY_IDLE;
      slots[top] = -1;
    }
    // Frames are numbered in the order they were before memoizing (outermost first), so the output is unchanged.
    const pathFrames = this.pathFrames;
    const pathNodes = this.pathNodes;
    const shared = this.pathDepth;
    let node = 0;
    let level = 0;
    let same = true;
    for (let i = depth - 1; i >= top; i--, level++) {
      const slot = slots[i];
      let frame = slot === -1 ? -1 : this.memoFrame[slot];
      if (frame === -1) {
        frame = this.frame(keys[i]);
        if (slot !== -1) this.memoFrame[slot] = frame;
      }
      // While this stack follows the previous one from its outermost frame, its nodes are the same.
      if (same && level < shared && pathFrames[level] === frame) node = pathNodes[level];
      else {
        same = false;
        node = this.raw.child(node, frame, 0);
      }
      pathFrames[level] = frame;
      pathNodes[level] = node;
    }
    this.pathDepth = level;

    const previousMs = this.timeline.next(time);
    if (this.lastNode !== -1) this.raw.addSelf(this.lastNode, 0, previousMs);
    this.raw.addSelf(node, 1, 0);
    this.samples.push(node, time / 1000);
    this.lastNode = node;
    this.ticks++;
  }

  /** Doubles every per-tick buffer (a stack deeper than any before); returns the new `addresses`. */
  private growTickBuffers(n = this.addresses.length * 2): Float64Array<ArrayBuffer> {
    const doubles = (from: Float64Array): Float64Array<ArrayBuffer> => {
      const to = new Float64Array(n);
      to.set(from);
      return to;
    };
    const ints = (from: Int32Array): Int32Array<ArrayBuffer> => {
      const to = new Int32Array(n);
      to.set(from);
      return to;
    };
    this.addresses = doubles(this.addresses);
    this.keys = doubles(this.keys);
    this.slots = ints(this.slots);
    this.pathFrames = ints(this.pathFrames);
    this.pathNodes = ints(this.pathNodes);
    return this.addresses;
  }

  /** An address between i and j: a number below 2^53, else -(1 + its index in `wide`); NaN when not hex. */
  private hexAt(bytes: Buffer, i: number, j: number): number {
    const value = parseHexAt(bytes, i, j);
    if (!Number.isNaN(value) || j - i <= 13) return value;
    let digits = bytes.toString('latin1', i, j);
    if (/^0[xX]/.test(digits)) digits = digits.slice(2);
    if (!/^[0-9a-fA-F]{1,32}$/.test(digits)) return NaN;
    const exact = BigInt(`0x${digits}`);
    if (exact < 2n ** 53n) return Number(exact);
    let index = this.wideIndex.get(exact);
    if (index === undefined) {
      index = this.wide.length;
      this.wide.push(exact);
      this.wideIndex.set(exact, index);
    }
    return -(index + 1);
  }

  /** The frame key of an address, or null when the frame is skipped. */
  private frameKey(addr: number, isReturn: boolean, isTop: boolean): number | null {
    if (addr < 0) {
      // Above 2^53: only a shared library mapped that high can hold it.
      const exact = this.wide[-addr - 1];
      const lib = this.wideLibraries.find((l) => exact >= l.start && exact < l.end);
      if (lib !== undefined) return libraryKey(lib.library);
      return isTop ? KEY_UNKNOWN : null;
    }
    // Inside a shared library (Node's binary embeds the builtins and bytecode handlers) the
    // frame is native, as prof-process sees it; a builtin covering the address names it.
    const library = this.code.findLibrary(addr);
    const entry = this.code.find(addr);
    if (library !== -1) {
      if (entry !== -1 && this.entryKind[entry] !== EntryKind.Js) return (entry + 1) * OFFSET_SPAN;
      if (this.options.nativeSymbols === false) return libraryKey(library);
      let pc = this.nativePc.get(addr);
      if (pc === undefined) {
        pc = this.nativePcAddress.length;
        this.nativePc.set(addr, pc);
        this.nativePcAddress.push(addr);
        this.nativePcLibrary.push(library);
      }
      return nativePcKey(pc);
    }
    if (entry !== -1) {
      if (this.entryKind[entry] === EntryKind.BytecodeHandler) return null;
      let offset = addr - this.code.startOf(entry);
      // A return address points after the call; bytecode "addresses" are exact offsets.
      if (isReturn && !this.entryInterpreted[entry] && offset > 0) offset--;
      return (entry + 1) * OFFSET_SPAN + Math.min(offset, OFFSET_SPAN - 1);
    }
    return isTop ? KEY_UNKNOWN : null;
  }

  /** Names of the native addresses, from the symbol table of each library that holds logged builtins (Node's binary). */
  private async nameNativePcs(warnings: string[]): Promise<(string | undefined)[]> {
    const names = new Array<string | undefined>(this.nativePcAddress.length);
    const byPath = new Map<string, number[]>();
    for (let pc = 0; pc < this.nativePcAddress.length; pc++) {
      const path = this.libraryNames[this.nativePcLibrary[pc]];
      let list = byPath.get(path);
      if (list === undefined) byPath.set(path, (list = []));
      list.push(pc);
    }
    const librariesByPath = new Map<string, number[]>();
    for (let i = 0; i < this.libraryNames.length; i++) {
      const list = librariesByPath.get(this.libraryNames[i]);
      if (list === undefined) librariesByPath.set(this.libraryNames[i], [i]);
      else list.push(i);
    }
    const builtins = [...this.builtinAddresses.values()];
    let nmRuns = 0;
    for (const [path, pcs] of byPath) {
      const libraries = librariesByPath.get(path) ?? [];
      const holdsBuiltins = builtins.some((a) => libraries.some((l) => a >= this.libraryStarts[l] && a < this.libraryEnds[l]));
      // Node's binary is one library; a log naming many that hold builtins gets nm on the first few only.
      if (!holdsBuiltins || nmRuns++ >= MAX_NM_RUNS) continue;
      pcs.sort((a, b) => this.nativePcAddress[a] - this.nativePcAddress[b]);
      const found = await nameNativeCode(path, this.libraryStarts[libraries[0]], Float64Array.from(pcs, (pc) => this.nativePcAddress[pc]), this.builtinAddresses);
      const named = found.names;
      if (named !== null) pcs.forEach((pc, k) => (names[pc] = named[k]));
      else if (found.warning !== null) warnings.push(found.warning);
    }
    return names;
  }

  private isNativeKey(key: number): boolean {
    if (key < 0) return key !== KEY_GC && key !== KEY_IDLE;
    return this.entryKind[Math.floor(key / OFFSET_SPAN) - 1] !== EntryKind.Js;
  }

  private frame(key: number): number {
    let index = this.frameIndex.get(key);
    if (index === undefined) {
      index = this.frameKeys.length;
      this.frameKeys.push(key);
      this.frameIndex.set(key, index);
    }
    return index;
  }

  /**
   * Functions and source lines of every frame key seen in a tick. A frame in code where TurboFan
   * inlined other functions also gets those functions, outermost first (frames of their own, which DevTools does not make: see `inlinedFrames`):
   * `line` is then the line of the outermost inlined call in the frame's own function.
   */
  private async resolveFrames(warnings: string[]): Promise<{ line: Int32Array; inlined: (InlinedFrames | undefined)[]; funcOf: (b: CallTreeBuilder) => { funcs: Int32Array; inlinedFuncs: (Int32Array | undefined)[] } }> {
    const n = this.frameKeys.length;
    // Native names first: their symbol table is read now and c++filt demangles while the source
    // positions below are read (its warnings keep their place, after those of the positions).
    const nativeWarnings: string[] = [];
    const nativeNamesRead = this.nameNativePcs(nativeWarnings);
    // Awaited below; a budget refused before then leaves it unawaited, never unhandled.
    nativeNamesRead.catch(() => undefined);
    const line = new Int32Array(n);
    const inlined = new Array<InlinedFrames | undefined>(n);
    const positions = new Map<number, SourcePositions | null>();
    const positionsOf = (entry: number): SourcePositions | null => {
      let p = positions.get(entry);
      if (p === undefined) {
        const info = this.entrySourceInfo[entry];
        p = info === undefined ? null : parseSourceInfo(info, (count) => this.spendSourceElements(count));
        positions.set(entry, p);
      }
      return p;
    };
    // Source positions first, so that the scripts to load are known.
    const framePosition = new Int32Array(n).fill(-1);
    const frameUrl = new Array<string>(n).fill('');
    /** Url -> script id, for scripts whose source the log carries. */
    const scriptOfUrl = new Map<string, number>();
    for (const [id, url] of this.scriptUrlById) scriptOfUrl.set(url, id);
    const urls = new Set<string>();
    // Names parsed once each: many frames share a code entry, many entries a name.
    const parsedNames = new Map<string, ReturnType<typeof parseJsName>>();
    const jsName = (full: string): ReturnType<typeof parseJsName> => {
      let parsed = parsedNames.get(full);
      if (parsed === undefined) parsedNames.set(full, (parsed = parseJsName(full)));
      return parsed;
    };
    for (let i = 0; i < n; i++) {
      const key = this.frameKeys[i];
      if (key < 0) continue;
      const entry = Math.floor(key / OFFSET_SPAN) - 1;
      if (this.entryKind[entry] !== EntryKind.Js) continue;
      const p = positionsOf(entry);
      if (p === null) continue;
      const url = jsName(this.entryName[entry]).url;
      if (!scriptOfUrl.has(url) && this.scriptSources.has(p.script)) scriptOfUrl.set(url, p.script);
      frameUrl[i] = url;
      urls.add(url);
      const offset = key % OFFSET_SPAN;
      const chain = this.options.inlinedFrames === false ? null : inliningAt(p, offset);
      // Named as when this code was logged; an SFI with no code yet then takes the name logged for it last.
      const seq = this.entrySourceInfoSeq[entry];
      const names = chain === null ? [] : chain.sfis.map((sfi) => this.sfiName(sfi, seq));
      if (chain !== null && names.every((name) => name !== undefined)) {
        // Each frame in inlined code gets its whole chain (up to 1,000 deep): a short table ticked at many offsets multiplies.
        this.spendInlinedFrames(names.length);
        const inlinedUrls = names.map((name) => jsName(name as string).url);
        inlined[i] = { names: names as string[], urls: inlinedUrls, positions: chain.positions, lines: new Int32Array(names.length) };
        for (const u of inlinedUrls) urls.add(u);
        framePosition[i] = chain.outerPosition;
      } else framePosition[i] = positionAt(p, offset);
    }
    const lineStarts = new Map<string, Int32Array>();
    const missing: string[] = [];
    for (const url of urls) {
      const script = scriptOfUrl.get(url);
      const escaped = script === undefined ? undefined : this.scriptSources.get(script);
      if (escaped !== undefined) {
        lineStarts.set(url, escapedLineStarts(escaped));
        continue;
      }
      const local = readLocalScript(url, this.options.mayReadScript);
      if (local !== null) lineStarts.set(url, textLineStarts(local));
      else missing.push(url);
    }
    if (missing.length > 0) warnings.push(`no source for ${missing.length} script(s) (lines unknown), e.g. ${missing[0]}`);
    for (let i = 0; i < n; i++) {
      const starts = lineStarts.get(frameUrl[i]);
      if (starts !== undefined && framePosition[i] >= 0) line[i] = lineOf(starts, framePosition[i]);
      const inl = inlined[i];
      if (inl === undefined) continue;
      for (let k = 0; k < inl.names.length; k++) {
        const s = lineStarts.get(inl.urls[k]);
        inl.lines[k] = s !== undefined && inl.positions[k] >= 0 ? lineOf(s, inl.positions[k]) : 0;
      }
    }

    const nativeNames = await nativeNamesRead;
    warnings.push(...nativeWarnings);
    const funcOf = (builder: CallTreeBuilder): { funcs: Int32Array; inlinedFuncs: (Int32Array | undefined)[] } => {
      const out = new Int32Array(n);
      /** Code entry -> its function (the frames of one entry differ only by offset). */
      const entryFunc = new Map<number, number>();
      const jsFunc = (full: string): number => {
        const js = jsName(full);
        return builder.internFunction(js.name, js.url, js.line, js.column, js.url === '' ? 'native' : 'js');
      };
      for (let i = 0; i < n; i++) {
        const key = this.frameKeys[i];
        if (key === KEY_GC) out[i] = builder.internFunction(GC_NAME, '', 0, 0, 'vm');
        else if (key === KEY_IDLE) out[i] = builder.internFunction(IDLE_NAME, '', 0, 0, 'vm');
        else if (key === KEY_UNKNOWN) out[i] = builder.internFunction('(unknown)', '', 0, 0, 'native');
        else if (key <= -NATIVE_PC_BASE) {
          const pc = -key - NATIVE_PC_BASE;
          out[i] = builder.internFunction(nativeNames[pc] ?? this.libraryNames[this.nativePcLibrary[pc]], '', 0, 0, 'native');
        } else if (key < 0) out[i] = builder.internFunction(this.libraryNames[-10 - key], '', 0, 0, 'native');
        else {
          const entry = Math.floor(key / OFFSET_SPAN) - 1;
          let func = entryFunc.get(entry);
          if (func === undefined) {
            const name = this.entryName[entry];
            func = this.entryKind[entry] === EntryKind.Js ? jsFunc(name) : builder.internFunction(name, '', 0, 0, 'native');
            entryFunc.set(entry, func);
          }
          out[i] = func;
        }
      }
      const inlinedFuncs = inlined.map((inl) => (inl === undefined ? undefined : Int32Array.from(inl.names, jsFunc)));
      return { funcs: out, inlinedFuncs };
    };
    return { line, inlined, funcOf };
  }
}

/** Hex digits (an optional 0x prefix) between i and j, or NaN. */
function parseHexAt(bytes: Uint8Array, i: number, j: number): number {
  if (j - i > 2 && bytes[i] === 48 && (bytes[i + 1] | 0x20) === 120) i += 2;
  if (i >= j || j - i > 13) return NaN;
  let value = 0;
  for (; i < j; i++) {
    const c = bytes[i];
    let d: number;
    if (c >= 48 && c <= 57) d = c - 48;
    else if ((c | 0x20) >= 97 && (c | 0x20) <= 102) d = (c | 0x20) - 87;
    else return NaN;
    value = value * 16 + d;
  }
  return value;
}

/** Decimal digits between i and j, or NaN. */
function parseDecimalAt(bytes: Uint8Array, i: number, j: number): number {
  if (i >= j || j - i > 15) return NaN;
  let value = 0;
  for (; i < j; i++) {
    const c = bytes[i];
    if (c < 48 || c > 57) return NaN;
    value = value * 10 + (c - 48);
  }
  return value;
}

function wideHex(text: string): bigint | null {
  const digits = text.replace(/^0[xX]/, '');
  return /^[0-9a-fA-F]{1,32}$/.test(digits) ? BigInt(`0x${digits}`) : null;
}

function parseAddress(text: string): number {
  const value = parseInt(text, 16);
  return Number.isFinite(value) ? value : NaN;
}

function unquote(text: string): string {
  return text.length >= 2 && text.startsWith('"') && text.endsWith('"') ? text.slice(1, -1) : text;
}

/** Undoes the V8 log's escapes (\x2C for commas, \n, \\, \xNN, \uNNNN). */
export function unescapeLog(text: string): string {
  if (!text.includes('\\')) return text;
  return text.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|n|\\)/g, (_, e: string) => {
    if (e === 'n') return '\n';
    if (e === '\\') return '\\';
    return String.fromCharCode(parseInt(e.slice(1), 16));
  });
}

/** "fib /app/x.js:2:13" -> name, url, 1-based line and column; no position -> url ''. */
export function parseJsName(full: string): { name: string; url: string; line: number; column: number } {
  const m = /^(.*?) ?(\S*):(\d+):(\d+)$/.exec(full);
  if (m === null) return { name: full === '' ? '(anonymous)' : full, url: '', line: 0, column: 0 };
  return { name: m[1] === '' ? '(anonymous)' : m[1], url: m[2], line: Number(m[3]), column: Number(m[4]) };
}

/**
 * Parses "script,start,end,C0O12I1...,F1O40...,S0x.." (the part after the code address), after
 * `spend` took its elements (positions, inlinings, inlined functions) from the log's budget.
 */
function parseSourceInfo(info: string, spend: (elements: number) => void): SourcePositions | null {
  const f = info.split(',');
  const script = Number(f[0]);
  if (!Number.isInteger(script) || f.length < 4) return null;
  // An inlining costs its three Int32s and at most one function's address.
  spend(countChar(f[3], 'C') + 2 * countChar(f[4] ?? '', 'F'));
  return parseSourcePositions(script, f[3], f[4] ?? '', f[5] ?? '');
}

/** How many times `c` occurs in `text` (an upper bound on the table's elements, before parsing). */
function countChar(text: string, c: string): number {
  let n = 0;
  for (let i = text.indexOf(c); i !== -1; i = text.indexOf(c, i + 1)) n++;
  return n;
}

/**
 * Source position table "C<code offset>O<script offset>[I<inlining id>]...", inlining table
 * "F<function>O<offset in the caller>[I<caller's inlining id>]..." and the inlined functions
 * "S<sfi address>..." (F indexes this list), as V8's code-source-info event logs them.
 */
export function parseSourcePositions(script: number, table: string, inlined: string, functions = ''): SourcePositions {
  // Straight into typed arrays sized by an upper bound (no number[] of boxed growth, no split):
  // a table costs 12 bytes an element, 3x its text at most.
  const codeOffset = new Int32Array(countChar(table, 'C'));
  const position = new Int32Array(codeOffset.length);
  const inlining = new Int32Array(codeOffset.length);
  let n = 0;
  const re = /C(\d+)O(\d+)(?:I(\d+))?/g;
  for (let m = re.exec(table); m !== null; m = re.exec(table), n++) {
    codeOffset[n] = Number(m[1]);
    position[n] = Number(m[2]);
    inlining[n] = m[3] === undefined ? -1 : Number(m[3]);
  }
  const inlinedAt = new Int32Array(countChar(inlined, 'F'));
  const inlinedParent = new Int32Array(inlinedAt.length);
  const inlinedFunction = new Int32Array(inlinedAt.length);
  let k = 0;
  const fre = /F(\d*)O(\d+)(?:I(\d+))?/g;
  for (let m = fre.exec(inlined); m !== null; m = fre.exec(inlined), k++) {
    inlinedFunction[k] = m[1] === '' ? -1 : Number(m[1]);
    inlinedAt[k] = Number(m[2]);
    inlinedParent[k] = m[3] === undefined ? -1 : Number(m[3]);
  }
  // Only the functions the inlining table names are cut out (the list can be far longer).
  const used = new Set(inlinedFunction.subarray(0, k));
  const sfis = new Map<number, string>();
  let index = 0;
  for (let at = functions.indexOf('S'); at !== -1 && sfis.size < used.size; index++) {
    const next = functions.indexOf('S', at + 1);
    if (used.has(index)) sfis.set(index, functions.slice(at + 1, next === -1 ? undefined : next));
    at = next;
  }
  return {
    codeOffset: codeOffset.subarray(0, n),
    position: position.subarray(0, n),
    inlining: inlining.subarray(0, n),
    inlinedAt: inlinedAt.subarray(0, k),
    inlinedParent: inlinedParent.subarray(0, k),
    inlinedFunction: inlinedFunction.subarray(0, k),
    sfis,
    script,
  };
}

/** The entry of the position table covering a code offset, or -1. */
function entryAt(p: SourcePositions, offset: number): number {
  let lo = 0;
  let hi = p.codeOffset.length - 1;
  let k = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (p.codeOffset[mid] <= offset) {
      k = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return k;
}

/**
 * The script position of a code offset, in the code's own function: a position inside inlined
 * code is replaced by the call that inlined it (prof-process also charges the outer function).
 */
export function positionAt(p: SourcePositions, offset: number): number {
  const k = entryAt(p, offset);
  if (k === -1) return -1;
  let position = p.position[k];
  let inl = p.inlining[k];
  for (let guard = 0; inl >= 0 && inl < p.inlinedAt.length && guard < 1000; guard++) {
    position = p.inlinedAt[inl];
    inl = p.inlinedParent[inl];
  }
  return position;
}

/**
 * The inlined functions a code offset is in, outermost first: for each, its SFI and the
 * position in it (the next inlined call's position, the sampled position for the last), and
 * the position of the outermost call in the code's own function. Null when the offset is not
 * in inlined code or the chain cannot be followed (then `positionAt` alone applies).
 */
export function inliningAt(p: SourcePositions, offset: number): { outerPosition: number; sfis: string[]; positions: number[] } | null {
  const k = entryAt(p, offset);
  if (k === -1 || p.inlining[k] < 0) return null;
  const sfis: string[] = [];
  const positions: number[] = [];
  let position = p.position[k];
  let inl = p.inlining[k];
  for (let guard = 0; inl >= 0; guard++) {
    if (inl >= p.inlinedAt.length || guard >= 1000) return null;
    const sfi = p.sfis.get(p.inlinedFunction[inl]);
    if (sfi === undefined) return null;
    sfis.push(sfi);
    positions.push(position);
    position = p.inlinedAt[inl];
    inl = p.inlinedParent[inl];
  }
  return { outerPosition: position, sfis: sfis.reverse(), positions: positions.reverse() };
}

/**
 * Line starts (UTF-16 offsets) of a script as the log escapes it, without unescaping it. Runs of
 * plain characters (neither an escape nor a line break) are skipped by indexOf, not one by one.
 */
export function escapedLineStarts(escaped: string): Int32Array {
  const starts: number[] = [0];
  const n = escaped.length;
  let unit = 0;
  let pendingCr = false;
  let nextEscape = escaped.indexOf('\\');
  let nextLf = escaped.indexOf('\n');
  let nextCr = escaped.indexOf('\r');
  for (let i = 0; i < n; ) {
    let at = n;
    if (nextEscape !== -1 && nextEscape < at) at = nextEscape;
    if (nextLf !== -1 && nextLf < at) at = nextLf;
    if (nextCr !== -1 && nextCr < at) at = nextCr;
    if (at > i) {
      unit += at - i;
      pendingCr = false;
      i = at;
      if (i >= n) break;
    }
    let ch = escaped.charCodeAt(i);
    if (ch === 92 /* \ */ && i + 1 < n) {
      const e = escaped.charCodeAt(i + 1);
      if (e === 110 /* n */) {
        ch = 10;
        i += 1;
      } else if (e === 120 /* x */) {
        ch = escapedUnit(escaped, i + 2, 2);
        i += 3;
      } else if (e === 117 /* u */) {
        ch = escapedUnit(escaped, i + 2, 4);
        i += 5;
      } else i += 1;
    }
    i++;
    unit++;
    if (ch === 10) {
      if (pendingCr) starts[starts.length - 1] = unit;
      else starts.push(unit);
      pendingCr = false;
    } else if (ch === 13) {
      starts.push(unit);
      pendingCr = true;
    } else pendingCr = false;
    if (nextEscape !== -1 && nextEscape < i) nextEscape = escaped.indexOf('\\', i);
    if (nextLf !== -1 && nextLf < i) nextLf = escaped.indexOf('\n', i);
    if (nextCr !== -1 && nextCr < i) nextCr = escaped.indexOf('\r', i);
  }
  return Int32Array.from(starts);
}

/**
 * The code unit of a \x or \u escape's `count` hex digits at `at`: read in place (a script's
 * every comma is \x2C: no substring and parseInt each); anything but hex digits as parseInt reads it.
 */
function escapedUnit(escaped: string, at: number, count: number): number {
  let value = 0;
  for (let k = at; k < at + count; k++) {
    const c = escaped.charCodeAt(k);
    const d = c >= 48 && c <= 57 ? c - 48 : (c | 0x20) >= 97 && (c | 0x20) <= 102 ? (c | 0x20) - 87 : -1;
    if (d === -1) return parseInt(escaped.slice(at, at + count), 16);
    value = value * 16 + d;
  }
  return value;
}

export function textLineStarts(text: string): Int32Array {
  const starts: number[] = [0];
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 10) starts.push(i + 1);
    else if (ch === 13) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    }
  }
  return Int32Array.from(starts);
}

/** 1-based line of a UTF-16 offset. */
export function lineOf(starts: Int32Array, position: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= position) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/** A script the log names, read only where the caller allows (never /dev/zero, a FIFO or a file outside the workspace). */
function readLocalScript(url: string, mayRead: ((path: string) => boolean) | undefined): string | null {
  if (url === '' || url.startsWith('node:') || mayRead === undefined) return null;
  let path = url;
  if (url.startsWith('file://')) {
    try {
      path = fileURLToPath(url);
    } catch {
      return null;
    }
  } else if (!url.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(url)) return null;
  return mayRead(path) ? tryReadGuardedText(path, MAX_SCRIPT_BYTES) : null;
}
