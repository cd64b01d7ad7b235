// Names for C++ code in a V8 log, from the symbol table of Node's binary (`nm`), e.g.
// v8::internal::Runtime_DateCurrentTime or node::SyncProcessRunner::Spawn. A binary at the same
// path on another machine or from another release would give wrong names, which is worse than
// none: the table is only used when the embedded builtins the log saw (code-creation Builtin
// lines) sit at the addresses the table gives their Builtins_* symbols.
import { execFileSync } from 'node:child_process';

/** How many logged builtins must match the table. */
const CHECKS = 5;

export class NativeSymbols {
  private constructor(
    private readonly starts: Float64Array,
    private readonly ends: Float64Array,
    readonly names: string[],
  ) {}

  /**
   * Symbols of `library` loaded at `start`, or null when nm fails or they do not match the log.
   * `builtins`: name -> address of builtins the log created (embedded ones live in the binary).
   */
  static load(library: string, start: number, builtins: ReadonlyMap<string, number>): NativeSymbols | null {
    if (builtins.size === 0) return null;
    let listing: string;
    try {
      listing = execFileSync('nm', ['-C', '-n', '-S', '--defined-only', library], { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024, timeout: 30_000, stdio: ['ignore', 'pipe', 'ignore'] });
    } catch {
      return null;
    }
    const starts: number[] = [];
    const ends: number[] = [];
    const names: string[] = [];
    const builtinSymbols = new Map<string, number>();
    for (const line of listing.split('\n')) {
      // "000000000151c750 00000000000000ea T v8::internal::Runtime_DateCurrentTime(int, ...)"
      const m = /^([0-9a-f]+) ([0-9a-f]+) [TtWw] (.+)$/.exec(line);
      if (m === null) continue;
      const address = parseInt(m[1], 16);
      if (m[3].startsWith('Builtins_')) builtinSymbols.set(m[3].slice(9), address);
      starts.push(address);
      ends.push(address + parseInt(m[2], 16));
      names.push(shortName(m[3]));
    }
    // Absolute addresses (a fixed-address binary) or offsets from the load address (PIE).
    let offset: number | undefined;
    let checked = 0;
    for (const [name, address] of builtins) {
      const symbol = builtinSymbols.get(name);
      if (symbol === undefined) continue;
      if (offset === undefined) offset = symbol === address ? 0 : symbol + start === address ? start : NaN;
      if (symbol + offset !== address) return null;
      if (++checked === CHECKS) break;
    }
    if (offset === undefined || checked === 0) return null;
    const base = offset;
    return new NativeSymbols(
      Float64Array.from(starts, (a) => a + base),
      Float64Array.from(ends, (a) => a + base),
      names,
    );
  }

  /** Index of the symbol containing `addr`, or -1 (addresses between symbols stay unnamed). */
  find(addr: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    let k = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.starts[mid] <= addr) {
        k = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return k !== -1 && addr < this.ends[k] ? k : -1;
  }
}

/** "v8::internal::Runtime_DateCurrentTime(int, unsigned long*, ...)" -> "v8::internal::Runtime_DateCurrentTime". */
function shortName(demangled: string): string {
  const paren = demangled.indexOf('(');
  return paren > 0 && !demangled.includes('operator') ? demangled.slice(0, paren) : demangled;
}
