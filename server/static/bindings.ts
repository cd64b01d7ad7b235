// Which declaration a name refers to, for the rules and the hot-context collector. This replaces
// Babel's Scope (whose Program crawl and per-path scope objects cost about half of an analysis):
// one walk over raw nodes, made on first use per file, that follows @babel/traverse's scope
// collector rule for rule (see node_modules/@babel/traverse/lib/scope/index.js, collectorVisitor,
// registerBinding, getBinding, and binding.js isInitInLoop) so that lookups answer as Scope did.
import type { NodePath } from '@babel/traverse';
import * as t from '@babel/types';
import type { BindingKind, LocalBinding } from '../../rules/api';
import { NodeStack, childFrame, pathOf, rootFrame, type Frame, type PathClock } from './lazyPaths';
import { childKeysOf } from './childNodes';
import { PerStatement } from './statementRevisions';
import { forEachChildOnStack } from './walk';

// Read once: bundled CommonJS re-exports each of these through a getter on every `t.x` access,
// which the walk below would pay per node.
const {
  isReferenced, isPattern, isMethod, isFunctionParent, isFunction, isScopable, isLoop, isForXStatement, isExportDeclaration,
  isDeclaration, isBlockScoped, isBlockParent, getOuterBindingIdentifiers, getBindingIdentifiers, getAssignmentIdentifiers,
  react,
} = t;

/** A scope as Babel draws them: Program, functions, blocks, loops, catch, class, switch, patterns. */
export interface ScopeInfo {
  readonly node: t.Node;
  /** The parent of `node` (Babel's `scope.path.parentPath.node`). */
  readonly parentNode: t.Node | null;
  /** Set again when a kept function's scopes are hung from the scopes of a new version (FunctionUnit). */
  parent: ScopeInfo | null;
  bindings: Map<string, BindingRecord> | null;
  /** Where the scope's node sits, to find the paths of its bindings' reads. */
  readonly frame: Frame;
}

export class BindingRecord implements LocalBinding {
  constant = true;
  /** `export` declarations of the binding (Babel counts them as references, before the reads). */
  private readonly exports: Frame[] = [];
  /** Identifier reads, in source order: nodes only; their paths are found when asked for. */
  private readonly reads: t.Node[] = [];
  /** The scope each read is in: its node's subtree holds the read, a smaller search than ours. */
  private readonly readScopes: ScopeInfo[] = [];
  private referencePathsMade: NodePath[] | null = null;
  private referencePathsEpoch = -1;
  private readFramesMade: Frame[] | null = null;

  constructor(
    readonly kind: BindingKind,
    readonly identifier: t.Identifier,
    readonly scope: ScopeInfo,
    /**
     * Where the declaring node sits, for the resolver itself. Code that reads the declaration
     * reads `frame`, `path` or `pathScope`, which tell the recorder of the moment.
     */
    readonly declarationFrame: Frame,
    /** Babel's `binding.path.scope`, for the resolver itself (`pathScope` for the others). */
    public declarationScope: ScopeInfo,
    /** The analyses of the binding's document: its paths are those of the current one. */
    private readonly clock: BindingOwner,
  ) {}

  /** Where the declaring node sits (Babel's `binding.path`). */
  get frame(): Frame {
    this.readDeclaration();
    return this.declarationFrame;
  }

  get path(): NodePath {
    this.readDeclaration();
    return pathOf(this.declarationFrame, this.clock);
  }

  /** The scope the declaring node sits in (Babel's `binding.path.scope`), for evaluate(). */
  get pathScope(): ScopeInfo {
    this.readDeclaration();
    return this.declarationScope;
  }

  /**
   * The function the name is declared as (a function declaration, or a declarator whose value is a
   * function), else null: the one thing read of the declaration, which is all a call of the name
   * needs to know (the hot context's targets). What a statement records of it is this node, not
   * the rest of the declaration, so an edit inside that function leaves the record of its caller standing.
   */
  get declaredFunction(): t.Node | null {
    const fn = declaredFunctionOf(this.declarationFrame.node);
    this.readShape('function', (now) => declaredFunctionOf(now.declarationFrame.node) === fn);
    return fn;
  }

  /**
   * The declarator when the name is declared by `const`/`let`/`var x = …` (reading it reads the
   * declaration), else null: that rests only on the name not being declared so, which an edit
   * inside the declaring function or class does not change.
   */
  get declarator(): t.VariableDeclarator | null {
    const node = this.declarationFrame.node;
    if (node.type === 'VariableDeclarator') {
      this.readDeclaration();
      return node;
    }
    this.readShape('not a declarator', (now) => now.declarationFrame.node.type !== 'VariableDeclarator');
    return null;
  }

  private readShape(what: string, stillSame: (now: BindingRecord) => boolean): void {
    if (this.clock.recorder !== null && this.scope.parent === null) this.clock.recorder.readShape(this, what, stillSame);
  }

  /** The file's binding's declaration was read: the statement being walked rests on all of it. */
  private readDeclaration(): void {
    if (this.clock.recorder !== null && this.scope.parent === null) this.clock.recorder.readDeclaration(this);
  }

  get topLevel(): boolean {
    return this.scope.node.type === 'Program';
  }

  get referenceCount(): number {
    // How many reads there are is read from every statement that reads the name, as their paths are.
    if (this.clock.recorder !== null && this.scope.parent === null) this.clock.recorder.readReferences(this);
    return this.exports.length + this.reads.length;
  }

