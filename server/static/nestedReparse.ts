// Re-parsing only the function an edit is in. Real modules keep most of their code in a few
// top-level statements (an app factory, a class, `module.exports = function …`, an object of
// handlers: 700-3,500 lines each), so re-parsing the top-level statement around a keystroke costs
// most of a whole parse (issue 26). When the edit lies inside the body of a function nested in
// that statement, the innermost such function is parsed again on its own, in a wrapper that gives
// it the syntax it had there (a method in an object or class, a function expression as a value, a
// declaration as a statement), and put in place of the old one; the nodes after it move.
// The part must come back as exactly one node of the same kind over the edited text, without any
// error, and what the wrapper allows must be allowed where the function is: the wrapper is parsed as
// a module (strict, `await` and `yield` reserved), so that it is never more lenient than the file,
// and the syntax whose meaning depends on what is around a function (`super` outside a method,
// `arguments` in an arrow, which class fields forbid, HTML comments, module syntax) sends the edit
// to the next function out, or to the top-level re-parse. The caller (incrementalParse.ts) moves
// the rest of the file and marks the statement revised (statementRevisions.ts), so that what the
// engine keeps per top-level statement (bindings, statement records) is made again for it.
import type * as t from '@babel/types';
import type { ParserPlugin } from '@babel/parser';
import { parseSlice } from './parse';
import { listNodes, shiftAround, shiftNode, type Shift } from './shiftNodes';
import { isFunctionNode } from './functionNames';
import { forEachChild } from './walk';

/** Babel's `Function`: declarations, expressions, arrows, object and class methods (functionNames.ts's isFunctionNode). */
export type FunctionLike = t.Function;

/** A function nested in a top-level statement whose block body holds an edit, and where it hangs. */
export interface FunctionSite {
  node: FunctionLike;
  parent: t.Node;
  key: string;
  /** Its index in `parent[key]` when that is a list. */
  index: number | null;
}

/**
 * The functions below `statement` (not itself) whose block body holds [from, to) strictly inside its
 * braces, innermost first.
 */
export function functionsAround(statement: t.Statement, from: number, to: number): FunctionSite[] {
  const sites: FunctionSite[] = [];
  let node: t.Node | null = statement;
  while (node !== null) {
    const parent: t.Node = node;
    let next: t.Node | null = null;
    forEachChild(parent, (child, key, listKey) => {
      if ((child.start ?? 0) > from || (child.end ?? 0) < to) return false;
      next = child;
      if (isFunctionNode(child) && child.body.type === 'BlockStatement' && (child.body.start ?? 0) < from && to < (child.body.end ?? 0)) {
        sites.push({ node: child, parent, key: listKey ?? String(key), index: listKey === null ? null : Number(key) });
      }
      return true;
    });
    node = next;
  }
  return sites.reverse();
}

/** What the wrapper around a function's text is, and where the function is found in its parse. */
interface Wrapper {
  head: string;
  tail: string;
  pick(program: t.Program): t.Node | undefined;
}

const WRAPPERS: Record<FunctionLike['type'], Wrapper> = {
  FunctionDeclaration: { head: '', tail: '\n', pick: (program) => program.body[0] },
  FunctionExpression: { head: '_=', tail: '\n', pick: (program) => assigned(program) },
  ArrowFunctionExpression: { head: '_=', tail: '\n', pick: (program) => assigned(program) },
  ObjectMethod: {
    head: '({',
    tail: '\n})',
    pick: (program) => {
      const expression = onlyExpression(program);
      return expression?.type === 'ObjectExpression' && expression.properties.length === 1 ? expression.properties[0] : undefined;
    },
  },
  ClassMethod: { head: '(class{', tail: '\n})', pick: (program) => onlyMember(program) },
  ClassPrivateMethod: { head: '(class{', tail: '\n})', pick: (program) => onlyMember(program) },
};

function onlyExpression(program: t.Program): t.Expression | undefined {
  const statement = program.body.length === 1 ? program.body[0] : undefined;
  return statement?.type === 'ExpressionStatement' ? statement.expression : undefined;
}

function assigned(program: t.Program): t.Node | undefined {
  const expression = onlyExpression(program);
  return expression?.type === 'AssignmentExpression' ? expression.right : undefined;
}

