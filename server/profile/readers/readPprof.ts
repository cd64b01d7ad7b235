// Reads a pprof profile (protobuf, `profile.proto`, gzipped or not) with `pprof-format`, the
// decoder @datadog/pprof itself uses, into the normalized model. pprof aggregates: one sample per
// distinct stack with its values (counts, nanoseconds, bytes), so every sample is weighted by its
// value of the chosen sample type, never counted once.
//
// Line numbers: pprof's `Line.line` is where the frame was executing, which for a caller is its
// call line. @datadog/pprof's Node profiles leave `Function.start_line` at 0 and put the
// function's own line there instead; so a line counts as a call line / hot line only when the
// function's start line is known and differs from it.
import { Profile } from 'pprof-format';

import { CallTreeBuilder } from '../model/callTreeBuilder';
import type { CodeKind } from '../model/categories';
import { frameWalkBudget, MAX_PPROF_SAMPLE_TYPES, pprofDecodeBudget, pprofDecodedBytes, treeNodeBudget } from './budgets';
import { MAX_PPROF_BYTES, formatCap } from './byteCaps';
import { countPprof } from './countPprof';
import { ProfileInputError } from './profileInputError';
import type { NormalizedProfile, WeightUnit } from '../model/types';

const TIME_UNITS: Record<string, number> = { nanoseconds: 1e-6, microseconds: 1e-3, milliseconds: 1, seconds: 1000 };
/** Frames without a file that stand for VM states in @datadog/pprof and V8's own names. */
const VM_FRAMES: Record<string, CodeKind | 'gc' | 'idle'> = {
  'Garbage Collection': 'gc',
  '(garbage collector)': 'gc',
  '(idle)': 'idle',
  '(program)': 'vm',
  'Node.js': 'vm',
};

/** Every sample type of the profile as 'type/unit', in file order. */
export function sampleTypesOf(profile: Profile): string[] {
  const strings = profile.stringTable.strings;
  return profile.sampleType.map((t) => `${strings[Number(t.type)] ?? ''}/${strings[Number(t.unit)] ?? ''}`);
}

/** The bytes do not decode as a pprof Profile (the loader then says what the file starts with). */
export class NotPprofError extends ProfileInputError {}

/** A budget of docs/security.md ("Budgets") the profile would exceed, in one line. */
function overBudget(label: string, what: string): ProfileInputError {
  return new ProfileInputError(`${label}: pprof ${what}; not read (the pprof budgets, docs/security.md)`);
}

const count = (n: number): string => n.toLocaleString('en-US');

export function decodePprof(bytes: Uint8Array, label: string): Profile {
  // What decoding builds is counted on the wire first: pprof-format builds it all at once.
  const counts = countPprof(bytes);
  const budget = pprofDecodeBudget(MAX_PPROF_BYTES);
  if (pprofDecodedBytes(counts) > budget) {
    throw overBudget(label, `that decodes to more than ${formatCap(budget)} (${count(counts.messages)} samples, locations, lines and other messages, ${count(counts.numbers)} numbers in lists)`);
  }
  if (counts.sampleTypes > MAX_PPROF_SAMPLE_TYPES) throw overBudget(label, `with ${count(counts.sampleTypes)} sample types, more than ${MAX_PPROF_SAMPLE_TYPES}`);
  let profile: Profile;
  try {
    profile = Profile.decode(bytes);
  } catch {
    throw new NotPprofError(`not a CPU profile: ${label} does not decode as pprof protobuf`);
  }
  if (profile.sampleType.length === 0) throw new NotPprofError(`not a CPU profile: ${label} decodes as protobuf but has no pprof sample types`);
  return profile;
}

/**
 * The index of the sample type to read: the one named by `wanted` ('space', 'inuse_space' or
 * 'inuse_space/bytes'), else the profile's default_sample_type, else the last (pprof's rule).
 */
