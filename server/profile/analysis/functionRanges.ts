// What the local source says about the functions a profile names, each file read and parsed once:
// a function's line range (inlined ticks must stay inside it), the calls it makes itself (call
// lines: a .cpuprofile records none) and what each called name is bound to, so that a call
// `foo()` is matched to a frame only when `foo` can be that frame (a local function of another
// name's frame, or an import, is not). The one place call lines are read from source: call lines,
// inlined lines and insights all ask here.
import { builtinModules } from 'node:module';
import { dirname, join, resolve, sep } from 'node:path';

import { tryReadGuardedText } from '../../shared/guardedRead';
import type { Binding, FunctionSpan, ParsedFile, SourceCall } from './functionSpans';

export type { SourceCall };

/** functionSpans.ts, with the parser and Babel's types: loaded with the first file parsed (a report that reads no source loads no parser). */
let spans: typeof import('./functionSpans') | undefined;
function functionSpans(): typeof import('./functionSpans') {
  // A require, not an import: the bundle keeps the module (and Babel) unevaluated until called.
  return (spans ??= require('./functionSpans') as typeof import('./functionSpans'));
}

/** Source files bigger than this are not parsed for ranges (generated bundles, data). */
const MAX_SOURCE_BYTES = 4 * 1024 * 1024;

export interface LineRange {
  start: number;
  end: number;
}

/** The frame a call line is looked for: its called name and where the profile says it lives. */
export interface CalleeFrame {
  /** The name a call uses for it (calledName of the frame's name). */
  name: string;
  /** The local file holding the frame's recorded lines ('' when none). */
  localFile: string;
  line: number;
  column: number;
  /** Node's own code (`node:fs`…) or native code: what a built-in module's binding reaches. */
  builtin: boolean;
}

const before = (line: number, column: number, l2: number, c2: number): boolean => line < l2 || (line === l2 && column < c2);

const BUILTINS = new Set(builtinModules);

/** `fs`, `node:fs`, `fs/promises`: a module of Node itself. */
export function isBuiltinSpecifier(specifier: string): boolean {
  return specifier.startsWith('node:') || BUILTINS.has(specifier) || BUILTINS.has(specifier.split('/')[0]);
}

/** Line ranges and calls of functions in local files, each file read and parsed once. */
export class FunctionRanges {
  private readonly files = new Map<string, ParsedFile | null>();

  /** `mayRead(file)`: whether a file found by following a relative `require`/`import` may be read (the read scope). */
  constructor(private readonly mayRead: (file: string) => boolean = () => true) {}

  /**
   * The line range of the function V8 places at (line, column) (1-based both: V8 points at the
   * parameter list; column 0 when the format records none, as pprof), or null when the file
   * cannot be read or no function has its header there. `name` is the frame's function name
   * (it tells a function placed at 1:1 from the module's own code there).
   */
  rangeAt(file: string, line: number, column: number, name = ''): LineRange | null {
    const best = this.spanAt(file, line, column, name);
    return best === null ? null : { start: best.startLine, end: best.endLine };
  }

  /**
   * The line of the one call the function at (line, column) of `file` makes to `callee`, or 0
   * when there is none or more than one. Calls whose name is bound to something the frame cannot
   * be (another local function, an import when the frame is in this file, a built-in module when
   * it is not Node's code) do not count.
   */
  callLineOf(file: string, line: number, column: number, callee: CalleeFrame, name = ''): number {
    const span = this.spanAt(file, line, column, name);
    if (span === null) return 0;
    let found = 0;
    for (const call of span.calls) {
      if (call.name !== callee.name || call.line === found || !this.mayBe(file, span, call, callee)) continue;
      if (found !== 0) return 0;
      found = call.line;
    }
    return found;
  }

  /** The calls the function at (line, column) makes itself, with the module each one's name is bound to (or null). */
  callsOf(file: string, line: number, column: number, name = ''): (SourceCall & { module: string | null })[] {
    const span = this.spanAt(file, line, column, name);
    if (span === null) return [];
    return span.calls.map((call) => {
      const binding = call.root === '' ? undefined : bindingOf(span, call.root);
      return { ...call, module: binding?.kind === 'module' ? binding.specifier : null };
    });
  }

  /**
   * The local file a relative specifier (`./lib`) names from `file`, as Node resolves it (the
   * name itself, then .js/.cjs/.mjs/.ts, then index.js), or null (bare, unreadable, outside the scope).
   */
  resolveModule(file: string, specifier: string): string | null {
    if (!specifier.startsWith('./') && !specifier.startsWith('../')) return this.resolvePackage(file, specifier);
    return this.fileOrIndex(resolve(dirname(file), specifier));
  }

  /** `base` as Node's resolution tries it: the name itself, then .js/.cjs/.mjs/.ts, then index.js; null when none is readable. */
  private fileOrIndex(base: string): string | null {
    for (const candidate of [base, `${base}.js`, `${base}.cjs`, `${base}.mjs`, `${base}.ts`, join(base, 'index.js')]) {
      if (this.mayRead(candidate) && this.parsed(candidate) !== null) return candidate;
    }
    return null;
  }

