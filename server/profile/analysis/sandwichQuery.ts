// The editor's question about callers and callees (issue 29): which function of the loaded
// profile a row, a frame or the cursor names, and its sandwich (sandwich.ts) cut for display the
// way `hotframe profile --function` cuts it (12 levels, nodes of at least 0.1% of the function's
// total, 20 children each), with the same figures, since both ask AnalyzedProfile.sandwich.
import { basename } from 'node:path';

import type { SandwichEntry, SandwichParams, SandwichResult } from '../../protocol/wire';
import { ProfileInputError } from '../readers/profileInputError';
import { calledName } from './callLines';
import type { AnalyzedProfile } from './report';
import { SANDWICH_MIN_SHARE, shownChildren, type SandwichNode } from './sandwich';

/** Children sent per node: the CLI's default --top (the levels and the smallest node are sandwich.ts's cut). */
export const SANDWICH_TOP = 20;
/** Names and words longer than this name no function (the question crossed a process). */
const MAX_NAME = 500;

const nameOf = (f: { name: string }): string => f.name || '(anonymous)';

/**
 * The resolved functions (indexes into `analyzed.index.functions`) the question names; a
 * one-line ProfileInputError when none, or when a word names several functions elsewhere.
 */
export function sandwichTargets(analyzed: AnalyzedProfile, params: SandwichParams): number[] {
  const { functions } = analyzed.index;
  const costs = analyzed.aggregates.functions;
  const ran: number[] = [];
  functions.forEach((_, i) => {
    if (costs[i].totalSamples > 0 || costs[i].selfSamples > 0) ran.push(i);
  });
  const where = `${basename(params.file)}:${params.line}`;
  const name = params.name !== undefined && params.name.length <= MAX_NAME ? params.name : '';
  if (name !== '') {
    // A row or a frame names its function exactly; so does a cursor on a declaration's name.
    const exact = ran.filter((i) => functions[i].file === params.file && functions[i].line === params.line && nameOf(functions[i]) === name);
    if (exact.length > 0) return exact;
    if (params.column === undefined) throw new ProfileInputError(`${name} (${where}) is not a function of the loaded profile`);
    // A word under the cursor (a call, a reference): the profile's function of that name, this file's first.
    const named = ran.filter((i) => nameOf(functions[i]) === name || calledName(functions[i].name) === name);
    const here = named.filter((i) => functions[i].file === params.file);
    const pick = here.length > 0 ? here : named;
    const places = new Set(pick.map((i) => `${functions[i].file}:${functions[i].line}`));
    if (places.size === 1) return pick;
    if (places.size > 1) {
      const choices = [...places].slice(0, 3).map((p) => basename(p));
      throw new ProfileInputError(`${places.size} functions of the profile are called ${name} (${choices.join(', ')}${places.size > 3 ? ', …' : ''}): put the cursor on the one you mean, in its own file`);
    }
  }
  if (params.column !== undefined) {
    // The innermost function of the profile whose source holds the cursor.
    const ranges = analyzed.stallSources?.ranges;
    let best: { i: number; span: number } | null = null;
    for (const i of ran) {
      const f = functions[i];
      if (f.file !== params.file || ranges === undefined) continue;
      const range = ranges.rangeAt(f.file, f.line, f.column, f.name);
      if (range === null || params.line < range.start || params.line > range.end) continue;
      const span = range.end - range.start;
      if (best === null || span < best.span) best = { i, span };
    }
    if (best !== null) {
      const found = functions[best.i];
      return ran.filter((i) => functions[i].file === found.file && functions[i].line === found.line && functions[i].column === found.column && nameOf(functions[i]) === nameOf(found));
    }
  }
  throw new ProfileInputError(`no function of the loaded profile at ${where}${name !== '' ? ` named ${name}` : ''}: put the cursor on a function that ran while it was recorded`);
}

function entryOf(node: SandwichNode, floor: number, depth: number): SandwichEntry {
  const shown = shownChildren(node, floor, SANDWICH_TOP, depth);
  return {
    name: node.name,
    category: node.category,
    file: node.file,
    line: node.line,
    callLines: node.callLines,
    selfMs: node.selfMs,
    totalMs: node.totalMs,
    children: shown.map((c) => entryOf(c, floor, depth + 1)),
    ...(node.children.length > shown.length ? { more: node.children.length - shown.length } : {}),
  };
}

/** The callers and callees of the function `params` names, for the editor. */
export function sandwichAnswer(analyzed: AnalyzedProfile, params: SandwichParams, title: string): SandwichResult {
  const sandwich = analyzed.sandwich(new Set(sandwichTargets(analyzed, params)));
  const floor = sandwich.totalMs * SANDWICH_MIN_SHARE;
  const { report } = analyzed;
  return {
    title,
    unit: report.unit,
    cpuMs: report.cpuMs,
    shareOf: report.shareOf,
    shareBasis: report.shareBasis,
    target: { ...sandwich.target, selfMs: sandwich.selfMs, totalMs: sandwich.totalMs },
    callers: entryOf(sandwich.callers, floor, 0),
    callees: entryOf(sandwich.callees, floor, 0),
    openableFiles: analyzed.openableFiles(),
  };
}
