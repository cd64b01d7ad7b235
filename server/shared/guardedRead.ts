// The one way Hotframe reads a file it did not write: a profile, a log, a source map, a script a
// profile names, a module a document imports, a file given to the CLI. Every such file is
// untrusted (docs/security.md). The rules:
//  - open once, without blocking (O_NONBLOCK: opening a FIFO for reading must not wait for a
//    writer) and without taking a terminal (O_NOCTTY);
//  - fstat the descriptor that was opened (not the path, which may be swapped meanwhile) and
//    refuse anything that is not a regular file: /dev/zero, /dev/stdin, FIFOs, sockets and links
//    to them report a size of 0 and never end;
//  - read at most a cap, counting the bytes actually read (a regular file may grow while it is
//    read; /proc files say 0 and hold more);
//  - fail with one line that names the file and the reason, never a stack or the file's bytes.
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';

import { errnoReason } from './errors';

/** Why a file was not read, in one line (`<path>: <reason>`). */
export class GuardedReadError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
    /** The errno code when the operating system refused (ENOENT, EACCES...). */
    readonly code?: string,
  ) {
    super(`${path}: ${reason}`.replace(/[\r\n\u2028\u2029]+/g, ' '));
    this.name = 'GuardedReadError';
  }
}

// O_NONBLOCK and O_NOCTTY do not exist on Windows, where FIFOs are not opened by path anyway.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

const MB = 1024 * 1024;

/** "512 MiB", "64 KiB": caps are round numbers, in the binary units format.ts writes sizes in. */
export function formatCap(bytes: number): string {
  return bytes >= MB ? `${Math.round(bytes / MB)} MiB` : `${Math.round(bytes / 1024)} KiB`;
}

function kindOf(stats: Stats): string {
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  return 'a special file';
}

function reasonOf(error: unknown): { reason: string; code?: string } {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return { reason: errnoReason(error), code };
}

/** An open regular file: its descriptor and the size fstat gave when it was opened. */
export interface RegularFile {
  fd: number;
  size: number;
  path: string;
}

/** Opens `path` for reading if it is a regular file; the caller closes `fd`. */
export function openRegularFile(path: string): RegularFile {
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (error) {
    const { reason, code } = reasonOf(error);
    throw new GuardedReadError(path, reason, code);
  }
  try {
    const stats = fstatSync(fd);
    if (stats.isDirectory()) throw new GuardedReadError(path, 'is a directory', 'EISDIR');
    if (!stats.isFile()) throw new GuardedReadError(path, `not a regular file (${kindOf(stats)})`);
    return { fd, size: stats.size, path };
  } catch (error) {
    closeSync(fd);
    if (error instanceof GuardedReadError) throw error;
    const { reason, code } = reasonOf(error);
    throw new GuardedReadError(path, reason, code);
  }
}

/** The error for a file over its cap. */
export function tooLarge(path: string, maxBytes: number, what = ''): GuardedReadError {
  return new GuardedReadError(path, `larger than ${formatCap(maxBytes)}${what}; not read`);
}

/**
 * Reads from an open regular file, from `position` on, at most `maxBytes` (more is an error).
 * Bytes are counted as they arrive, whatever fstat said.
 */
export function readOpenFile(file: RegularFile, maxBytes: number, position = 0): Buffer {
  // Start from what fstat promised (within the cap), plus one byte to see the end; grow if it lied.
  let buffer = Buffer.allocUnsafe(Math.min(maxBytes, Math.max(0, file.size - position)) + 1);
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (length > maxBytes) break;
      const grown = Buffer.allocUnsafe(Math.min(maxBytes + 1, Math.max(64 * 1024, length * 2)));
      buffer.copy(grown, 0, 0, length);
      buffer = grown;
    }
    let n: number;
    try {
      n = readSync(file.fd, buffer, length, buffer.length - length, position + length);
    } catch (error) {
      const { reason, code } = reasonOf(error);
      throw new GuardedReadError(file.path, reason, code);
    }
    if (n === 0) break;
    length += n;
  }
  if (length > maxBytes) throw tooLarge(file.path, maxBytes);
  return buffer.subarray(0, length);
}

/** The bytes of a regular file of at most `maxBytes`, or a GuardedReadError. */
export function readGuarded(path: string, maxBytes: number): Buffer {
  const file = openRegularFile(path);
  try {
    return readOpenFile(file, maxBytes);
  } finally {
    closeSync(file.fd);
  }
}

/** The UTF-8 text of a regular file of at most `maxBytes`, or a GuardedReadError. */
export function readGuardedText(path: string, maxBytes: number): string {
  return readGuarded(path, maxBytes).toString('utf8');
}

/** As readGuardedText, with null instead of an error (probes where absence is normal). */
export function tryReadGuardedText(path: string, maxBytes: number): string | null {
  try {
    return readGuardedText(path, maxBytes);
  } catch {
    return null;
  }
}

/** The first `length` bytes of an open file (fewer when it is shorter). */
export function readHead(file: RegularFile, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  let read = 0;
  try {
    while (read < length) {
      const n = readSync(file.fd, buffer, read, length - read, read);
      if (n === 0) break;
      read += n;
    }
  } catch (error) {
    const { reason, code } = reasonOf(error);
    throw new GuardedReadError(file.path, reason, code);
  }
  return buffer.subarray(0, read);
}
