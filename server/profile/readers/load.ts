// The one entry point for reading a profile file. The format is recognized by content, never
// by name: gzip magic -> gunzip, then JSON (a cpuprofile, read from its bytes by
// scanCpuprofile when it has the usual shape; `--prof-process --preprocess` output; a DevTools
// trace with ProfileChunk events; a sampling heap profile), a raw V8 log (`node --prof`), read as
// a stream of lines, or else pprof protobuf (read whole, within MAX_PPROF_BYTES).
import { closeSync, read, readSync } from 'node:fs';
import { pipeline, Readable } from 'node:stream';
import { promisify } from 'node:util';
import { createGunzip, type Gunzip } from 'node:zlib';
import { errnoCode, errnoReason } from '../../shared/errors';
import { formatCap, GuardedReadError, openRegularFile, readHead, readOpenFile, type RegularFile } from '../../shared/guardedRead';
import { countJsonContainers, countJsonValues, jsonContainerBudget, jsonValueBudget } from './budgets';
import { ProfileInputError } from './profileInputError';
import { buildCpuprofile, readCpuprofile, findCpuprofile, isLegacyCpuprofile, readLegacyCpuprofile, type CpuprofileParts } from './readCpuprofile';
import { readTraceProfile } from './readTrace';
import { isHeapProfile, readHeapProfile } from './readHeapProfile';
import { NotPprofError, readPprof } from './readPprof';
import { readPreprocessed, isPreprocessed } from './readPreprocessed';
import { scanCpuprofile, type ByteSource } from './scanCpuprofile';
import { scanTrace } from './scanTrace';
import { MAX_JSON_BYTES, MAX_LOG_BYTES, MAX_LOG_LINE_CHARS, MAX_PPROF_BYTES, MAX_PROFILE_FILE_BYTES, MAX_STREAMED_JSON_BYTES } from './byteCaps';
import { V8LogReader } from './readV8Log';
import { PerfStackReader, sniffPerfText } from './readPerfScript';
import type { NormalizedProfile } from '../model/types';
import { withoutRecorderFrames } from '../model/recorderFrames';

export interface LoadOptions {
  signal?: AbortSignal;
  /** Called with 0..1 as the file is read. */
  onProgress?: (fraction: number) => void;
  /** V8 logs: name C++ frames of the running Node binary with `nm` (default true). */
  nativeSymbols?: boolean;
  /** pprof: the sample type to read ('wall', 'space', 'inuse_space/bytes'); default: the profile's default, else its last. */
  sampleType?: string;
  /** V8 logs: functions TurboFan inlined become frames of their own (default true; see V8LogOptions). */
  inlinedFrames?: boolean;
  /** Traces with several threads: the thread to read ("pid:tid", tid or name); default the busiest. */
  thread?: string;
  /** V8 logs: whether a script the log names (but does not embed) may be read for its lines; default: none is read. */
  mayReadScript?: (path: string) => boolean;
}

const GZIP_MAGIC = [0x1f, 0x8b];
/** How much of the text is looked at to recognize a V8 log. */
const SNIFF_BYTES = 64 * 1024;
export async function loadProfile(path: string, options: LoadOptions = {}): Promise<NormalizedProfile> {
  options.signal?.throwIfAborted();
  // One descriptor for every read: the path is opened once, checked to be a regular file, and
  // never re-opened (it could be swapped for a FIFO or /dev/zero in between).
  let file: OpenProfile;
  try {
    file = { ...openRegularFile(path), readers: [] };
  } catch (error) {
    throw asInputError(path, error);
  }
  try {
    // Hotframe's own recorder is no part of the program it recorded: out of every view from here.
    return withoutRecorderFrames(await loadOpenProfile(file, options));
  } finally {
    // A reader left early (an error, a cap) is stopped before the descriptor goes.
    for (const reader of file.readers) await reader.return(undefined);
    closeSync(file.fd);
  }
}

/** The open profile file and the chunk readers started on it. */
interface OpenProfile extends RegularFile {
  readers: AsyncGenerator<Buffer>[];
}

