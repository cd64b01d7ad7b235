// Reads `node --prof-process --preprocess isolate.log` output: code entries, ticks whose stacks
// are (code index, offset) pairs (-1 + raw address when unresolved), and script sources. Frames
// get the same meaning as in readV8Log: VM states GC/IDLE as leaves, native code named by its
// entry, bytecode handlers skipped, an unknown top as '(unknown)', unknown callers dropped.
import { CallTreeBuilder, TimelineBuilder } from '../model/callTreeBuilder';
import { TickTimeline } from './tickTimeline';
import { GC_NAME, IDLE_NAME } from '../model/categories';
import { frameWalkBudget, treeNodeBudget } from './budgets';
import { MAX_JSON_BYTES } from './byteCaps';
import { ProfileInputError } from './profileInputError';
import { inliningAt, lineOf, parseJsName, parseSourcePositions, positionAt, textLineStarts, type SourcePositions } from './readV8Log';
import type { NormalizedProfile } from '../model/types';

interface PreprocessedCode {
  name?: unknown;
  type?: unknown;
  kind?: unknown;
  source?: { script?: unknown; positions?: unknown; inlined?: unknown; fns?: unknown };
}
interface PreprocessedTick {
  tm?: unknown;
  vm?: unknown;
  s?: unknown;
}

const VM_GC = 1;
const VM_IDLE = 8;
/** Frame resolution keys pack (code index, offset) into one number. */
const OFFSET_SPAN = 2 ** 24;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function isPreprocessed(json: unknown): boolean {
  return isRecord(json) && Array.isArray(json.code) && Array.isArray(json.ticks);
}

