// Names for C++ code in a V8 log, from the symbol table of Node's binary, e.g.
// v8::internal::Runtime_DateCurrentTime or node::EnvQuery. A binary at the same path on another
// machine or from another release would give wrong names, which is worse than none: names are
// only used when the embedded builtins the log created (code-creation Builtin lines) sit at the
// addresses the table gives their Builtins_* symbols.
// An ELF binary's table is read directly (elfSymbols.ts): only its fixed-size entries, and the
// names of the few symbols ticks fell in, which c++filt then demangles (one run over those names,
// given on its stdin). Other binaries (Mach-O) go through `nm -C -n -S`, whose output is streamed
// and matched against the sorted addresses that need a name, so no table is kept in memory.
// The library's path comes from the log, which is untrusted (docs/security.md): it is read only
// as an absolute path to a regular file with an ELF or Mach-O header; nm runs only on such a path
// (so neither `--plugin=x.so` nor a response file `@x` can be an option), after `--`; c++filt gets
// no argument at all (the binary's names are its input, never options). Both run with a minimal
// environment, a time limit and a cap on their output, found in a fixed list of system folders,
// never through PATH (an empty PATH entry means the current folder, and Windows looks in the
// child's folder first), and run in `/`, not in a folder the log names. Anything else leaves the
// frames named by their library, with a warning.
import { spawn, type ChildProcess, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { closeSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, parse } from 'node:path';
import { openRegularFile, readHead } from '../../shared/guardedRead';
import { ElfError, readElfCodeSymbols } from './elfSymbols';

/** nm on Node's binary takes about a second; a hung or endless nm (or c++filt) is stopped. */
const NM_TIMEOUT_MS = 20_000;
/** Node's demangled symbol table is ~40 MB; more is not a table we want. */
const NM_MAX_OUTPUT_BYTES = 256 * 1024 * 1024;
/** Distinct C++ names c++filt is given at most (one per native address ticked). */
const MAX_DEMANGLED = 100_000;

/** Where nm may come from: the system's own tool folders, in this order; never PATH, never a relative folder. */
export const SYSTEM_TOOL_FOLDERS: readonly string[] = ['/usr/bin', '/bin', '/usr/local/bin', '/opt/homebrew/bin', '/Library/Developer/CommandLineTools/usr/bin'];

/** The absolute path of `name` in the first of `folders` that holds it as an executable regular file, or null. */
export function findSystemTool(name: string, folders: readonly string[] = SYSTEM_TOOL_FOLDERS): string | null {
  for (const folder of folders) {
    if (!isAbsolute(folder)) continue;
    const candidate = join(folder, name);
    try {
      const stat = statSync(candidate);
      if (stat.isFile() && (stat.mode & 0o111) !== 0) return candidate;
    } catch {
      // not there: the next folder
    }
  }
  return null;
}

/** Why `library` must not be given to nm, or null when it may. */
export function refuseForNm(library: string): string | null {
  const kind = binaryKind(library);
  return kind === 'elf' || kind === 'mach-o' ? null : kind.refused;
}

/** An ELF or Mach-O file, by its first bytes; else why not. */
function binaryKind(library: string): 'elf' | 'mach-o' | { refused: string } {
  if (!isAbsolute(library)) return { refused: 'not an absolute path' };
  let head: Buffer;
  try {
    const file = openRegularFile(library);
    try {
      head = readHead(file, 4);
    } finally {
      closeSync(file.fd);
    }
  } catch (error) {
    return { refused: error instanceof Error ? error.message.slice(library.length + 2) : 'cannot be read' };
  }
  const magic = head.length === 4 ? head.readUInt32BE(0) : 0;
  const elf = magic === 0x7f454c46;
  // Mach-O 32/64 in either byte order, and universal ("fat") binaries.
  const machO = magic === 0xfeedface || magic === 0xfeedfacf || magic === 0xcefaedfe || magic === 0xcffaedfe || magic === 0xcafebabe;
  return elf ? 'elf' : machO ? 'mach-o' : { refused: 'not an ELF or Mach-O binary' };
}

export type NativeNames = { names: (string | undefined)[] } | { names: null; warning: string | null };

/**
 * Names of `addresses` (absolute, ascending) inside `library` loaded at `start`, index by index
 * (undefined between symbols); null names when the table may not or cannot be read (with a
 * warning for the report) or does not match the log's builtins (no warning: another binary).
 */
export async function nameNativeCode(
  library: string,
  start: number,
  addresses: Float64Array,
  builtins: ReadonlyMap<string, number>,
  toolFolders: readonly string[] = SYSTEM_TOOL_FOLDERS,
): Promise<NativeNames> {
  if (builtins.size === 0 || addresses.length === 0) return { names: null, warning: null };
  const kind = binaryKind(library);
  if (typeof kind === 'object') return { names: null, warning: `native frames of ${JSON.stringify(library)} are not named: ${kind.refused}, so nm is not run on it` };
  const notNamed = (why: string): NativeNames => ({ names: null, warning: `native frames of ${JSON.stringify(library)} are not named: ${why}` });
  // The table holds absolute addresses (a fixed-address binary) or offsets from the load address (PIE): try both.
  const hypotheses = [0, start].map((offset) => ({ offset, next: 0, names: new Array<string | undefined>(addresses.length), matches: 0, mismatches: 0 }));
  /** One symbol, in address order; its name is only made when an address needs it. */
  const symbol = (address: number, size: number, builtin: number | undefined, name: () => string): void => {
    for (const h of hypotheses) {
      const from = address + h.offset;
      const to = from + size;
      if (builtin !== undefined) {
        if (builtin === from) h.matches++;
        else h.mismatches++;
      }
      while (h.next < addresses.length && addresses[h.next] < from) h.next++;
      for (let k = h.next; k < addresses.length && addresses[k] < to; k++) h.names[k] = name();
    }
  };
  if (kind === 'elf') {
    let table;
    try {
      const file = openRegularFile(library);
      try {
        table = readElfCodeSymbols(file);
      } finally {
        closeSync(file.fd);
      }
    } catch (error) {
      return notNamed(error instanceof ElfError ? `its symbol table cannot be read (${error.message})` : 'it cannot be read');
    }
    // Which load offset the table is at: the one where every logged builtin sits at its Builtins_* symbol.
    const { address, size } = table;
    for (let i = 0; i < table.count; i++) {
      if (!table.nameStartsWith(i, 'Builtins_')) continue;
      const builtin = builtins.get(table.name(i).slice(9));
      if (builtin === undefined) continue;
      for (const h of hypotheses) {
        if (builtin === address[i] + h.offset) h.matches++;
        else h.mismatches++;
      }
    }
    const which = hypotheses.findIndex((h) => h.matches > 0 && h.mismatches === 0);
    if (which === -1) return { names: null, warning: null };
    // One pass over the table, in its own order, at that offset: each address gets the symbol nm
    // -n would list last among those covering it (the highest address, then the greatest name).
    const owners = new Int32Array(addresses.length).fill(-1);
    const lowest = addresses[0];
    const highest = addresses[addresses.length - 1];
    const offset = hypotheses[which].offset;
    const firstFrom = addressIndex(addresses);
    for (let i = 0; i < table.count; i++) {
      const from = address[i] + offset;
      const to = from + size[i];
      if (to <= lowest || from > highest || to <= from) continue;
      for (let k = firstFrom(from); k < addresses.length && addresses[k] < to; k++) {
        const o = owners[k];
        if (o === -1 || address[o] < address[i] || (address[o] === address[i] && table.compareNames(o, i) < 0)) owners[k] = i;
      }
    }
    const trusted = Array.from(owners, (o) => (o === -1 ? undefined : table.name(o)));
    // Only the names ticks fell in are demangled.
    const mangled = [...new Set(trusted.filter((n): n is string => n !== undefined && n.startsWith('_Z')))];
    const demangled = await demangle(mangled, toolFolders);
    if (typeof demangled === 'string') return notNamed(demangled);
    return { names: trusted.map((n) => (n === undefined ? undefined : shortName(demangled.get(n) ?? n))) };
  }
  const nmPath = findSystemTool('nm', toolFolders);
  if (nmPath === null) return notNamed(`nm is not installed (looked in ${toolFolders.join(', ')})`);
  const failure = await new Promise<string | null>((resolve) => {
    // nm by its absolute path; fixed options, `--`, then the one operand; no shell; a PATH of
    // system folders only and the C locale; the root folder as the working folder.
    const nm = spawnSystemTool(nmPath, ['-C', '-n', '-S', '--defined-only', '--', library], 'ignore', toolFolders);
    let rest = '';
    let output = 0;
    let stopped: string | null = null;
    nm.stdout.on('data', (chunk: Buffer) => {
      output += chunk.length;
      if (output > NM_MAX_OUTPUT_BYTES) {
        stopped ??= `nm printed more than ${NM_MAX_OUTPUT_BYTES / 1024 / 1024} MB`;
        nm.kill('SIGKILL');
        return;
      }
      const text = rest + chunk.toString('latin1');
      let from = 0;
      for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', from)) {
        // "000000000151c750 00000000000000ea T v8::internal::Runtime_DateCurrentTime(int, ...)"
        const a = text.indexOf(' ', from);
        const b = a === -1 || a > nl ? -1 : text.indexOf(' ', a + 1);
        const type = b === -1 ? 0 : text.charCodeAt(b + 1) | 0x20;
        if (b !== -1 && b + 3 < nl && text.charCodeAt(b + 2) === 32 && (type === 0x74 /* t */ || type === 0x77) /* w */) {
          const address = hexAt(text, from, a);
          const size = hexAt(text, a + 1, b);
          const nameStart = b + 3;
          const line = text;
          const builtin = line.startsWith('Builtins_', nameStart) ? builtins.get(line.slice(nameStart + 9, nl)) : undefined;
          const end = nl;
          if (!Number.isNaN(address) && !Number.isNaN(size)) symbol(address, size, builtin, () => shortName(line.slice(nameStart, end)));
        }
        from = nl + 1;
      }
      rest = text.slice(from);
    });
    nm.on('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ENOENT' ? 'nm is not installed' : `nm failed (${error.code ?? error.message})`));
    nm.on('close', (code, signal) => {
      if (stopped !== null) resolve(stopped);
      else if (signal !== null) resolve(`nm was stopped after ${NM_TIMEOUT_MS / 1000} s`);
      else resolve(code === 0 ? null : `nm exited with code ${code}`);
    });
  });
  if (failure !== null) return notNamed(failure);
  const trusted = hypotheses.find((h) => h.matches > 0 && h.mismatches === 0);
  return trusted === undefined ? { names: null, warning: null } : { names: trusted.names };
}

