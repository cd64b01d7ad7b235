// Re-parsing only what an edit touched. An editor sends a change per keystroke; on a 5,000-line
// file a whole parse is a third of an analysis and most of its garbage. The previous AST is kept
// per document: the top-level statements around the changed text are parsed again (with one
// unchanged statement on each side, so that a change that joins or splits statements shows),
// put in place of the old ones, and the statements after them are moved by the edit's offset.
// Whenever that could differ from a whole parse (module syntax, a name declared again by the edit,
// top-level await) the whole file is parsed instead; an edit that leaves the changed statements'
// declarations as they were keeps their redeclaration errors, moved with their names. Errors Babel
// recovers from (a redeclaration, a strict-mode violation) are kept with the tree and moved with it
// like its nodes.
// A syntax error Babel cannot recover from (a call not yet closed while someone types) costs only
// the statements it is in: they become a hole, an empty statement over their text, and the rest of
// the tree and its findings stay; the error is reported once, where the hole's own parse fails.
// The hole is parsed again, with its neighbours, by the first edit that touches it.
// An edit inside a top-level statement re-parses only the statements around it in the innermost
// block of a function (blockReparse.ts), else only the function nested in the statement it is in
// (nestedReparse.ts): real modules hold most of their code in a few statements thousands of lines long.
// server/static/incrementalParse.test.ts compares both on thousands of edits to real files.
import * as t from '@babel/types';
import type { ParseProblem } from './engine';
import { parseSlice, parseSource, type ParsedSource } from './parse';
import { parseWithoutBrokenLine, recoverStatements, type BlankedLine } from './recoverParse';
import { blocksAround, spliceRun } from './blockReparse';
import { commentHolding, lineAt } from './commentEdit';
import { functionsAround, parseFunction, spliceFunction } from './nestedReparse';
import { listNodes, shiftAround, shiftEnd, shiftNode, shiftSpan, type Shift } from './shiftNodes';
import { revise } from './statementRevisions';
import { forEachChild } from './childNodes';
import { endsInOpenLineComment, isDirectiveShaped, lastEndingBy } from './statementsByOffset';

// Read once: bundled CommonJS re-exports go through a getter on every access.
const { getBindingIdentifiers, isDeclaration } = t;

/**
 * What a document's parser knows of the statements of its trees, kept while their nodes live:
 * which are holes, and per kept statement its nodes and top-level names (kept statements never
 * change inside, and most edits move or compare them).
 */
interface StatementMemory {
  /** The empty statements standing for text that does not parse. */
  readonly holes: WeakSet<t.Node>;
  /** Of the holes that are statements parsed without their broken line: that line (recoverParse.ts). */
  readonly blanked: WeakMap<t.Node, BlankedLine>;
  readonly nodesByStatement: WeakMap<t.Statement, t.Node[]>;
  readonly namesByStatement: WeakMap<t.Statement, readonly string[]>;
  /** Characters the last parse of a slice read (the tests' proof of how little an edit re-parses). */
  sliceLength: number;
  /** The last slice was one function nested in a top-level statement (nestedReparse.ts). */
  sliceInFunction: boolean;
  /** The last slice was a run of statements of a block inside a function (blockReparse.ts). */
  sliceInBlock: boolean;
  /** The last edit was inside a comment and parsed nothing (commentEdit.ts). */
  sliceInComment: boolean;
  /** The parts of a statement the last parse replaced inside it (their old nodes, detached): see IncrementalParser.lastReplaced. */
  replaced: t.Node[];
  /** Nodes of kept statements the last parse listed (nodesBelow): see IncrementalParser.lastListedNodes. */
  listed: number;
}

/** The previous parse of a document: its tree (with holes over unparsable statements) and problems. */
interface Previous {
  memory: StatementMemory;
  filePath: string;
  text: string;
  ast: t.File;
  plugins: ParsedSource['plugins'];
  problems: readonly ParseProblem[];
  /** Offsets of `problems` in `text`, ascending. */
  offsets: readonly number[];
  /**
   * Some statements come from recoverParse.ts (runs parsed apart, since the text was opened
   * broken): a check across them (a name declared in two runs) was never made, so once the holes
   * are gone the text is parsed whole.
   */
  recovered: boolean;
}

/**
 * 'partial': the text does not parse; the tree holds the last good statements around a hole.
 */
export type ParseKind = 'full' | 'incremental' | 'partial' | 'unchanged';

export class IncrementalParser {
  private previous: Previous | null = null;
  private readonly memory: StatementMemory = { holes: new WeakSet(), blanked: new WeakMap(), nodesByStatement: new WeakMap(), namesByStatement: new WeakMap(), sliceLength: 0, sliceInFunction: false, sliceInBlock: false, sliceInComment: false, replaced: [], listed: 0 };
  /** How the last call parsed, for tests and measurements. */
  lastKind: ParseKind = 'full';
  /** Characters of the text the last call parsed (in slices, or whole), for tests and measurements. */
  lastParsedLength = 0;
  /** The last call parsed only the function an edit is in (nestedReparse.ts), for tests and measurements. */
  lastInFunction = false;
  /** The last call parsed only statements of a block inside a function around the edit (blockReparse.ts), for tests and measurements. */
  lastInBlock = false;
  /** The last call parsed nothing: the edit was inside a comment (commentEdit.ts), for tests and measurements. */
  lastInComment = false;
  /**
   * What the last call took out of a top-level statement it edited in place (statementRevisions.ts):
   * the old nodes of the re-parsed run or function, with the text they had. The statement records
   * read the names they held (a read the edit removed changes what other statements' records rest on).
   */
  lastReplaced: readonly t.Node[] = [];
  /**
   * Nodes of top-level statements the last call listed to move them later (nodesBelow): a whole
   * parse lists every statement's, so that the first edit after opening a file, which moves every
   * statement after it, finds them listed (issue 26: on a 3,600-line statement, about 4 ms of that
   * edit). For tests and measurements.
   */
  lastListedNodes = 0;

