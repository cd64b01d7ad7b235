// Names for C++ code in a V8 log, from the symbol table of Node's binary (`nm -C -n -S`), e.g.
// v8::internal::Runtime_DateCurrentTime or node::EnvQuery. A binary at the same path on another
// machine or from another release would give wrong names, which is worse than none: names are
// only used when the embedded builtins the log created (code-creation Builtin lines) sit at the
// addresses the table gives their Builtins_* symbols. nm's output is streamed and matched
// against the sorted addresses that need a name, so no table is kept in memory.
// The library's path comes from the log, which is untrusted (docs/security.md): nm runs only on
// an absolute path (so neither `--plugin=x.so` nor a response file `@x` can be an option), after
// `--`, on a regular file with an ELF or Mach-O header, with a minimal environment, a time limit
// and a cap on its output. Anything else leaves the frames named by their library, with a warning.
// nm itself is found in a fixed list of system folders, never through PATH (an empty PATH entry
// means the current folder, and Windows looks in the child's folder first), and runs in `/`, not
// in a folder the log names.
import { spawn } from 'node:child_process';
import { closeSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, parse } from 'node:path';
import { openRegularFile, readHead } from '../../shared/guardedRead';

/** nm on Node's binary takes about a second; a hung or endless nm is stopped. */
const NM_TIMEOUT_MS = 20_000;
/** Node's demangled symbol table is ~40 MB; more is not a table we want. */
const NM_MAX_OUTPUT_BYTES = 256 * 1024 * 1024;

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
  if (!isAbsolute(library)) return 'not an absolute path';
  let head: Buffer;
  try {
    const file = openRegularFile(library);
    try {
      head = readHead(file, 4);
    } finally {
      closeSync(file.fd);
    }
  } catch (error) {
    return error instanceof Error ? error.message.slice(library.length + 2) : 'cannot be read';
  }
  const magic = head.length === 4 ? head.readUInt32BE(0) : 0;
  const elf = magic === 0x7f454c46;
  // Mach-O 32/64 in either byte order, and universal ("fat") binaries.
  const machO = magic === 0xfeedface || magic === 0xfeedfacf || magic === 0xcefaedfe || magic === 0xcffaedfe || magic === 0xcafebabe;
  return elf || machO ? null : 'not an ELF or Mach-O binary';
}

export type NativeNames = { names: (string | undefined)[] } | { names: null; warning: string | null };

/**
 * Names of `addresses` (absolute, ascending) inside `library` loaded at `start`, index by index
 * (undefined between symbols); null names when nm may not or cannot run (with a warning for the
 * report) or the table does not match the log's builtins (no warning: another binary).
 */
export async function nameNativeCode(
  library: string,
  start: number,
  addresses: Float64Array,
  builtins: ReadonlyMap<string, number>,
  toolFolders: readonly string[] = SYSTEM_TOOL_FOLDERS,
): Promise<NativeNames> {
  if (builtins.size === 0 || addresses.length === 0) return { names: null, warning: null };
  const refused = refuseForNm(library);
  if (refused !== null) return { names: null, warning: `native frames of ${JSON.stringify(library)} are not named: ${refused}, so nm is not run on it` };
  const nmPath = findSystemTool('nm', toolFolders);
  if (nmPath === null) return { names: null, warning: `native frames of ${JSON.stringify(library)} are not named: nm is not installed (looked in ${toolFolders.join(', ')})` };
  // The table holds absolute addresses (a fixed-address binary) or offsets from the load address (PIE): try both.
  const hypotheses = [0, start].map((offset) => ({ offset, next: 0, names: new Array<string | undefined>(addresses.length), matches: 0, mismatches: 0 }));
  /** One line of nm output; the name is only cut out of `text` when it is needed. */
  const symbol = (address: number, size: number, text: string, nameStart: number, nameEnd: number): void => {
    const builtin = text.startsWith('Builtins_', nameStart) ? builtins.get(text.slice(nameStart + 9, nameEnd)) : undefined;
    for (const h of hypotheses) {
      const from = address + h.offset;
      const to = from + size;
      if (builtin !== undefined) {
        if (builtin === from) h.matches++;
        else h.mismatches++;
      }
      while (h.next < addresses.length && addresses[h.next] < from) h.next++;
      for (let k = h.next; k < addresses.length && addresses[k] < to; k++) h.names[k] = shortName(text.slice(nameStart, nameEnd));
    }
  };
  const failure = await new Promise<string | null>((resolve) => {
    // nm by its absolute path; fixed options, `--`, then the one operand; no shell; a PATH of
    // system folders only and the C locale; the root folder as the working folder.
    const nm = spawn(nmPath, ['-C', '-n', '-S', '--defined-only', '--', library], {
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { PATH: toolFolders.join(delimiter), LC_ALL: 'C' },
      cwd: parse(process.cwd()).root,
      timeout: NM_TIMEOUT_MS,
      killSignal: 'SIGKILL',
      windowsHide: true,
    });
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
          if (!Number.isNaN(address) && !Number.isNaN(size)) symbol(address, size, text, b + 3, nl);
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
  if (failure !== null) return { names: null, warning: `native frames of ${JSON.stringify(library)} are not named: ${failure}` };
  const trusted = hypotheses.find((h) => h.matches > 0 && h.mismatches === 0);
  return trusted === undefined ? { names: null, warning: null } : { names: trusted.names };
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
