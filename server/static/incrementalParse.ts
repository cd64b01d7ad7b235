// Re-parsing only what an edit touched. An editor sends a change per keystroke; on a 5,000-line
// file a whole parse is a third of an analysis and most of its garbage. The previous AST is kept
// per document: the top-level statements around the changed text are parsed again (with one
// unchanged statement on each side, so that a change that joins or splits statements shows),
// put in place of the old ones, and the statements after them are moved by the edit's offset.
// Whenever that could differ from a whole parse (syntax errors, module syntax, a name declared
// twice, top-level await) the whole file is parsed instead.
// server/static/incrementalParse.test.ts compares both on thousands of edits to real files.
import * as t from '@babel/types';
import { parseSlice, parseSource, type ParsedSource } from './parse';
import { forEachChild } from './walk';

// Read once: bundled CommonJS re-exports go through a getter on every access.
const { getBindingIdentifiers, isDeclaration } = t;

/** The previous parse of a document, kept only when it is clean (no recovered errors). */
interface Previous {
  filePath: string;
  text: string;
  ast: t.File;
  plugins: ParsedSource['plugins'];
}

export type ParseKind = 'full' | 'incremental' | 'unchanged';

export class IncrementalParser {
  private previous: Previous | null = null;
  /** How the last call parsed, for tests and measurements. */
  lastKind: ParseKind = 'full';

  /**
   * Parses `text`, a new version of the document last parsed here. The AST returned before is
   * reused (and changed in place): callers must be done with it.
   */
  parse(filePath: string, text: string): ParsedSource {
    const previous = this.previous;
    let parsed: ParsedSource | null = null;
    if (previous !== null && previous.filePath === filePath) {
      if (previous.text === text) {
        this.lastKind = 'unchanged';
        return { ast: previous.ast, problems: [], plugins: previous.plugins };
      }
      try {
        parsed = reparse(previous, text);
      } catch {
        parsed = null; // a bug here must cost a whole parse, not the document (the old tree is dropped below)
      }
    }
    this.lastKind = parsed === null ? 'full' : 'incremental';
    parsed ??= parseSource(filePath, text);
    this.previous = parsed.ast !== null && parsed.problems.length === 0
      ? { filePath, text, ast: parsed.ast, plugins: parsed.plugins }
      : null;
    return parsed;
  }
}

/** The AST of `text` made from the previous one, or null when only a whole parse is safe. */
function reparse(previous: Previous, text: string): ParsedSource | null {
  const oldText = previous.text;
  const file = previous.ast;
  const program = file.program;
  const body = program.body;
  // 'unambiguous' parses every file as a module first and marks top-level await (false when none);
  // a file without the mark was parsed again as a script, which a part parsed as a module would not match.
  if ((program.extra as { topLevelAwait?: boolean } | undefined)?.topLevelAwait !== false) return null;

  // The changed region: old [prefix, oldText.length - suffix) became new [prefix, text.length - suffix).
  const prefix = commonPrefixLength(oldText, text);
  const suffix = commonSuffixLength(oldText, text, Math.min(oldText.length, text.length) - prefix);
  const delta = text.length - oldText.length;

  // The slice: from the last statement wholly before the change (or the file's start) through the
  // first statement wholly after it (or the file's end).
  const first = lastEndingBy(body, prefix);
  const changedEnd = oldText.length - suffix;
  let last = Math.max(first, 0);
  while (last < body.length && (body[last].start ?? 0) < changedEnd) last++;
  const lead = first < 0 ? null : body[first];
  const trailing = last < body.length ? body[last] : null;
  const sliceStart = lead === null ? 0 : lead.start ?? 0;
  const oldSliceEnd = trailing === null ? oldText.length : trailing.end ?? 0;
  const newSliceEnd = oldSliceEnd + delta;
  const oldSlice = oldText.slice(sliceStart, oldSliceEnd);
  const newSlice = text.slice(sliceStart, newSliceEnd);
  // Module syntax decides a file's source type and checks exports against the whole file.
  if (MODULE_SYNTAX.test(oldSlice) || MODULE_SYNTAX.test(newSlice)) return null;

  const start = lead?.loc?.start ?? { line: 1, column: 0 };
  const part = parseSlice(newSlice, { index: sliceStart, line: start.line, column: start.column }, previous.plugins);
  const partAst = part.ast;
  if (partAst === null || part.problems.length > 0) return null;
  const partProgram = partAst.program;
  const statements = partProgram.body;
  // Past the file's start a leading string statement would turn into a directive, and the unchanged
  // statements at the edges must come back as they were: otherwise the edit joined or split statements.
  if (lead !== null) {
    if (partProgram.directives.length > 0 || partProgram.interpreter || statements.length === 0) return null;
    if (statements[0].start !== lead.start || statements[0].end !== lead.end) return null;
  }
  const newTrailing = statements.at(-1);
  if (trailing !== null && (newTrailing === undefined || newTrailing.start !== (trailing.start ?? 0) + delta || newTrailing.end !== newSliceEnd)) return null;
  if ((partProgram.extra as { topLevelAwait?: boolean } | undefined)?.topLevelAwait === true) return null;
  // The parser checks top-level redeclarations across the whole file; a part cannot see the rest.
  const replacedFrom = Math.max(first, 0);
  const replacedEnd = trailing === null ? body.length : last + 1;
  if (declaresAny(statements, body, replacedFrom, replacedEnd)) return null;
  const comments = file.comments ?? [];
  // Comments can only sit between tokens, so none straddles the slice's edges (statement edges).
  const commentsFrom = firstStartingAt(comments, sliceStart);
  const commentsTo = firstStartingAt(comments, oldSliceEnd);
  if (trailing !== null) {
    const oldEnd = trailing.loc?.end;
    const newEnd = newTrailing?.loc?.end;
    if (!oldEnd || !newEnd) return null;
    const shift: Shift = { delta, lines: newEnd.line - oldEnd.line, line: oldEnd.line, columns: newEnd.column - oldEnd.column };
    // Shared position objects are told apart by their index, which a same-length edit leaves as it was.
    if (delta === 0 && (shift.lines !== 0 || shift.columns !== 0)) return null;
    if (delta !== 0) {
      for (let i = replacedEnd; i < body.length; i++) shiftStatement(body[i], shift);
      for (let i = commentsTo; i < comments.length; i++) shiftSpan(comments[i], shift);
      shiftEnd(program, shift);
      shiftEnd(file, shift);
    }
  } else {
    copyEnd(partProgram, program);
    copyEnd(partAst, file);
  }
  if (lead === null) {
    program.directives = partProgram.directives;
    program.interpreter = partProgram.interpreter;
  }
  body.splice(replacedFrom, replacedEnd - replacedFrom, ...statements);
  comments.splice(commentsFrom, commentsTo - commentsFrom, ...(partAst.comments ?? []));
  file.comments = comments;
  return { ast: file, problems: [], plugins: previous.plugins };
}