export function chooseSampleType(types: string[], wanted: string | undefined, defaultType: string, label: string): number {
  if (wanted !== undefined && wanted !== '') {
    const exact = types.findIndex((t) => t === wanted || t.split('/')[0] === wanted);
    if (exact !== -1) return exact;
    // 'space' picks inuse_space or alloc_space when exactly one matches.
    const partial = types.map((t, i) => [t.split('/')[0], i] as const).filter(([t]) => t.endsWith(`_${wanted}`) || t.startsWith(`${wanted}_`));
    if (partial.length === 1) return partial[0][1];
    throw new ProfileInputError(`${label}: no sample type ${JSON.stringify(wanted)}${partial.length > 1 ? ' (ambiguous)' : ''}; the profile has ${types.join(', ')}`);
  }
  const byDefault = defaultType === '' ? -1 : types.findIndex((t) => t.split('/')[0] === defaultType);
  return byDefault !== -1 ? byDefault : types.length - 1;
}

export function unitOf(type: string): { unit: WeightUnit; msPer: number } {
  const [name, unit] = type.split('/');
  if (TIME_UNITS[unit] !== undefined) return { unit: 'ms', msPer: TIME_UNITS[unit] };
  if (unit === 'bytes') return { unit: 'bytes', msPer: 1 };
  if (/object/.test(name)) return { unit: 'objects', msPer: 1 };
  // 'samples/count', 'sample/count', 'cpu/count': samples, timed by the period when it is time.
  return { unit: 'ms', msPer: NaN };
}

export interface PprofOptions {
  /** The sample type to read (see chooseSampleType). */
  sampleType?: string;
}

