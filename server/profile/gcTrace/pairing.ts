// When a GC trace and a CPU profile are of one run, the editor shows the trace's GC share beside
// the profile's. "One run" is decided from what both files say, never from timing:
//   - they sit in the same folder, and
//   - the profile's file name carries the process id of one of the trace's isolates: Node's own
//     names do (`CPU.20261128.093000.4242.0.001.cpuprofile` from --cpu-prof,
//     `isolate-0x5581c0f0-4242-4242-v8.log` from --prof), and so do Hotframe's recordings, which
//     keep that tail (`npm-run-start.20261128.093000.4242.0.001.cpuprofile`); each trace line
//     names its process (`[4242:0x5581c0f0] 279 ms: Scavenge …`).
// A recording that wrote both (`hotframe record --semi-space`, the editor's sweep) pairs by the
// same rule. Pure: names in, yes or no out.
import { basename, dirname, resolve } from 'node:path';

/** The pid in a profile's file name as Node (and Hotframe's recordings) write it, or null. */
export function processIdOfProfileName(name: string): number | null {
  const cpuProf = /\.\d{8}\.\d{6}\.(\d+)\.\d+\.\d+\.(?:cpuprofile|heapprofile)(?:\.gz)?$/.exec(name);
  if (cpuProf !== null) return Number(cpuProf[1]);
  const v8Log = /^isolate-0x[0-9a-f]+-(\d+)-(?:\d+-)?v8(?:-\d+)?\.log$/.exec(name);
  return v8Log === null ? null : Number(v8Log[1]);
}

/** The process ids a trace's isolates name ("4242:0x5581c0f0" → 4242). */
export function processIdsOfTrace(isolates: readonly string[]): Set<number> {
  return new Set(isolates.map((isolate) => Number(isolate.split(':')[0])).filter((pid) => Number.isInteger(pid) && pid > 0));
}

/** Whether the trace at `tracePath` (with these isolates) and the profile at `profilePath` are of one run. */
export function sameRun(tracePath: string, isolates: readonly string[], profilePath: string): boolean {
  if (dirname(resolve(tracePath)) !== dirname(resolve(profilePath))) return false;
  const pid = processIdOfProfileName(basename(profilePath));
  return pid !== null && processIdsOfTrace(isolates).has(pid);
}
