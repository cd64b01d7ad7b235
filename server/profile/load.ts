// The one entry point for reading a profile file. The format is recognized by content, never
// by name: gzip magic -> gunzip, then JSON (a cpuprofile, read from its bytes by
// scanCpuprofile when it has the usual shape; `--prof-process --preprocess` output; a DevTools
// trace with ProfileChunk events) or a raw V8 log (`node --prof`), read as a stream of lines.
import { open, readFile, stat } from 'node:fs/promises';
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { ProfileInputError } from './profileInputError';
import { buildCpuprofile, readCpuprofile, findCpuprofile, isLegacyCpuprofile, readLegacyCpuprofile, readTraceProfile, type CpuprofileParts } from './readCpuprofile';
import { readPreprocessed, isPreprocessed } from './readPreprocessed';
import { scanCpuprofile } from './scanCpuprofile';
import { V8LogReader } from './readV8Log';
import type { NormalizedProfile } from './types';

export interface LoadOptions {
  signal?: AbortSignal;
  /** Called with 0..1 as the file is read. */
  onProgress?: (fraction: number) => void;
  /** V8 logs: name C++ frames of the running Node binary with `nm` (default true). */
  nativeSymbols?: boolean;
  /** V8 logs: functions TurboFan inlined become frames of their own (default true; see V8LogOptions). */
  inlinedFrames?: boolean;
  /** Traces with several threads: the thread to read ("pid:tid", tid or name); default the busiest. */
  thread?: string;
}

const GZIP_MAGIC = [0x1f, 0x8b];
/** How much of the text is looked at to recognize a V8 log. */
const SNIFF_BYTES = 64 * 1024;

export async function loadProfile(path: string, options: LoadOptions = {}): Promise<NormalizedProfile> {
  const { signal } = options;
  signal?.throwIfAborted();
  const size = await fileSize(path);
  if (size === 0) throw new ProfileInputError(`${path}: empty file`);
  const head = await readHead(path, Math.min(size, SNIFF_BYTES));
  const gzipped = head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1];
  const chunks = byteChunks(path, size, gzipped, options);

  // Look at the first decoded bytes to choose the reader.
  const first = await chunks.next();
  if (first.done || first.value.length === 0) throw new ProfileInputError(`${path}: empty file${gzipped ? ' (after gunzip)' : ''}`);
  const start = first.value;
  const firstChar = start[skipWhitespace(start)];
  if (firstChar === 0x7b /* { */ || firstChar === 0x5b /* [ */) {
    // The usual cpuprofile is read from its bytes (a plain file through a small window);
    // anything else is parsed whole.
    let bytes: Buffer | undefined;
    let parts: CpuprofileParts | null;
    if (gzipped) {
      bytes = await collect(start, chunks);
      signal?.throwIfAborted();
      parts = scanCpuprofile(bytes);
    } else {
      await chunks.return(undefined);
      parts = scanFile(path, size, options);
      if (parts === null) bytes = await readFile(path).catch((error: unknown) => Promise.reject(asInputError(path, error)));
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
    else if (isLegacyCpuprofile(json)) profile = readLegacyCpuprofile(json as { head: Record<string, unknown> } & Record<string, unknown>, path);
    else if (isPreprocessed(json)) profile = await readPreprocessed(json, path, { inlinedFrames: options.inlinedFrames });
    else {
      const trace = readTraceProfile(json, path, options.thread);
      if (trace === undefined) throw new ProfileInputError(`not a CPU profile: ${path} is JSON without "nodes" or "head" (cpuprofile) or "code"/"ticks" (--prof-process --preprocess) or a trace with ProfileChunk / CpuProfile events`);
      profile = trace;
    }
    options.onProgress?.(1);
    return profile;
  }
  const text = start.toString('latin1', 0, Math.min(start.length, SNIFF_BYTES));
  if (!(text.startsWith('v8-version,') || text.includes('\ncode-creation,') || text.startsWith('code-creation,') || text.startsWith('shared-library,'))) {
    throw new ProfileInputError(`not a CPU profile: ${path} is neither JSON nor a V8 log (starts with ${describeStart(start)})`);
  }
  const reader = new V8LogReader(path, { nativeSymbols: options.nativeSymbols, inlinedFrames: options.inlinedFrames });
  // V8 escapes everything outside printable ASCII in its log, so latin1 decodes it exactly.
  let rest = '';
  const feed = (chunk: Buffer): void => {
    const text = rest + chunk.toString('latin1');
    let from = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', from)) {
      const end = nl > from && text.charCodeAt(nl - 1) === 13 /* \r */ ? nl - 1 : nl;
      // Ticks are read in place; other lines are few.
      if (text.startsWith('tick,', from)) reader.tickAt(text, from, end);
      else reader.line(text.slice(from, end));
      from = nl + 1;
    }
    rest = text.slice(from);
  };
  feed(start);
  for (let next = await chunks.next(); !next.done; next = await chunks.next()) feed(next.value);
  if (rest.length > 0) reader.line(rest);
  signal?.throwIfAborted();
  const profile = await reader.finish();
  options.onProgress?.(1);
  return profile;
}

