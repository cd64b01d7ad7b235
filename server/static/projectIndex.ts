// Cross-module facts for the rules (e.g. which exports of a project module are mongoose models):
// resolves a specifier to a project file, reads and parses it, hands its top-level statements to
// the rules' summarizer (rules/index.ts) and follows its re-exports; caches by path + mtime, never
// throws. What the facts mean is the rules' business: nothing here names a rule.
// It also holds the project-wide analysis (project/projectFacts.ts): every module it parses, and
// every module the engine analyzes, records its facts (exports, handlers it registers from other
// modules, workers it starts), and the engine asks what the others say of the module it analyzes.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ModuleSummarizer, ModuleSummary, ProjectRegistration, ServingKind, ServingLoader } from '../../rules/api';
import type { ProjectAnalysis } from './engine';
import { moduleFactsOf, type CallUse, type ModuleFacts } from './project/moduleFacts';
import { ProjectFacts } from './project/projectFacts';
import { summarizeModule } from '../../rules/index';
import { collectImports, isLibAlias, requiredModule, type InjectedModule } from './imports';
import { parseSource } from './parse';
import { tryReadGuardedText } from '../shared/guardedRead';
import { SOURCE_EXTENSIONS } from '../shared/paths';
import { dependenciesOfManifest } from './manifestDependencies';
import { projectAnswerKey } from './projectAnswers';

export interface ProjectIndexOptions {
  /**
   * Reads a file's text, or null when it cannot be read. The language server injects one that
   * serves open, unsaved documents (and calls `invalidate(path)` when they change).
   */
  readFile?: (filePath: string) => string | null;
  /** What is kept of each module; by default every fact the rules registered (rules/index.ts). */
  summarize?: ModuleSummarizer;
}

/** TypeScript ESM writes `./user.js` for `./user.ts` on disk. */
const TS_SOURCE_FOR: Record<string, string[]> = { '.js': ['.ts', '.tsx'], '.jsx': ['.tsx'], '.mjs': ['.mts'], '.cjs': ['.cts'] };
/** Re-export chains longer than this are not followed (cycles are cut earlier). */
const MAX_REEXPORT_DEPTH = 8;
/** The files that make a folder a SvelteKit app's root. */
const SVELTE_CONFIGS = ['svelte.config.js', 'svelte.config.mjs', 'svelte.config.cjs', 'svelte.config.ts'];
/** Larger files are not models files; skip rather than parse megabytes. */
export const MAX_MODULE_BYTES = 2 * 1024 * 1024;

interface CacheEntry {
  summary: ModuleSummary | null;
  /** mtime of this file and of every module read through its re-exports, when computed. */
  stamps: Map<string, number | null>;
}

/**
 * A module's text through the guarded reader: a document may `require('/dev/zero')` or import a
 * FIFO, whose stat size is 0 and whose read never ends (docs/security.md).
 */
export function readModuleFromDisk(filePath: string): string | null {
  return tryReadGuardedText(filePath, MAX_MODULE_BYTES);
}

// `throwIfNoEntry: false`: resolution probes many missing candidates; exceptions would dominate.
function mtimeOf(filePath: string): number | null {
  try {
    return fs.statSync(filePath, { throwIfNoEntry: false })?.mtimeMs ?? null;
  } catch {
    return null;
  }
}

function isFile(filePath: string): boolean {
  try {
    return fs.statSync(filePath, { throwIfNoEntry: false })?.isFile() === true;
  } catch {
    return false;
  }
}

export class ProjectIndex implements ProjectAnalysis {
  private readonly cache = new Map<string, CacheEntry>();
  /** Per folder, the SvelteKit app it is in (`$lib` imports): config files are not expected to come and go. */
  private readonly svelteRoots = new Map<string, string | null>();
  /** The project-wide analysis: facts of every module seen, and the queries derived from them. */
  private readonly facts = new ProjectFacts((fromFile, specifier) => this.resolve(fromFile, specifier));
  private readonly readFile: (filePath: string) => string | null;
  private readonly injectedReader: boolean;
  private readonly summarizeModule: ModuleSummarizer;
  /** Per folder, the nearest package.json above it and what it declares (re-read when its mtime changes). */
  private readonly manifests = new Map<string, { file: string | null; stamp: number | null; names: ReadonlySet<string> }>();
  /** The files whose analysis asked which serving process they run in. */
  private readonly servingAsked = new Set<string>();