/**
 * A system tool (nm, c++filt) by its absolute path with fixed arguments: no shell, a PATH of the
 * system folders only and the C locale, the root folder as the working folder, a time limit.
 */
function spawnSystemTool(path: string, args: readonly string[], stdin: 'pipe', toolFolders: readonly string[]): ChildProcessByStdio<Writable, Readable, null>;
function spawnSystemTool(path: string, args: readonly string[], stdin: 'ignore', toolFolders: readonly string[]): ChildProcessByStdio<null, Readable, null>;
function spawnSystemTool(path: string, args: readonly string[], stdin: 'ignore' | 'pipe', toolFolders: readonly string[]): ChildProcess {
  return spawn(path, args, {
    stdio: [stdin, 'pipe', 'ignore'],
    env: { PATH: toolFolders.join(delimiter), LC_ALL: 'C' },
    cwd: parse(process.cwd()).root,
    timeout: NM_TIMEOUT_MS,
    killSignal: 'SIGKILL',
    windowsHide: true,
  });
}

/**
 * Demangled names of C++ symbols (`_Z...`), by one c++filt run with the names on its stdin, one a
 * line (a name never becomes an argument); a map from each name to its demangled form, or why not.
 */
async function demangle(names: readonly string[], toolFolders: readonly string[]): Promise<Map<string, string> | string> {
  const map = new Map<string, string>();
  // A name holding a line break would shift every answer after it: such names stay mangled.
  const asked = names.filter((n) => !/[\r\n]/.test(n)).slice(0, MAX_DEMANGLED);
  if (asked.length === 0) return map;
  const tool = findSystemTool('c++filt', toolFolders);
  if (tool === null) return `c++filt is not installed (looked in ${toolFolders.join(', ')})`;
  return new Promise((resolve) => {
    const filt = spawnSystemTool(tool, [], 'pipe', toolFolders);
    const chunks: Buffer[] = [];
    let output = 0;
    let stopped: string | null = null;
    filt.stdout.on('data', (chunk: Buffer) => {
      output += chunk.length;
      if (output > NM_MAX_OUTPUT_BYTES) {
        stopped ??= `c++filt printed more than ${NM_MAX_OUTPUT_BYTES / 1024 / 1024} MB`;
        filt.kill('SIGKILL');
        return;
      }
      chunks.push(chunk);
    });
    filt.stdin.on('error', () => {
      // c++filt ended early: its exit says why
    });
    filt.on('error', (error: NodeJS.ErrnoException) => resolve(`c++filt failed (${error.code ?? error.message})`));
    filt.on('close', (code, signal) => {
      if (stopped !== null) return resolve(stopped);
      if (signal !== null) return resolve(`c++filt was stopped after ${NM_TIMEOUT_MS / 1000} s`);
      if (code !== 0) return resolve(`c++filt exited with code ${code}`);
      const lines = Buffer.concat(chunks).toString('latin1').split('\n');
      if (lines.length < asked.length) return resolve('c++filt answered fewer names than it was given');
      asked.forEach((name, i) => map.set(name, lines[i]));
      resolve(map);
    });
    filt.stdin.end(asked.join('\n') + '\n', 'latin1');
  });
}

