// Names for C++ code in a V8 log, from the symbol table of Node's binary (`nm -C -n -S`), e.g.
// v8::internal::Runtime_DateCurrentTime or node::EnvQuery. A binary at the same path on another
// machine or from another release would give wrong names, which is worse than none: names are
// only used when the embedded builtins the log created (code-creation Builtin lines) sit at the
// addresses the table gives their Builtins_* symbols. nm's output is streamed and matched
// against the sorted addresses that need a name, so no table is kept in memory.
import { spawn } from 'node:child_process';

/**
 * Names of `addresses` (absolute, ascending) inside `library` loaded at `start`, index by index
 * (undefined between symbols); null when nm fails or the table does not match the log's builtins.
 */
export async function nameNativeCode(library: string, start: number, addresses: Float64Array, builtins: ReadonlyMap<string, number>): Promise<(string | undefined)[] | null> {
  if (builtins.size === 0 || addresses.length === 0) return null;
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
  const ok = await new Promise<boolean>((resolve) => {
    const nm = spawn('nm', ['-C', '-n', '-S', '--defined-only', library], { stdio: ['ignore', 'pipe', 'ignore'] });
    let rest = '';
    nm.stdout.on('data', (chunk: Buffer) => {
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
    nm.on('error', () => resolve(false));
    nm.on('close', (code) => resolve(code === 0));
  });
  if (!ok) return null;
  const trusted = hypotheses.find((h) => h.matches > 0 && h.mismatches === 0);
  return trusted === undefined ? null : trusted.names;
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