async function loadOpenProfile(file: OpenProfile, options: LoadOptions): Promise<NormalizedProfile> {
  const { signal } = options;
  const { path, size } = file;
  if (size === 0) throw new ProfileInputError(`${path}: empty file`);
  const head = readHead(file, Math.min(size, SNIFF_BYTES));
  const gzipped = head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1];
  if (!gzipped && size > MAX_PROFILE_FILE_BYTES) throw new ProfileInputError(`${path}: larger than ${formatCap(MAX_PROFILE_FILE_BYTES)}; not read`);
  const chunks = byteChunks(file, gzipped, options);
  file.readers.push(chunks);

  // Look at the first decoded bytes to choose the reader.
  const first = await chunks.next();
  if (first.done || first.value.length === 0) throw new ProfileInputError(`${path}: empty file${gzipped ? ' (after gunzip)' : ''}`);
  const start = first.value;
  const firstChar = start[skipWhitespace(start)];
  if (firstChar === 0x7b /* { */ || firstChar === 0x5b /* [ */) {
    // The usual cpuprofile and traces are read from their bytes (a plain file through a small
    // window, so past what one string can hold); anything else is parsed whole.
    let bytes: Buffer | undefined;
    let parts: CpuprofileParts | null;
    if (gzipped) {
      bytes = await collect(path, start, chunks);
      signal?.throwIfAborted();
      parts = scanCpuprofile(bytes);
    } else {
      await chunks.return(undefined);
      parts = scanCpuprofile(fileSource(file, options));
      if (parts === null) {
        const trace = scanTrace(fileSource(file, options), undefined, { label: path });
        if (trace !== null) {
          const profile = trace.finish(path, options.thread);
          if (profile === undefined) throw new ProfileInputError(notAProfile(path));
          options.onProgress?.(1);
          return profile;
        }
        if (size > MAX_JSON_BYTES) throw new ProfileInputError(`${path}: JSON larger than ${formatCap(MAX_JSON_BYTES)} that is neither a cpuprofile nor a trace of the usual shape (only those are read streamed, up to ${formatCap(MAX_STREAMED_JSON_BYTES)}); not read`);
        bytes = readWholeJson(file);
      }
    }
    if (parts !== null) {
      bytes = undefined;
      const profile = buildCpuprofile(parts, path);
      options.onProgress?.(1);
      return profile;
    }
    const json = parseJson(path, bytes as Buffer, gzipped);
    bytes = undefined;
    signal?.throwIfAborted();
    let profile: NormalizedProfile;
    if (findCpuprofile(json) !== undefined) profile = readCpuprofile(json, path);
    // A heap profile has a `head` tree too: it is told apart from the legacy cpuprofile by its selfSize.
    else if (isHeapProfile(json)) profile = readHeapProfile(json, path);
    else if (isLegacyCpuprofile(json)) profile = readLegacyCpuprofile(json as { head: Record<string, unknown> } & Record<string, unknown>, path);
    else if (isPreprocessed(json)) profile = await readPreprocessed(json, path, { inlinedFrames: options.inlinedFrames });
    else {
      const trace = readTraceProfile(json, path, options.thread, MAX_JSON_BYTES);
      if (trace === undefined) throw new ProfileInputError(notAProfile(path));
      profile = trace;
    }
    options.onProgress?.(1);
    return profile;
  }
  const text = start.toString('latin1', 0, Math.min(start.length, SNIFF_BYTES));
  if (!(text.startsWith('v8-version,') || text.includes('\ncode-creation,') || text.startsWith('code-creation,') || text.startsWith('shared-library,'))) {
    // pprof protobuf starts with a field tag; anything else is not a profile we know.
    const unknown = `not a CPU profile: ${path} is neither JSON, a V8 log, perf script output, folded stacks nor pprof (${describeStart(start)})`;
    const perf = sniffPerfText(text);
    if (perf !== null) {
      const reader = new PerfStackReader(path, perf);
      // perf writes symbols and paths in UTF-8: each line is decoded whole (a chunk may cut a character).
      await eachLine(path, start, chunks, perf === 'folded' ? 'folded stacks' : 'perf script output', (bytes, from, end) => reader.line(bytes.toString('utf8', from, end)));
      signal?.throwIfAborted();
      const profile = reader.finish();
      options.onProgress?.(1);
      return profile;
    }
    if (!PROTOBUF_FIRST_TAGS.has(start[0])) throw new ProfileInputError(unknown);
    const bytes = await collect(path, start, chunks, MAX_PPROF_BYTES, 'pprof', gzipped);
    signal?.throwIfAborted();
    try {
      const profile = readPprof(bytes, path, { sampleType: options.sampleType });
      options.onProgress?.(1);
      return profile;
    } catch (error) {
      throw error instanceof NotPprofError ? new ProfileInputError(unknown) : error;
    }
  }
  const reader = new V8LogReader(path, { nativeSymbols: options.nativeSymbols, inlinedFrames: options.inlinedFrames, mayReadScript: options.mayReadScript });
  // V8 escapes everything outside printable ASCII in its log, so latin1 decodes it exactly.
  await eachLine(path, start, chunks, 'a V8 log', (bytes, from, end) => {
    // Ticks are read in place, from their bytes; other lines are few.
    if (end - from >= 5 && bytes[from] === 0x74 && bytes[from + 1] === 0x69 && bytes[from + 2] === 0x63 && bytes[from + 3] === 0x6b && bytes[from + 4] === 0x2c /* tick, */) reader.tickAt(bytes, from, end);
    else reader.line(bytes.toString('latin1', from, end));
  });
  signal?.throwIfAborted();
  const profile = await reader.finish();
  options.onProgress?.(1);
  return profile;
}

