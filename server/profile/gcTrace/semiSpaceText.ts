// The runs of seed 001's experiment side by side, as `hotframe record --semi-space` prints them and
// the editor's sweep shows them (one text, one formatter: server/shared/format.ts). Pure.
import type { SemiSpaceComparison } from './semiSpace';
import { formatMs, formatPercent } from '../../shared/format';

function pad(text: string, width: number): string {
  return text.length >= width ? text : ' '.repeat(width - text.length) + text;
}

/** The rule, as the output states it. */
export function ruleText(c: SemiSpaceComparison): string {
  return `the smallest size that no larger size tried beats by ${c.kneePoints} points of GC share (of wall time) or more`;
}

export function semiSpaceText(c: SemiSpaceComparison, saved: ReadonlyMap<number, readonly string[]>): string {
  const first = c.rows[0];
  const out = [
    `--max-semi-space-size, one run of the command per size; GC share = GC pauses and incremental marking (--trace-gc) over the run's wall time` +
      `${c.rows.some((r) => r.cpuProfileGcPercent !== null) ? "; CPU GC = the CPU profile's (garbage collector) share of its CPU time, idle excluded" : ''}`,
    '',
    `  ${'size'.padEnd(7)} ${pad('GC share', 9)} ${pad('GC time', 10)} ${pad('Scavenges', 9)} ${pad('GCs', 6)} ${pad('mean', 9)} ${pad('p99', 9)} ${pad('max', 9)} ${pad('Scav. mean', 10)} ${pad('wall time', 10)} ${pad('vs first', 8)} ${pad('CPU GC', 7)}`,
  ];
  for (const r of c.rows) {
    const change = r === first || first.wallMs <= 0 ? '' : `${r.wallMs <= first.wallMs ? '-' : '+'}${formatPercent((Math.abs(r.wallMs - first.wallMs) / first.wallMs) * 100)}`;
    out.push(
      `  ${`${r.sizeMb} MB`.padEnd(7)} ${pad(formatPercent(r.gcPercent), 9)} ${pad(formatMs(r.gcMs), 10)} ${pad(String(r.scavenges), 9)} ${pad(String(r.collections), 6)} ` +
        `${pad(formatMs(r.meanPauseMs), 9)} ${pad(formatMs(r.p99PauseMs), 9)} ${pad(formatMs(r.maxPauseMs), 9)} ${pad(formatMs(r.scavengeMeanPauseMs), 10)} ` +
        `${pad(formatMs(r.wallMs), 10)} ${pad(change, 8)} ${pad(r.cpuProfileGcPercent === null ? '' : formatPercent(r.cpuProfileGcPercent), 7)}${r.exitCode === 0 ? '' : `  (exit ${r.exitCode ?? 'by a signal'})`}`,
    );
  }
  out.push('');
  const largest = c.rows.at(-1)!.sizeMb;
  if (c.enoughMb !== null) out.push(`Enough: ${c.enoughMb} MB, past which GC stops improving (${ruleText(c)}).`);
  else out.push(`GC still improved up to the largest size tried, ${largest} MB: try larger sizes (the rule: ${ruleText(c)}).`);
  if (c.failedSizes.length > 0) out.push(`The runs at ${c.failedSizes.map((s) => `${s} MB`).join(', ')} did not exit with code 0: their figures are of another workload.`);
  out.push('One run per size, on a machine that may be busy: compare wall times only when they differ by more than their run-to-run noise.');
  if (saved.size > 0) {
    out.push('', 'Saved (the --trace-gc output beside the CPU profiles):');
    for (const [size, paths] of saved) out.push(`  ${size} MB: ${paths.join(', ')}`);
  }
  return out.join('\n') + '\n';
}