  get referencePaths(): readonly NodePath[] {
    if (this.clock.recorder !== null && this.scope.parent === null) this.clock.recorder.readReferences(this);
    // Paths are remade per analysis (see lazyPaths.ts): a binding of an unchanged statement lives
    // on, and so do the frames of its reads (it gains no reads once its statement is collected).
    const epoch = this.clock.epoch;
    if (this.referencePathsMade === null || this.referencePathsEpoch !== epoch) {
      this.readFramesMade ??= this.readFrames();
      const pathAt = (frame: Frame): NodePath => pathOf(frame, this.clock);
      this.referencePathsMade = [...this.exports.map(pathAt), ...this.readFramesMade.map(pathAt)];
      this.referencePathsEpoch = epoch;
    }
    return this.referencePathsMade;
  }

  reference(node: t.Node, scope: ScopeInfo): void {
    this.reads.push(node);
    this.readScopes.push(scope);
  }

  /** Frames of the reads, searched once per scope they sit in, returned in source order. */
  private readFrames(): Frame[] {
    const byScope = new Map<ScopeInfo, t.Node[]>();
    this.reads.forEach((node, index) => {
      const scope = this.readScopes[index];
      const nodes = byScope.get(scope);
      if (nodes) nodes.push(node);
      else byScope.set(scope, [node]);
    });
    const frameByNode = new Map<t.Node, Frame>();
    for (const [scope, nodes] of byScope) {
      for (const frame of findFrames(scope.frame, nodes)) frameByNode.set(frame.node, frame);
    }
    return this.reads.map((node) => frameByNode.get(node) as Frame);
  }

  /** An `export` of the declaration; Babel ignores a path it already holds (`export var a, a`). */
  referenceOnce(frame: Frame): void {
    if (!this.exports.some((known) => known.node === frame.node)) this.exports.push(frame);
  }
}

/**
 * The frames of `targets` (in source order), all inside the subtree of `root`: a read lies within
 * the node of the scope it is in (a method's computed key and a switch's discriminant too).
 * Searched for only when a rule asks, which few do.
 */
function findFrames(root: Frame, targets: readonly t.Node[]): Frame[] {
  const found: Frame[] = [];
  if (targets.length === 0) return found;
  const wanted = new Set(targets);
  const stack = new NodeStack(root);
  const allFound = (): boolean => found.length === targets.length;
  const search = (depth: number): void => {
    const node = stack.node(depth);
    if (wanted.has(node)) found.push(stack.frameAt(depth));
    forEachChildOnStack(stack, depth, search, allFound);
  };
  search(0);
  return found;
}

/**
 * Told of every lookup that leaves the top-level statement being walked: a name of the file's
 * scope, or a global. What a statement's findings rest on besides its own text (see
 * statementRecords.ts); the engine sets one while it walks a statement of an editor document.
 */
export interface BindingRecorder {
  /** `name` was looked up and is `binding` in the file's scope, or a global (undefined). */
  lookedUp(name: string, binding: BindingRecord | undefined): void;
  /** The reads of a binding of the file's scope were listed (they are in every statement that reads it). */
  readReferences(binding: BindingRecord): void;
  /** The declaration of a binding of the file's scope was read (any of it: its node, its path, its scope). */
  readDeclaration(binding: BindingRecord): void;
  /**
   * Of the declaration of a binding of the file's scope, only what `stillSame` asks of the binding
   * of a later version was read (which function it declares, whether it is a declarator).
   */
  readShape(binding: BindingRecord, what: string, stillSame: (now: BindingRecord) => boolean): void;
}

/** The function a declaring node declares its name as: a function declaration, or a declarator's function value. */
export function declaredFunctionOf(node: t.Node): t.Node | null {
  if (node.type === 'FunctionDeclaration') return node;
  if (node.type === 'VariableDeclarator' && node.init != null && isFunction(node.init)) return node.init;
  return null;
}

/** The resolver, as its bindings see it: the clock of its paths and the recorder of the moment. */
interface BindingOwner extends PathClock {
  readonly recorder: BindingRecorder | null;
}

/** A write, resolved once every declaration is known. */
interface Pending {
  node: t.Node;
  scope: ScopeInfo;
}

// What the walk asks of every node, by type, computed once per type instead of per node.
const DECLARATION = 1;
const FUNCTION = 2;
const SCOPABLE = 4;
const PATTERN = 8;
const flagsByType = new Map<string, number>();

function flagsOf(type: string): number {
  let flags = flagsByType.get(type);
  if (flags === undefined) {
    const probe = { type } as t.Node;
    flags = (isDeclaration(probe) ? DECLARATION : 0) | (isFunction(probe) ? FUNCTION : 0)
      | (isScopable(probe) ? SCOPABLE : 0) | (isPattern(probe) ? PATTERN : 0);
    flagsByType.set(type, flags);
  }
  return flags;
}

/** @babel/types isScope(node, parent): a function's body block and a destructured parameter are special. */
function isScopeNode(node: t.Node, parent: t.Node): boolean {
  const flags = flagsOf(node.type);
  if ((flags & (SCOPABLE | PATTERN)) === 0) return false;
  const underFunctionOrCatch = (flagsOf(parent.type) & FUNCTION) !== 0 || parent.type === 'CatchClause';
  if (node.type === 'BlockStatement' && underFunctionOrCatch) return false;
  if ((flags & PATTERN) !== 0 && underFunctionOrCatch) return true;
  return (flags & SCOPABLE) !== 0;
}