/**
 * Calls `onLine` with each line of the (gunzipped) bytes, its end before any \r, in place in the
 * chunk that holds it (undecoded: the caller decodes what it needs); a line longer than
 * MAX_LOG_LINE_CHARS bytes is refused as not being `what`.
 */
async function eachLine(path: string, start: Buffer, chunks: AsyncGenerator<Buffer>, what: string, onLine: (bytes: Buffer, from: number, end: number) => void): Promise<void> {
  // A line not yet ended, in pieces (each chunk is a buffer of its own: never reused), joined
  // once its end arrives, not re-copied per chunk.
  const partial: Buffer[] = [];
  let partialLength = 0;
  const keep = (piece: Buffer): void => {
    partial.push(piece);
    partialLength += piece.length;
    if (partialLength > MAX_LOG_LINE_CHARS) throw new ProfileInputError(`${path}: a line longer than ${formatCap(MAX_LOG_LINE_CHARS)}; not ${what}`);
  };
  const line = (bytes: Buffer, from: number, nl: number): void => onLine(bytes, from, nl > from && bytes[nl - 1] === 13 /* \r */ ? nl - 1 : nl);
  const feed = (chunk: Buffer): void => {
    let from = 0;
    if (partial.length > 0) {
      const nl = chunk.indexOf(10 /* \n */);
      if (nl === -1) return keep(chunk);
      partial.push(chunk.subarray(0, nl));
      partialLength += nl;
      const joined = Buffer.concat(partial, partialLength);
      partial.length = 0;
      partialLength = 0;
      line(joined, 0, joined.length);
      from = nl + 1;
    }
    for (let nl = chunk.indexOf(10, from); nl !== -1; nl = chunk.indexOf(10, from)) {
      line(chunk, from, nl);
      from = nl + 1;
    }
    if (from < chunk.length) keep(chunk.subarray(from));
  };
  feed(start);
  for (let next = await chunks.next(); !next.done; next = await chunks.next()) feed(next.value);
  if (partial.length > 0) {
    const last = Buffer.concat(partial, partialLength);
    onLine(last, 0, last.length);
  }
}

function notAProfile(path: string): string {
  return `not a CPU profile: ${path} is JSON without "nodes" or "head" (cpuprofile) or "code"/"ticks" (--prof-process --preprocess) or "head" with "selfSize" (heap profile) or a trace with ProfileChunk / CpuProfile events`;
}

