// Reads a sampling heap profile (`.heapprofile`: DevTools "Allocation sampling", `node
// --heap-prof`, the inspector's HeapProfiler.stopSampling) into the normalized model, weighted
// in bytes: each node's `selfSize` is V8's estimate of the bytes allocated there (the sampled
// sizes scaled by the sampling interval). The format records functions, not lines.
//
// What a file holds depends on how sampling was started, and the file does not say:
// `node --heap-prof` and DevTools keep only samples whose objects were still alive when sampling
// stopped (a retention view); with includeObjectsCollectedByMajorGC/MinorGC (the inspector) the
// collected garbage stays too (an allocation view). Hotframe's own recordings add a `$hotframe`
// member saying which; otherwise the report says what is known.
import { basename } from 'node:path';

import { CallTreeBuilder } from '../model/callTreeBuilder';
import type { CodeKind } from '../model/categories';
import { ProfileInputError } from './profileInputError';
import type { NormalizedProfile } from '../model/types';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const finite = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** How a Hotframe recording says what it kept (a member the readers of other tools ignore). */
export interface HeapRecordingInfo {
  includeObjectsCollectedByMajorGC?: boolean;
  includeObjectsCollectedByMinorGC?: boolean;
  samplingInterval?: number;
}

export function isHeapProfile(json: unknown): json is { head: Record<string, unknown> } {
  return isRecord(json) && isRecord(json.head) && isRecord(json.head.callFrame) && 'selfSize' in json.head;
}

/** `node --heap-prof` names its files Heap.<date>.<time>.<pid>.<thread>.<seq>.heapprofile. */
const HEAP_PROF_NAME = /^Heap\.\d{8}\.\d{6}\.\d+\.\d+\.\d+\.heapprofile$/;

export function retentionNote(info: HeapRecordingInfo | undefined, path: string): string {
  if (info !== undefined && (info.includeObjectsCollectedByMajorGC === true || info.includeObjectsCollectedByMinorGC === true)) {
    const which = [info.includeObjectsCollectedByMinorGC === true ? 'minor (Scavenge)' : '', info.includeObjectsCollectedByMajorGC === true ? 'major (Mark-Compact)' : ''].filter((w) => w !== '').join(' and ');
    return `allocation profile with garbage: recorded with objects collected by ${which} GCs kept, so these bytes are everything allocated while sampling (what GC had to clean up)`;
  }
  if (info !== undefined) return 'retention profile: recorded without collected objects, so these bytes are only what was still alive when sampling stopped (a leak view), not the garbage';
  const hint = HEAP_PROF_NAME.test(basename(path)) ? ' Named like a `node --heap-prof` file, which keeps only objects alive at exit (a leak view).' : '';
  return (
    'sampling heap profile: the file does not record whether collected objects were kept. `node --heap-prof` and DevTools keep only objects alive when sampling stopped (a leak view); ' +
    'the garbage shows only when sampling started with includeObjectsCollectedByMajorGC/MinorGC (the inspector).' + hint
  );
}

export function readHeapProfile(json: unknown, label: string): NormalizedProfile {
  if (!isHeapProfile(json)) throw new ProfileInputError(`not an allocation profile: ${label} has no "head" node`);
  const builder = new CallTreeBuilder();
  const warnings: string[] = [];
  let total = 0;
  let bad = 0;
  let noUrl = 0;
  let nodes = 0;
  // Iterative: a deep chain of nodes is just a loop.
  const stack: { node: unknown; parent: number }[] = [{ node: json.head, parent: -1 }];
  while (stack.length > 0) {
    const { node, parent } = stack.pop() as { node: unknown; parent: number };
    if (!isRecord(node) || !isRecord(node.callFrame)) {
      bad++;
      continue;
    }
    nodes++;
    let at: number;
    let line = 0;
    if (parent === -1) at = 0;
    else {
      const frame = frameOf(node.callFrame);
      if (frame.noUrl) noUrl++;
      const func = builder.internFunction(frame.name, frame.url, frame.line, frame.column, frame.kind);
      if (frame.noUrl) {
        // User code until the report places it (a dependency's CommonJS function has no URL either).
        builder.functions[func].noUrl = true;
        builder.functions[func].category = 'user';
      }
      at = builder.child(parent, func, 0);
      line = frame.line;
    }
    const size = finite(node.selfSize) ?? 0;
    if (size > 0) {
      builder.addSelf(at, size, size);
      // Function level: the heat goes on the declaration line (the format records no other).
      if (line > 0) builder.addLine(at, line, size, size);
      total += size;
    } else if (size < 0) bad++;
    if (Array.isArray(node.children)) for (let c = node.children.length - 1; c >= 0; c--) stack.push({ node: node.children[c], parent: at });
  }
  if (bad > 0) warnings.push(`${bad} heap profile node(s) without a callFrame or with a negative size were ignored`);
  const samples = Array.isArray((json as Record<string, unknown>).samples) ? ((json as Record<string, unknown>).samples as unknown[]).length : undefined;
  const info = isRecord((json as Record<string, unknown>).$hotframe) ? ((json as Record<string, unknown>).$hotframe as HeapRecordingInfo) : undefined;
  const notes = [retentionNote(info, label)];
  notes.push(`${samples === undefined ? 'no "samples" list' : `${samples} allocation sample(s)`} in ${nodes - 1} call tree node(s); bytes are V8's estimate from sampling, per function (the format records no lines)`);
  if (noUrl > 0) {
    notes.push(`${noUrl} JavaScript frame(s) have no script URL (Node 20 leaves it out for CommonJS functions in heap profiles); a name declared once in the workspace is placed there, marked inferred`);
  }
  const profile = builder.build('heapprofile', total, 0, warnings);
  profile.unit = 'bytes';
  profile.notes = notes;
  return profile;
}

const VM_NAME = /^\([A-Za-z0-9 _]+\)$/;

function frameOf(callFrame: Record<string, unknown>): { name: string; url: string; line: number; column: number; kind: CodeKind; noUrl: boolean } {
  const url = typeof callFrame.url === 'string' ? callFrame.url : '';
  let name = typeof callFrame.functionName === 'string' ? callFrame.functionName : '';
  const scriptId = String(callFrame.scriptId ?? '0');
  const line = Math.max(0, Math.floor((finite(callFrame.lineNumber) ?? -1) + 1));
  const column = Math.max(0, Math.floor((finite(callFrame.columnNumber) ?? -1) + 1));
  // "(V8 API)", "(EXTERNAL)", "(BYTECODE_COMPILER)"...: VM states, not code.
  if (url === '' && VM_NAME.test(name)) return { name, url, line, column, kind: 'vm', noUrl: false };
  // A frame with a script but no URL is JavaScript (a CommonJS function in Node 20), not native code.
  const noUrl = url === '' && scriptId !== '0' && scriptId !== '';
  if (name === '') name = url === '' && !noUrl ? '(unknown)' : '(anonymous)';
  return { name, url, line, column, kind: noUrl ? 'js' : url === '' ? 'native' : 'js', noUrl };
}