  /**
   * Parses `text`, a new version of the document last parsed here. The AST returned before is
   * reused (and changed in place): callers must be done with it.
   */
  parse(filePath: string, text: string): ParsedSource {
    const previous = this.previous;
    this.memory.listed = 0;
    let parsed: ParsedSource | null = null;
    let kind: ParseKind = 'full';
    if (previous !== null && previous.filePath === filePath) {
      if (previous.text === text) {
        this.lastKind = 'unchanged';
        this.lastParsedLength = 0;
        this.lastInFunction = false;
        this.lastInComment = false;
        return { ast: previous.ast, problems: [...previous.problems], plugins: previous.plugins, problemOffsets: previous.offsets };
      }
      try {
        this.memory.sliceInFunction = false;
        this.memory.sliceInBlock = false;
        this.memory.sliceInComment = false;
        this.memory.replaced = [];
        parsed = reparse(previous, text, null);
        if (parsed !== null) kind = this.hasHole(parsed) ? 'partial' : 'incremental';
        // The last hole of a recovered tree is gone: what the runs never saw of each other is seen now.
        if (parsed !== null && kind === 'incremental' && previous.recovered) parsed = null;
      } catch {
        parsed = null; // a bug here must cost a whole parse, not the document (the old tree is dropped below)
      }
      if (parsed === null) {
        const whole = parseSource(filePath, text);
        if (whole.ast === null) {
          // Keep what still parses: the statements the edit did not touch, around a hole.
          try {
            parsed = reparse(previous, text, whole);
            if (parsed !== null) kind = 'partial';
          } catch {
            parsed = null;
          }
        }
        if (parsed === null) parsed = whole;
      }
    }
    parsed ??= parseSource(filePath, text);
    let recovered = previous !== null && previous.filePath === filePath && previous.recovered && kind === 'partial';
    if (parsed.ast === null) {
      // Nothing to keep from before (a file opened with an error): keep the statements that parse.
      let recovery: ParsedSource | null = null;
      try {
        recovery = recoverStatements(text, parsed, this.memory.holes, this.memory.blanked);
      } catch {
        recovery = null; // a bug here must cost the findings, not the document
      }
      if (recovery !== null) {
        parsed = recovery;
        kind = 'partial';
        recovered = true;
      }
    }
    // A new tree: its statements' nodes are listed now, when the file is opened, rather than by the first edit.
    if (kind === 'full' && parsed.ast !== null) for (const statement of parsed.ast.program.body) nodesBelow(this.memory, statement);
    this.lastListedNodes = this.memory.listed;
    this.lastKind = kind;
    this.lastParsedLength = kind === 'incremental' ? this.memory.sliceLength : text.length;
    this.lastInFunction = (kind === 'incremental' || kind === 'partial') && this.memory.sliceInFunction;
    this.lastInBlock = this.lastInFunction && this.memory.sliceInBlock;
    this.lastInComment = (kind === 'incremental' || kind === 'partial') && this.memory.sliceInComment;
    this.lastReplaced = this.lastInFunction && kind === 'incremental' ? this.memory.replaced : [];
    // Copies: the engine adds its own problems to the list it is given.
    this.previous = parsed.ast !== null
      ? { memory: this.memory, filePath, text, ast: parsed.ast, plugins: parsed.plugins, problems: [...parsed.problems], offsets: parsed.problemOffsets ?? parsed.problems.map(() => 0), recovered }
      : null;
    return parsed;
  }

  /** Is this top-level statement of a tree parsed here a hole over text that did not parse? */
  /** For a hole that is a statement parsed without its broken line: that line; else null. */
  blankedLineOf(statement: t.Node): BlankedLine | null {
    return this.memory.blanked.get(statement) ?? null;
  }

  isHole(statement: t.Node): boolean {
    return this.memory.holes.has(statement);
  }

  private hasHole(parsed: ParsedSource): boolean {
    return parsed.ast?.program.body.some((statement) => this.memory.holes.has(statement)) ?? false;
  }
}

function hasHoleIn(holes: WeakSet<t.Node>, body: readonly t.Statement[], from: number, end: number): boolean {
  for (let i = from; i < end; i++) if (holes.has(body[i])) return true;
  return false;
}

/**
 * The AST of `text` made from the previous one, or null when only a whole parse is safe. With
 * `failed` (the whole parse of `text`, which did not recover), the changed statements become a
 * hole instead of being parsed again.
 */