// Texts are compared a chunk at a time by the engine's native string comparison (a slice of a long
// string is a view, not a copy), then character by character inside the first chunk that differs.
const CHUNK = 4096;

function commonPrefixLength(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  let length = 0;
  while (limit - length >= CHUNK && a.startsWith(b.slice(length, length + CHUNK), length)) length += CHUNK;
  while (length < limit && a.charCodeAt(length) === b.charCodeAt(length)) length++;
  return length;
}

/** Common suffix, at most `limit` characters long (so that it never overlaps the common prefix). */
function commonSuffixLength(a: string, b: string, limit: number): number {
  let length = 0;
  while (limit - length >= CHUNK && a.endsWith(b.slice(b.length - length - CHUNK, b.length - length), a.length - length)) length += CHUNK;
  while (length < limit && a.charCodeAt(a.length - 1 - length) === b.charCodeAt(b.length - 1 - length)) length++;
  return length;
}

/** `import` / `export` anywhere in the text (comments included: a false alarm costs a whole parse). */
const MODULE_SYNTAX = /\b(?:import|export)\b/;

/** Index of the last statement ending at or before `offset`; -1 when none does. */
function lastEndingBy(body: readonly t.Statement[], offset: number): number {
  let low = 0;
  let high = body.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if ((body[middle].end ?? 0) <= offset) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}

/** Index of the first comment starting at or after `offset` (comments are in source order). */
function firstStartingAt(comments: readonly t.Comment[], offset: number): number {
  let low = 0;
  let high = comments.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((comments[middle].start ?? 0) < offset) low = middle + 1;
    else high = middle;
  }
  return low;
}

interface Shift {
  delta: number;
  /** Lines added (negative: removed) by the edit. */
  lines: number;
  /** The old line the slice ended on: positions after the slice on it also move sideways. */
  line: number;
  columns: number;
}

interface MutablePosition {
  line: number;
  column: number;
  index: number;
}

/** Moves one position object, unless another node sharing it already did (its index tells). */
function shiftPosition(position: MutablePosition | undefined, oldIndex: number, shift: Shift): void {
  if (!position || position.index !== oldIndex) return;
  position.index = oldIndex + shift.delta;
  if (position.line === shift.line) position.column += shift.columns;
  position.line += shift.lines;
}

/** The File and the Program start at 0 whatever the edit; their ends move. */
function shiftEnd(node: t.Node, shift: Shift): void {
  const end = node.end ?? 0;
  node.end = end + shift.delta;
  shiftPosition(node.loc?.end as MutablePosition | undefined, end, shift);
}

function shiftSpan(node: t.Node | t.Comment, shift: Shift): void {
  const start = node.start ?? 0;
  const end = node.end ?? 0;
  node.start = start + shift.delta;
  node.end = end + shift.delta;
  const loc = node.loc as { start: MutablePosition; end: MutablePosition } | null | undefined;
  if (loc) {
    shiftPosition(loc.start, start, shift);
    shiftPosition(loc.end, end, shift);
  }
}

