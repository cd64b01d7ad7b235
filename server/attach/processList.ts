// The local Node processes a person may attach to, for the editor's pick (Hotframe: Profile Running
// Process…): every process of this user whose executable is Node, with its command line; cluster
// and pm2 workers grouped under their parent (the cluster primary, the pm2 daemon). Picking a
// parent profiles it and every Node process below it (capture.ts's processTree).
//
// A worker is known by the environment its parent gave it (NODE_UNIQUE_ID from node:cluster,
// pm2_env or pm_id from pm2), not by having a Node parent: in an editor every process started from the
// terminal descends from the editor's own Node processes, and is not their worker.
//
// `groupProcesses` is pure (unit-tested); `listNodeProcesses` reads /proc. Command lines are the
// processes' own text: returned as data, for the client to show as plain text.
import { readdirSync } from 'node:fs';

import { readGuardedText } from '../shared/guardedRead';
import { commandText, looksLikeNode } from './openInspector';
import { environmentOf, executableOf, parentOf, readStatus, uidOf } from './procfs';

/** More than this many Node processes is not a pick a person reads: the rest are counted, not listed. */
export const MAX_LISTED = 200;
const COMMAND_CHARS = 200;

export type WorkerKind = 'cluster' | 'pm2';

export interface RunningNode {
  pid: number;
  ppid: number;
  /** The command line, one line, cut to COMMAND_CHARS (untrusted text). */
  command: string;
  /** Set when its parent started it as a worker. */
  worker?: WorkerKind;
}

export interface ProcessGroup {
  /** A cluster primary, the pm2 daemon, or a process on its own. */
  root: RunningNode;
  /** Its workers, in pid order. */
  workers: RunningNode[];
}

/** What the environment says started the process: node:cluster, pm2, or neither (null). */
export function workerKindOf(environment: readonly string[]): WorkerKind | null {
  // pm2 gives a cluster-mode worker its settings as pm2_env={json}, a fork-mode one as pm_id=N and the rest.
  if (environment.some((e) => e.startsWith('pm2_env=') || e.startsWith('pm_id='))) return 'pm2';
  if (environment.some((e) => e.startsWith('NODE_UNIQUE_ID='))) return 'cluster';
  return null;
}

/** Workers under their listed parent; every other process is a root. Roots and workers in pid order. */
export function groupProcesses(nodes: readonly RunningNode[]): ProcessGroup[] {
  const sorted = [...nodes].sort((a, b) => a.pid - b.pid);
  const groups = new Map<number, ProcessGroup>();
  const isWorkerHere = (n: RunningNode): boolean => n.worker !== undefined && n.ppid !== n.pid && sorted.some((p) => p.pid === n.ppid);
  for (const n of sorted) if (!isWorkerHere(n)) groups.set(n.pid, { root: n, workers: [] });
  for (const n of sorted) {
    if (!isWorkerHere(n)) continue;
    const group = groups.get(n.ppid);
    // A worker whose parent is itself a worker (a cluster inside a pm2 app): shown on its own.
    if (group === undefined) groups.set(n.pid, { root: n, workers: [] });
    else group.workers.push(n);
  }
  return [...groups.values()].sort((a, b) => a.root.pid - b.root.pid);
}

/** This user's Node processes (not `self`), grouped; `more`: how many were left out past MAX_LISTED. */
export function listNodeProcesses(self: number = process.pid): { groups: ProcessGroup[]; more: number } {
  const uid = process.getuid?.() ?? null;
  const nodes: RunningNode[] = [];
  let more = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === self) continue;
    const executable = executableOf(pid);
    if (executable === null || !looksLikeNode(executable)) continue;
    let ppid: number | null;
    try {
      if (uid !== null && uidOf(readStatus(pid)) !== uid) continue;
      ppid = parentOf(readGuardedText(`/proc/${pid}/stat`, 64 * 1024));
    } catch {
      continue; // gone meanwhile
    }
    if (nodes.length >= MAX_LISTED) {
      more++;
      continue;
    }
    const worker = workerKindOf(environmentOf(pid));
    nodes.push({ pid, ppid: ppid ?? 0, command: commandText(pid, COMMAND_CHARS), ...(worker !== null ? { worker } : {}) });
  }
  return { groups: groupProcesses(nodes), more };
}