/** Buckets over the span of the addresses looked up (each table symbol asks once): at most this many. */
const MAX_ADDRESS_BUCKETS = 65_536;

/**
 * `firstAtOrAbove` over the ascending `sorted` (not empty), for ~100k values in a row: the span of
 * `sorted` is cut into equal buckets, each holding the index of its first address, so a value is
 * searched for only among the addresses of its own bucket.
 */
function addressIndex(sorted: Float64Array): (value: number) => number {
  const lowest = sorted[0];
  const span = sorted[sorted.length - 1] - lowest + 1;
  const buckets = Math.min(MAX_ADDRESS_BUCKETS, sorted.length * 4);
  const width = span / buckets;
  // One bucket function for the addresses and the values: it only grows with its argument, so
  // what lies in an earlier bucket is below the value and what lies in a later one above it.
  const bucketOf = (value: number): number => Math.min(buckets - 1, Math.floor((value - lowest) / width));
  /** starts[b]: the first index whose address lies in bucket b or a later one. */
  const starts = new Int32Array(buckets + 1);
  for (let b = 0, k = 0; b <= buckets; b++) {
    while (k < sorted.length && bucketOf(sorted[k]) < b) k++;
    starts[b] = k;
  }
  return (value) => {
    if (value <= lowest) return 0;
    const b = bucketOf(value);
    return firstAtOrAbove(sorted, value, starts[b], starts[b + 1]);
  };
}

/** The first index in [lo, hi) of the ascending `sorted` whose value is at least `value` (hi when none). */
function firstAtOrAbove(sorted: Float64Array, value: number, lo = 0, hi = sorted.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function hexAt(text: string, i: number, j: number): number {
  // nm pads addresses to 16 digits; real ones stay far below 2^53.
  if (i >= j || j - i > 16) return NaN;
  let value = 0;
  for (; i < j; i++) {
    const c = text.charCodeAt(i) | 0x20;
    const d = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : -1;
    if (d < 0) return NaN;
    value = value * 16 + d;
  }
  return value;
}

/** "v8::internal::Runtime_DateCurrentTime(int, unsigned long*, ...)" -> "v8::internal::Runtime_DateCurrentTime". */
function shortName(demangled: string): string {
  const paren = demangled.indexOf('(');
  return paren > 0 && !demangled.includes('operator') ? demangled.slice(0, paren) : demangled;
}
