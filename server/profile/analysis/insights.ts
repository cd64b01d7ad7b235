// Recognizes, in a measured profile, the costs behind the incidents in shared/seeds, and turns
// each into advice carrying the measured share and the incident's own figures. Shares are of
// the profile's CPU time (idle excluded), like every share in a report ("GC 27% of CPU" in seed
// 001 means the same).
import type { Aggregates, FunctionIndex, ResolvedFunction } from './aggregate';
import { costUnder, siteOf, type CostUnder, type SiteKey, type UserFrames } from './attribution';
import type { SourceCalls } from './callLines';
import { CPU_BASIS, formatCost, percentOf, type ShareBasis } from '../../shared/format';
import type { Insight, InsightId, NormalizedProfile } from '../model/types';

/**
 * What happened in the incident behind each insight, in the user's words: shown under the
 * insight (the editor's hover, docs/profiles.md), never in its message, which says what was
 * measured here and the fix.
 */
export const INSIGHT_INCIDENTS: Readonly<Record<InsightId, string>> = {
  'gc-pressure':
    'In a production incident, young-generation GC took 27% of CPU (47.7 s in 3 minutes); node --max-semi-space-size=64 cut it to 7% ' +
    'and raised throughput by 10%, while 128 or 256 MB gave little more and longer pauses.',
  'mongoose-hydration':
    'In a production incident, turning query results into mongoose documents took more than 2 s of CPU per task-list request; ' +
    'with .lean() the reads were at least 1.5 times faster.',
  'spawn-env-walk':
    "In a production incident, pods with about 16,000 injected environment variables spent 7.5 s copying them per execSync('free -m'), " +
    'and requests stalled for about 20 s.',
  'date-now-hot':
    'In a production incident, reading the clock once per Redis message took 10.3% of the CPU time of 16 workers running at 60-85% CPU.',
  'blocking-sync-io':
    'In a production incident, synchronous commands on a stats timer blocked every request for about 20 s; ' +
    'a json-server under load spent 27% of its CPU time in writeFileSync on its request path.',
};

/** GC share of CPU at or above which seed 001's advice applies (the incident had 27%). */
export const GC_PRESSURE_PERCENT = 10;
/** A library cost named by a seed is worth a line of advice from this share of CPU. */
export const HOT_PERCENT = 1;

/**
 * Insights that measure work running after an await, under library callbacks, so that no stack
 * ties it to the line that caused it (mongoose hydrates when the driver's reply arrives). The
 * cost index reports it beside the line's own cost; the value names it in messages.
 */
export const DEFERRED_WORK: Partial<Record<InsightId, string>> = { 'mongoose-hydration': 'mongoose hydration' };

/** GC's share of CPU time (idle excluded). */
export function gcPercent(aggregates: Aggregates): number {
  return percentOf(aggregates.categories.gc.ms, aggregates.cpuMs);
}

function lastSegment(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot === -1 ? name : name.slice(dot + 1);
}

const MONGOOSE_HYDRATION = new Set(['completeMany', 'init', '$__init', 'Document']);
const DATE_NOW = /\bRuntime_DateCurrentTime\b|\bDateNow\b|^(Builtin: )?(Date\.)?now$/;
/**
 * Without C++ symbols (a raw `--prof` log), Date.now's clock_gettime shows as the vDSO, which
 * on Linux holds only clock and cpu queries: its time is time spent reading the clock.
 */
