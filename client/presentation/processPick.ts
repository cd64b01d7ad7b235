// The items of "Hotframe: Profile Running Process…": each local Node process with its command line,
// cluster and pm2 workers indented under their parent. Picking a parent profiles it and every
// worker; picking a worker profiles that worker (and its own threads). Command lines are the
// processes' own text (from /proc): every word shown goes through plainLabel (no icon, no link).
import type { RunningProcesses } from '../../server/protocol/wire';
import { plainLabel } from './plainText';

export interface ProcessItem {
  label: string;
  description: string;
  detail?: string;
  pid: number;
}

/** The durations offered, in seconds. */
export const CAPTURE_SECONDS = [5, 10, 30, 60] as const;

const WORKER_NAME = { cluster: 'cluster worker', pm2: 'pm2 worker' } as const;

export function processItems(list: RunningProcesses): ProcessItem[] {
  const items: ProcessItem[] = [];
  for (const { root, workers } of list.groups) {
    const kinds = new Set(workers.map((w) => w.worker));
    const whose = kinds.size === 1 && kinds.has('pm2') ? 'pm2' : 'cluster';
    items.push({
      label: plainLabel(`${root.pid}`),
      description: plainLabel(root.command),
      ...(workers.length > 0 ? { detail: `${whose === 'pm2' ? 'pm2 daemon' : 'primary'}: profiles it and its ${workers.length} worker${workers.length === 1 ? '' : 's'} together` } : {}),
      pid: root.pid,
    });
    for (const worker of workers) {
      items.push({ label: plainLabel(`    └ ${worker.pid}`), description: plainLabel(`${WORKER_NAME[worker.worker ?? 'cluster']} · ${worker.command}`), pid: worker.pid });
    }
  }
  return items;
}

/** The line under the pick: how many more processes there are than listed. */
export function processPickPlaceholder(list: RunningProcesses): string {
  const count = list.groups.reduce((n, g) => n + 1 + g.workers.length, 0);
  const more = list.more > 0 ? ` (${list.more} more not listed)` : '';
  return `${count} Node process${count === 1 ? '' : 'es'} of this user${more}: pick one to profile (a parent brings its workers)`;
}

/** After the capture: what was captured and the pause each process's main thread saw, for the output. */
export function captureLines(result: { folder: string; profiles: number; problems: string[]; pauses: { pid: number; startMs: number; stopMs: number | null }[] }, ms: (value: number) => string): string[] {
  return [
    `[attach] ${result.profiles} profile${result.profiles === 1 ? '' : 's'} in ${result.folder}`,
    ...result.pauses.map((p) => `[attach] process ${p.pid}: its main thread paused ${ms(p.startMs)} to start the profiler${p.stopMs === null ? '' : `, ${ms(p.stopMs)} to stop it`}`),
    ...result.problems.map((line) => `[attach] ${line}`),
  ];
}
