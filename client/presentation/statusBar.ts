// The status bar entry's text and tooltip for the loaded profile. No vscode import (unit-tested);
// client/statusBar.ts owns the item.
import type { ProfileSummary } from '../../server/protocol/wire';
import { formatMs, formatPercent, formatShare, formatWeight, shareOfShort } from '../../server/shared/format';

/** "$(flame) name · 12.3 s · GC 8.04% CPU"; an allocation profile shows what was allocated instead. */
export function statusText(profile: ProfileSummary): string {
  // An allocation profile has no duration or GC share: it shows what was allocated.
  if (profile.unit !== undefined && profile.unit !== 'ms') return `$(flame) ${profile.name} · ${formatWeight(profile.cpuMs, profile.unit)} allocated`;
  // A capture's merged processes: how many, or the one kept; its shares are of all of them.
  const gc = `GC ${formatPercent(profile.gcPercent)} ${shareOfShort(profile.shareBasis)}`;
  if (profile.capture) return `$(flame) ${captureName(profile)} · ${formatMs(profile.durationMs)} · ${gc}`;
  return `$(flame) ${profile.name} · ${formatMs(profile.durationMs)} · ${gc}`;
}

/** A capture as the status bar names it: "5 processes and threads", or "1234:0 of 5". */
export function captureName(profile: ProfileSummary): string {
  const parts = profile.threads?.length ?? 0;
  if (profile.thread === undefined) return parts === 1 ? '1 process' : `${parts} processes and threads`;
  return `${profile.thread} of ${parts}`;
}

/** The tooltip: the file, its figures, the comparison in force, the files not found, and what a click does. */
export function statusTooltip(profile: ProfileSummary, baseline: ProfileSummary | null, allocation: ProfileSummary | null = null): string {
  const lines =
    profile.unit === undefined || profile.unit === 'ms'
      ? [
          `Hotframe: ${profile.path}`,
          `${profile.samples} samples, ${profile.format}, ${formatMs(profile.durationMs)} recorded, ${formatMs(profile.cpuMs)} CPU time (idle excluded)`,
          `GC: ${formatShare(profile.gcPercent, profile.shareBasis)}`,
        ]
      : [`Hotframe: ${profile.path}`, `${profile.format}, ${formatWeight(profile.cpuMs, profile.unit)} allocated (sampled)`, ...(profile.notes ?? [])];
  if (profile.shareOf !== undefined && profile.capture) lines.push(`Every % is ${profile.shareOf}`, 'Hotframe: Show One Process of the Capture… filters it');
  if (baseline) lines.push(`Comparing: ${baseline.name} (before) → ${profile.name} (after)`);
  if (allocation && allocation.unit !== 'ms') lines.push(`Allocations: ${allocation.name} (${formatWeight(allocation.cpuMs, allocation.unit)} allocated, sampled): the GC insight names who makes the garbage`);
  if (profile.unresolvedCount > 0) lines.push(`${profile.unresolvedCount} files not found locally`);
  lines.push('Click to show the flame graph');
  return lines.join('\n');
}