function isNonArrowFunction(node: t.Node): boolean {
  return isFunction(node) && node.type !== 'ArrowFunctionExpression';
}

function functionParentOf(scope: ScopeInfo): ScopeInfo {
  for (let s: ScopeInfo | null = scope; s; s = s.parent) if (isFunctionParent(s.node)) return s;
  let program = scope;
  while (program.parent) program = program.parent;
  return program;
}

function blockParentOf(scope: ScopeInfo): ScopeInfo {
  for (let s: ScopeInfo | null = scope; s; s = s.parent) if (isBlockParent(s.node)) return s;
  throw new Error('no block parent');
}

/** Babel's Scope#getBinding: a default parameter value does not see the body's own declarations. */
export function lookup(scope: ScopeInfo, name: string): BindingRecord | undefined {
  let previousIsPattern = false;
  for (let s: ScopeInfo | null = scope; s; s = s.parent) {
    const binding = s.bindings?.get(name);
    if (binding) {
      if (!(previousIsPattern && binding.kind !== 'param' && binding.kind !== 'local')) return binding;
    } else if (name === 'arguments' && isNonArrowFunction(s.node)) {
      return undefined;
    }
    previousIsPattern = (flagsOf(s.node.type) & PATTERN) !== 0;
  }
  return undefined;
}

/** binding.js isInitInLoop: a `var` or function declared in a loop body is reassigned per iteration. */
function isInitInLoop(frame: Frame): boolean {
  const node = frame.node;
  const functionOrHasInit = node.type !== 'VariableDeclarator' || Boolean(node.init);
  for (let child: Frame = frame, parent = frame.parent; parent && parent.parent; child = parent, parent = parent.parent) {
    if (isFunctionParent(parent.node)) return false;
    if ((child.key === 'left' && isForXStatement(parent.node)) || (functionOrHasInit && child.key === 'body' && isLoop(parent.node))) {
      return true;
    }
  }
  return false;
}

function registerBinding(clock: BindingOwner, scope: ScopeInfo, kind: BindingKind, idsOf: t.Node, bindingFrame: Frame, pathScope: ScopeInfo): void {
  const ids = getOuterBindingIdentifiers(idsOf, true);
  for (const name of Object.keys(ids)) {
    for (const id of ids[name]) {
      const local = scope.bindings?.get(name);
      if (local) {
        if (local.identifier === id) continue;
        // Babel throws on a redeclared let/const here; the engine always silenced that, so it reassigns.
        local.constant = false;
      } else {
        const binding = new BindingRecord(kind, id, scope, bindingFrame, pathScope, clock);
        if ((kind === 'var' || kind === 'hoisted') && isInitInLoop(bindingFrame)) binding.constant = false;
        (scope.bindings ??= new Map()).set(name, binding);
      }
    }
  }
}

/** registerBinding, or a version of it that also records what is declared in the file's scope. */
type Declare = (scope: ScopeInfo, kind: BindingKind, idsOf: t.Node, bindingFrame: Frame, pathScope: ScopeInfo) => void;

function registerDeclarators(declare: Declare, scope: ScopeInfo, kind: BindingKind, declaration: t.VariableDeclaration, frame: Frame, pathScope: ScopeInfo): void {
  declaration.declarations.forEach((declarator, index) => {
    declare(scope, kind, declarator, childFrame(frame, declarator, index, 'declarations'), pathScope);
  });
}

function variableKind(declaration: t.VariableDeclaration): BindingKind {
  const kind = declaration.kind;
  return kind === 'using' || kind === 'await using' ? 'const' : kind;
}

/** Babel's Scope#registerDeclaration for the node kinds the collector hands it. */
function registerDeclaration(declare: Declare, scope: ScopeInfo, node: t.Node, frame: Frame, pathScope: ScopeInfo): void {
  if (node.type === 'LabeledStatement') return;
  if (node.type === 'FunctionDeclaration') {
    if (node.id) declare(scope, 'hoisted', node.id, frame, pathScope);
  } else if (node.type === 'VariableDeclaration') {
    registerDeclarators(declare, scope, variableKind(node), node, frame, pathScope);
  } else if (node.type === 'ClassDeclaration') {
    if (!node.declare) declare(scope, 'let', node, frame, pathScope);
  } else if (node.type === 'ImportDeclaration') {
    const typeOnly = node.importKind === 'type' || node.importKind === 'typeof';
    node.specifiers.forEach((specifier, index) => {
      const typeSpecifier = typeOnly || (specifier.type === 'ImportSpecifier' && (specifier.importKind === 'type' || specifier.importKind === 'typeof'));
      declare(scope, typeSpecifier ? 'unknown' : 'module', specifier, childFrame(frame, specifier, index, 'specifiers'), pathScope);
    });
  } else {
    declare(scope, 'unknown', node, frame, pathScope);
  }
}

function isReferencedIdentifier(node: t.Node, parent: t.Node, grandparent: t.Node | undefined): boolean {
  if (node.type === 'Identifier') return isReferenced(node, parent, grandparent);
  if (node.type !== 'JSXIdentifier') return false;
  if (parent.type !== 'JSXMemberExpression' && react.isCompatTag(node.name)) return false;
  return isReferenced(node, parent, grandparent);
}