  constructor(options: ProjectIndexOptions = {}) {
    this.summarizeModule = options.summarize ?? summarizeModule;
    this.injectedReader = options.readFile !== undefined;
    const reader = options.readFile ?? readModuleFromDisk;
    // An injected reader that throws means "cannot read", like a missing file.
    this.readFile = (filePath) => {
      try {
        return reader(filePath);
      } catch {
        return null;
      }
    };
  }

  moduleAt(fromFile: string, specifier: string): ModuleSummary | null {
    try {
      const target = this.resolve(fromFile, specifier);
      return target === null ? null : this.summaryOf(target);
    } catch {
      return null; // the contract: never throw into a rule
    }
  }

  /** Absolute path of a relative specifier as Node/TypeScript would find it; null for packages. */
  resolve(fromFile: string, specifier: string): string | null {
    let base: string;
    if (isLibAlias(specifier)) {
      const app = this.svelteKitRoot(path.dirname(fromFile));
      if (app === null) return null;
      base = path.join(app, 'src', 'lib', specifier.slice('$lib'.length));
    } else if (!specifier.startsWith('./') && !specifier.startsWith('../') && specifier !== '.' && specifier !== '..' && !path.isAbsolute(specifier)) {
      return null;
    } else {
      base = path.resolve(path.dirname(fromFile), specifier);
    }
    const candidates: string[] = [base];
    const ext = path.extname(base);
    for (const tsExt of TS_SOURCE_FOR[ext] ?? []) candidates.push(base.slice(0, -ext.length) + tsExt);
    for (const e of SOURCE_EXTENSIONS) candidates.push(base + e);
    for (const e of SOURCE_EXTENSIONS) candidates.push(path.join(base, `index${e}`));
    return candidates.find((candidate) => this.exists(candidate)) ?? null;
  }

  noteModule(filePath: string, facts: ModuleFacts): void {
    this.facts.note(path.resolve(filePath), facts);
  }

  noteCalls(filePath: string, calls: readonly CallUse[]): void {
    this.facts.noteCalls(path.resolve(filePath), calls);
  }

  noteServes(filePath: string, serves: ServingKind | null): void {
    this.facts.noteServes(path.resolve(filePath), serves);
  }

  servingLoaderOf(filePath: string): ServingLoader | null {
    const resolved = path.resolve(filePath);
    this.servingAsked.add(resolved);
    return this.facts.servingLoaderOf(resolved);
  }

  /**
   * `servingLoaderOf(filePath)` as one string when an analysis of the file asked it (a rule asked
   * about a periodic timer), else '': the command line's passes compare this.
   */
  servingLoaderKey(filePath: string): string {
    const resolved = path.resolve(filePath);
    return this.servingAsked.has(resolved) ? JSON.stringify(this.facts.servingLoaderOf(resolved)) : '';
  }

  registrationsOf(filePath: string): readonly ProjectRegistration[] {
    return this.facts.registrationsOf(path.resolve(filePath));
  }

  /** What the project says of the file, as one string (projectAnswers.ts): a file whose answer changed is analyzed again. */
  answerKey(filePath: string): string {
    return projectAnswerKey(this, filePath);
  }

  startedAsWorker(filePath: string): boolean {
    return this.facts.startedAsWorker(path.resolve(filePath));
  }

  /** The project modules other modules hand to this one's exported setters, as specifiers relative to it. */
  injectedInto(filePath: string): InjectedModule[] {
    const from = path.resolve(filePath);
    return this.facts.injectedInto(from).map(({ setter, index, file }) => {
      const relative = path.relative(path.dirname(from), file).split(path.sep).join('/');
      return { setter, index, source: relative.startsWith('../') ? relative : `./${relative}` };
    });
  }

  /**
   * Records a file's facts without analyzing it (the command line's first pass, a workspace scan):
   * false when it cannot be read or parsed.
   */
  scan(filePath: string, text: string): boolean {
    const parsed = parseSource(filePath, text);
    if (!parsed.ast) return false;
    const imports = collectImports(parsed.ast.program);
    this.facts.note(path.resolve(filePath), moduleFactsOf(parsed.ast.program, imports, ''));
    return true;
  }

  /** Forgets a file's summary (and, through the stamps, every summary that re-exported it). */
  invalidate(filePath: string): void {
    const resolved = path.resolve(filePath);
    this.facts.forget(resolved);
    for (const [key, entry] of this.cache) {
      if (key === resolved || entry.stamps.has(resolved)) this.cache.delete(key);
    }
  }