function reparse(previous: Previous, text: string, failed: ParsedSource | null, widened = false): ParsedSource | null {
  const memory = previous.memory;
  const holes = memory.holes;
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
  const changedEnd = oldText.length - suffix;
  if (failed === null && !widened) {
    const typed = reparseInComment(previous, text, prefix, changedEnd, delta);
    if (typed !== null) return typed;
    const nested = reparseInStatement(previous, text, prefix, changedEnd, delta);
    if (nested !== null) return nested;
  }

  // The slice: from the last statement wholly before the change (or the file's start) through the
  // first statement wholly after it (or the file's end). A hole the change touches is part of it.
  let first = lastEndingBy(body, prefix);
  if (first >= 0 && holes.has(body[first]) && (body[first].end ?? 0) === prefix) first--;
  // Text typed at the very end of a statement may belong to it (`x = 1` -> `x = 12`), and text
  // ending at the very start of one to that one: tried again with them in the edited part.
  const touchesLead = first >= 0 && (body[first].end ?? 0) === prefix;
  if (widened && touchesLead) first--;
  let last = Math.max(first, 0);
  while (last < body.length && (body[last].start ?? 0) < changedEnd) last++;
  if (last < body.length && holes.has(body[last]) && (body[last].start ?? 0) === changedEnd) last++;
  const touchesTrailing = last < body.length && (body[last].start ?? 0) === changedEnd;
  if (widened && touchesTrailing) last++;
  const widen = (): ParsedSource | null => (!widened && (touchesLead || touchesTrailing) ? reparse(previous, text, failed, true) : null);
  const lead = first < 0 ? null : body[first];
  const trailing = last < body.length ? body[last] : null;
  if (failed !== null) return punchHole(previous, text, failed, { first, last, delta, prefix });
  // A hole next to the change is not parsed again: the slice stops at its edge, unchecked. Nor is
  // an unchanged statement next to it that nothing after it can join (it ends with its own `;`,
  // or it is a function or class declaration): the edited text starts a statement of its own after
  // it, and before the next statement when the edited statements end so too (issue 26: the
  // statements around an edit in a long file are often long functions).
  const leadIsHole = lead !== null && holes.has(lead);
  const trailingIsHole = trailing !== null && holes.has(trailing);
  const leadOutside = lead !== null && (leadIsHole || endsClosed(lead, oldText));
  const sliceStart = lead === null ? 0 : leadOutside ? lead.end ?? 0 : lead.start ?? 0;
  const start = (leadOutside ? lead.loc?.end : lead?.loc?.start) ?? { line: 1, column: 0 };
  /** The slice through the trailing statement, or up to it; null when it holds module syntax. */
  const parseUpTo = (trailingOutside: boolean) => {
    const oldSliceEnd = trailing === null ? oldText.length : trailingOutside ? trailing.start ?? 0 : trailing.end ?? 0;
    const newSliceEnd = oldSliceEnd + delta;
    const newSlice = text.slice(sliceStart, newSliceEnd);
    // Module syntax decides a file's source type and checks exports against the whole file.
    if (MODULE_SYNTAX.test(oldText.slice(sliceStart, oldSliceEnd)) || MODULE_SYNTAX.test(newSlice)) return null;
    const part = parseSlice(newSlice, { index: sliceStart, line: start.line, column: start.column }, previous.plugins);
    memory.sliceLength += newSlice.length;
    return { oldSliceEnd, newSliceEnd, part, trailingOutside };
  };
  memory.sliceLength = 0;
  let attempt = parseUpTo(trailing !== null);
  if (attempt === null) return null;
  if (trailing !== null && !trailingIsHole) {
    // Up to the trailing statement only when what comes before it now ends closed, with nothing to mend.
    const partProgram = attempt.part.ast?.program;
    const before = partProgram?.body.at(-1);
    const closed = partProgram !== undefined && attempt.part.problems.length === 0 && (before !== undefined
      ? endsClosed(before, text)
      : partProgram.directives.length === 0 && !partProgram.interpreter && (lead === null || (!leadIsHole && endsClosed(lead, oldText))))
      && !endsInOpenLineComment(attempt.part.ast?.comments, attempt.newSliceEnd, text);
    if (!closed) attempt = parseUpTo(false);
    if (attempt === null) return null;
  }
  const { oldSliceEnd, newSliceEnd, part } = attempt;
  const trailingOutside = attempt.trailingOutside;
  const partAst = part.ast;
  if (partAst === null) return null;
  const partProgram = partAst.program;
  const statements = partProgram.body;
  // Past the file's start a leading string statement would turn into a directive, and the unchanged
  // statements at the edges must come back as they were: otherwise the edit joined or split statements.
  if (sliceStart > 0 && (partProgram.directives.length > 0 || partProgram.interpreter)) return null;
  if (lead !== null && !leadOutside) {
    if (statements.length === 0) return null;
    if (statements[0].start !== lead.start || statements[0].end !== lead.end) return widen();
  }
  const newTrailing = statements.at(-1);
  if (trailing !== null && !trailingOutside) {
    if (newTrailing === undefined || newTrailing.start !== (trailing.start ?? 0) + delta || newTrailing.end !== newSliceEnd) return widen();
  }
  if ((partProgram.extra as { topLevelAwait?: boolean } | undefined)?.topLevelAwait === true) return null;
  // The statements between the unchanged edges, before and after the edit.
  const replacedFrom = leadOutside ? first + 1 : Math.max(first, 0);
  const replacedEnd = trailing === null ? body.length : trailingOutside ? last : last + 1;
  // A string statement the edit leaves first in the file (`note; 'use strict';` with `note` deleted)
  // is a directive now, as a whole parse makes it.
  if (replacedFrom === 0 && isDirectiveShaped(statements[0] ?? body[replacedEnd])) return null;
  const oldMiddleFrom = lead === null || leadOutside ? replacedFrom : replacedFrom + 1;
  const oldMiddleEnd = trailing === null || trailingOutside ? replacedEnd : replacedEnd - 1;
  const newMiddle = statements.slice(lead === null || leadOutside ? 0 : 1, trailing === null || trailingOutside ? statements.length : statements.length - 1);
  // The parser checks top-level redeclarations across the whole file; a part cannot see the rest.
  // When the edit left the changed statements' declarations as they were (names, kinds, order:
  // Enter or a comment typed in a function declared again), the file's redeclaration errors are
  // the same: those in kept statements stay, those in the changed ones move with their names.
  let carried: ParsedSource = part;
  if (declaresAny(memory, newMiddle, body, oldMiddleFrom, oldMiddleEnd)) {
    const moved = sliceStart > 0 ? carryRedeclarations(previous, body.slice(oldMiddleFrom, oldMiddleEnd), newMiddle, part) : null;
    if (moved === null) return null;
    carried = moved;
  }
  // A hole hides what its text declared: a kept statement's redeclaration error may refer to it.
  const middleStart = lead === null || leadOutside ? sliceStart : lead.end ?? 0;
  // (to the end of the file, problems at its end included, when no statement follows)
  const oldMiddleStop = trailing === null ? Infinity : trailing.start ?? 0;
  if (hasHoleIn(holes, body, oldMiddleFrom, oldMiddleEnd) && previous.offsets.some((offset) => offset < middleStart || offset >= oldMiddleStop)) return null;
  // A kept problem exactly at an edge of the part (two statements with nothing between them, an
  // error where one ends and the next begins: \`const a(1) = …\`) may be the part's own as well:
  // kept and found again, it would be reported twice. Only a whole parse knows.
  const touching = (end: number | null | undefined, start: number | null | undefined): boolean => end != null && end === start;
  const beforeTrailing = oldMiddleEnd > oldMiddleFrom ? body[oldMiddleEnd - 1] : lead;
  const afterLead = oldMiddleEnd > oldMiddleFrom ? body[oldMiddleFrom] : trailing;
  const edges = [
    ...(lead !== null && touching(lead.end, afterLead?.start) ? [middleStart] : []),
    ...(trailing !== null && touching(beforeTrailing?.end, trailing.start) ? [oldMiddleStop] : []),
  ];
  if (edges.length > 0 && previous.offsets.some((offset) => edges.includes(offset))) return null;
  // Problems: the part's between the edges; before and after, the kept ones (a kept statement's
  // redeclaration error was found against statements the part does not see).
  const newMiddleStop = oldMiddleStop + delta;
  const comments = file.comments ?? [];
  // Comments can only sit between tokens, so none straddles the slice's edges (statement edges).
  const commentsFrom = firstStartingAt(comments, sliceStart);
  const commentsTo = firstStartingAt(comments, oldSliceEnd);
  let shift: Shift | null = null;
  if (trailing !== null) {
    const oldEnd = trailingOutside ? trailing.loc?.start : trailing.loc?.end;
    const newEnd = trailingOutside ? partProgram.loc?.end : newTrailing?.loc?.end;
    if (!oldEnd || !newEnd) return null;
    shift = { delta, lines: newEnd.line - oldEnd.line, line: oldEnd.line, columns: newEnd.column - oldEnd.column };
    // Shared position objects are told apart by their index, which a same-length edit leaves as it was.
    if (delta === 0 && (shift.lines !== 0 || shift.columns !== 0)) return null;
  }
  // A kept problem inside the trailing statement (re-read in the part) moves as the statement's
  // start does: the shift above is measured at its end, right only for what follows it.
  let trailingShift: { until: number; shift: Shift } | null = null;
  if (trailing !== null && !trailingOutside && newTrailing !== undefined && trailing.loc && newTrailing.loc) {
    const oldStart = trailing.loc.start;
    const newStart = newTrailing.loc.start;
    trailingShift = { until: oldSliceEnd, shift: { delta, lines: newStart.line - oldStart.line, line: oldStart.line, columns: newStart.column - oldStart.column } };
  }
  const problems = mergeProblems(previous, middleStart, oldMiddleStop, shift, carried, middleStart, newMiddleStop, trailingShift);
  // The statements at the edges came back with their text and extent: their old nodes stay (the
  // trailing one moved like the problems in it), so that what the engine keeps per statement node
  // (bindings, statement records) stays theirs and an edit re-walks only the statements it changed.
  // With a same-length edit a shared position object moved once could not be told from one not
  // moved yet: the re-parsed node is used then.
  const keptTrailing = trailing !== null && !trailingOutside && trailingShift !== null
    && (delta !== 0 || (trailingShift.shift.lines === 0 && trailingShift.shift.columns === 0))
    ? { node: trailing, shift: trailingShift.shift } : null;
  if (lead !== null && !leadOutside) statements[0] = lead;
  if (keptTrailing !== null) {
    if (delta !== 0) shiftStatement(memory, keptTrailing.node, keptTrailing.shift);
    statements[statements.length - 1] = keptTrailing.node;
  }
  if (shift !== null) {
    if (delta !== 0) shiftTail(memory, file, program, replacedEnd, commentsTo, shift);
  } else {
    copyEnd(partProgram, program);
    copyEnd(partAst, file);
  }
  if (sliceStart === 0) {
    program.directives = partProgram.directives;
    program.interpreter = partProgram.interpreter;
  }
  body.splice(replacedFrom, replacedEnd - replacedFrom, ...statements);
  comments.splice(commentsFrom, commentsTo - commentsFrom, ...(partAst.comments ?? []));
  file.comments = comments;
  return { ast: file, problems: problems.problems, plugins: previous.plugins, problemOffsets: problems.offsets };
}