/**
 * Builds the scopes of a file, one top-level statement at a time, and resolves references once
 * everything is declared. A statement already collected for an earlier version of the file (the
 * incremental parser keeps unchanged statements) keeps its inner scopes, their bindings and the
 * reads and writes resolved to them; only what it declares in the file's scope is declared again,
 * and its reads and writes of names it does not declare itself are resolved again.
 */
function collect(file: FileScopes, scopes: NodeMap<ScopeInfo>, clock: BindingOwner): number {
  const program = file.scope;
  program.bindings = null;
  const stack = new NodeStack(file.fileFrame);
  stack.setFrame(1, program.frame);
  // A tree analyzed once (the command line) is collected in one piece, without the per-statement
  // records that only a next version of it would use.
  const kept = file.units;
  const functions = file.functions;
  let unit: StatementUnit = newUnit();
  let reused = 0;
  const declare: Declare = (scope, kind, idsOf, bindingFrame, pathScope) => {
    if (kept !== null && scope === program) unit.declarations.push({ kind, idsOf, bindingFrame, pathScope });
    registerBinding(clock, scope, kind, idsOf, bindingFrame, pathScope);
  };

  /**
   * `scope` is Babel's `path.scope` for the node at `depth`; `structural` the nearest scope node at
   * or above it, which is where a new scope's parent is looked for (Scope#parent skips only a method's key).
   */
  function visit(depth: number, scope: ScopeInfo, structural: ScopeInfo): void {
    const node = stack.node(depth);
    switch (node.type) {
      case 'TSTypeAnnotation':
        return; // the collector skips type annotations
      case 'ForStatement': {
        const init = node.init;
        if (init?.type === 'VariableDeclaration' && init.kind === 'var') {
          registerDeclarators(declare, functionParentOf(scope), 'var', init, childFrame(stack.frameAt(depth), init, 'init', null), scope);
        }
        break;
      }
      case 'ForInStatement':
      case 'ForOfStatement': {
        const left = node.left;
        if (isPattern(left) || left.type === 'Identifier') unit.violations.push({ node, scope });
        else if (left.type === 'VariableDeclaration' && left.kind === 'var') {
          registerDeclarators(declare, functionParentOf(scope), 'var', left, childFrame(stack.frameAt(depth), left, 'left', null), scope);
        }
        break;
      }
      case 'AssignmentExpression':
        unit.assignments.push({ node, scope });
        break;
      case 'UpdateExpression':
        unit.violations.push({ node, scope });
        break;
      case 'UnaryExpression':
        if (node.operator === 'delete') unit.violations.push({ node, scope });
        break;
      case 'CatchClause':
        declare(scope, 'let', node, stack.frameAt(depth), scope);
        break;
      case 'ClassExpression':
        if (node.id) declare(scope, 'local', node.id, stack.frameAt(depth), scope);
        break;
      case 'Identifier':
      case 'JSXIdentifier': {
        const parent = stack.node(depth - 1);
        if (isReferencedIdentifier(node, parent, depth > 1 ? stack.node(depth - 2) : undefined)
          && !(parent.type === 'TSQualifiedName' && parent.right === node)
          && parent.type !== 'TSImportEqualsDeclaration') {
          unit.readNodes.push(node as t.Identifier);
          unit.readScopes.push(scope);
        }
        break;
      }
      default:
        break;
    }
    const flags = flagsOf(node.type);
    if ((flags & DECLARATION) !== 0) declareOwn(depth, node, scope);
    if (node.type === 'ImportDeclaration' || node.type === 'TSImportEqualsDeclaration') {
      registerDeclaration(declare, blockParentOf(scope), node, stack.frameAt(depth), scope);
    }
    if ((flags & FUNCTION) !== 0 && isFunction(node)) {
      const frame = stack.frameAt(depth);
      node.params.forEach((param, index) => {
        declare(scope, 'param', param, childFrame(frame, param, index, 'params'), scope);
      });
      if (node.type === 'FunctionExpression' && node.id) declare(scope, 'local', node.id, frame, scope);
    }

    // forEachChild's loop, without a closure per node: every node of the file comes through here.
    const keys = childKeysOf(node);
    const record = node as unknown as Record<string, unknown>;
    for (const key of keys ?? []) {
      const value = record[key];
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          const child = value[i] as t.Node | null;
          if (!child) continue;
          stack.set(depth + 1, child, i, key);
          visitChild(depth + 1, scope, structural);
        }
      } else if (value && typeof (value as t.Node).type === 'string') {
        stack.set(depth + 1, value as t.Node, key, null);
        visitChild(depth + 1, scope, structural);
      }
    }

    if (node.type === 'ExportNamedDeclaration' || node.type === 'ExportDefaultDeclaration') {
      // The collector counts `export` of a declaration as a reference to what it declares.
      const declaration = node.declaration;
      const names: string[] = [];
      if (declaration?.type === 'ClassDeclaration' || declaration?.type === 'FunctionDeclaration') {
        if (declaration.id) names.push(declaration.id.name);
      } else if (declaration?.type === 'VariableDeclaration') {
        for (const declarator of declaration.declarations) names.push(...Object.keys(getBindingIdentifiers(declarator)));
      }
      for (const name of names) {
        const exported = { scope, name, frame: stack.frameAt(depth) };
        if (kept !== null && lookup(scope, name)?.scope === program) unit.exports.push(exported);
        exportReference(exported);
      }
    }
  }

  /** What a declaration declares where it sits (`scope`: its path's scope; a function's or class's own). */
  function declareOwn(depth: number, node: t.Node, scope: ScopeInfo): void {
    const blockScoped = isBlockScoped(node);
    if (!blockScoped && node.type !== 'ImportDeclaration' && !isExportDeclaration(node)) {
      registerDeclaration(declare, functionParentOf(scope), node, stack.frameAt(depth), scope);
    }
    if (blockScoped) {
      const outer = scope.node === node ? (scope.parent as ScopeInfo) : scope;
      registerDeclaration(declare, blockParentOf(outer), node, stack.frameAt(depth), scope);
      if (node.type === 'ClassDeclaration' && node.id) {
        const found = lookup(outer, node.id.name);
        if (found) (scope.bindings ??= new Map()).set(node.id.name, found);
        // A top-level class's own scope holds the file's binding, which is made anew per version.
        if (kept !== null && found?.scope === program) unit.classAliases.push({ scope, name: node.id.name });
      }
    }
  }

  /**
   * A long function below a top-level statement that no edit revised since its scopes were built:
   * its scopes, their bindings and the reads resolved to them stay; its own scope is hung from the
   * scopes of this version, its frame from this version's frames (a block re-parsed around it may
   * have renumbered it), what its node declares outside it is declared again, and its reads and
   * writes of names declared outside it are resolved again with the statement's, in source order.
   */
  function reuseFunction(depth: number, kept: FunctionUnit, scopeParent: ScopeInfo): void {
    const frame = kept.scope.frame;
    frame.parent = stack.frameAt(depth - 1);
    frame.key = stack.key(depth);
    frame.listKey = stack.listKey(depth);
    stack.setFrame(depth, frame);
    kept.scope.parent = scopeParent;
    const node = kept.scope.node;
    scopes.set(node, kept.scope);
    if ((flagsOf(node.type) & DECLARATION) !== 0) declareOwn(depth, node, kept.scope);
    for (let i = 0; i < kept.outerReadNodes.length; i++) {
      unit.readNodes.push(kept.outerReadNodes[i]);
      unit.readScopes.push(kept.outerReadScopes[i]);
    }
    for (const write of kept.outerWrites) unit.replayedWrites.push(write);
    reused++;
  }

  function visitChild(depth: number, parentScope: ScopeInfo, parentStructural: ScopeInfo): void {
    const node = stack.node(depth);
    const parent = stack.node(depth - 1);
    const key = stack.key(depth);
    const methodKey = (key === 'key' || stack.listKey(depth) === 'decorators') && isMethod(parent);
    // Babel's setScope: a method's key and decorators, and a switch's discriminant, are outside it.
    let inherited = parentScope;
    if (methodKey || (key === 'discriminant' && parent.type === 'SwitchStatement')) {
      inherited = scopeAbove(parent, parentScope);
    }
    if (isScopeNode(node, parent)) {
      const scopeParent = methodKey ? structuralAbove(parent, parentStructural) : parentStructural;
      const tracked = functions !== null && depth > 2 && isKeptFunction(node);
      const known = tracked ? functions.get(node) : undefined;
      if (known !== undefined) {
        reuseFunction(depth, known, scopeParent);
        return;
      }
      const scope: ScopeInfo = { node, parentNode: parent, parent: scopeParent, bindings: null, frame: stack.frameAt(depth) };
      scopes.set(node, scope);
      if (isPattern(node)) {
        // A destructured parameter is a scope of its own in Babel, and the path of its bindings.
        for (const binding of scopeParent.bindings?.values() ?? []) if (binding.declarationFrame.node === node) binding.declarationScope = scope;
      }
      if (!tracked) {
        visit(depth, scope, scope);
        return;
      }
      // Where its reads and writes start and end in the statement's lists: they are resolved with the statement's.
      const draft: FunctionDraft = {
        unit: { scope, outerReadNodes: [], outerReadScopes: [], outerWrites: [] },
        reads: unit.readNodes.length,
        readsEnd: 0,
        assignments: unit.assignments.length,
        assignmentsEnd: 0,
        violations: unit.violations.length,
        violationsEnd: 0,
        replayed: unit.replayedWrites.length,
        replayedEnd: 0,
      };
      visit(depth, scope, scope);
      draft.readsEnd = unit.readNodes.length;
      draft.assignmentsEnd = unit.assignments.length;
      draft.violationsEnd = unit.violations.length;
      draft.replayedEnd = unit.replayedWrites.length;
      unit.functions.push(draft);
    } else {
      visit(depth, inherited, parentStructural);
    }
  }

  /** `path.scope` of the parent's parent, given the parent's own scope. */
  function scopeAbove(parent: t.Node, parentScope: ScopeInfo): ScopeInfo {
    // A method is itself a scope, so its parent's scope is the method scope's parent.
    return parentScope.node === parent && parentScope.parent ? parentScope.parent : parentScope;
  }

  function structuralAbove(parent: t.Node, parentStructural: ScopeInfo): ScopeInfo {
    return parentStructural.node === parent && parentStructural.parent ? parentStructural.parent : parentStructural;
  }

  const units: StatementUnit[] = [];
  const fresh = new Set<StatementUnit>();
  file.program.body.forEach((statement, index) => {
    const known = kept?.get(statement);
    if (known) {
      // Unchanged since the last version: declare again what it declares in the file's scope.
      if (known.frame) known.frame.key = index;
      for (const d of known.declarations) registerBinding(clock, program, d.kind, d.idsOf, d.bindingFrame, d.pathScope);
      for (const exported of known.exports) exportReference(exported);
      for (const alias of known.classAliases) {
        const found = lookup(program, alias.name);
        if (found) (alias.scope.bindings ??= new Map()).set(alias.name, found);
      }
      units.push(known);
      return;
    }
    if (kept !== null || units.length === 0) {
      unit = newUnit();
      fresh.add(unit);
      units.push(unit);
    }
    stack.set(2, statement, index, 'body');
    visitChild(2, program, program);
    if (kept !== null) {
      unit.frame = stack.madeFrame(2);
      kept.set(statement, unit);
    }
  });

  // Once all is declared: a new statement's reads and writes are resolved (those of names it does
  // not declare itself are also kept); a kept statement's kept ones are resolved again.
  for (const each of units) {
    if (fresh.has(each)) {
      settle(each, program, kept !== null, functions);
      continue;
    }
    for (const write of each.outerWrites) markName(write.scope, write.name);
    for (let i = 0; i < each.outerReadNodes.length; i++) {
      const node = each.outerReadNodes[i];
      const scope = each.outerReadScopes[i];
      const binding = each.outerReadsDirect[i] ? bindingIn(program, node.name) : lookup(scope, node.name);
      binding?.reference(node, scope);
    }
  }
  return reused;
}

