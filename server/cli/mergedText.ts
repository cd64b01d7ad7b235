// The parts of a merged profile (hotframe profile A B .., a folder): each process and thread with
// its share of the whole, in the one formatter's words (every % of all of them).
import { busyWeight, type MergeInput } from '../profile/model/mergeProfiles';
import type { ProfileReport } from '../profile/model/types';
import { formatMs, formatPercent, formatWeight } from '../shared/format';
import { printable } from './printable';
import { round, roundPercent } from './profileCommand';

function parts(inputs: readonly MergeInput[], report: ProfileReport): { id: string; file: string; weight: number; percent: number }[] {
  return inputs
    .map((input) => {
      const weight = busyWeight(input.profile);
      return { id: input.id, file: input.name, weight, percent: report.cpuMs > 0 ? (weight / report.cpuMs) * 100 : 0 };
    })
    .sort((a, b) => b.weight - a.weight || a.id.localeCompare(b.id));
}

export function mergedPartsText(inputs: readonly MergeInput[], report: ProfileReport): string {
  const lines = [`By process and thread (pid:thread; every % is ${report.shareOf})`];
  for (const part of parts(inputs, report)) lines.push(`  ${(report.unit === 'ms' ? formatMs(part.weight) : formatWeight(part.weight, report.unit)).padStart(10)} ${formatPercent(part.percent).padStart(7)}  ${printable(part.id)}  ${printable(part.file)}`);
  return lines.join('\n') + '\n\n';
}

export function mergedPartsJson(inputs: readonly MergeInput[], report: ProfileReport): Record<string, unknown>[] {
  const key = report.unit === 'ms' ? 'ms' : report.unit;
  return parts(inputs, report).map((part) => ({ id: part.id, file: part.file, [key]: round(part.weight), percent: roundPercent(part.percent) }));
}
