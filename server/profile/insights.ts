// Recognizes, in a measured profile, the costs behind the incidents in shared/seeds, and turns
// each into advice carrying the measured share and the incident's own figures. Shares are of
// the profile's CPU time (idle excluded), like every share in a report ("GC 27% of CPU" in seed
// 001 means the same).
import type { Aggregates, FunctionIndex, ResolvedFunction } from './aggregate';
import { costUnder, type CostUnder, type UserFrames } from './attribution';
import { formatCost, percentOf } from '../shared/format';
import type { Insight, InsightId, NormalizedProfile } from './types';

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
  advice: (measured: string, where: string) => string;
}

const DETECTORS: Detector[] = [
  {
    id: 'mongoose-hydration',
    seed: '004',
    title: 'Mongoose document hydration is hot',
    matches: isMongooseHydration,
    advice: (measured, where) =>
      `Mongoose hydrating documents (completeMany/init/Document) took ${measured}${where}. ` +
      `In seed 004, reads without .lean() spent 2+ s in completeMany and .lean() made them at least 1.5x faster: ` +
      `add .lean() to queries whose documents are only read.`,
  },
  {
    id: 'spawn-env-walk',
    seed: '003',
    title: 'normalizeSpawnArguments copies process.env on every spawn',
    matches: isSpawnEnvWalk,
    advice: (measured, where) =>
      `child_process normalizeSpawnArguments (a for-in over process.env) took ${measured}${where}. ` +
      `In seed 003, pods with ~16k injected env vars spent 7.5 s there per execSync('free -m') and blocked requests for ~20 s: ` +
      `pass a small env ({ env: { PATH: process.env.PATH } }), use async exec, or set enableServiceLinks: false.`,
  },
  {
    id: 'date-now-hot',
    seed: '000',
    title: 'Date.now() is hot',
    matches: isDateNow,
    advice: (measured, where) =>
      `Reading the clock (Date.now(): the now builtin, Runtime_DateCurrentTime, clock_gettime in the vDSO) took ${measured}${where}. ` +
      `In seed 000 it was 10.3% of all ticks (494 ticks, 19.4% of C++) on 16 pm2 workers at 60-85% CPU, called per Redis message: ` +
      `read a coarse clock refreshed by setInterval(() => { now = Date.now(); }, 1000).unref() instead.`,
  },
];

function measured(percent: number, ms: number): string {
  return formatCost(ms, percent);
}

/** Self time of hot user lines that are Date.now() calls, most expensive first. */
function dateNowLines(aggregates: Aggregates, index: FunctionIndex, readLine: SourceLineReader): { file: string; line: number; samples: number; ms: number }[] {
  const userFiles = new Set(index.functions.filter((f) => f.category === 'user' && f.resolved).map((f) => f.file));
  return aggregates.lines
    .filter((l) => l.selfSamples > 0 && userFiles.has(l.file) && DATE_NOW_CALL.test(readLine(l.file, l.line) ?? ''))
    .map((l) => ({ file: l.file, line: l.line, samples: l.selfSamples, ms: l.selfMs }))
    .sort((a, b) => b.ms - a.ms);
}

export function findInsights(
  profile: NormalizedProfile,
  index: FunctionIndex,
  frames: UserFrames,
  aggregates: Aggregates,
  readLine: SourceLineReader = () => null,
): Insight[] {
  const insights: Insight[] = [];
  const gc = aggregates.categories.gc;
  const gcShare = gcPercent(aggregates);
  if (gcShare >= GC_PRESSURE_PERCENT) {
    insights.push({
      id: 'gc-pressure',
      seed: '001',
      title: 'Garbage collection takes a large share of CPU',
      message:
        `GC took ${measured(gcShare, gc.ms)}. In seed 001, Scavenge GC at 27% of CPU (988 of 1008 GCs, 47.7 s in 3 min) fell to 7.14% ` +
        `with node --max-semi-space-size=64 (GC time 47.7 s -> 11.8 s, QPS +10%); 128/256 MB gave little more and longer pauses.`,
      samples: gc.samples,
      ms: gc.ms,
      percent: gcShare,
      location: null,
    });
  }
  for (const detector of DETECTORS) {
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
      message: detector.advice(measured(percent, ms), where),
      samples,
      ms,
      percent,
      location,
    });
  }
  return insights.sort((a, b) => b.ms - a.ms);
}