function markName(scope: ScopeInfo, name: string): void {
  const binding = lookup(scope, name);
  if (binding) binding.constant = false;
}

function exportReference(exported: ExportedName): void {
  lookup(exported.scope, exported.name)?.referenceOnce(exported.frame);
}

/**
 * Resolves a newly collected statement's reads and writes (as Babel's crawl: assignments, then
 * references, then other writes), keeping those that resolve outside the statement (the file's
 * bindings and globals) to be resolved again for every later version.
 */
function settle(unit: StatementUnit, program: ScopeInfo, keep: boolean, functions: PerStatement<FunctionUnit> | null): void {
  for (const write of unit.assignments) settleWrite(unit, write, program, keep);
  const resolved: (BindingRecord | undefined)[] | null = unit.functions.length > 0 ? [] : null;
  for (let i = 0; i < unit.readNodes.length; i++) {
    const node = unit.readNodes[i];
    const scope = unit.readScopes[i];
    const binding = lookup(scope, node.name);
    if (keep && (binding === undefined || binding.scope === program)) {
      unit.outerReadNodes.push(node);
      unit.outerReadScopes.push(scope);
      unit.outerReadsDirect.push(reachesFileScope(scope, node.name));
    }
    binding?.reference(node, scope);
    if (resolved !== null) resolved.push(binding);
  }
  for (const write of unit.violations) settleWrite(unit, write, program, keep);
  for (const write of unit.replayedWrites) {
    const binding = lookup(write.scope, write.name);
    if (keep && (binding === undefined || binding.scope === program)) unit.outerWrites.push(write);
    if (binding) binding.constant = false;
  }
  if (resolved !== null && functions !== null) {
    for (const draft of unit.functions) {
      keepFunction(unit, draft, resolved);
      functions.set(draft.unit.scope.node, draft.unit);
    }
  }
  unit.readNodes = [];
  unit.readScopes = [];
  unit.assignments = [];
  unit.violations = [];
  unit.replayedWrites = [];
  unit.functions = [];
}