/**
 * An edit inside one comment that leaves it one comment (commentEdit.ts): nothing is parsed; the
 * comment takes its new text and what follows it moves. The top-level statement holding it, if any,
 * is revised (statementRevisions.ts): a rule may have read text of a node around the comment
 * (a callee written with a comment inside). Null when the edit is not such an edit, or is among
 * the directives (which are parsed again with the file's start).
 */
function reparseInComment(previous: Previous, text: string, prefix: number, changedEnd: number, delta: number): ParsedSource | null {
  const memory = previous.memory;
  const file = previous.ast;
  const program = file.program;
  const body = program.body;
  const comments = file.comments ?? [];
  const index = commentHolding(comments, previous.text, text, prefix, changedEnd, delta);
  if (index < 0) return null;
  const comment = comments[index];
  const start = comment.start ?? 0;
  const end = comment.end ?? 0;
  if (!comment.loc || program.directives.some((directive) => (directive.start ?? 0) >= end)) return null;
  // The statement holding the comment (statements never end inside one), else the first after it.
  let next = lastEndingBy(body, start) + 1;
  const holder = next < body.length && (body[next].start ?? 0) < start ? body[next] : null;
  // A hole's own text holds no comment unless it is statements parsed without their broken line
  // (recoverParse.ts): typing in their comments leaves their tokens, that line and the error as they were.
  if (holder !== null) next++;
  const line = lineAt(previous.text, start, comment.loc.start.line, prefix);
  const shift: Shift = { delta, lines: 0, line, columns: delta };
  if (delta !== 0) {
    if (holder !== null) {
      for (const node of nodesBelow(memory, holder)) {
        if ((node.start ?? 0) >= end) {
          // `( /* note */ x)`: a parenthesis opened before the comment stays where it is.
          const extra = node.extra as { parenStart?: number } | undefined;
          const parenStart = extra?.parenStart;
          shiftNode(node, shift);
          if (extra !== undefined && typeof parenStart === 'number' && parenStart < end) extra.parenStart = parenStart;
        } else if ((node.end ?? 0) >= end) {
          shiftAround(node, end, shift);
        }
      }
    }
    shiftTail(memory, file, program, next, index + 1, shift);
    // The broken lines left out of the holes after the comment move with them (statements of one hole share theirs).
    const moved = new Set<BlankedLine>();
    for (let i = holder !== null ? next - 1 : next; i < body.length; i++) {
      const line = memory.blanked.get(body[i]);
      if (line === undefined || moved.has(line) || line.start < end) continue;
      moved.add(line);
      line.start += delta;
      line.end += delta;
    }
  }
  const oldEnd = comment.loc.end;
  comment.value = text.slice(start + 2, (comment.type === 'CommentBlock' ? end - 2 : end) + delta);
  comment.end = end + delta;
  // A position object of its own: another one may share the old.
  comment.loc = { ...comment.loc, end: { line: oldEnd.line, column: oldEnd.line === line ? oldEnd.column + delta : oldEnd.column, index: end + delta } };
  if (holder !== null) revise(holder);
  memory.sliceLength = 0;
  memory.sliceInComment = true;
  const problems = mergeProblems(previous, prefix, prefix, shift, { ast: null, problems: [], plugins: previous.plugins, problemOffsets: [] }, 0, 0);
  return { ast: file, problems: problems.problems, plugins: previous.plugins, problemOffsets: problems.offsets };
}