const VDSO = /^\[vdso\]$|linux-vdso/;
/** A source line whose own samples are a Date.now() call (cpuprofile: the builtin is inlined into the line). */
const DATE_NOW_CALL = /\bDate\.now\s*\(/;

function isMongooseHydration(f: ResolvedFunction): boolean {
  return /[\\/]node_modules[\\/]mongoose[\\/]/.test(f.file) && MONGOOSE_HYDRATION.has(lastSegment(f.name));
}

function isSpawnEnvWalk(f: ResolvedFunction): boolean {
  return f.category !== 'user' && lastSegment(f.name) === 'normalizeSpawnArguments';
}

function isDateNow(f: ResolvedFunction): boolean {
  return f.category !== 'user' && (DATE_NOW.test(f.name) || VDSO.test(f.name));
}

/** Reads one line (1-based) of a local source file, or null. */
export type SourceLineReader = (file: string, line: number) => string | null;

interface Detector {
  id: Insight['id'];
  seed: Insight['seed'];
  title: string;
  matches: (f: ResolvedFunction) => boolean;
  /** `measured` is "took 1.20 s (…% of CPU time…)" or, in an allocation profile, "allocated 57.0 MiB (…% of allocated bytes)". */
  advice: (measured: string, where: string) => string;
  /**
   * Whether what the code allocates says something about the incident: hydrating documents and
   * copying process.env do it by building objects; reading the clock allocates nothing worth a word.
   */
  forAllocations: boolean;
}

const DETECTORS: Detector[] = [
  {
    id: 'mongoose-hydration',
    seed: '004',
    title: 'Mongoose document hydration is hot',
    matches: isMongooseHydration,
    forAllocations: true,
    advice: (measured, where) =>
      `Mongoose hydrating documents (completeMany/init/Document) ${measured}${where}. ` +
      `Add .lean() to queries whose documents are only read.`,
  },
  {
    id: 'spawn-env-walk',
    seed: '003',
    title: 'normalizeSpawnArguments copies process.env on every spawn',
    matches: isSpawnEnvWalk,
    forAllocations: true,
    advice: (measured, where) =>
      `Copying process.env for child processes (normalizeSpawnArguments) ${measured}${where}. ` +
      `Pass a small env ({ env: { PATH: process.env.PATH } }), use the asynchronous exec, or set enableServiceLinks: false.`,
  },
  {
    id: 'date-now-hot',
    seed: '000',
    title: 'Date.now() is hot',
    matches: isDateNow,
    forAllocations: false,
    advice: (measured, where) =>
      `Reading the clock (Date.now(), new Date()) ${measured}${where}. ` +
      `Read a clock refreshed by setInterval(() => { now = Date.now(); }, 1000).unref() instead.`,
  },
];

/** "took 1.20 s (14.0% of CPU time, idle excluded)", "allocated 57.0 MiB (63.8% of allocated bytes)". */
function measured(percent: number, value: number, basis: ShareBasis): string {
  return `${basis.unit === 'ms' ? 'took' : 'allocated'} ${formatCost(value, percent, basis)}`;
}

/** Self time of hot user lines that are Date.now() calls, most expensive first. */
function dateNowLines(aggregates: Aggregates, index: FunctionIndex, readLine: SourceLineReader): { file: string; line: number; samples: number; ms: number }[] {
  const userFiles = new Set(index.functions.filter((f) => f.category === 'user' && f.resolved).map((f) => f.file));
  return aggregates.lines
    .filter((l) => l.selfSamples > 0 && userFiles.has(l.file) && DATE_NOW_CALL.test(readLine(l.file, l.line) ?? ''))
    .map((l) => ({ file: l.file, line: l.line, samples: l.selfSamples, ms: l.selfMs }))
    .sort((a, b) => b.ms - a.ms);
}

/** Node modules whose `*Sync` functions block the event loop (the blocking-sync-call rule's list). */
const SYNC_MODULE = /^(?:node:)?(fs|zlib|crypto|child_process)$/;
/** Frames of the module loader: a sync call under them runs at start-up (require), not while serving. */
const LOADER = /^(?:node:)?internal\/modules\//;
/** One insight per call site, for the most expensive few. */
const SYNC_SITES = 5;

/** `fs`, `zlib`… when `f` is one of their `*Sync` functions (`writeFileSync`, `Object.writeFileSync`), else null. */
function syncModuleOf(f: ResolvedFunction): string | null {
  // A plain identifier only: the name is searched for in source text below.
  if (f.category === 'user' || !/^\w+Sync$/.test(lastSegment(f.name))) return null;
  return SYNC_MODULE.exec(f.file)?.[1] ?? null;
}

/** `zlib` for `zlib`, `node:zlib`. */
const moduleName = (specifier: string): string => specifier.replace(/^node:/, '');

/**
 * Where a user function calls a module's sync function, and what the user wrote there: the line
 * the profile recorded, else the one call the source shows reaching the frame it called
 * (`entry`); the name is the `*Sync` function of that module the user's code calls on that line
 * (a profile may name an internal helper instead: zlib's gzipSync shows as syncBufferWrapper or
 * zlibBufferSync when V8 inlined it), or, with no line known, the one such call in the function.
 */
function userSyncCall(calls: SourceCalls | null, caller: number, entry: number, module: string, recorded: { file: string; line: number } | null): { file: string; line: number; name: string } | null {
  if (calls === null) return recorded === null ? null : { ...recorded, name: '' };
  const at = recorded ?? calls.callLineOf(caller, entry);
  const written = calls.callsOf(caller).filter((c) => c.module !== null && moduleName(c.module) === module && /^\w+Sync$/.test(c.name));
  const onLine = at === null ? written : written.filter((c) => c.file === at.file && c.line === at.line);
  const distinct = new Map(onLine.map((c) => [`${c.file}\u0000${c.line}\u0000${c.name}`, c]));
  const only = distinct.size === 1 ? [...distinct.values()][0] : null;
  // On a known line, two sync calls of the module there leave the profile's name; with no line, the one call or nothing.
  if (at !== null) return { ...at, name: only?.name ?? '' };
  return only === null ? null : { file: only.file, line: only.line, name: only.name };
}

/**
 * Synchronous I/O and CPU-bound sync calls (fs/zlib/crypto/child_process `*Sync`) measured after
 * start-up, i.e. while the process serves: nothing else runs meanwhile. One insight per user call
 * site, placed on the line that makes the call (recorded by V8 logs; found in the function's
 * source for a .cpuprofile as call lines are, else the function's line) and naming the call the
 * user wrote there.
 */
function blockingSyncInsights(profile: NormalizedProfile, index: FunctionIndex, frames: UserFrames, aggregates: Aggregates, calls: SourceCalls | null, basis: ShareBasis): Insight[] {
  const { tree } = profile;
  const moduleOf = index.functions.map(syncModuleOf);
  const loader = index.functions.map((f) => LOADER.test(f.file));
  // Per node: the outermost sync call above (or at) it, and whether start-up code is on its stack.
  const top = new Int32Array(tree.count).fill(-1);
  const startup = new Uint8Array(tree.count);
  const sites = new Map<string, { key: SiteKey; func: number; caller: number; entry: number; samples: number; ms: number }>();
  for (let n = 1; n < tree.count; n++) {
    const p = tree.parent[n];
    const f = tree.func[n] < 0 ? -1 : index.canonicalOf[tree.func[n]];
    startup[n] = startup[p] === 1 || (f >= 0 && loader[f]) ? 1 : 0;
    top[n] = top[p] !== -1 ? top[p] : f >= 0 && moduleOf[f] !== null ? n : -1;
    const ms = tree.selfMs[n];
    if (top[n] === -1 || startup[n] === 1 || tree.selfSamples[n] === 0) continue;
    const key = siteOf(profile, index, frames, top[n]);
    if (key === null) continue;
    const func = index.canonicalOf[tree.func[top[n]]];
    const id = `${key.func}:${key.line}:${func}`;
    // The profile functions of the user frame and of the frame it called: the call looked for in the source.
    const caller = tree.func[frames.userAncestor[top[n]]];
    const entry = tree.func[frames.entry[top[n]] === -1 ? top[n] : frames.entry[top[n]]];
    const site = sites.get(id) ?? { key, func, caller, entry, samples: 0, ms: 0 };
    site.samples += tree.selfSamples[n];
    site.ms += ms;
    sites.set(id, site);
  }
  const insights: Insight[] = [];
  for (const site of [...sites.values()].sort((a, b) => b.ms - a.ms).slice(0, SYNC_SITES)) {
    const percent = percentOf(site.ms, aggregates.cpuMs);
    if (percent < HOT_PERCENT) break;
    const callee = index.functions[site.func];
    const user = index.functions[site.key.func];
    const module = moduleOf[site.func] as string;
    const written = userSyncCall(calls, site.caller, site.entry, module, site.key.exactLine ? { file: user.file, line: site.key.line } : null);
    const name = written?.name || lastSegment(callee.name);
    const call = `${module}.${name}`;
    const file = written?.file ?? user.file;
    const line = written?.line ?? site.key.line;
    const asyncName = name.slice(0, -'Sync'.length);
    insights.push({
      id: 'blocking-sync-io',
      seed: '003',
      title: `${call}() blocks the event loop while serving`,
      message:
        `${call}() ${measured(percent, site.ms, basis)} after start-up, called from ${user.name || '(anonymous)'} at ${file}:${line}, ` +
        `and no request, message or timer is handled while it runs. Use the asynchronous ${moduleOf[site.func]}.${asyncName} ` +
        `(or move the work off the serving path).`,
      samples: site.samples,
      ms: site.ms,
      percent,
      location: { file, line },
      rule: 'blocking-sync-call',
      shareBasis: basis,
    });
  }
  return insights;
}

export function findInsights(
  profile: NormalizedProfile,
  index: FunctionIndex,
  frames: UserFrames,
  aggregates: Aggregates,
  readLine: SourceLineReader = () => null,
  /** Calls read from the callers' source (call lines): where a .cpuprofile's sync call is made. */
  calls: SourceCalls | null = null,
  /** What the shares are of (the report's `shareBasis`): named in every message. */
  basis: ShareBasis = CPU_BASIS,
): Insight[] {
  const insights: Insight[] = [];
  // An allocation profile's weights are bytes or objects: only insights whose incident shows in
  // what code allocates are kept, and they say "allocated", in that unit, of all allocated.
  const unit = profile.unit ?? 'ms';
  const allocation = unit !== 'ms';
  const gc = aggregates.categories.gc;
  const gcShare = gcPercent(aggregates);
  if (!allocation && gcShare >= GC_PRESSURE_PERCENT) {
    insights.push({
      id: 'gc-pressure',
      seed: '001',
      title: 'Garbage collection takes a large share of CPU',
      message:
        `GC ${measured(gcShare, gc.ms, basis)}. If most of it is young-generation (Scavenge) GC, try node --max-semi-space-size=64 ` +
        `and find who allocates with an allocation profile.`,
      samples: gc.samples,
      ms: gc.ms,
      percent: gcShare,
      location: null,
      shareBasis: basis,
    });
  }
  for (const detector of DETECTORS) {
    if (allocation && !detector.forAllocations) continue;
    const cost: CostUnder = costUnder(profile, index, frames, (f) => detector.matches(index.functions[f]));
    let samples = cost.samples;
    let ms = cost.ms;
    const top = cost.sites[0];
    const user = top === undefined ? null : index.functions[top.key.func];
    let location = top === undefined || user === null ? null : { file: user.file, line: top.key.line };
    let where = user === null || location === null ? '' : `, called from ${user.name || '(anonymous)'} at ${location.file}:${location.line}`;
    if (detector.id === 'date-now-hot') {
      const lines = dateNowLines(aggregates, index, readLine);
      for (const line of lines) {
        samples += line.samples;
        ms += line.ms;
      }
      if (lines.length > 0 && (top === undefined || lines[0].ms > top.ms)) {
        location = { file: lines[0].file, line: lines[0].line };
        where = `, on the Date.now() call at ${location.file}:${location.line}`;
      }
    }
    const percent = percentOf(ms, aggregates.cpuMs);
    if (samples === 0 || percent < HOT_PERCENT) continue;
    insights.push({
      id: detector.id,
      seed: detector.seed,
      title: detector.title,
      message: detector.advice(measured(percent, ms, basis), where),
      samples,
      ms,
      percent,
      location,
      ...(allocation ? { unit } : {}),
      shareBasis: basis,
    });
  }
  // Blocking is time: what a sync call allocates is no measure of how long it held the event loop.
  if (!allocation) insights.push(...blockingSyncInsights(profile, index, frames, aggregates, calls, basis));
  return insights.sort((a, b) => b.ms - a.ms);
}