interface NodeExtra {
  parenStart?: number;
  trailingComma?: number;
  trailingCommaLoc?: MutablePosition;
}

/** Moves a node and the offsets kept in its `extra`. */
function shiftNode(node: t.Node, shift: Shift): void {
  shiftSpan(node, shift);
  const extra = node.extra as NodeExtra | undefined;
  if (extra) {
    if (typeof extra.parenStart === 'number') extra.parenStart += shift.delta;
    if (typeof extra.trailingComma === 'number') {
      shiftPosition(extra.trailingCommaLoc, extra.trailingComma, shift);
      extra.trailingComma += shift.delta;
    }
  }
}

/** Moves a kept statement and every node below it. */
function shiftStatement(statement: t.Statement, shift: Shift): void {
  for (const node of nodesBelow(statement)) shiftNode(node, shift);
}

/**
 * Every node of a top-level statement, listed once: a kept statement is moved by most edits above
 * it, and a loop over a list costs about half a walk. Kept statements never change inside.
 */
const nodesByStatement = new WeakMap<t.Statement, t.Node[]>();

function nodesBelow(statement: t.Statement): t.Node[] {
  let nodes = nodesByStatement.get(statement);
  if (nodes === undefined) {
    nodes = [];
    listNodes(statement, nodes);
    nodesByStatement.set(statement, nodes);
  }
  return nodes;
}

function listNodes(node: t.Node, into: t.Node[]): void {
  into.push(node);
  forEachChild(node, (child) => listNodes(child, into));
}

/** Copies where `from` ends (a File or Program parsed from the tail of the text) onto `to`. */
function copyEnd(from: t.Node, to: t.Node): void {
  to.end = from.end;
  if (to.loc && from.loc) to.loc.end = from.loc.end;
}

/** Does a new statement declare a top-level name that a statement kept from before also declares? */
function declaresAny(statements: readonly t.Statement[], body: readonly t.Statement[], replacedFrom: number, replacedEnd: number): boolean {
  const fresh = new Set<string>();
  for (const statement of statements) collectTopLevelNames(statement, fresh);
  if (fresh.size === 0) return false;
  for (let i = 0; i < body.length; i++) {
    if (i >= replacedFrom && i < replacedEnd) continue;
    for (const name of topLevelNamesOf(body[i])) if (fresh.has(name)) return true;
  }
  return false;
}

/** Top-level names per statement: statements are kept across edits, and so is this. */
const namesByStatement = new WeakMap<t.Statement, readonly string[]>();

function topLevelNamesOf(statement: t.Statement): readonly string[] {
  let names = namesByStatement.get(statement);
  if (names === undefined) {
    const found = new Set<string>();
    collectTopLevelNames(statement, found);
    names = [...found];
    namesByStatement.set(statement, names);
  }
  return names;
}

/** Names a top-level statement declares in the file's scope: its own declarations and hoisted `var`s. */
function collectTopLevelNames(statement: t.Statement, into: Set<string>): void {
  if (isDeclaration(statement) && statement.type !== 'VariableDeclaration') {
    const id = (statement as { id?: t.Node | null }).id;
    if (id?.type === 'Identifier') into.add(id.name);
    return;
  }
  collectVars(statement, into, true);
}

/** `var` declarations in a statement and the blocks below it (not in functions), all names at top level. */
function collectVars(statement: t.Node | null | undefined, into: Set<string>, topLevel: boolean): void {
  if (!statement) return;
  switch (statement.type) {
    case 'VariableDeclaration':
      if (topLevel || statement.kind === 'var') {
        for (const declarator of statement.declarations) for (const name of Object.keys(getBindingIdentifiers(declarator.id))) into.add(name);
      }
      return;
    case 'BlockStatement':
      for (const inner of statement.body) collectVars(inner, into, false);
      return;
    case 'IfStatement':
      collectVars(statement.consequent, into, false);
      collectVars(statement.alternate, into, false);
      return;
    case 'ForStatement':
      collectVars(statement.init?.type === 'VariableDeclaration' ? statement.init : null, into, false);
      collectVars(statement.body, into, false);
      return;
    case 'ForInStatement':
    case 'ForOfStatement':
      collectVars(statement.left.type === 'VariableDeclaration' ? statement.left : null, into, false);
      collectVars(statement.body, into, false);
      return;
    case 'WhileStatement':
    case 'DoWhileStatement':
    case 'LabeledStatement':
    case 'WithStatement':
      collectVars(statement.body, into, false);
      return;
    case 'TryStatement':
      collectVars(statement.block, into, false);
      collectVars(statement.handler?.body, into, false);
      collectVars(statement.finalizer, into, false);
      return;
    case 'SwitchStatement':
      for (const switchCase of statement.cases) for (const inner of switchCase.consequent) collectVars(inner, into, false);
      return;
    default:
      return;
  }
}
