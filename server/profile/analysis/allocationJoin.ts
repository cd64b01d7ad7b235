// Joins an allocation profile to a CPU profile of the same service: the CPU profile says GC took
// a share of CPU (seed 001: 27%), the allocation profile says which user code made the garbage.
// The bytes of every allocation are charged to the nearest user frame on its stack (allocations
// inside libraries go to the user code that called them), so the list names lines a reviewer can
// change rather than `push` or `JSON.parse`.
import type { AnalyzedProfile } from './report';
import { formatPercent, formatWeight } from '../../shared/format';
import type { Insight } from '../model/types';

export interface AllocationSite {
  function: string;
  file: string;
  line: number;
  /** Bytes (or objects) allocated in the function and in the libraries it called. */
  amount: number;
  /** Share of everything the allocation profile holds, 0..100. */
  percent: number;
  inferred: boolean;
  /** The file exists locally (else it is named as recorded). */
  resolved: boolean;
}

/** User functions by what they and the library code beneath them allocated, most first. */
export function allocationSites(allocation: AnalyzedProfile): AllocationSite[] {
  const { profile, index, attribution } = allocation;
  const { tree } = profile;
  const byFunction = new Map<number, number>();
  for (let n = 1; n < tree.count; n++) {
    const weight = tree.selfMs[n];
    if (weight === 0) continue;
    const user = attribution.frames.userAncestor[n];
    if (user === -1) continue;
    const f = index.canonicalOf[tree.func[user]];
    byFunction.set(f, (byFunction.get(f) ?? 0) + weight);
  }
  const total = profile.samples;
  return [...byFunction.entries()]
    .map(([f, amount]) => {
      const fn = index.functions[f];
      return { function: fn.name, file: fn.file, line: fn.line, amount, percent: total > 0 ? (amount / total) * 100 : 0, inferred: fn.inferred === true, resolved: fn.resolved };
    })
    .sort((a, b) => b.amount - a.amount || a.file.localeCompare(b.file) || a.line - b.line);
}

/** How many allocation sites the GC insight names. */
const NAMED_SITES = 3;

/**
 * The CPU profile's insights with the GC insight naming the top allocating user code of the
 * allocation profile (and pointing at the first). Other insights are unchanged.
 */
export function withAllocationSites(insights: Insight[], allocation: AnalyzedProfile, allocationName: string): Insight[] {
  const unit = allocation.report.unit;
  if (unit === 'ms') return insights;
  // Code the reviewer can open: local files only (not `[eval]`, not a frame without a URL).
  const sites = allocationSites(allocation).filter((s) => s.resolved && s.file !== '').slice(0, NAMED_SITES);
  if (sites.length === 0) return insights;
  const named = sites
    .map((s) => `${s.function || '(anonymous)'} at ${s.file}${s.line > 0 ? `:${s.line}` : ''}${s.inferred ? ' (placed by name)' : ''} allocates ${formatWeight(s.amount, unit)} (${formatPercent(s.percent)} of ${unit})`)
    .join('; ');
  const retention = allocation.report.notes.some((n) => /^retention profile|Named like a `node --heap-prof`|^in-use bytes/.test(n))
    ? ' This allocation profile may hold only what was still alive, not the garbage: record with includeObjectsCollectedByMinorGC/MajorGC to see what Scavenge cleans up.'
    : '';
  return insights.map((insight) =>
    insight.id !== 'gc-pressure'
      ? insight
      : {
          ...insight,
          message: `${insight.message} Who makes the garbage (${allocationName}): ${named}. Allocating less there cuts GC without tuning it.${retention}`,
          location: { file: sites[0].file, line: sites[0].line },
        },
  );
}