/** The file's bytes (gunzipped when needed), chunk by chunk, reporting progress, honouring the signal and the cap. */
async function* byteChunks(file: RegularFile, gzipped: boolean, options: LoadOptions): AsyncGenerator<Buffer> {
  const { path } = file;
  const plain = fileChunks(file, options);
  let gunzip: Gunzip | undefined;
  if (gzipped) {
    gunzip = createGunzip();
    pipeline(Readable.from(plain), gunzip, () => {}); // an error reaches the loop below through gunzip
  }
  let decoded = 0;
  try {
    for await (const chunk of gunzip ?? plain) {
      options.signal?.throwIfAborted();
      decoded += (chunk as Buffer).length;
      // A gzip bomb (a few MB that inflate to gigabytes) stops here, a chunk past the cap.
      if (decoded > MAX_LOG_BYTES) throw new ProfileInputError(`${path}: larger than ${formatCap(MAX_LOG_BYTES)}${gzipped ? ' after gunzip' : ''}; not read`);
      yield chunk as Buffer;
    }
  } catch (error) {
    if (options.signal?.aborted || error instanceof ProfileInputError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'Z_BUF_ERROR' || /unexpected end of file/i.test(String((error as Error).message))) throw new ProfileInputError(`${path}: truncated gzip data`);
    if (typeof code === 'string' && code.startsWith('Z_')) throw new ProfileInputError(`${path}: corrupt gzip data (${(error as Error).message})`);
    throw asInputError(path, error);
  } finally {
    gunzip?.destroy();
  }
}

const readAt = promisify(read);

/**
 * Bytes per read. Lines are read from the bytes (no chunk is decoded whole), so a chunk can be
 * large: each read is a round trip to libuv's pool, and a busy machine makes the thread that
 * reads wait for a core (64 KB chunks left a V8 log's reader idle for 90 ms of a run at load 5).
 */
export const CHUNK_BYTES = 1024 * 1024;

/**
 * The plain bytes of the open file in CHUNK_BYTES chunks, by positional reads from the descriptor
 * already checked; loadProfile closes it. The next chunk is read (in libuv's pool) while the
 * caller reads this one; no read is left under way once the chunks end or the caller stops.
 */