  /** The summary of an absolute file path, from the cache while it and its re-exports are unchanged. */
  summaryOf(filePath: string): ModuleSummary | null {
    try {
      return this.summarize(path.resolve(filePath), []).summary;
    } catch {
      return null;
    }
  }

  /**
   * The runtime dependencies the nearest package.json above `filePath` declares (empty when none is
   * found or it is not a manifest). Read through the same reader as modules, so the language
   * server's limits to what the user opened hold for it too.
   */
  dependenciesOf(filePath: string): ReadonlySet<string> {
    const folder = path.dirname(path.resolve(filePath));
    const known = this.manifests.get(folder);
    if (known !== undefined && (known.file === null || mtimeOf(known.file) === known.stamp)) return known.names;
    const root = this.nearestFolderWith(folder, ['package.json']);
    const file = root === null ? null : path.join(root, 'package.json');
    const text = file === null ? null : this.readFile(file);
    const entry = { file, stamp: file === null ? null : mtimeOf(file), names: text === null ? new Set<string>() : dependenciesOfManifest(text) };
    this.manifests.set(folder, entry);
    return entry.names;
  }

  /** The SvelteKit app a folder is in: the nearest folder above it with a `svelte.config.*` (null when none). */
  private svelteKitRoot(folder: string): string | null {
    const known = this.svelteRoots.get(folder);
    if (known !== undefined) return known;
    const root = this.nearestFolderWith(folder, SVELTE_CONFIGS);
    this.svelteRoots.set(folder, root);
    return root;
  }

  /** `folder` or the nearest folder above it (at most 32 up) holding a file of one of `names`; null when none does. */
  private nearestFolderWith(folder: string, names: readonly string[]): string | null {
    for (let at = folder, depth = 0; depth < 32; depth++) {
      if (names.some((name) => this.exists(path.join(at, name)))) return at;
      const up = path.dirname(at);
      if (up === at) return null;
      at = up;
    }
    return null;
  }

  private exists(candidate: string): boolean {
    if (isFile(candidate)) return true;
    // An injected reader may know unsaved documents that are not on disk yet.
    return this.injectedReader && this.readFile(candidate) !== null;
  }

  private isFresh(entry: CacheEntry): boolean {
    for (const [file, stamp] of entry.stamps) if (mtimeOf(file) !== stamp) return false;
    return true;
  }

  private summarize(filePath: string, chain: readonly string[]): Computed {
    // A re-export cycle is cut: the module re-exported from itself adds nothing (as if unreadable).
    if (chain.includes(filePath) || chain.length > MAX_REEXPORT_DEPTH) return { summary: null, complete: false };
    const cached = this.cache.get(filePath);
    if (cached && this.isFresh(cached)) return { summary: cached.summary, complete: true };

    const stamps = new Map<string, number | null>([[filePath, mtimeOf(filePath)]]);
    let complete = true;
    let summary: ModuleSummary | null = null;
    const text = this.readFile(filePath);
    if (text !== null) {
      const parsed = parseSource(filePath, text);
      if (parsed.ast) {
        const imports = collectImports(parsed.ast.program);
        // Parsed anyway: what it tells the rest of the project is recorded on the way.
        this.facts.note(filePath, moduleFactsOf(parsed.ast.program, imports, ''));
        summary = this.summarizeModule({
          filePath,
          program: parsed.ast.program,
          importOf: (name) => imports.get(name) ?? null,
          requiredModule,
          moduleAt: (specifier) => {
            const target = this.resolve(filePath, specifier);
            if (target === null) return null;
            const nested = this.summarize(target, [...chain, filePath]);
            complete &&= nested.complete;
            stamps.set(target, mtimeOf(target));
            for (const [file, stamp] of this.cache.get(target)?.stamps ?? []) stamps.set(file, stamp);
            return nested.summary;
          },
        });
      }
    }
    // A module whose re-exports ran into a cycle was summarized with the cycle cut: don't keep that view.
    // At the top of the chain the cut part is this module itself, so that view is complete.
    if (complete || chain.length === 0) this.cache.set(filePath, { summary, stamps });
    return { summary, complete };
  }
}

interface Computed {
  summary: ModuleSummary | null;
  /** False when a re-export cycle (or the depth limit) cut the computation short. */
  complete: boolean;
}
