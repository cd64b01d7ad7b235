// A --trace-gc output on disk: recognised by its first bytes (a collection line among them, the
// way load.ts recognises profiles), read within one byte cap, summarized (gcTrace.ts). The CLI's
// `hotframe profile FILE` and the editor's profile worker both read traces through here.
import { closeSync } from 'node:fs';

import { GuardedReadError, openRegularFile, readHead, readOpenFile } from '../../shared/guardedRead';
import { InputError } from '../../shared/errors';
import { looksLikeGcTrace, readGcTrace, summarizeGcTrace, type GcTraceSummary } from './gcTrace';

/** A trace of a long run is a line per collection: 64 MiB is hours of a busy service. */
export const MAX_GC_TRACE_BYTES = 64 * 1024 * 1024;
/** How much of a file is looked at to tell a trace from a profile. */
const SNIFF_BYTES = 4096;

/** The summary of `path` when it is a --trace-gc output; null when it is something else (a profile, a folder). */
export function gcTraceOf(path: string): GcTraceSummary | null {
  let text: string;
  try {
    const file = openRegularFile(path);
    try {
      if (!looksLikeGcTrace(readHead(file, SNIFF_BYTES).toString('utf8'))) return null;
      text = readOpenFile(file, MAX_GC_TRACE_BYTES).toString('utf8');
    } finally {
      closeSync(file.fd);
    }
  } catch (error) {
    // Not readable as a regular file: the profile readers say why, in their words.
    if (error instanceof GuardedReadError) {
      if (error.reason === 'too large') throw new InputError(`${path}: a --trace-gc output over ${MAX_GC_TRACE_BYTES / 1024 / 1024} MiB`);
      return null;
    }
    throw error;
  }
  return summarizeGcTrace(readGcTrace(text));
}

/**
 * The trace a recording saved (Hotframe wrote it: the sweep's `trace-gc.log`), summarized even
 * when it holds no collection (a run that allocated little): zero collections, not "not a trace".
 */
export function savedGcTraceOf(path: string): GcTraceSummary {
  const file = openRegularFile(path);
  try {
    return summarizeGcTrace(readGcTrace(readOpenFile(file, MAX_GC_TRACE_BYTES).toString('utf8')));
  } finally {
    closeSync(file.fd);
  }
}
