// The texts around a profile load: the output line that records it and the thread picker of a
// trace. No vscode import (unit-tested); client/commands.ts does the load.
import type { ProfileRole, ProfileSummary } from '../../server/protocol/wire';
import { formatMs } from '../../server/shared/format';

/** "[profile] primary /p/a.cpuprofile: cpuprofile, 9000 samples, 12.3 s" (an allocation profile: "1234 bytes"). */
export function loadedLine(role: ProfileRole, summary: ProfileSummary): string {
  const figures = summary.unit === 'ms' ? `${summary.samples} samples, ${formatMs(summary.durationMs)}` : `${summary.samples} ${summary.unit}`;
  return `[profile] ${role} ${summary.path}: ${summary.format}, ${figures}`;
}

/** The title of a load's progress notification. */
export function loadingTitle(role: ProfileRole, name: string): string {
  if (role === 'baseline') return `Hotframe: loading baseline ${name}`;
  if (role === 'allocation') return `Hotframe: loading allocation profile ${name}`;
  return `Hotframe: loading ${name}`;
}

/** A file named like an allocation profile (DevTools, `node --heap-prof`, the inspector); pprof files say nothing in their name. */
export function isAllocationProfileName(file: string): boolean {
  return /\.heapprofile(\.gz)?$/i.test(file);
}

export interface JoinChoice {
  label: string;
  detail: string;
  join: boolean;
}

/**
 * What opening an allocation profile offers while a CPU profile is loaded: join it to the CPU
 * profile (first: a CPU profile loaded says the user is looking at that service), or open it
 * on its own, in place of the CPU profile.
 */
export function joinChoices(allocationName: string, cpu: ProfileSummary): JoinChoice[] {
  return [
    { label: `Add next to ${cpu.name}`, detail: `The GC insight names who makes the garbage; findings say what their code allocates. Heat and flame graph stay ${cpu.name}'s.`, join: true },
    { label: `Open ${allocationName} on its own`, detail: `Replaces ${cpu.name}: heat, flame graph and findings in bytes.`, join: false },
  ];
}

export interface ThreadItem {
  label: string;
  description: string;
  detail: string | undefined;
  id: string;
}

/** The threads of a trace, the one read now first, then the busiest. */
export function threadItems(summary: ProfileSummary): ThreadItem[] {
  // A capture: every process and thread merged comes first (its shares are of them all).
  const all: ThreadItem[] = summary.capture
    ? [{ label: `All ${summary.threads?.length ?? 0} processes and threads`, description: 'merged: every % is of all of them', detail: summary.thread === undefined ? 'shown now' : undefined, id: '' }]
    : [];
  return [...all, ...threadItemsOf(summary)];
}

function threadItemsOf(summary: ProfileSummary): ThreadItem[] {
  return [...(summary.threads ?? [])]
    .sort((a, b) => (a.id === summary.thread ? -1 : b.id === summary.thread ? 1 : b.samples - a.samples))
    .map((t) => ({ label: t.name || t.id, description: `${t.id} · ${t.samples} samples`, detail: t.id === summary.thread ? (summary.capture ? 'shown now' : 'read now (the busiest)') : undefined, id: t.id }));
}
