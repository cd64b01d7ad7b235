// `hotframe record --semi-space …`: the runs of seed 001's experiment side by side, as text
// (server/profile/gcTrace/semiSpaceText.ts, shared with the editor) and JSON.
import type { SemiSpaceComparison } from '../profile/gcTrace/semiSpace';
import { ruleText } from '../profile/gcTrace/semiSpaceText';
import { round, roundPercent } from './profileCommand';

export { semiSpaceText } from '../profile/gcTrace/semiSpaceText';

export function semiSpaceJson(c: SemiSpaceComparison, saved: ReadonlyMap<number, readonly string[]>): Record<string, unknown> {
  return {
    format: 'semi-space-sweep',
    gcShareOf: "GC pauses and incremental marking over the run's wall time",
    rule: ruleText(c),
    kneePoints: c.kneePoints,
    enoughMb: c.enoughMb,
    failedSizes: c.failedSizes,
    runs: c.rows.map((r) => ({
      sizeMb: r.sizeMb,
      exitCode: r.exitCode,
      wallMs: round(r.wallMs),
      gcPercent: roundPercent(r.gcPercent),
      gcMs: round(r.gcMs),
      collections: r.collections,
      scavenges: r.scavenges,
      meanPauseMs: round(r.meanPauseMs),
      p99PauseMs: round(r.p99PauseMs),
      maxPauseMs: round(r.maxPauseMs),
      scavengeMeanPauseMs: round(r.scavengeMeanPauseMs),
      scavengeMaxPauseMs: round(r.scavengeMaxPauseMs),
      cpuProfileGcPercent: r.cpuProfileGcPercent === null ? null : roundPercent(r.cpuProfileGcPercent),
      files: saved.get(r.sizeMb) ?? [],
    })),
  };
}