function onlyMember(program: t.Program): t.Node | undefined {
  const expression = onlyExpression(program);
  return expression?.type === 'ClassExpression' && expression.body.body.length === 1 ? expression.body.body[0] : undefined;
}

/** Syntax whose meaning depends on more than the function's own text (see the header). */
const MODULE_SYNTAX = /\b(?:import(?!\s*\()|export)\b/;
const HTML_COMMENT = /<!--|-->/;
const SUPER = /\bsuper\b/;
const ARGUMENTS = /\barguments\b/;

export interface ParsedFunction {
  node: FunctionLike;
  comments: t.Comment[];
  /** Characters parsed. */
  length: number;
}

/**
 * The function at `site` parsed again from `text` (the new version; the function's old end moves
 * by `delta`). 'outer' when its text holds syntax the wrapper cannot judge (the next function out
 * may), null when it does not parse as one function of the same kind without an error.
 */
export function parseFunction(site: FunctionSite, oldText: string, text: string, delta: number, plugins: readonly ParserPlugin[]): ParsedFunction | 'outer' | null {
  const old = site.node;
  const start = old.start ?? 0;
  const oldEnd = old.end ?? 0;
  const source = text.slice(start, oldEnd + delta);
  if (MODULE_SYNTAX.test(source) || MODULE_SYNTAX.test(oldText.slice(start, oldEnd)) || HTML_COMMENT.test(source)) return null;
  const method = old.type === 'ObjectMethod' || old.type === 'ClassMethod' || old.type === 'ClassPrivateMethod';
  if (!method && SUPER.test(source)) return 'outer';
  if (old.type === 'ArrowFunctionExpression' && ARGUMENTS.test(source)) return 'outer';
  const position = old.loc?.start;
  if (!position || position.line < 2) return null;
  const wrapper = WRAPPERS[old.type];
  // The head on a line of its own, then the function at its own line and column.
  const head = `${wrapper.head}\n${' '.repeat(position.column)}`;
  const index = start - head.length;
  if (index < 0) return null;
  const parsed = parseSlice(head + source + wrapper.tail, { index, line: position.line - 1, column: 0 }, plugins);
  if (parsed.ast === null || parsed.problems.length > 0) return null;
  const node = wrapper.pick(parsed.ast.program);
  if (node === undefined || node.type !== old.type || node.start !== start || node.end !== oldEnd + delta) return null;
  const fn = node as FunctionLike;
  if (fn.async !== old.async || fn.generator !== old.generator) return null;
  const extra = old.extra as { parenthesized?: boolean; parenStart?: number } | undefined;
  if (extra?.parenthesized === true) fn.extra = { ...fn.extra, parenthesized: true, parenStart: extra.parenStart };
  return { node: fn, comments: parsed.ast.comments ?? [], length: source.length };
}

/**
 * Puts `fresh` in place of the function at `site` in `statement` and moves the nodes after the old
 * function by `shift`. `nodes` lists the statement's nodes in the walk's order; returns its new
 * list, or null (nothing changed) when the function is not in it.
 */
export function spliceFunction(statement: t.Statement, nodes: readonly t.Node[], site: FunctionSite, fresh: FunctionLike, shift: Shift): t.Node[] | null {
  const old = site.node;
  const at = nodes.indexOf(old);
  if (at < 0 || nodes[0] !== statement) return null;
  const oldNodes: t.Node[] = [];
  listNodes(old, oldNodes);
  if (nodes[at + oldNodes.length - 1] !== oldNodes.at(-1)) return null;
  const freshNodes: t.Node[] = [];
  listNodes(fresh, freshNodes);
  const listed = [...nodes.slice(0, at), ...freshNodes, ...nodes.slice(at + oldNodes.length)];
  const oldEnd = old.end ?? 0;
  if (shift.delta !== 0) {
    for (let i = 0; i < listed.length; i++) {
      if (i >= at && i < at + freshNodes.length) continue;
      const node = listed[i];
      if ((node.start ?? 0) >= oldEnd) shiftNode(node, shift);
      else if ((node.end ?? 0) >= oldEnd) shiftAround(node, oldEnd, shift);
    }
  }
  const parent = site.parent as unknown as Record<string, unknown>;
  if (site.index === null) parent[site.key] = fresh;
  else (parent[site.key] as t.Node[])[site.index] = fresh;
  return listed;
}
