// What one frame of a Linux `perf` stack is, from its symbol and the object it lives in (dso):
// the kernel, native code (node's own C++, V8 builtins, shared libraries), or a JavaScript
// function named by the `perf-PID.map` that `node --perf-basic-prof` writes. V8 names those
// entries `<Kind>:<tier><name> <script>:<line>[:<column>]`: `LazyCompile:*handler /app/x.js:12`
// up to V8 10 (Node ≤ 18), `JS:*handler file:///app/x.mjs:12:3` since (Node 20). The tier mark
// (`~` interpreted, `^` baseline, `+` Maglev, `*` optimized) is dropped so that the tiers of one
// function share one entry, as in every other reader. Pure: no I/O.
import type { CodeKind } from '../model/categories';

export interface PerfFrame {
  name: string;
  /** Script path or URL as recorded ('' for native code and the kernel). */
  url: string;
  /** 1-based; 0 when unknown. */
  line: number;
  column: number;
  kind: CodeKind;
}

/** perf-PID.map kinds that name a JavaScript function with its script (V8's CodeTag words). */
const JS_KINDS = new Set(['JS', 'LazyCompile', 'Function', 'Script', 'Eval']);

/** A dso naming the kernel as perf writes it: `[kernel.kallsyms]`, a module `[xfs]`, a `vmlinux` file. */
export function isKernelDso(dso: string): boolean {
  if (dso.endsWith('vmlinux')) return true;
  return dso.startsWith('[') && dso.endsWith(']') && dso !== '[unknown]' && dso !== '[vdso]' && dso !== '[vsyscall]' && !dso.startsWith('[anon');
}

/**
 * The frame for a perf symbol. `dso` is the object in parentheses ('' when the input does not say:
 * folded stacks), `annotation` the stackcollapse-perf.pl suffix (`k` kernel, `j` JIT, `i` inlined,
 * '' none).
 */
export function classifyPerfFrame(symbol: string, dso: string, annotation = ''): PerfFrame {
  const sym = symbol.replace(/\+0x[\da-fA-F]+$/, '');
  if (annotation === 'k' || isKernelDso(dso)) return { name: sym === '[unknown]' ? '[kernel]' : sym, url: '', line: 0, column: 0, kind: 'kernel' };
  if (sym === '[unknown]' || sym === '') {
    // perf names the object when the symbol is unknown; a JIT map without the entry is JavaScript we cannot name.
    const object = dso === '' || dso === '[unknown]' ? 'unknown' : (dso.split('/').pop() as string);
    return { name: `[${object}]`, url: '', line: 0, column: 0, kind: 'native' };
  }
  const colon = sym.indexOf(':');
  const kind = colon > 0 ? sym.slice(0, colon) : '';
  if (JS_KINDS.has(kind)) return jsFrame(sym.slice(colon + 1));
  // Everything else is native: node's C++, libraries, and V8's generated code (`Builtin:`, `BytecodeHandler:`, `Stub:`, `RegExp:`).
  return { name: sym, url: '', line: 0, column: 0, kind: 'native' };
}

/** `*handler /app/x.js:12` or `~ file:///app/x.mjs:1:1` (a script's top level has no name). */
function jsFrame(rest: string): PerfFrame {
  const body = /^[~^+*-]/.test(rest) ? rest.slice(1) : rest;
  const at = /^(.*?) ?(\S+?):(\d+)(?::(\d+))?$/.exec(body);
  if (at === null) {
    // A name without a script (`Function:~<anonymous>` of an eval): JavaScript we cannot place.
    return { name: body.trim() === '' ? '(anonymous)' : body.trim(), url: '', line: 0, column: 0, kind: 'native' };
  }
  return { name: at[1] === '' ? '(anonymous)' : at[1], url: at[2], line: Number(at[3]), column: at[4] === undefined ? 0 : Number(at[4]), kind: 'js' };
}