/**
 * Whether Babel's getBinding of `name` from `scope` (lookup) goes straight to the file's scope: no
 * scope between holds the name (a class's own scope holds its name), none stops `arguments`, and
 * the one below the file's is not a pattern. The scopes of a kept statement stay as they are, so
 * this holds for every later version: its read is then resolved in the file's scope alone.
 */
function reachesFileScope(scope: ScopeInfo, name: string): boolean {
  for (let s: ScopeInfo = scope; s.parent !== null; s = s.parent) {
    if (s.bindings?.has(name) === true || (name === 'arguments' && isNonArrowFunction(s.node))) return false;
    if (s.parent.parent === null && (flagsOf(s.node.type) & PATTERN) !== 0) return false;
  }
  return true;
}

/** The binding `scope` itself holds for `name` (its `bindings` are filled as a collection goes). */
function bindingIn(scope: ScopeInfo, name: string): BindingRecord | undefined {
  return scope.bindings?.get(name);
}

/** Whether `scope` is `outer` or lies inside it. */
function isWithin(scope: ScopeInfo, outer: ScopeInfo): boolean {
  for (let s: ScopeInfo | null = scope; s !== null; s = s.parent) if (s === outer) return true;
  return false;
}

/** Keeps, of a long function's reads and writes (resolved with its statement's), those of names declared outside it. */
function keepFunction(unit: StatementUnit, draft: FunctionDraft, resolved: readonly (BindingRecord | undefined)[]): void {
  const kept = draft.unit;
  const outside = (binding: BindingRecord | undefined): boolean => binding === undefined || !isWithin(binding.scope, kept.scope);
  for (let i = draft.reads; i < draft.readsEnd; i++) {
    if (!outside(resolved[i])) continue;
    kept.outerReadNodes.push(unit.readNodes[i]);
    kept.outerReadScopes.push(unit.readScopes[i]);
  }
  const keepWrite = (scope: ScopeInfo, name: string): void => {
    if (outside(lookup(scope, name))) kept.outerWrites.push({ scope, name });
  };
  for (let i = draft.assignments; i < draft.assignmentsEnd; i++) {
    const write = unit.assignments[i];
    for (const name of Object.keys(getAssignmentIdentifiers(write.node))) keepWrite(write.scope, name);
  }
  for (let i = draft.violations; i < draft.violationsEnd; i++) {
    const write = unit.violations[i];
    for (const name of Object.keys(getAssignmentIdentifiers(write.node))) keepWrite(write.scope, name);
  }
  for (let i = draft.replayed; i < draft.replayedEnd; i++) keepWrite(unit.replayedWrites[i].scope, unit.replayedWrites[i].name);
}

