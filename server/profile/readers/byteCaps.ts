// The byte caps on profile files, in one place (docs/security.md lists them): they bound the time
// and memory a file can cost, whatever it holds. Readers also bound what they build from it.
import { formatCap } from '../../shared/guardedRead';

const MiB = 1024 * 1024;

/**
 * JSON read through a window, never held whole (a plain `.cpuprofile` or trace, scanCpuprofile.ts,
 * scanTrace.ts): memory is what the profile becomes, about the file's size at most (samples as
 * 32-bit integers, nodes in flat arrays). Past V8's longest string (about 512 MiB), which no
 * JSON.parse can reach.
 */
export const MAX_STREAMED_JSON_BYTES = 3 * 1024 * MiB;
/** A raw V8 log, plain or after gunzip, read line by line; memory is about twice that at most. */
export const MAX_LOG_BYTES = 512 * MiB;
/** The longest V8 log line (a script-source line holds a whole script, escaped). */
export const MAX_LOG_LINE_CHARS = 64 * MiB;
/** JSON held whole (gunzipped, or parsed by JSON.parse) takes several times its size in memory. */
export const MAX_JSON_BYTES = 256 * MiB;
/** pprof is decoded from one buffer (gunzipped): larger files are refused rather than exhaust memory. */
export const MAX_PPROF_BYTES = 512 * MiB;
/** The largest file opened at all (before its format is known): the largest cap above. */
export const MAX_PROFILE_FILE_BYTES = Math.max(MAX_STREAMED_JSON_BYTES, MAX_LOG_BYTES, MAX_PPROF_BYTES);

export { formatCap };
