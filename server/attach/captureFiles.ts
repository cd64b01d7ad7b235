// A capture's profiles on disk: one file per process and thread, named as Node names its own
// (CPU.<date>.<time>.<pid>.<thread>.001.cpuprofile), so `hotframe profile FOLDER` and the editor
// know each part's "pid:thread" from its name (server/profile/model/mergeProfiles.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { SERVING_SUFFIX } from '../shared/servingRecorder';
import type { CaptureKind } from './agent';
import type { CapturedThread } from './capture';

function stamp(date: Date): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${date.getFullYear()}${pad(date.getMonth() + 1)}${pad(date.getDate())}.${pad(date.getHours())}${pad(date.getMinutes())}${pad(date.getSeconds())}`;
}

/** Writes every thread's profile into `folder` (created); the files in the threads' order. */
export function writeCapture(threads: readonly CapturedThread[], kind: CaptureKind, folder: string, when = new Date()): { file: string; thread: CapturedThread }[] {
  mkdirSync(folder, { recursive: true });
  const prefix = kind === 'cpu' ? 'CPU' : 'Heap';
  const extension = kind === 'cpu' ? '.cpuprofile' : '.heapprofile';
  const at = stamp(when);
  return threads.map((thread) => {
    const file = join(folder, `${prefix}.${at}.${thread.pid}.${thread.threadId}.001${extension}`);
    writeFileSync(file, JSON.stringify(thread.profile));
    // Beside a CPU profile's main thread, what it served (server/attach/servingObserver.ts), as `hotframe record` keeps it.
    if (thread.serving !== undefined) writeFileSync(file + SERVING_SUFFIX, JSON.stringify(thread.serving));
    return { file, thread };
  });
}
