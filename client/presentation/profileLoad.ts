// The texts around a profile load: the output line that records it and the thread picker of a
// trace. No vscode import (unit-tested); client/commands.ts does the load.
import type { ProfileRole, ProfileSummary } from '../../server/protocol/wire';
import { formatMs } from '../../server/shared/format';

/** "[profile] primary /p/a.cpuprofile: cpuprofile, 9000 samples, 12.3 s" (an allocation profile: "1234 bytes"). */
export function loadedLine(role: ProfileRole, summary: ProfileSummary): string {
  const figures = summary.unit === 'ms' ? `${summary.samples} samples, ${formatMs(summary.durationMs)}` : `${summary.samples} ${summary.unit}`;
  return `[profile] ${role} ${summary.path}: ${summary.format}, ${figures}`;
}

export interface ThreadItem {
  label: string;
  description: string;
  detail: string | undefined;
  id: string;
}

/** The threads of a trace, the one read now first, then the busiest. */
export function threadItems(summary: ProfileSummary): ThreadItem[] {
  return [...(summary.threads ?? [])]
    .sort((a, b) => (a.id === summary.thread ? -1 : b.id === summary.thread ? 1 : b.samples - a.samples))
    .map((t) => ({ label: t.name || t.id, description: `${t.id} · ${t.samples} samples`, detail: t.id === summary.thread ? 'read now (the busiest)' : undefined, id: t.id }));
}
