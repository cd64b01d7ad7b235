// Re-parsing only the statements of a block around an edit. Real modules keep long runs of
// statements in function bodies (iobroker's main.js: top-level functions of 300-900 lines, where
// nestedReparse.ts, which works per nested function, re-parsed the whole 39 KB statement for each
// keystroke; issue 26). When the edit lies between the braces of a block inside a function, the
// block's statements around it (with an unchanged neighbour on a side where the edited text could
// join it) are parsed again on their own, in a wrapper function with the same `async` and
// generator flags, and put in place of the old ones; the nodes after them move.
// The run must come back without any error, within its slice, declaring the same names the same
// way (so that no redeclaration against the block's other statements can appear or go), with no
// label (an outer label of the same name is an error the wrapper cannot see), and, in an arrow,
// without `arguments` or `new.target` (whose meaning there depends on what is around). The
// wrapper is parsed as a module (strict, `await` and `yield` reserved): never more lenient than
// the file. Anything else (a `break` out of the run, `super`, a private name) fails in the wrapper
// and sends the edit to the next block out, then to nestedReparse.ts and the top-level re-parse.
import type * as t from '@babel/types';
import type { ParserPlugin } from '@babel/parser';
import { isFunctionNode } from './functionNames';
import { parseSlice } from './parse';
import { listNodes, shiftAround, shiftNode, type Shift } from './shiftNodes';
import { endsInOpenLineComment, isDirectiveShaped, lastEndingBy } from './statementsByOffset';
import { forEachChild } from './walk';

/** A block inside a function whose braces hold an edit, and the innermost function around it. */
export interface BlockSite {
  block: t.BlockStatement;
  fn: t.Function;
}

/** A class's static block and field values are not their function's body (return, await, arguments differ). */
const NOT_A_FUNCTION_BODY: ReadonlySet<string> = new Set(['StaticBlock', 'ClassProperty', 'ClassPrivateProperty', 'ClassAccessorProperty']);

/** The blocks below `statement` that hold [from, to) strictly inside their braces, inside a function, innermost first. */
export function blocksAround(statement: t.Statement, from: number, to: number): BlockSite[] {
  const sites: BlockSite[] = [];
  let node: t.Node | null = statement;
  let fn: t.Function | null = null;
  while (node !== null) {
    const current: t.Node = node;
    if (isFunctionNode(current)) fn = current;
    else if (NOT_A_FUNCTION_BODY.has(current.type)) fn = null;
    if (current.type === 'BlockStatement' && fn !== null && (current.start ?? 0) < from && to < (current.end ?? 0)) sites.push({ block: current, fn });
    let next: t.Node | null = null;
    forEachChild(current, (child) => {
      if ((child.start ?? 0) > from || (child.end ?? 0) < to) return false;
      next = child;
      return true;
    });
    node = next;
  }
  return sites.reverse();
}

/** The run parsed again and put in place: the statement's nodes listed anew, and how the nodes after it moved. */
export interface SplicedRun {
  /** The statement's nodes in the walk's order. */
  nodes: t.Node[];
  shift: Shift;
  /** Old offsets of the slice parsed again: the comments in it are replaced by `comments`. */
  from: number;
  to: number;
  comments: t.Comment[];
  /** Characters parsed. */
  length: number;
  /** The run's old statements, taken out (with their old nodes and offsets). */
  replaced: t.Node[];
}

/** Do two runs of statements declare the same names the same way, in the same order (incrementalParse.ts's declaredIn)? */
export type SameDeclarations = (before: readonly t.Statement[], after: readonly t.Statement[]) => boolean;

