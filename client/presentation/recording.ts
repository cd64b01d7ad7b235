// The texts of a recording: the status bar entry while it runs and how it ended. No vscode
// import (unit-tested); client/recording.ts runs the command.
import { formatMs } from '../../server/shared/format';
import type { RecordingResult } from '../../server/shared/recordProfile';

/** "1:05": minutes and seconds since the start. */
export function formatElapsed(ms: number): string {
  const seconds = Math.floor(Math.max(0, ms) / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** The status bar entry while recording; clicking it stops. */
export function recordingStatus(elapsedMs: number): string {
  return `$(debug-stop) Hotframe: recording ${formatElapsed(elapsedMs)} · Stop`;
}

export function stoppingStatus(label: string): string {
  return `$(loading~spin) Hotframe: stopping ${label}…`;
}

/** "ended by SIGTERM" or "exited with code 0". */
export function howItEnded(result: Pick<RecordingResult, 'code' | 'signal'>): string {
  return result.signal !== null ? `ended by ${result.signal}` : `exited with code ${result.code}`;
}

/** A recorded process's CPU time as the picker describes it. */
export function cpuDescription(cpuMs: number | null): string {
  return cpuMs === null ? 'CPU time not recorded' : `${formatMs(cpuMs)} of CPU (its process)`;
}

/** The status bar entry during a semi-space sweep: which size runs, which run of how many. */
export function sweepStatus(sizeMb: number, run: number, runs: number, elapsedMs: number): string {
  return `$(debug-stop) Hotframe: semi-space ${sizeMb} MB (${run} of ${runs}) ${formatElapsed(elapsedMs)} · Stop`;
}

/** The sizes the sweep offers first: seed 001's experiment. */
export const DEFAULT_SWEEP_SIZES = '16,32,64,128';

/** The workload picker's title during a sweep. */
export function sweepTitle(sizes: readonly number[]): string {
  return `Semi-space sweep at ${sizes.join(', ')} MB`;
}