/**
 * An edit inside a top-level statement, re-parsed in the smallest part that can be judged on its
 * own: the statements of a block inside a function around it (blockReparse.ts), else the
 * innermost function nested in the statement (nestedReparse.ts); put in place, the nodes after
 * it moved. Null when neither can be done (the top-level statements around the edit are parsed
 * again then). The statement keeps its node, marked revised (statementRevisions.ts), so that what
 * the engine keeps by statement node is made again for it while other statements' records that
 * hold its nodes stay right.
 */
function reparseInStatement(previous: Previous, text: string, prefix: number, changedEnd: number, delta: number): ParsedSource | null {
  // TypeScript's syntax in a function (`this` parameters, overloads) is not judged by the wrappers.
  if (previous.plugins.some((plugin) => (Array.isArray(plugin) ? plugin[0] : plugin) === 'typescript')) return null;
  const memory = previous.memory;
  const body = previous.ast.program.body;
  const index = lastEndingBy(body, prefix) + 1;
  const statement = body.at(index);
  if (statement === undefined || (statement.start ?? 0) >= prefix || (statement.end ?? 0) <= changedEnd || memory.holes.has(statement)) return null;
  const from = statement.start ?? 0;
  const to = statement.end ?? 0;
  // A problem in the statement (a redeclaration, a strict-mode error) may depend on the edited text.
  if (previous.offsets.some((offset) => offset >= from && offset <= to)) return null;
  const edit = { oldText: previous.text, text, prefix, changedEnd, delta };
  // Read before the splice moves them: the nodes below the statement that hold the edit.
  const holders = holdersOf(statement, prefix, changedEnd);
  for (const site of blocksAround(statement, prefix, changedEnd)) {
    if (!holders.includes(site.block)) continue;
    const run = spliceRun(statement, nodesBelow(memory, statement), site, edit, previous.plugins, sameDeclarations);
    if (run === null) continue;
    memory.sliceInBlock = true;
    memory.replaced = run.replaced;
    reviseThrough(holders, site.block);
    return replaceStatement(previous, index, run.nodes, run.shift, run.from, run.to, run.comments, run.length, to);
  }
  for (const site of functionsAround(statement, prefix, changedEnd)) {
    if (site.parent !== statement && !holders.includes(site.parent)) return null;
    const parsed = parseFunction(site, previous.text, text, delta, previous.plugins);
    if (parsed === 'outer') continue;
    if (parsed === null) return null;
    const old = site.node;
    const oldLoc = old.loc?.end;
    const newLoc = parsed.node.loc?.end;
    if (!oldLoc || !newLoc) return null;
    const shift: Shift = { delta, lines: newLoc.line - oldLoc.line, line: oldLoc.line, columns: newLoc.column - oldLoc.column };
    // Shared position objects are told apart by their index, which a same-length edit leaves as it was.
    if (delta === 0 && (shift.lines !== 0 || shift.columns !== 0)) return null;
    const nodes = spliceFunction(statement, nodesBelow(memory, statement), site, parsed.node, shift);
    if (nodes === null) return null;
    memory.replaced = [old];
    reviseThrough(holders, site.parent);
    return replaceStatement(previous, index, nodes, shift, old.start ?? 0, old.end ?? 0, parsed.comments, parsed.length, to);
  }
  return null;
}

/**
 * The nodes below `statement` that hold old [from, to), outermost first: the way down blocksAround
 * and functionsAround take (a child holding the range, its edges included).
 */
function holdersOf(statement: t.Statement, from: number, to: number): t.Node[] {
  const holders: t.Node[] = [];
  let node: t.Node | null = statement;
  while (node !== null) {
    let next: t.Node | null = null;
    forEachChild(node, (child) => {
      if ((child.start ?? 0) > from || (child.end ?? 0) < to) return false;
      next = child;
      return true;
    });
    if (next !== null) holders.push(next);
    node = next;
  }
  return holders;
}

/**
 * The part put in place hangs below `parent` (one of the holders, or the statement, which
 * replaceStatement revises): it and the holders above it are revised (statementRevisions.ts),
 * since their subtrees changed while their nodes stayed.
 */
function reviseThrough(holders: readonly t.Node[], parent: t.Node): void {
  const through = holders.indexOf(parent);
  for (let i = 0; i <= through; i++) revise(holders[i]);
}

/**
 * The top-level statement at `index`, whose part [from, to) of the old text was parsed again (with
 * `comments`) and put in place, is now listed as `nodes`; what follows it moves by `shift`.
 * `oldEnd`: where the statement ended in the old text (its node's end has moved with the edit).
 */
function replaceStatement(previous: Previous, index: number, nodes: t.Node[], shift: Shift, from: number, to: number, comments: t.Comment[], length: number, oldEnd: number): ParsedSource {
  const memory = previous.memory;
  const file = previous.ast;
  const program = file.program;
  const statement = program.body[index];
  const fileComments = file.comments ?? [];
  const commentsFrom = firstStartingAt(fileComments, from);
  const commentsTo = firstStartingAt(fileComments, to);
  // Its top-level names stay: a function's body declares nothing in the file's scope.
  memory.nodesByStatement.set(statement, nodes);
  revise(statement);
  if (shift.delta !== 0) shiftTail(memory, file, program, index + 1, commentsTo, shift);
  fileComments.splice(commentsFrom, commentsTo - commentsFrom, ...comments);
  file.comments = fileComments;
  memory.sliceLength = length;
  memory.sliceInFunction = true;
  // The kept problems are in old offsets: those after the statement's old end move by the edit (its
  // node already ends at the new end, and a problem just after it, a hole's, is not its own).
  const problems = mergeProblems(previous, statement.start ?? 0, oldEnd, shift, { ast: null, problems: [], plugins: previous.plugins, problemOffsets: [] }, 0, 0);
  return { ast: file, problems: problems.problems, plugins: previous.plugins, problemOffsets: problems.offsets };
}