  /**
   * A package specifier (`lib`, `@scope/lib/sub`) from `file`: the nearest `node_modules/<name>`
   * above it, its subpath or its package.json's `main` (kept inside the package folder), else its
   * index.js. A library inlined into the user code that requires it is looked for there. No
   * `exports` maps: a package that only has them is not followed (no call line, as before).
   */
  private resolvePackage(file: string, specifier: string): string | null {
    if (isBuiltinSpecifier(specifier) || specifier.startsWith('/') || specifier.includes('\\')) return null;
    const parts = specifier.split('/');
    const nameParts = specifier.startsWith('@') ? 2 : 1;
    if (parts.length < nameParts || parts.some((p) => p === '' || p === '.' || p === '..')) return null;
    const name = parts.slice(0, nameParts).join('/');
    const subpath = parts.slice(nameParts).join('/');
    for (let dir = dirname(file); ; dir = dirname(dir)) {
      const folder = join(dir, 'node_modules', name);
      if (this.mayRead(join(folder, 'package.json')) || this.mayRead(join(folder, 'index.js'))) {
        const found = subpath !== '' ? this.fileOrIndex(join(folder, subpath)) : this.packageMain(folder);
        if (found !== null) return found;
      }
      if (dirname(dir) === dir) return null;
    }
  }

  private packageMain(folder: string): string | null {
    const manifest = this.mayRead(join(folder, 'package.json')) ? tryReadGuardedText(join(folder, 'package.json'), 1024 * 1024) : null;
    let main: unknown;
    try {
      main = manifest === null ? undefined : (JSON.parse(manifest) as { main?: unknown }).main;
    } catch {
      main = undefined;
    }
    if (typeof main === 'string' && main !== '') {
      const base = resolve(folder, main);
      if (base.startsWith(`${folder}${sep}`)) {
        const found = this.fileOrIndex(base);
        if (found !== null) return found;
      }
    }
    return this.fileOrIndex(join(folder, 'index'));
  }

  /** The innermost function of `file` declared as `name` whose lines hold `line`, or null. */
  functionNamed(file: string, name: string, line: number): LineRange | null {
    let best: FunctionSpan | null = null;
    for (const s of this.parsed(file)?.spans ?? []) {
      if (s.name !== name || line < s.startLine || line > s.endLine) continue;
      if (best === null || s.startLine > best.startLine) best = s;
    }
    return best === null ? null : { start: best.startLine, end: best.endLine };
  }

  /** Whether a call in `span` of `file` may reach the frame `callee`, by what its name is bound to. */
  private mayBe(file: string, span: FunctionSpan, call: SourceCall, callee: CalleeFrame): boolean {
    const binding = call.root === '' ? undefined : bindingOf(span, call.root);
    if (binding === undefined || binding.kind === 'other') return true;
    if (binding.kind === 'function') {
      // `f()` with f a function of this file (called by its own name): only that function's frame.
      if (call.root !== call.name) return true;
      return callee.localFile === file && this.parsed(file)?.spanOf.get(binding.node) === this.spanAt(file, callee.line, callee.column);
    }
    // An imported name never reaches a function of the importing file, and a Node module's name
    // only Node's code. (A package or a local module may hand out Node's functions: graceful-fs.)
    if (callee.localFile === file) return false;
    return callee.builtin || !isBuiltinSpecifier(binding.specifier);
  }

  /** The function whose header holds (line, column); `name` is the frame's, used only at 1:1. */
  private spanAt(file: string, line: number, column: number, name = ''): FunctionSpan | null {
    const spans = this.parsed(file)?.spans ?? null;
    if (spans === null || line <= 0) return null;
    // V8 places a CommonJS module's own code, which is no function in the source, at 1:1 and
    // names it ''. A function can start there too (a source-mapped `export function f` on the
    // first line, an arrow opening the file): the frame's name tells them apart.
    if (line === 1 && column <= 1 && spans.length > 0 && spans[0].startColumn === -1) {
      const named = name === '' || name === '(anonymous)' ? undefined : spans.find((s) => s.startLine === 1 && s.name === name && this.headerHolds(s, column));
      return named ?? spans[0];
    }
    if (column <= 0) {
      // No column (pprof records a function's line only): the outermost function starting on the line.
      let first: FunctionSpan | null = null;
      for (const s of spans) if (s.startColumn >= 0 && s.startLine === line && (first === null || s.startColumn < first.startColumn)) first = s;
      return first;
    }
    const col = column - 1;
    let best: FunctionSpan | null = null;
    for (const s of spans) {
      // The position lies in the function's header: at or after its start, before its body.
      if (before(line, col, s.startLine, s.startColumn) || !before(line, col, s.bodyLine, s.bodyColumn + 1)) continue;
      if (best === null || before(best.startLine, best.startColumn, s.startLine, s.startColumn)) best = s;
    }
    return best;
  }

  /** Whether 1:`column` (1-based; 0 when unknown) lies in the header of `span`, a function starting on line 1. */
  private headerHolds(span: FunctionSpan, column: number): boolean {
    if (column <= 0) return span.startColumn >= 0;
    const col = column - 1;
    return span.startColumn >= 0 && !before(1, col, 1, span.startColumn) && before(1, col, span.bodyLine, span.bodyColumn + 1);
  }

  private parsed(file: string): ParsedFile | null {
    let parsed = this.files.get(file);
    if (parsed !== undefined) return parsed;
    parsed = null;
    // The file comes from the profile (mapped into the read scope): read it the one guarded way.
    const text = tryReadGuardedText(file, MAX_SOURCE_BYTES);
    if (text !== null) parsed = functionSpans().parseFunctionSpans(file, text);
    this.files.set(file, parsed);
    return parsed;
  }
}

/** The binding `name` has in `span`: declared there or in a function around it; undefined for a global. */
function bindingOf(span: FunctionSpan, name: string): Binding | undefined {
  for (let s: FunctionSpan | null = span; s !== null; s = s.parent) {
    const binding = s.bindings.get(name);
    if (binding !== undefined) return binding;
  }
  return undefined;
}

