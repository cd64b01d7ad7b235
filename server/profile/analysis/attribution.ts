// Charges time spent in libraries (dependencies, node internals, native code) to the user code
// that called them: for each sample, the nearest USER frame above the library frames. The call
// site's line is where that user frame called into the library when the format records it (V8
// log), else the user function's own line (cpuprofile).
import type { FunctionIndex } from './aggregate';
import { percentOf } from '../../shared/format';
import type { AttributedLibraryCost, CallSite, Category, NormalizedProfile } from '../model/types';

/** Categories whose cost is charged to the user code above them. */
const LIBRARY: ReadonlySet<Category> = new Set<Category>(['dependency', 'node', 'native', 'kernel']);
/** Libraries listed under one call site. */
const LIBRARIES_PER_SITE = 8;

/** Per tree node: the nearest user frame above (or at) it, and the library frame that user frame called. */
export interface UserFrames {
  /** Nearest user node on the path from the root to n, n included; -1 when none. */
  userAncestor: Int32Array;
  /** For a library node: the first library node below its user ancestor; -1 for user nodes or when none. */
  entry: Int32Array;
}

export interface SiteKey {
  /** Resolved function index (FunctionIndex.functions) of the user function. */
  func: number;
  line: number;
  /** True when the line is the recorded call line, false when it is the function's line. */
  exactLine: boolean;
}

export function categoryOf(profile: NormalizedProfile, index: FunctionIndex, node: number): Category {
  const f = profile.tree.func[node];
  return f < 0 ? 'program' : index.functions[index.canonicalOf[f]].category;
}

export function userFramesOf(profile: NormalizedProfile, index: FunctionIndex): UserFrames {
  const { count, parent } = profile.tree;
  const userAncestor = new Int32Array(count).fill(-1);
  const entry = new Int32Array(count).fill(-1);
  for (let n = 1; n < count; n++) {
    const category = categoryOf(profile, index, n);
    const p = parent[n];
    if (category === 'user') {
      userAncestor[n] = n;
    } else {
      userAncestor[n] = userAncestor[p];
      if (LIBRARY.has(category)) entry[n] = entry[p] !== -1 ? entry[p] : userAncestor[p] !== -1 ? n : -1;
    }
  }
  return { userAncestor, entry };
}

export function isLibrary(category: Category): boolean {
  return LIBRARY.has(category);
}

/** The call site a library node is charged to, or null when no user frame is above it. */
export function siteOf(profile: NormalizedProfile, index: FunctionIndex, frames: UserFrames, node: number): SiteKey | null {
  const user = frames.userAncestor[node];
  if (user === -1 || user === node) return null;
  const func = index.canonicalOf[profile.tree.func[user]];
  const entry = frames.entry[node];
  const callLine = entry === -1 ? 0 : profile.tree.callLine[entry];
  if (callLine > 0) return { func, line: callLine, exactLine: true };
  return { func, line: index.functions[func].line, exactLine: false };
}

interface SiteTotals {
  key: SiteKey;
  samples: number;
  ms: number;
  libraries: Map<number, { samples: number; ms: number }>;
}

export interface Attribution {
  frames: UserFrames;
  callSites: CallSite[];
  /** The same call sites with their keys, for lookups by function and line. */
  keys: SiteKey[];
}

/** `cpuMs` is the profile's CPU time (idle excluded), the denominator of every call site's percent. */
export function attribute(profile: NormalizedProfile, index: FunctionIndex, cpuMs: number): Attribution {
  const frames = userFramesOf(profile, index);
  const { tree } = profile;
  const sites = new Map<string, SiteTotals>();
  const seen = new Set<number>();
  for (let n = 1; n < tree.count; n++) {
    const self = tree.selfSamples[n];
    if (self === 0 || frames.entry[n] === -1) continue;
    const key = siteOf(profile, index, frames, n);
    if (key === null) continue;
    const id = `${key.func}:${key.line}`;
    let site = sites.get(id);
    if (site === undefined) {
      site = { key, samples: 0, ms: 0, libraries: new Map() };
      sites.set(id, site);
    }
    const ms = tree.selfMs[n];
    site.samples += self;
    site.ms += ms;
    // Every library function on the path from the call into the library down to this frame,
    // once each: what the call costs "in mongoose completeMany" includes what completeMany calls.
    seen.clear();
    const stop = tree.parent[frames.entry[n]];
    for (let m = n; m !== stop; m = tree.parent[m]) {
      const f = index.canonicalOf[tree.func[m]];
      if (seen.has(f)) continue;
      seen.add(f);
      const library = site.libraries.get(f) ?? { samples: 0, ms: 0 };
      library.samples += self;
      library.ms += ms;
      site.libraries.set(f, library);
    }
  }
  const ordered = [...sites.values()].sort((a, b) => b.ms - a.ms || a.key.func - b.key.func || a.key.line - b.key.line);
  const callSites = ordered.map((site) => toCallSite(index, site, cpuMs));
  return { frames, callSites, keys: ordered.map((site) => site.key) };
}

function toCallSite(index: FunctionIndex, site: SiteTotals, cpuMs: number): CallSite {
  const user = index.functions[site.key.func];
  const libraries: AttributedLibraryCost[] = [...site.libraries.entries()]
    .sort((a, b) => b[1].ms - a[1].ms || a[0] - b[0])
    .slice(0, LIBRARIES_PER_SITE)
    .map(([f, cost]) => {
      const fn = index.functions[f];
      return { name: fn.name, file: fn.file, line: fn.line, category: fn.category, samples: cost.samples, ms: cost.ms };
    });
  return {
    function: user.name,
    file: user.file,
    line: site.key.line,
    exactLine: site.key.exactLine,
    samples: site.samples,
    ms: site.ms,
    percent: percentOf(site.ms, cpuMs),
    libraries,
  };
}

/** Cost of every sample with a matching frame on its stack, and the user call sites it is charged to. */
export interface CostUnder {
  samples: number;
  ms: number;
  /** Most expensive first. */
  sites: { key: SiteKey; samples: number; ms: number }[];
}

export function costUnder(profile: NormalizedProfile, index: FunctionIndex, frames: UserFrames, matches: (func: number) => boolean): CostUnder {
  const { tree } = profile;
  const matchedFunc = new Uint8Array(index.functions.length);
  for (let f = 0; f < index.functions.length; f++) matchedFunc[f] = matches(f) ? 1 : 0;
  // The outermost matching node on each path: its call site is where user code entered the costly code.
  const top = new Int32Array(tree.count).fill(-1);
  let samples = 0;
  let ms = 0;
  const sites = new Map<string, { key: SiteKey; samples: number; ms: number }>();
  for (let n = 1; n < tree.count; n++) {
    const p = tree.parent[n];
    top[n] = top[p] !== -1 ? top[p] : matchedFunc[index.canonicalOf[tree.func[n]]] === 1 ? n : -1;
    const self = tree.selfSamples[n];
    if (top[n] === -1 || self === 0) continue;
    samples += self;
    ms += tree.selfMs[n];
    const key = siteOf(profile, index, frames, top[n]);
    if (key === null) continue;
    const id = `${key.func}:${key.line}`;
    const site = sites.get(id) ?? { key, samples: 0, ms: 0 };
    site.samples += self;
    site.ms += tree.selfMs[n];
    sites.set(id, site);
  }
  return { samples, ms, sites: [...sites.values()].sort((a, b) => b.ms - a.ms) };
}