/** Two runs of a block's statements declare the same names the same way in the same order (blockReparse.ts). */
function sameDeclarations(before: readonly t.Statement[], after: readonly t.Statement[]): boolean {
  const old = declaredIn(before);
  const now = declaredIn(after);
  return old !== null && now !== null && old.length === now.length && old.every((d, i) => d.kind === now[i].kind && d.id.name === now[i].id.name);
}

/**
 * The text does not parse: the statements between the unchanged ones around the change (and any
 * hole next to them) become one hole; the other statements and their problems stay, moved by the
 * edit. The hole's text is parsed alone for its error, so that it is reported at the hole.
 */
function punchHole(previous: Previous, text: string, failed: ParsedSource, at: { first: number; last: number; delta: number; prefix: number }): ParsedSource | null {
  const memory = previous.memory;
  const holes = memory.holes;
  const { first, delta } = at;
  let last = at.last;
  const file = previous.ast;
  const program = file.program;
  const body = program.body;
  const lead = first < 0 ? null : body[first];
  let trailing = last < body.length ? body[last] : null;
  const leadIsHole = lead !== null && holes.has(lead);
  // Where the hole starts (unchanged by the edit: it is before the change) and the old offset it
  // ends at. At the file's start, the directives and the #! line stay unless the edit touched them.
  const head = program.directives.at(-1) ?? program.interpreter;
  const keepHead = lead === null && head != null && (head.end ?? 0) <= at.prefix;
  const holeStart = lead === null ? (keepHead ? head.end ?? 0 : 0) : leadIsHole ? lead.start ?? 0 : lead.end ?? 0;
  const startPosition: Position = lead === null
    ? (keepHead ? copyPosition(head.loc?.end as Position) : { line: 1, column: 0, index: 0 })
    : copyPosition((leadIsHole ? lead.loc?.start : lead.loc?.end) as Position);
  let oldHoleEnd = trailing === null ? previous.text.length : holes.has(trailing) ? trailing.end ?? 0 : trailing.start ?? 0;
  let endPosition = positionAt(text, startPosition, oldHoleEnd + delta);
  let shift: Shift | null = null;
  if (trailing !== null) {
    const oldEnd = (holes.has(trailing) ? trailing.loc?.end : trailing.loc?.start) as Position;
    shift = { delta, lines: endPosition.line - oldEnd.line, line: oldEnd.line, columns: endPosition.column - oldEnd.column };
    if (delta === 0 && (shift.lines !== 0 || shift.columns !== 0)) {
      // Same length, other lines (a selection typed over with a line break): shared position
      // objects could not be told apart, so the hole runs to the end of the file.
      trailing = null;
      last = body.length;
      shift = null;
      oldHoleEnd = previous.text.length;
      endPosition = positionAt(text, startPosition, text.length);
    }
  }
  const newHoleEnd = oldHoleEnd + delta;
  // Module syntax in the hole decides the file's source type: nothing to keep that a whole parse would agree with.
  if (MODULE_SYNTAX.test(previous.text.slice(holeStart, oldHoleEnd)) || MODULE_SYNTAX.test(text.slice(holeStart, newHoleEnd))) return null;
  const removedFrom = leadIsHole ? first : first + 1;
  const removedEnd = trailing === null ? body.length : holes.has(trailing) ? last + 1 : last;

  // The hole's own error: its text parsed alone. When that parses (the text fails only with its
  // neighbours), the whole parse's error if it is in the hole, else one saying so at its start.
  const own = parseSlice(text.slice(holeStart, newHoleEnd), startPosition, previous.plugins);
  const inHole = (offset: number | undefined) => offset !== undefined && offset >= holeStart && offset <= newHoleEnd;
  let error: ParseProblem = {
    message: `Unexpected token: this code does not parse with the code around it (${startPosition.line}:${startPosition.column})`,
    line: startPosition.line,
    column: startPosition.column,
  };
  let errorOffset = holeStart;
  if (own.ast === null) [error, errorOffset] = [own.problems[0], own.problemOffsets?.[0] ?? holeStart];
  else if (inHole(failed.problemOffsets?.[0])) [error, errorOffset] = [failed.problems[0], failed.problemOffsets?.[0] ?? holeStart];
  // Kept at an offset inside the hole (Babel may place it at the hole's end, where the next
  // statement starts), so that it goes when the hole is parsed again.
  errorOffset = Math.max(holeStart, Math.min(errorOffset, newHoleEnd - 1));
  const errorParse: ParsedSource = { ast: null, problems: [error], plugins: previous.plugins, problemOffsets: [errorOffset] };
  const problems = mergeProblems(previous, holeStart, trailing === null ? Infinity : oldHoleEnd, shift, errorParse, -Infinity, Infinity);

  if (lead === null && !keepHead) {
    program.directives = [];
    program.interpreter = null;
  }
  const comments = file.comments ?? [];
  const commentsFrom = firstStartingAt(comments, holeStart);
  const commentsTo = firstStartingAt(comments, oldHoleEnd);
  if (shift !== null) {
    if (delta !== 0) shiftTail(memory, file, program, removedEnd, commentsTo, shift);
  } else {
    program.end = text.length;
    file.end = text.length;
    if (program.loc) program.loc.end = copyPosition(endPosition);
    if (file.loc) file.loc.end = copyPosition(endPosition);
  }
  // The hole's statements parsed without their broken line (recoverParse.ts), when that is enough:
  // the rules see them, the parser still treats them as a hole (parsed again when an edit touches them).
  const repaired = own.ast === null
    ? parseWithoutBrokenLine(text.slice(holeStart, newHoleEnd), startPosition, errorOffset - holeStart, previous.plugins)
    : null;
  const filling: t.Statement[] = repaired?.parsed.ast?.program.body ?? [{
    type: 'EmptyStatement',
    start: holeStart,
    end: newHoleEnd,
    loc: { start: startPosition, end: endPosition, filename: undefined, identifierName: undefined },
  } as unknown as t.EmptyStatement];
  for (const statement of filling) {
    holes.add(statement);
    if (repaired !== null) memory.blanked.set(statement, repaired.line);
  }
  body.splice(removedFrom, removedEnd - removedFrom, ...filling);
  comments.splice(commentsFrom, commentsTo - commentsFrom, ...(repaired?.parsed.ast?.comments ?? []));
  file.comments = comments;
  return { ast: file, problems: problems.problems, plugins: previous.plugins, problemOffsets: problems.offsets };
}