async function fileSize(path: string): Promise<number> {
  try {
    const info = await stat(path);
    if (info.isDirectory()) throw new ProfileInputError(`${path}: is a directory, not a profile file`);
    return info.size;
  } catch (error) {
    throw asInputError(path, error);
  }
}

async function readHead(path: string, length: number): Promise<Buffer> {
  const handle = await open(path, 'r').catch((error: unknown) => {
    throw asInputError(path, error);
  });
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The file's bytes (gunzipped when needed), chunk by chunk, reporting progress and honouring the signal. */
async function* byteChunks(path: string, size: number, gzipped: boolean, options: LoadOptions): AsyncGenerator<Buffer> {
  // Small chunks keep each decoded string out of V8's large-object space (memory of the log reader).
  const file = createReadStream(path, { highWaterMark: 64 * 1024 });
  let read = 0;
  file.on('data', (chunk) => {
    read += chunk.length;
    options.onProgress?.(Math.min(0.99, (read / size) * 0.9));
  });
  const source = gzipped ? file.pipe(createGunzip()) : file;
  if (gzipped) file.on('error', (error) => source.destroy(error));
  try {
    for await (const chunk of source) {
      options.signal?.throwIfAborted();
      yield chunk as Buffer;
    }
  } catch (error) {
    if (options.signal?.aborted) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'Z_BUF_ERROR' || /unexpected end of file/i.test(String((error as Error).message))) throw new ProfileInputError(`${path}: truncated gzip data`);
    if (typeof code === 'string' && code.startsWith('Z_')) throw new ProfileInputError(`${path}: corrupt gzip data (${(error as Error).message})`);
    throw asInputError(path, error);
  } finally {
    file.destroy();
  }
}

/** Scans a plain file with synchronous reads through the scanner's window (progress and abort per read). */
function scanFile(path: string, size: number, options: LoadOptions): CpuprofileParts | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw asInputError(path, error);
  }
  let read = 0;
  try {
    return scanCpuprofile({
      read(target, offset, length) {
        options.signal?.throwIfAborted();
        const n = readSync(fd, target, offset, length, null);
        read += n;
        options.onProgress?.(Math.min(0.9, (read / size) * 0.9));
        return n;
      },
    });
  } finally {
    closeSync(fd);
  }
}

/** All (gunzipped) bytes in one buffer. */
async function collect(first: Buffer, rest: AsyncGenerator<Buffer>): Promise<Buffer> {
  const parts = [first];
  for (let next = await rest.next(); !next.done; next = await rest.next()) parts.push(next.value);
  return Buffer.concat(parts);
}

function parseJson(path: string, bytes: Buffer, gzipped: boolean): unknown {
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

function describeStart(bytes: Buffer): string {
  const head = bytes.subarray(0, 16);
  const printable = head.every((b) => (b >= 0x20 && b < 0x7f) || b === 0x0a || b === 0x0d || b === 0x09);
  if (printable) return JSON.stringify(head.toString('latin1'));
  return `bytes ${bytes.subarray(0, 8).toString('hex').replace(/(..)/g, '$1 ').trim()}`;
}

function asInputError(path: string, error: unknown): Error {
  if (error instanceof ProfileInputError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return new ProfileInputError(`${path}: no such file`);
  if (code === 'EACCES' || code === 'EPERM') return new ProfileInputError(`${path}: permission denied`);
  if (code === 'EISDIR') return new ProfileInputError(`${path}: is a directory, not a profile file`);
  return new ProfileInputError(`${path}: cannot read (${code ?? (error as Error)?.message ?? 'unknown error'})`);
}