export async function readPreprocessed(json: unknown, label: string, options: { inlinedFrames?: boolean } = {}): Promise<NormalizedProfile> {
  if (!isPreprocessed(json)) throw new ProfileInputError(`not a CPU profile: ${label} has no "code" and "ticks" arrays`);
  const root = json as { code: unknown[]; ticks: unknown[]; scripts?: unknown };
  const code = root.code;
  const scripts = Array.isArray(root.scripts) ? root.scripts : [];
  const functions = Array.isArray((json as { functions?: unknown }).functions) ? ((json as { functions: unknown[] }).functions) : [];
  /** Script url -> index in `scripts`, for the positions of inlined functions. */
  const scriptOfUrl = new Map<string, number>();
  scripts.forEach((sc: unknown, i: number) => {
    if (isRecord(sc) && typeof sc.url === 'string' && !scriptOfUrl.has(sc.url)) scriptOfUrl.set(sc.url, i);
  });
  const builder = new CallTreeBuilder();
  const warnings: string[] = [];

  const gc = builder.internFunction(GC_NAME, '', 0, 0, 'vm');
  const idle = builder.internFunction(IDLE_NAME, '', 0, 0, 'vm');
  const unknown = builder.internFunction('(unknown)', '', 0, 0, 'native');

  // Per code entry: its function (or -1 = skipped frame), whether it is interpreted, its positions.
  const entryFunc = new Int32Array(code.length).fill(-2);
  const entryInterpreted = new Uint8Array(code.length);
  const entryIsJs = new Uint8Array(code.length);
  const entryPositions: (SourcePositions | null)[] = new Array<SourcePositions | null>(code.length).fill(null);
  const funcOfEntry = (index: number): number => {
    if (entryFunc[index] !== -2) return entryFunc[index];
    const c = (isRecord(code[index]) ? code[index] : {}) as PreprocessedCode;
    const name = typeof c.name === 'string' ? c.name : '(unknown)';
    const kind = typeof c.kind === 'string' ? c.kind : '';
    let func: number;
    if (c.type === 'JS') {
      const js = parseJsName(name);
      func = builder.internFunction(js.name, js.url, js.line, js.column, js.url === '' ? 'native' : 'js');
      entryIsJs[index] = 1;
      entryInterpreted[index] = kind === 'Unopt' ? 1 : 0;
      const src = c.source;
      if (isRecord(src) && typeof src.script === 'number' && typeof src.positions === 'string') {
        // The inlined functions are indexes into `functions`; named like the log's SFIs ("S<i>").
        const fns = Array.isArray(src.fns) ? src.fns.map((f) => `S${String(f)}`).join('') : '';
        entryPositions[index] = parseSourcePositions(src.script, src.positions, typeof src.inlined === 'string' ? src.inlined : '', fns);
      }
    } else if (kind === 'BytecodeHandler') func = -1;
    else if (c.type === 'CODE' && kind !== 'Builtin' && kind !== '') func = builder.internFunction(`${kind}: ${name}`, '', 0, 0, 'native');
    else func = builder.internFunction(name, '', 0, 0, 'native');
    entryFunc[index] = func;
    return func;
  };

  const lineStarts = new Map<number, Int32Array | null>();
  const lineIn = (script: number, position: number): number => {
    let starts = lineStarts.get(script);
    if (starts === undefined) {
      const s: unknown = scripts[script];
      starts = isRecord(s) && typeof s.source === 'string' ? textLineStarts(s.source) : null;
      lineStarts.set(script, starts);
    }
    return starts === null || position < 0 ? 0 : lineOf(starts, position);
  };

  // (code index, offset, return address?) -> line, cached.
  const lineCache = new Map<number, number>();
  const frameLine = (index: number, offset: number, isReturn: boolean): number => {
    const p = entryPositions[index];
    if (p === null) return 0;
    const at = isReturn && entryInterpreted[index] === 0 && offset > 0 ? offset - 1 : offset;
    const key = index * OFFSET_SPAN + Math.min(at, OFFSET_SPAN - 1);
    let line = lineCache.get(key);
    if (line === undefined) {
      line = lineIn(p.script, positionAt(p, at));
      lineCache.set(key, line);
    }
    return line;
  };

  // Functions TurboFan inlined at a code offset, outermost first, as in readV8Log (cached).
  const inlinedCache = new Map<number, { funcs: number[]; lines: number[]; outerLine: number } | null>();
  const inlinedFrames = (index: number, offset: number, isReturn: boolean): { funcs: number[]; lines: number[]; outerLine: number } | null => {
    const p = entryPositions[index];
    if (p === null || p.inlinedAt.length === 0 || options.inlinedFrames === false) return null;
    const at = isReturn && entryInterpreted[index] === 0 && offset > 0 ? offset - 1 : offset;
    const key = index * OFFSET_SPAN + Math.min(at, OFFSET_SPAN - 1);
    let found = inlinedCache.get(key);
    if (found === undefined) {
      found = null;
      const chain = inliningAt(p, at);
      const fns = chain?.sfis.map((sfi) => functions[Number(sfi)]) ?? [];
      if (chain !== null && fns.every((f) => isRecord(f) && typeof f.name === 'string')) {
        const names = fns.map((f) => parseJsName((f as { name: string }).name));
        found = {
          funcs: names.map((js) => builder.internFunction(js.name, js.url, js.line, js.column, js.url === '' ? 'native' : 'js')),
          lines: names.map((js, k) => {
            const script = scriptOfUrl.get(js.url);
            return script === undefined ? 0 : lineIn(script, chain.positions[k]);
          }),
          outerLine: lineIn(p.script, chain.outerPosition),
        };
      }
      inlinedCache.set(key, found);
    }
    return found;
  };

  const ticks = root.ticks;
  let count = 0;
  let malformed = 0;
  const timeline = new TickTimeline();
  const samples = new TimelineBuilder();
  let lastNode = -1;
  let lastLine = 0;
  const funcs: number[] = [];
  const lines: number[] = [];
  // What the ticks become, counted as they are read (docs/security.md, "Budgets"): a tick's
  // stack, inlined frames included, is at most as deep as the tree may have nodes, and all
  // ticks together walk at most so many frames. The file was read whole within MAX_JSON_BYTES.
  const nodeBudget = treeNodeBudget(MAX_JSON_BYTES);
  const walkBudget = frameWalkBudget(MAX_JSON_BYTES);
  const refuse = (what: string): ProfileInputError => new ProfileInputError(`${label}: ${what}; not read (the budgets of --preprocess files, docs/security.md)`);
  let walked = 0;
  for (const raw of ticks) {
    const tick = (isRecord(raw) ? raw : {}) as PreprocessedTick;
    const time = typeof tick.tm === 'number' ? tick.tm : NaN;
    if (!Array.isArray(tick.s) || !Number.isFinite(time)) {
      malformed++;
      continue;
    }
    const s = tick.s as unknown[];
    funcs.length = 0;
    lines.length = 0;
    for (let i = 0; i + 1 < s.length; i += 2) {
      if (funcs.length > nodeBudget) throw refuse(`a tick with a stack deeper than ${nodeBudget.toLocaleString('en-US')} frames`);
      const index = s[i];
      const offset = Number(s[i + 1]) || 0;
      if (typeof index !== 'number' || index < 0 || index >= code.length) {
        if (i === 0) {
          funcs.push(unknown);
          lines.push(0);
        }
        continue;
      }
      const func = funcOfEntry(index);
      if (func === -1) continue;
      const inlined = entryIsJs[index] === 1 ? inlinedFrames(index, offset, i > 0) : null;
      if (inlined !== null) {
        // Innermost first, as the stack is listed: the inlined functions, then the code's own.
        for (let k = inlined.funcs.length - 1; k >= 0; k--) {
          funcs.push(inlined.funcs[k]);
          lines.push(inlined.lines[k]);
        }
        funcs.push(func);
        lines.push(inlined.outerLine);
        continue;
      }
      funcs.push(func);
      lines.push(entryIsJs[index] === 1 ? frameLine(index, offset, i > 0) : 0);
    }
    const vm = tick.vm;
    if (vm === VM_GC || vm === VM_IDLE) {
      if (funcs.length > 0 && builder.functions[funcs[0]].category === 'native') {
        funcs.shift();
        lines.shift();
      }
      funcs.unshift(vm === VM_GC ? gc : idle);
      lines.unshift(0);
    }
    if (funcs.length > nodeBudget) throw refuse(`a tick with a stack deeper than ${nodeBudget.toLocaleString('en-US')} frames`);
    walked += funcs.length;
    if (walked > walkBudget) throw refuse(`ticks that walk more than ${walkBudget.toLocaleString('en-US')} stack frames (inlined ones included)`);
    let node = 0;
    for (let k = funcs.length - 1; k >= 0; k--) node = builder.child(node, funcs[k], k + 1 < funcs.length ? lines[k + 1] : 0);
    if (builder.nodeCount > nodeBudget) throw refuse(`a call tree of more than ${nodeBudget.toLocaleString('en-US')} nodes`);
    const previousMs = timeline.next(time);
    if (lastNode !== -1) {
      builder.addSelf(lastNode, 0, previousMs);
      if (lastLine > 0) builder.addLine(lastNode, lastLine, 0, previousMs);
    }
    builder.addSelf(node, 1, 0);
    samples.push(node, time / 1000);
    lastLine = lines.length > 0 ? lines[0] : 0;
    if (lastLine > 0) builder.addLine(node, lastLine, 1, 0);
    lastNode = node;
    count++;
  }
  if (count === 0 && ticks.length > 0) throw new ProfileInputError(`not a CPU profile: ${label} has no readable ticks`);
  if (lastNode !== -1) {
    builder.addSelf(lastNode, 0, timeline.lastTickMs());
    if (lastLine > 0) builder.addLine(lastNode, lastLine, 0, timeline.lastTickMs());
  }
  if (malformed > 0) warnings.push(`${malformed} malformed tick(s) were skipped`);
  const earlier = timeline.warning();
  if (earlier !== null) warnings.push(earlier);
  if (count === 0) warnings.push('the log has no ticks (was it recorded with --prof?)');
  const profile = builder.build('v8log-preprocessed', count, timeline.durationMs(), warnings);
  if (samples.count > 0) {
    profile.timeline = samples.build(timeline.durationMs(), samples.firstMs);
  }
  return profile;
}