export function readPprof(bytes: Uint8Array, label: string, options: PprofOptions = {}): NormalizedProfile {
  const profile = decodePprof(bytes, label);
  const strings = profile.stringTable.strings;
  const str = (i: unknown): string => strings[Number(i)] ?? '';
  const types = sampleTypesOf(profile);
  const chosen = chooseSampleType(types, options.sampleType, str(profile.defaultSampleType), label);
  const { unit } = unitOf(types[chosen]);
  let { msPer } = unitOf(types[chosen]);
  const isCount = Number.isNaN(msPer);
  const warnings: string[] = [];
  const notes: string[] = [];
  // A count of samples is timed by the sampling period when the period is time.
  const periodType = profile.periodType === undefined ? '' : `${str(profile.periodType.type)}/${str(profile.periodType.unit)}`;
  const periodUnit = periodType.split('/')[1] ?? '';
  if (Number.isNaN(msPer)) {
    const period = Number(profile.period);
    msPer = TIME_UNITS[periodUnit] !== undefined && period > 0 ? period * TIME_UNITS[periodUnit] : 1;
    if (!(TIME_UNITS[periodUnit] !== undefined && period > 0)) notes.push(`${types[chosen]} has no time period: 1 sample is shown as 1 ms`);
  }
  // For time types, shares and "samples" come from the count column when there is one.
  const countIndex = unit === 'ms' && !isCount ? types.findIndex((t, i) => i !== chosen && /^samples?\/count$/.test(t)) : -1;

  const functions = new Map<string, (typeof profile.function)[number]>();
  for (const f of profile.function) functions.set(String(f.id), f);
  const locations = new Map<string, (typeof profile.location)[number]>();
  for (const l of profile.location) locations.set(String(l.id), l);

  const builder = new CallTreeBuilder();
  const funcIndex = new Map<string, number>();
  const funcStart = new Map<number, number>();
  const intern = (functionId: unknown, line: number): number => {
    const key = String(functionId);
    let index = funcIndex.get(key);
    if (index !== undefined) return index;
    const f = functions.get(key);
    const name = f === undefined ? '(unknown)' : str(f.name) || str(f.systemName) || '(anonymous)';
    const file = f === undefined ? '' : str(f.filename);
    const start = f === undefined ? 0 : Number(f.startLine);
    const vm = file === '' ? VM_FRAMES[name] : undefined;
    const kind: CodeKind = vm === 'vm' ? 'vm' : vm !== undefined ? 'js' : file === '' ? 'native' : 'js';
    index = builder.internFunction(vm === 'gc' ? '(garbage collector)' : vm === 'idle' ? '(idle)' : name, file, start > 0 ? start : Math.max(0, line), 0, kind);
    funcIndex.set(key, index);
    funcStart.set(index, start);
    return index;
  };

  // What the tree walk will do, counted before it: frames walked (inlined lines included) and
  // the deepest stack (a stack of d frames can make d nodes).
  const nodeBudget = treeNodeBudget(MAX_PPROF_BYTES);
  const walkBudget = frameWalkBudget(MAX_PPROF_BYTES);
  const linesOf = new Map<string, number>();
  for (const [id, l] of locations) linesOf.set(id, l.line.length);
  let walked = 0;
  for (const sample of profile.sample) {
    const raw = Number(sample.value[chosen] ?? 0);
    if (!Number.isFinite(raw) || raw <= 0) continue;
    let depth = 0;
    for (const id of sample.locationId) depth += linesOf.get(String(id)) ?? 0;
    if (depth > nodeBudget) throw overBudget(label, `with a stack of ${count(depth)} frames, deeper than ${count(nodeBudget)}`);
    walked += depth;
    if (walked > walkBudget) throw overBudget(label, `whose samples walk more than ${count(walkBudget)} stack frames (inlined lines included)`);
  }

  let totalSamples = 0;
  let totalMs = 0;
  let missing = 0;
  let negative = 0;
  const path: { func: number; line: number }[] = [];
  for (const sample of profile.sample) {
    const raw = Number(sample.value[chosen] ?? 0);
    if (!Number.isFinite(raw) || raw === 0) continue;
    if (raw < 0) {
      negative++;
      continue;
    }
    const weight = raw * msPer;
    const samples = unit !== 'ms' || isCount ? (unit !== 'ms' ? weight : raw) : countIndex !== -1 ? Number(sample.value[countIndex] ?? 0) : weight;
    // Leaf first in the file; each location's lines are innermost (inlined) first.
    path.length = 0;
    for (let i = sample.locationId.length - 1; i >= 0; i--) {
      const location = locations.get(String(sample.locationId[i]));
      if (location === undefined) {
        missing++;
        continue;
      }
      for (let k = location.line.length - 1; k >= 0; k--) {
        const line = Number(location.line[k].line);
        path.push({ func: intern(location.line[k].functionId, line), line });
      }
    }
    let node = 0;
    for (let i = 0; i < path.length; i++) {
      const callerLine = i > 0 ? positionLine(path[i - 1], funcStart) : 0;
      node = builder.child(node, path[i].func, callerLine);
    }
    if (builder.nodeCount > nodeBudget) throw overBudget(label, `whose call tree has more than ${count(nodeBudget)} nodes`);
    builder.addSelf(node, samples, weight);
    // The leaf's line when it is a position, else (function-level profiles) the function's own line.
    const leaf = path.length > 0 ? path[path.length - 1] : undefined;
    const leafLine = leaf === undefined ? 0 : positionLine(leaf, funcStart) || leaf.line;
    if (leafLine > 0) builder.addLine(node, leafLine, samples, weight);
    totalSamples += samples;
    totalMs += weight;
  }
  if (missing > 0) warnings.push(`${missing} stack entr${missing === 1 ? 'y names an' : 'ies name'} unknown location id(s) and were skipped`);
  if (negative > 0) warnings.push(`${negative} sample(s) with a negative ${types[chosen]} value were skipped (a delta profile?)`);
  const durationMs = Number(profile.durationNanos) > 0 ? Number(profile.durationNanos) / 1e6 : unit === 'ms' ? totalMs : 0;
  if (types.length > 1) notes.push(`pprof sample type ${types[chosen]} (of ${types.join(', ')}; pick another with --sample-type)`);
  else notes.push(`pprof sample type ${types[chosen]}`);
  if (unit === 'bytes' && /inuse/.test(types[chosen])) notes.push('in-use bytes: memory still alive when the profile was taken (a leak view), not the garbage already collected');
  const result = builder.build('pprof', totalSamples, durationMs, warnings);
  if (unit !== 'ms') result.unit = unit;
  result.notes = notes;
  result.sampleTypes = { available: types, chosen: types[chosen] };
  return result;
}

/** A frame's line as a position (call line or hot line) only when it is not just the function's own line. */
function positionLine(frame: { func: number; line: number }, funcStart: Map<number, number>): number {
  const start = funcStart.get(frame.func) ?? 0;
  return start > 0 && frame.line > 0 && frame.line !== start ? frame.line : 0;
}