const MODULE_SYNTAX = /\b(?:import(?!\s*\()|export)\b/;
const HTML_COMMENT = /<!--|-->/;

interface Position {
  line: number;
  column: number;
}

/** Where `source`, starting at `start`, ends (Babel's line terminators: \n, \r\n, \r, U+2028, U+2029). */
function endOf(start: Position, source: string): Position {
  let line = start.line;
  let lineStart = -start.column;
  for (let i = 0; i < source.length; i++) {
    const code = source.charCodeAt(i);
    if (code === 10 || code === 0x2028 || code === 0x2029 || (code === 13 && source.charCodeAt(i + 1) !== 10)) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: source.length - lineStart };
}

/**
 * Nothing after this statement can join it: it ends with its own `;`, or it is a declaration or a
 * block, or a compound statement whose last part is a block (only `else`, `catch` or `finally`
 * could follow, which start no statement and fail on their own).
 */
export function closedStatement(statement: t.Statement, text: string): boolean {
  switch (statement.type) {
    case 'FunctionDeclaration':
    case 'ClassDeclaration':
    case 'BlockStatement':
    case 'TryStatement':
    case 'SwitchStatement':
      return true;
    case 'IfStatement':
      return closedStatement(statement.alternate ?? statement.consequent, text);
    case 'ForStatement':
    case 'ForInStatement':
    case 'ForOfStatement':
    case 'WhileStatement':
    case 'LabeledStatement':
    case 'WithStatement':
      return closedStatement(statement.body, text);
    default:
      return text.charCodeAt((statement.end ?? 0) - 1) === 59; // ';'
  }
}

function subtreeSize(node: t.Node): number {
  const nodes: t.Node[] = [];
  listNodes(node, nodes);
  return nodes.length;
}

/**
 * Parses again the statements of `site.block` around the edit (old [prefix, changedEnd), the text
 * after it moved by `delta`) and puts them in place in `statement`; `nodes` lists the statement's
 * nodes in the walk's order. Null, with nothing changed, when the run cannot be judged on its own
 * (see the header).
 */
export function spliceRun(
  statement: t.Statement,
  nodes: readonly t.Node[],
  site: BlockSite,
  edit: { oldText: string; text: string; prefix: number; changedEnd: number; delta: number },
  plugins: readonly ParserPlugin[],
  sameDeclarations: SameDeclarations,
): SplicedRun | null {
  const { block, fn } = site;
  const { oldText, text, prefix, changedEnd, delta } = edit;
  const body = block.body;
  const lastDirective = block.directives.at(-1);
  // An edit in or right after a directive may make or unmake one.
  if (lastDirective !== undefined && prefix <= (lastDirective.end ?? 0)) return null;
  // The unchanged statement before the run, if any, must end so that the edited text starts a statement after it.
  let first = lastEndingBy(body, prefix);
  for (let widened = 0; first >= 0 && ((body[first].end ?? 0) === prefix || !closedStatement(body[first], oldText)); widened++) {
    if (widened === 2) return null;
    first--;
  }
  let last = first + 1;
  while (last < body.length && (body[last].start ?? 0) < changedEnd) last++;
  // Text typed at the very start of a statement joins its first token.
  if (last < body.length && (body[last].start ?? 0) === changedEnd) last++;
  const sliceStart = first >= 0 ? body[first].end ?? 0 : lastDirective !== undefined ? lastDirective.end ?? 0 : (block.start ?? 0) + 1;
  const blockStart = block.loc?.start;
  const startLoc: Position | undefined = first >= 0 ? body[first].loc?.end : lastDirective !== undefined ? lastDirective.loc?.end
    : blockStart === undefined ? undefined : { line: blockStart.line, column: blockStart.column + 1 };
  if (startLoc === undefined || startLoc.line < 2) return null;
  const head = `(${fn.async ? 'async ' : ''}function${fn.generator ? '*' : ''}(){;\n${' '.repeat(startLoc.column)}`;
  const index = sliceStart - head.length;
  if (index < 0) return null;
  for (let tries = 0; tries < 3; tries++) {
    const oldSliceEnd = last < body.length ? body[last].start ?? 0 : (block.end ?? 0) - 1;
    const newSliceEnd = oldSliceEnd + delta;
    const oldSource = oldText.slice(sliceStart, oldSliceEnd);
    const source = text.slice(sliceStart, newSliceEnd);
    if (MODULE_SYNTAX.test(source) || MODULE_SYNTAX.test(oldSource) || HTML_COMMENT.test(source)) return null;
    const parsed = parseSlice(`${head}${source}\n})`, { index, line: startLoc.line - 1, column: 0 }, plugins);
    if (parsed.ast === null || parsed.problems.length > 0) return null;
    const wrapper = parsed.ast.program.body;
    const expression = wrapper.length === 1 && wrapper[0].type === 'ExpressionStatement' ? wrapper[0].expression : null;
    if (expression?.type !== 'FunctionExpression' || expression.body.directives.length > 0 || expression.body.body[0]?.type !== 'EmptyStatement') return null;
    const statements = expression.body.body.slice(1);
    if (statements.some((s) => (s.start ?? 0) < sliceStart || (s.end ?? 0) > newSliceEnd)) return null;
    const lastNew = statements.at(-1);
    // What the run now ends with could continue into the next statement: take that one in too.
    if (lastNew !== undefined && last < body.length && !closedStatement(lastNew, text)) {
      last++;
      continue;
    }
    // A line comment that the text continues past the run's end (onto the next statement, or the block's brace).
    if (endsInOpenLineComment(parsed.ast.comments, newSliceEnd, text)) {
      if (last >= body.length) return null;
      last++;
      continue;
    }
    // At the start of a body, a string statement is a directive.
    const firstNew = statements[0];
    if (first < 0 && firstNew?.type === 'ExpressionStatement' && firstNew.expression.type === 'StringLiteral') return null;
    // ...and so is a kept one the edit leaves first (the statements before it deleted).
    if (first < 0 && statements.length === 0 && isDirectiveShaped(body[last])) return null;
    const oldRun = body.slice(first + 1, last);
    if (!sameDeclarations(oldRun, statements)) return null;
    const freshNodes: t.Node[] = [];
    for (const s of statements) listNodes(s, freshNodes);
    const arrow = fn.type === 'ArrowFunctionExpression';
    for (const node of freshNodes) {
      if (node.type === 'LabeledStatement') return null;
      if (arrow && ((node.type === 'Identifier' && node.name === 'arguments') || node.type === 'MetaProperty')) return null;
    }
    // Where the run's nodes are in the statement's list (a subtree is one run of a preorder list).
    let at: number;
    let count = 0;
    if (oldRun.length > 0) {
      at = nodes.indexOf(oldRun[0]);
      for (const s of oldRun) count += subtreeSize(s);
      if (at < 0 || nodes[at + count - 1] === undefined) return null;
      const lastOld = oldRun[oldRun.length - 1];
      if (nodes[at + count - subtreeSize(lastOld)] !== lastOld) return null;
    } else if (first >= 0) {
      const lead = nodes.indexOf(body[first]);
      if (lead < 0) return null;
      at = lead + subtreeSize(body[first]);
    } else {
      const holder = nodes.indexOf(block);
      if (holder < 0) return null;
      at = holder + 1;
      for (const directive of block.directives) at += subtreeSize(directive);
    }
    if (at <= 0 || nodes[0] !== statement) return null;
    const oldEnd = endOf(startLoc, oldSource);
    const newEnd = endOf(startLoc, source);
    const shift: Shift = { delta, lines: newEnd.line - oldEnd.line, line: oldEnd.line, columns: newEnd.column - oldEnd.column };
    // Shared position objects are told apart by their index, which a same-length edit leaves as it was.
    if (delta === 0 && (shift.lines !== 0 || shift.columns !== 0)) return null;
    const listed = [...nodes.slice(0, at), ...freshNodes, ...nodes.slice(at + count)];
    if (delta !== 0) {
      for (let i = 0; i < listed.length; i++) {
        if (i >= at && i < at + freshNodes.length) continue;
        const node = listed[i];
        if ((node.start ?? 0) >= oldSliceEnd) shiftNode(node, shift);
        // Only the blocks around the run hold its end (a statement before it may end where it starts).
        else if ((node.end ?? 0) > oldSliceEnd) shiftAround(node, oldSliceEnd, shift);
      }
    }
    body.splice(first + 1, last - first - 1, ...statements);
    return { nodes: listed, shift, from: sliceStart, to: oldSliceEnd, comments: parsed.ast.comments ?? [], length: source.length, replaced: oldRun };
  }
  return null;
}
