// Cross-module facts for the rules: which exports of a project module are mongoose models.
// Reads only the top-level statements of each module, caches by path + mtime, never throws.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as t from '@babel/types';
import type { ImportBinding, ModuleSummary, ProjectView } from '../../rules/api';
import { isModelExpression, memberName, mongooseRoleOf, unwrapExpression } from '../../rules/mongooseModels';
import { collectImports, requiredModule, type ImportTable } from './imports';
import { parseSource } from './parse';
import { tryReadGuardedText } from '../shared/guardedRead';
import { SOURCE_EXTENSIONS } from '../shared/paths';

export interface ProjectIndexOptions {
  /**
   * Reads a file's text, or null when it cannot be read. The language server injects one that
   * serves open, unsaved documents (and calls `invalidate(path)` when they change).
   */
  readFile?: (filePath: string) => string | null;
}

/** TypeScript ESM writes `./user.js` for `./user.ts` on disk. */
const TS_SOURCE_FOR: Record<string, string[]> = { '.js': ['.ts', '.tsx'], '.jsx': ['.tsx'], '.mjs': ['.mts'], '.cjs': ['.cts'] };
/** Re-export chains longer than this are not followed (cycles are cut earlier). */
const MAX_REEXPORT_DEPTH = 8;
/** Larger files are not models files; skip rather than parse megabytes. */
export const MAX_MODULE_BYTES = 2 * 1024 * 1024;

const EMPTY: ModuleSummary = { mongooseModelExports: new Set<string>() };

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

export class ProjectIndex implements ProjectView {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly readFile: (filePath: string) => string | null;
  private readonly injectedReader: boolean;

  constructor(options: ProjectIndexOptions = {}) {
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
    if (!specifier.startsWith('./') && !specifier.startsWith('../') && specifier !== '.' && specifier !== '..' && !path.isAbsolute(specifier)) {
      return null;
    }
    const base = path.resolve(path.dirname(fromFile), specifier);
    const candidates: string[] = [base];
    const ext = path.extname(base);
    for (const tsExt of TS_SOURCE_FOR[ext] ?? []) candidates.push(base.slice(0, -ext.length) + tsExt);
    for (const e of SOURCE_EXTENSIONS) candidates.push(base + e);
    for (const e of SOURCE_EXTENSIONS) candidates.push(path.join(base, `index${e}`));
    return candidates.find((candidate) => this.exists(candidate)) ?? null;
  }