function settleWrite(unit: StatementUnit, write: Pending, program: ScopeInfo, keep: boolean): void {
  for (const name of Object.keys(getAssignmentIdentifiers(write.node))) {
    const binding = lookup(write.scope, name);
    if (keep && (binding === undefined || binding.scope === program)) unit.outerWrites.push({ scope: write.scope, name });
    if (binding) binding.constant = false;
  }
}

/** What a top-level statement declares in the file's scope: replayed, in order, for every version. */
interface Declaration {
  kind: BindingKind;
  idsOf: t.Node;
  bindingFrame: Frame;
  pathScope: ScopeInfo;
}

interface ExportedName {
  scope: ScopeInfo;
  name: string;
  frame: Frame;
}

/**
 * A long function below a top-level statement: its scopes (its own, which holds the others) and
 * its reads and writes of names declared outside it, in source order. Kept while no edit revises
 * its node (statementRevisions.ts): an edit elsewhere in the statement, which is collected again,
 * leaves it. Functions shorter than this are cheaper to collect again than to keep.
 */
interface FunctionUnit {
  readonly scope: ScopeInfo;
  readonly outerReadNodes: t.Identifier[];
  readonly outerReadScopes: ScopeInfo[];
  readonly outerWrites: { scope: ScopeInfo; name: string }[];
}

/** A long function being collected: where its reads and writes lie in its statement's lists. */
interface FunctionDraft {
  unit: FunctionUnit;
  reads: number;
  readsEnd: number;
  assignments: number;
  assignmentsEnd: number;
  violations: number;
  violationsEnd: number;
  replayed: number;
  replayedEnd: number;
}

/**
 * Shorter than project/moduleFacts.ts's 1,000: a function's reads cost as much to collect as to
 * replay, and the methods of real handler objects are often a few hundred characters (on
 * apostrophe's page module, 1,000 left twice the nodes to collect again per edit that 300 does).
 */
const KEPT_FUNCTION_MIN_LENGTH = 300;

/**
 * A function whose scopes are kept on their own: long enough, and with nothing of it in the scope
 * around it (a method's computed key and decorators are resolved there: Babel's setScope).
 */
function isKeptFunction(node: t.Node): boolean {
  if ((flagsOf(node.type) & FUNCTION) === 0 || (node.end ?? 0) - (node.start ?? 0) < KEPT_FUNCTION_MIN_LENGTH) return false;
  const member = node as { computed?: boolean; decorators?: unknown[] | null };
  return member.computed !== true && (member.decorators ?? []).length === 0;
}

/** One top-level statement's part of the file's scopes, kept while the statement's node lives. */
interface StatementUnit {
  /** The statement's frame, if one was made (its key is the statement's index, renumbered per version). */
  frame: Frame | null;
  declarations: Declaration[];
  exports: ExportedName[];
  classAliases: { scope: ScopeInfo; name: string }[];
  /** Reads and writes of names the statement does not declare itself, in source order. */
  outerReadNodes: t.Identifier[];
  outerReadScopes: ScopeInfo[];
  /** Per outer read: resolved in the file's scope alone (reachesFileScope), else by a lookup from its scope. */
  outerReadsDirect: boolean[];
  outerWrites: { scope: ScopeInfo; name: string }[];
  /** Collected but not yet resolved (emptied once they are). References in parallel arrays: the most numerous record. */
  readNodes: t.Identifier[];
  readScopes: ScopeInfo[];
  assignments: Pending[];
  violations: Pending[];
  /** The writes of names declared outside them that kept functions brought. */
  replayedWrites: { scope: ScopeInfo; name: string }[];
  /** The long functions collected anew, kept once resolved. */
  functions: FunctionDraft[];
}

function newUnit(): StatementUnit {
  return {
    frame: null, declarations: [], exports: [], classAliases: [], outerReadNodes: [], outerReadScopes: [], outerReadsDirect: [], outerWrites: [],
    readNodes: [], readScopes: [], assignments: [], violations: [], replayedWrites: [], functions: [],
  };
}

/** What the resolver keys by node: the operations a Map and a WeakMap share. */
type NodeMap<V> = Pick<WeakMap<t.Node, V>, 'get' | 'set' | 'has'>;

/**
 * A file's scopes: the program's own scope and frames, kept across versions, and its statements'
 * units (null for a tree that is analyzed once).
 */
interface FileScopes {
  program: t.Program;
  scope: ScopeInfo;
  fileFrame: Frame;
  units: PerStatement<StatementUnit> | null;
  /** The long functions below its statements (FunctionUnit); null with `units`. */
  functions: PerStatement<FunctionUnit> | null;
}

/**
 * The binding resolver of one document: the scopes of its statements (keyed by node like Babel's
 * own path cache, so that any NodePath finds its scope without the engine threading one around)
 * and the clock of its analyses. The engine makes one per analysis; the language server keeps
 * one per open document (a StaticDocument), so that what is known of the statements an edit did
 * not touch serves the next version. Entries live as long as their nodes.
 */