interface Position {
  line: number;
  column: number;
  index: number;
}

function copyPosition(position: Position): Position {
  return { line: position.line, column: position.column, index: position.index };
}

/** The position of `offset` in `text`, counted from `from` (a position at or before it). */
function positionAt(text: string, from: Position, offset: number): Position {
  let line = from.line;
  let lineStart = from.index - from.column;
  for (let i = from.index; i < offset; i++) {
    const code = text.charCodeAt(i);
    // Babel's line terminators: \n, \r (\r\n counts once), U+2028, U+2029.
    if (code === 10 || code === 0x2028 || code === 0x2029 || (code === 13 && text.charCodeAt(i + 1) !== 10)) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart, index: offset };
}

/**
 * The problems of the new version: the kept ones before `oldFrom` as they were, those from `oldTo`
 * on moved by `shift`, and the part's between `newFrom` and `newTo` (new offsets).
 */
function mergeProblems(
  previous: Previous,
  oldFrom: number,
  oldTo: number,
  shift: Shift | null,
  part: ParsedSource,
  newFrom: number,
  newTo: number,
  /** Problems before `until` (old offsets) move by this shift instead. */
  leading: { until: number; shift: Shift } | null = null,
): { problems: ParseProblem[]; offsets: number[] } {
  const problems: ParseProblem[] = [];
  const offsets: number[] = [];
  const partOffsets = part.problemOffsets ?? [];
  let next = 0;
  const addPart = (until: number) => {
    for (; next < part.problems.length && partOffsets[next] < until; next++) {
      if (partOffsets[next] < newFrom || partOffsets[next] >= newTo) continue;
      problems.push(part.problems[next]);
      offsets.push(partOffsets[next]);
    }
  };
  for (let i = 0; i < previous.problems.length; i++) {
    const offset = previous.offsets[i];
    if (offset >= oldFrom && offset < oldTo) continue;
    if (offset < oldFrom) {
      addPart(offset);
      problems.push(previous.problems[i]);
      offsets.push(offset);
      continue;
    }
    const by = leading !== null && offset < leading.until ? leading.shift : shift;
    const moved = by === null ? offset : offset + by.delta;
    addPart(moved);
    problems.push(by === null ? previous.problems[i] : shiftProblem(previous.problems[i], by));
    offsets.push(moved);
  }
  addPart(Infinity);
  return { problems, offsets };
}