async function* fileChunks(file: RegularFile, options: LoadOptions): AsyncGenerator<Buffer> {
  const readChunk = (position: number): Promise<{ bytesRead: number; buffer: Buffer }> => readAt(file.fd, Buffer.allocUnsafe(CHUNK_BYTES), 0, CHUNK_BYTES, position);
  let next: Promise<{ bytesRead: number; buffer: Buffer }> | null = readChunk(0);
  try {
    for (let position = 0; ; ) {
      const { bytesRead, buffer }: { bytesRead: number; buffer: Buffer } = await next;
      next = null;
      if (bytesRead === 0) return;
      position += bytesRead;
      next = readChunk(position);
      options.onProgress?.(Math.min(0.99, (position / file.size) * 0.9));
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    // Stopped early (an error, the cap, an abort): the read under way ends before the file is closed.
    if (next !== null) await next.catch(() => undefined);
  }
}

/** A plain file from its start, by synchronous reads for the streamed scanners (progress, abort and the cap per read). */
function fileSource(file: RegularFile, options: LoadOptions): ByteSource {
  let read = 0;
  return {
    read(target, offset, length) {
      options.signal?.throwIfAborted();
      const n = readSync(file.fd, target, offset, length, read);
      read += n;
      if (read > MAX_STREAMED_JSON_BYTES) throw new ProfileInputError(`${file.path}: larger than ${formatCap(MAX_STREAMED_JSON_BYTES)}; not read`);
      options.onProgress?.(Math.min(0.9, (read / file.size) * 0.9));
      return n;
    },
  };
}

/** A plain JSON file whole, for JSON.parse, within MAX_JSON_BYTES. */
function readWholeJson(file: RegularFile): Buffer {
  try {
    return readOpenFile(file, MAX_JSON_BYTES);
  } catch (error) {
    throw asInputError(file.path, error);
  }
}

/** Field tags (field << 3 | wire type) a pprof Profile message can start with: fields 1-14, varint or length-delimited. */
const PROTOBUF_FIRST_TAGS = new Set(Array.from({ length: 14 }, (_, i) => i + 1).flatMap((field) => [(field << 3) | 0, (field << 3) | 2]));

/** All (gunzipped) bytes in one buffer, within `cap` (JSON: MAX_JSON_BYTES; pprof: MAX_PPROF_BYTES). */
async function collect(path: string, first: Buffer, rest: AsyncGenerator<Buffer>, cap = MAX_JSON_BYTES, what = 'JSON', gzipped = true): Promise<Buffer> {
  const parts = [first];
  let length = first.length;
  for (let next = await rest.next(); !next.done; next = await rest.next()) {
    length += next.value.length;
    if (length > cap) {
      await rest.return(undefined);
      throw new ProfileInputError(`${path}: ${what} larger than ${formatCap(cap)}${gzipped ? ' after gunzip' : ''}; not read`);
    }
    parts.push(next.value);
  }
  return Buffer.concat(parts);
}

function parseJson(path: string, bytes: Buffer, gzipped: boolean): unknown {
  // What the bytes become: JSON.parse builds every object at once, so count them first.
  const budget = jsonContainerBudget(MAX_JSON_BYTES);
  if (countJsonContainers(bytes, budget) > budget) {
    throw new ProfileInputError(`${path}: more than ${budget.toLocaleString('en-US')} JSON objects and arrays${gzipped ? ' (after gunzip)' : ''}; not read (the budget for JSON read whole, docs/security.md)`);
  }
  const values = jsonValueBudget(MAX_JSON_BYTES);
  if (countJsonValues(bytes, values) > values) {
    throw new ProfileInputError(`${path}: more than ${values.toLocaleString('en-US')} JSON values${gzipped ? ' (after gunzip)' : ''}; not read (the budget for JSON read whole, docs/security.md)`);
  }
  let text: string | undefined = bytes.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const length = bytes.length;
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const at = /position (\d+)/.exec(message);
    const inner = gzipped ? ' (after gunzip)' : '';
    if (at === null) {
      if (/end of JSON/.test(message)) throw new ProfileInputError(`${path}: truncated JSON at byte ${length}${inner}`);
      // V8 names the token but not always its position; the token is quoted as data.
      const token = /^Unexpected token '(.)'/u.exec(message);
      throw new ProfileInputError(`${path}: invalid JSON${token === null ? '' : ` (unexpected ${JSON.stringify(token[1])})`}${inner}`);
    }
    if (Number(at[1]) >= text.length) throw new ProfileInputError(`${path}: truncated JSON at byte ${length}${inner}`);
    const byte = Buffer.byteLength(text.slice(0, Number(at[1])));
    throw new ProfileInputError(`${path}: invalid JSON at byte ${byte}${inner}`);
  } finally {
    text = undefined;
  }
}

function skipWhitespace(bytes: Buffer): number {
  let i = 0;
  // A UTF-8 byte order mark is allowed before the JSON.
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) i = 3;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)) i++;
  return i;
}

/**
 * What the file is, in words, never its bytes: the path may be a link to any file (a token, a
 * key), and the message reaches notifications and CI logs.
 */
function describeStart(bytes: Buffer): string {
  if (bytes.length === 0) return 'it is empty';
  const head = bytes.subarray(0, 64);
  const printable = head.every((b) => (b >= 0x20 && b < 0x7f) || b === 0x0a || b === 0x0d || b === 0x09 || b >= 0x80);
  return printable ? 'it starts with other text' : 'it starts with binary data';
}

/** A profile file the system would not read, in the words of every other unreadable file (server/shared/errors.ts). */
export function asInputError(path: string, error: unknown): Error {
  if (error instanceof ProfileInputError) return error;
  const code = error instanceof GuardedReadError ? error.code : errnoCode(error);
  if (code === 'EISDIR') return new ProfileInputError(`${path}: is a directory, not a profile file`);
  return new ProfileInputError(error instanceof GuardedReadError ? error.message : `${path}: ${errnoReason(error)}`);
}