export class BindingResolver implements BindingOwner {
  /** See BindingRecorder; null outside the walk of an editor document's statement. */
  recorder: BindingRecorder | null = null;
  private readonly filesByProgram = new WeakMap<t.Program, FileScopes>();
  /**
   * Weak for a document's resolver, whose trees lose nodes edit after edit. A resolver made for
   * one analysis dies with it: a plain Map then, since a WeakMap's entries are ephemerons that
   * every young-generation collection of the analysis visits.
   */
  private readonly scopesByNode: NodeMap<ScopeInfo>;
  /** A file whose statements may have changed since its scopes were built: brought up to date on first use. */
  private changedFile: t.File | null = null;
  private analyses = 0;
  /** How many long functions the last collection of a changed statement kept (FunctionUnit), for tests and measurements. */
  lastKeptFunctions = 0;

  /**
   * `kept`: the trees analyzed here come back, edited, for another analysis (the language
   * server's incremental parse), so what is known of each statement is kept for them.
   */
  constructor(private readonly kept = false) {
    this.scopesByNode = kept ? new WeakMap() : new Map();
  }

  /** The analysis paths are made for: paths kept from an earlier one are made again. */
  get epoch(): number {
    return this.analyses;
  }

  /** The engine says so before analyzing `file`, a new file or a new version of one. */
  startAnalysis(file: t.File): void {
    this.changedFile = file;
    this.analyses++;
    this.lastScopedPath = null;
  }

  /**
   * The path `scopeOf` last answered for, and its answer (`lastScope`): a visitor asks about several
   * names where it stands (on apostrophe's page module two thirds of the searches were for the
   * path searched just before), and the search up the path's ancestors is the same each time.
   * Forgotten when the scopes may change: a new analysis, a collection.
   */
  private lastScopedPath: NodePath | null = null;
  private lastScope: ScopeInfo | null = null;
  /** How many times `scopeOf` searched up a path's ancestors (not answered from `lastScopedPath`), for tests and measurements. */
  scopeSearches = 0;

  /** Babel's `path.scope`, as this resolver draws it; builds the file's scopes on first use. */
  scopeOf(path: NodePath): ScopeInfo {
    this.ensureCollected();
    if (this.lastScopedPath === path && this.lastScope !== null) return this.lastScope;
    this.scopeSearches++;
    let current: NodePath = path;
    for (;;) {
      const scope = this.scopesByNode.get(current.node);
      if (scope) {
        this.lastScopedPath = path;
        this.lastScope = scope;
        return scope;
      }
      let next: NodePath | null = current.parentPath;
      if (next && (((current.key === 'key' || current.listKey === 'decorators') && next.isMethod())
        || (current.key === 'discriminant' && next.isSwitchStatement()))) {
        next = next.parentPath;
      }
      if (!next) break;
      current = next;
    }
    // Reached the root: the Program of a file whose scopes are not built yet.
    let root: NodePath = current;
    while (root.parentPath) root = root.parentPath;
    if (root.node.type !== 'Program' || this.scopesByNode.has(root.node)) throw new Error(`no scope for ${path.type}`);
    this.lastScopedPath = null;
    collect(this.scopesOfFile(root.parent as t.File, false), this.scopesByNode, this);
    return this.scopeOf(path);
  }

  /** What `name` means where `path` is (Babel: `path.scope.getBinding(name)`); undefined for globals. */
  bindingOf(path: NodePath, name: string): BindingRecord | undefined {
    return this.recorded(name, lookup(this.scopeOf(path), name));
  }

  /** What `name` means in `scope` (for a name read where a declaration sits). */
  bindingIn(scope: ScopeInfo, name: string): BindingRecord | undefined {
    return this.recorded(name, lookup(scope, name));
  }

  /**
   * The binding of `name` in the scope of `file`'s Program, for a file analyzed here (its scopes
   * brought up to date first); undefined for a global.
   */
  programBindingOf(file: t.File, name: string): BindingRecord | undefined {
    this.ensureCollected();
    return this.scopesByNode.get(file.program)?.bindings?.get(name);
  }

  private recorded(name: string, binding: BindingRecord | undefined): BindingRecord | undefined {
    if (this.recorder !== null && (binding === undefined || binding.scope.parent === null)) this.recorder.lookedUp(name, binding);
    return binding;
  }

  private ensureCollected(): void {
    if (this.changedFile === null) return;
    const file = this.changedFile;
    this.changedFile = null;
    this.lastScopedPath = null;
    this.lastKeptFunctions = collect(this.scopesOfFile(file, this.kept), this.scopesByNode, this);
  }

  private scopesOfFile(file: t.File, kept: boolean): FileScopes {
    let known = this.filesByProgram.get(file.program);
    if (known === undefined || (known.units !== null) !== kept) {
      const fileFrame = rootFrame(file);
      const programFrame = childFrame(fileFrame, file.program, 'program', null);
      const scope: ScopeInfo = { node: file.program, parentNode: file, parent: null, bindings: null, frame: programFrame };
      known = { program: file.program, scope, fileFrame, units: kept ? new PerStatement() : null, functions: kept ? new PerStatement() : null };
      this.filesByProgram.set(file.program, known);
      this.scopesByNode.set(file.program, scope);
    }
    return known;
  }
}