/** A kept problem moved by an edit above it; Babel's message ends with its "(line:column)". */
function shiftProblem(problem: ParseProblem, shift: Shift): ParseProblem {
  if (shift.lines === 0 && (problem.line !== shift.line || shift.columns === 0)) return problem;
  const line = problem.line + shift.lines;
  const column = problem.line === shift.line ? problem.column + shift.columns : problem.column;
  const message = problem.message.replace(/\(\d+:\d+\)$/, `(${line}:${column})`);
  return { ...problem, message, line, column };
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

/**
 * `import` / `export` anywhere in the text (comments included: a false alarm costs a whole parse),
 * except a dynamic `import(...)`: a call, legal in scripts, which leaves the source type as it is
 * (Babel's 'unambiguous' turns to module only for import/export declarations, `import.meta` and
 * top-level await). Compiled CommonJS is full of them (`await import(...)` in esbuild's output).
 */
const MODULE_SYNTAX = /\b(?:import(?!\s*\()|export)\b/;

/**
 * Nothing after this statement can join it: it ends with its own `;` (only an `else`, which starts
 * no statement, continues an `if` then), or it is a function or class declaration.
 */
function endsClosed(statement: t.Statement, text: string): boolean {
  if (statement.type === 'FunctionDeclaration' || statement.type === 'ClassDeclaration') return true;
  return text.charCodeAt((statement.end ?? 0) - 1) === 59; // ';'
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

/** Moves what follows an edit by `shift`: the statements from `fromStatement`, the comments from `fromComment`, and the ends of the program and the file. */
function shiftTail(memory: StatementMemory, file: t.File, program: t.Program, fromStatement: number, fromComment: number, shift: Shift): void {
  const comments = file.comments ?? [];
  for (let i = fromStatement; i < program.body.length; i++) shiftStatement(memory, program.body[i], shift);
  for (let i = fromComment; i < comments.length; i++) shiftSpan(comments[i], shift);
  shiftEnd(program, shift);
  shiftEnd(file, shift);
}

/** Moves a kept statement and every node below it. */
function shiftStatement(memory: StatementMemory, statement: t.Statement, shift: Shift): void {
  for (const node of nodesBelow(memory, statement)) shiftNode(node, shift);
}

/**
 * Every node of a top-level statement, listed once: a kept statement is moved by most edits above
 * it, and a loop over a list costs about half a walk. Kept statements never change inside.
 */
function nodesBelow(memory: StatementMemory, statement: t.Statement): t.Node[] {
  let nodes = memory.nodesByStatement.get(statement);
  if (nodes === undefined) {
    nodes = [];
    listNodes(statement, nodes);
    memory.nodesByStatement.set(statement, nodes);
    memory.listed += nodes.length;
  }
  return nodes;
}

/** Copies where `from` ends (a File or Program parsed from the tail of the text) onto `to`. */
function copyEnd(from: t.Node, to: t.Node): void {
  to.end = from.end;
  if (to.loc && from.loc) to.loc.end = from.loc.end;
}

/**
 * Does a statement between the edges, new or old, declare a top-level name that a kept statement
 * also declares? Then the redeclaration errors of the whole file may change.
 */
function declaresAny(memory: StatementMemory, statements: readonly t.Statement[], body: readonly t.Statement[], replacedFrom: number, replacedEnd: number): boolean {
  const names = new Set<string>();
  for (const statement of statements) collectTopLevelNames(statement, names);
  for (let i = replacedFrom; i < replacedEnd; i++) for (const name of topLevelNamesOf(memory, body[i])) names.add(name);
  if (names.size === 0) return false;
  for (let i = 0; i < body.length; i++) {
    if (i >= replacedFrom && i < replacedEnd) continue;
    for (const name of topLevelNamesOf(memory, body[i])) if (names.has(name)) return true;
  }
  return false;
}

/** A name a top-level statement declares in the file's scope, with how it declares it. */
interface Declared {
  /** 'var', 'let', 'const', 'class', 'function' (with async / generator: redeclaring those differs). */
  kind: string;
  id: t.Identifier;
}

/**
 * The names these top-level statements declare in the file's scope, in source order, or null when
 * one declares in a way not listed here (TypeScript's declarations: a whole parse then).
 */
function declaredIn(statements: readonly t.Statement[]): Declared[] | null {
  const declared: Declared[] = [];
  const add = (kind: string, ids: Record<string, t.Identifier[]>) => {
    for (const list of Object.values(ids)) for (const id of list) declared.push({ kind, id });
  };
  const visit = (statement: t.Node | null | undefined, topLevel: boolean): boolean => {
    if (!statement) return true;
    switch (statement.type) {
      case 'FunctionDeclaration':
        if (!topLevel) return true; // a function in a block is the block's
        if (statement.id) declared.push({ kind: `function${statement.async ? ' async' : ''}${statement.generator ? '*' : ''}`, id: statement.id });
        return true;
      case 'ClassDeclaration':
        if (topLevel && statement.id) declared.push({ kind: 'class', id: statement.id });
        return true;
      case 'VariableDeclaration':
        if (topLevel || statement.kind === 'var') {
          for (const declarator of statement.declarations) add(statement.kind, getBindingIdentifiers(declarator.id, true) as Record<string, t.Identifier[]>);
        }
        return true;
      case 'BlockStatement':
        return statement.body.every((inner) => visit(inner, false));
      case 'IfStatement':
        return visit(statement.consequent, false) && visit(statement.alternate, false);
      case 'ForStatement':
        return visit(statement.init?.type === 'VariableDeclaration' ? statement.init : null, false) && visit(statement.body, false);
      case 'ForInStatement':
      case 'ForOfStatement':
        return visit(statement.left.type === 'VariableDeclaration' ? statement.left : null, false) && visit(statement.body, false);
      case 'WhileStatement':
      case 'DoWhileStatement':
      case 'LabeledStatement':
      case 'WithStatement':
        return visit(statement.body, false);
      case 'TryStatement':
        return visit(statement.block, false) && visit(statement.handler?.body, false) && visit(statement.finalizer, false);
      case 'SwitchStatement':
        return statement.cases.every((switchCase) => switchCase.consequent.every((inner) => visit(inner, false)));
      default:
        // Other statements declare nothing in the file's scope; any other declaration is not known here.
        return !isDeclaration(statement);
    }
  };
  for (const statement of statements) if (!visit(statement, true)) return null;
  return declared.sort((a, b) => (a.id.start ?? 0) - (b.id.start ?? 0));
}

const REDECLARED = / has already been declared\. \(\d+:\d+\)$/;

/**
 * The part's problems plus the redeclaration errors the changed statements had against the kept
 * ones (which the part cannot see), moved to the same names in the new statements; null unless the
 * old and new statements declare the same names the same way in the same order, which leaves every
 * redeclaration error of the file as it was (Babel reports one at a declaration when an earlier one
 * conflicts with it).
 */
function carryRedeclarations(previous: Previous, oldStatements: readonly t.Statement[], newStatements: readonly t.Statement[], part: ParsedSource): ParsedSource | null {
  const before = declaredIn(oldStatements);
  const after = declaredIn(newStatements);
  if (before === null || after === null || before.length !== after.length) return null;
  const at = new Map<number, number>();
  for (let i = 0; i < before.length; i++) {
    if (before[i].kind !== after[i].kind || before[i].id.name !== after[i].id.name) return null;
    at.set(before[i].id.start ?? -1, i);
  }
  if (oldStatements.length === 0) return part;
  const from = oldStatements[0].start ?? 0;
  const to = oldStatements.at(-1)?.end ?? 0;
  const partOffsets = part.problemOffsets ?? [];
  const merged = part.problems.map((problem, i) => ({ problem, offset: partOffsets[i] ?? 0 }));
  const have = new Set(merged.map(({ problem, offset }) => `${offset} ${problem.message}`));
  for (let i = 0; i < previous.problems.length; i++) {
    const offset = previous.offsets[i];
    if (offset < from || offset >= to) continue;
    const problem = previous.problems[i];
    if (!REDECLARED.test(problem.message)) continue; // the part's own parse finds it again
    const index = at.get(offset);
    // A redeclaration at a name not listed above (in a block of its own, say): a whole parse.
    if (index === undefined) return null;
    const id = after[index].id;
    const start = id.loc?.start;
    if (!start || id.start == null) return null;
    const message = problem.message.replace(/\(\d+:\d+\)$/, `(${start.line}:${start.column})`);
    if (have.has(`${id.start} ${message}`)) continue; // the part declares the name twice itself
    merged.push({ problem: { ...problem, message, line: start.line, column: start.column }, offset: id.start });
  }
  merged.sort((a, b) => a.offset - b.offset);
  return { ...part, problems: merged.map(({ problem }) => problem), problemOffsets: merged.map(({ offset }) => offset) };
}

/** Top-level names per statement: statements are kept across edits, and so is this. */
function topLevelNamesOf(memory: StatementMemory, statement: t.Statement): readonly string[] {
  let names = memory.namesByStatement.get(statement);
  if (names === undefined) {
    const found = new Set<string>();
    collectTopLevelNames(statement, found);
    names = [...found];
    memory.namesByStatement.set(statement, names);
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