  /** Forgets a file's summary (and, through the stamps, every summary that re-exported it). */
  invalidate(filePath: string): void {
    const resolved = path.resolve(filePath);
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
    if (chain.includes(filePath) || chain.length > MAX_REEXPORT_DEPTH) return { summary: EMPTY, complete: false };
    const cached = this.cache.get(filePath);
    if (cached && this.isFresh(cached)) return { summary: cached.summary, complete: true };

    const stamps = new Map<string, number | null>([[filePath, mtimeOf(filePath)]]);
    let complete = true;
    let summary: ModuleSummary | null = null;
    const text = this.readFile(filePath);
    if (text !== null) {
      const parsed = parseSource(filePath, text);
      if (parsed.ast) {
        const reader = new ModuleExports(filePath, parsed.ast.program, (from, specifier) => {
          const target = this.resolve(from, specifier);
          if (target === null) return null;
          const nested = this.summarize(target, [...chain, filePath]);
          complete &&= nested.complete;
          stamps.set(target, mtimeOf(target));
          for (const [file, stamp] of this.cache.get(target)?.stamps ?? []) stamps.set(file, stamp);
          return nested.summary;
        });
        summary = { mongooseModelExports: reader.modelExports() };
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

type ModuleLookup = (fromFile: string, specifier: string) => ModuleSummary | null;

/** The model exports of one module, from its top-level statements. */
class ModuleExports {
  private readonly imports: ImportTable;
  /** Top-level `const X = <init>` declarations, for `module.exports = { X }` and `export { X }`. */
  private readonly locals = new Map<string, t.Expression>();
  private readonly exports = new Set<string>();

  constructor(
    private readonly filePath: string,
    private readonly program: t.Program,
    private readonly lookup: ModuleLookup,
  ) {
    this.imports = collectImports(program);
    for (const statement of program.body) {
      const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
      if (declaration?.type !== 'VariableDeclaration') continue;
      for (const declarator of declaration.declarations) {
        if (declarator.id.type === 'Identifier' && declarator.init) this.locals.set(declarator.id.name, declarator.init);
      }
    }
  }

  modelExports(): ReadonlySet<string> {
    for (const statement of this.program.body) this.readStatement(statement);
    return this.exports;
  }

  private readStatement(statement: t.Statement): void {
    switch (statement.type) {
      case 'ExpressionStatement':
        this.readAssignment(statement.expression);
        break;
      case 'ExportDefaultDeclaration':
        if (this.isModel(statement.declaration, 0)) this.exports.add('default');
        break;
      case 'TSExportAssignment': // `export = model(...)`
        this.readModuleExports(statement.expression);
        break;
      case 'ExportNamedDeclaration':
        this.readNamedExport(statement);
        break;
      case 'ExportAllDeclaration': {
        const target = this.lookup(this.filePath, statement.source.value);
        for (const name of target?.mongooseModelExports ?? []) if (name !== 'default') this.exports.add(name);
        break;
      }
      default:
        break;
    }
  }

  private readNamedExport(statement: t.ExportNamedDeclaration): void {
    const { declaration } = statement;
    if (declaration?.type === 'VariableDeclaration') {
      for (const d of declaration.declarations) {
        if (d.id.type === 'Identifier' && d.init && this.isModel(d.init, 0)) this.exports.add(d.id.name);
      }
      return;
    }
    const from = statement.source ? this.lookup(this.filePath, statement.source.value) : null;
    for (const spec of statement.specifiers) {
      if (spec.type !== 'ExportSpecifier') continue;
      const exported = spec.exported.type === 'Identifier' ? spec.exported.name : spec.exported.value;
      const local = spec.local.name;
      const isModel = statement.source ? from?.mongooseModelExports.has(local) === true : this.isModel(spec.local, 0);
      if (isModel) this.exports.add(exported);
    }
  }

  /** `module.exports = ...`, `module.exports.X = ...`, `exports.X = ...`. */
  private readAssignment(expression: t.Expression): void {
    if (expression.type !== 'AssignmentExpression' || expression.operator !== '=') return;
    const left = expression.left;
    if (isModuleExports(left)) {
      this.readModuleExports(expression.right);
      return;
    }
    if (left.type !== 'MemberExpression') return;
    const name = memberName(left);
    const owner = unwrapExpression(left.object);
    const onExports = (owner.type === 'Identifier' && owner.name === 'exports') || isModuleExports(owner);
    if (name !== null && onExports && this.isModel(expression.right, 0)) this.exports.add(name);
  }

  private readModuleExports(value: t.Expression): void {
    const right = unwrapExpression(value);
    if (right.type === 'ObjectExpression') {
      for (const prop of right.properties) {
        if (prop.type === 'SpreadElement') {
          this.copyWholeModule(prop.argument, false);
        } else if (prop.type === 'ObjectProperty') {
          const key = !prop.computed && prop.key.type === 'Identifier' ? prop.key.name : prop.key.type === 'StringLiteral' ? prop.key.value : null;
          if (key !== null && this.isModel(prop.value, 0)) this.exports.add(key);
        }
      }
      return;
    }
    if (this.copyWholeModule(right, true)) return;
    if (this.isModel(right, 0)) this.exports.add('default');
  }

  /** `module.exports = require('./user')` re-exports everything, including the default. */
  private copyWholeModule(node: t.Node, withDefault: boolean): boolean {
    const specifier = requiredModule(unwrapExpression(node));
    if (specifier === null) return false;
    const target = this.lookup(this.filePath, specifier);
    for (const name of target?.mongooseModelExports ?? []) if (withDefault || name !== 'default') this.exports.add(name);
    return true;
  }

  /** Is a top-level value a model: a definition, a local bound to one, or an imported model? */
  private isModel(node: t.Node, depth: number): boolean {
    if (depth > 4) return false;
    const value = unwrapExpression(node);
    if (isModelExpression(value, (name) => mongooseRoleOf(this.imports.get(name) ?? null, name))) return true;
    const required = requiredModule(value);
    if (required !== null) return this.lookup(this.filePath, required)?.mongooseModelExports.has('default') === true;
    if (value.type === 'MemberExpression') {
      // require('./user').User
      const specifier = requiredModule(unwrapExpression(value.object));
      const member = memberName(value);
      if (specifier !== null && member !== null) return this.lookup(this.filePath, specifier)?.mongooseModelExports.has(member) === true;
      return false;
    }
    if (value.type !== 'Identifier') return false;
    const imported = this.imports.get(value.name);
    if (imported) return this.isImportedModel(imported);
    const init = this.locals.get(value.name);
    return init !== undefined && this.isModel(init, depth + 1);
  }

  private isImportedModel(binding: ImportBinding): boolean {
    const target = this.lookup(this.filePath, binding.source);
    return target?.mongooseModelExports.has(binding.imported) === true;
  }
}

function isModuleExports(node: t.Node): boolean {
  const target = unwrapExpression(node);
  if (target.type !== 'MemberExpression' || memberName(target) !== 'exports') return false;
  const object = unwrapExpression(target.object);
  return object.type === 'Identifier' && object.name === 'module';
}
