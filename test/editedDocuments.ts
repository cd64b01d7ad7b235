// An editor document edited version after version, each version checked against a whole parse and
// a fresh analysis of its text: the harness of the tests of the engine's incremental paths
// (nestedReparse.test.ts, blockReparse.test.ts, realModuleEdits.test.ts), so that a new path is
// held to the same check as the others.
import assert from 'node:assert/strict';
import type * as t from '@babel/types';
import { BindingResolver } from '../server/static/bindings';
import { analyzeSource, type AnalysisResult } from '../server/static/engine';
import { collectImports } from '../server/static/imports';
import { parseSource } from '../server/static/parse';
import { factsKey, moduleFactsOf } from '../server/static/project/moduleFacts';
import { StaticDocument } from '../server/static/staticDocument';
import { forEachChild } from '../server/static/walk';
import { firstDifference, randomFrom } from './editSessions';
import { scopeView } from './scopeView';

/** `text` with `find` (which occurs once) replaced by `replace`: one edit of a test's session. */
export function edited(text: string, find: string, replace: string): string {
  const at = text.indexOf(find);
  assert.ok(at >= 0 && text.indexOf(find, at + 1) < 0, `'${find}' occurs once`);
  return text.slice(0, at) + replace + text.slice(at + find.length);
}

/** Findings as one line each: line, rule, message, fixes (offsets included), function. */
export function findingLines(result: AnalysisResult): string[] {
  return result.findings.map((finding) =>
    `${finding.range.loc.start.line}:${finding.range.loc.start.column} ${finding.ruleId} ${finding.severity} ${finding.message}\t${JSON.stringify(finding.fixes)} ${finding.enclosingFunction?.name ?? '-'}`);
}

/** Every node of `node`'s subtree, in the walk's order. */
export function nodesIn(node: t.Node): t.Node[] {
  const nodes: t.Node[] = [];
  const visit = (current: t.Node): void => {
    nodes.push(current);
    forEachChild(current, visit);
  };
  visit(node);
  return nodes;
}

/**
 * What the module tells the project (project/moduleFacts.ts), as one string: read from `program`,
 * whose kept statements and functions bring what they told before (the language server reads it
 * from the document's tree after every edit).
 */
export function moduleFactsText(program: t.Program): string {
  const imports = collectImports(program);
  return factsKey(moduleFactsOf(program, imports, JSON.stringify([...imports])));
}

/** How the document's parser and records took one version. */
export interface CheckedVersion {
  /** A whole parse of the text succeeds (else only "an error is reported" was checked). */
  parses: boolean;
  kind: string;
  inFunction: boolean;
  inBlock: boolean;
  /** Nothing was parsed: the edit was inside a comment (commentEdit.ts). */
  inComment: boolean;
  parsedLength: number;
  walked: number;
  reused: number;
  /** Findings of this version. */
  findings: number;
  label: string;
}

/**
 * Analyzes `text` as the next version of `document`: its findings and parse errors must be a fresh
 * analysis' and the tree the parser keeps a whole parse's, and so must the module's facts read from
 * it and what the document's binding resolver tells of every name; a text that does not parse must
 * report an error.
 */
export function checkVersion(document: StaticDocument, filePath: string, text: string, where: string): CheckedVersion {
  const got = analyzeSource({ filePath, text, document });
  const { parser, records } = document;
  const version = {
    kind: parser.lastKind,
    inFunction: parser.lastInFunction,
    inBlock: parser.lastInBlock,
    inComment: parser.lastInComment,
    parsedLength: parser.lastParsedLength,
    walked: records.lastWalked,
    reused: records.lastReused,
    findings: got.findings.length,
  };
  const label = `${where} (${version.kind}${version.inComment ? ', in a comment' : version.inBlock ? ', in a block' : version.inFunction ? ', in a function' : ''}, parsed ${version.parsedLength} chars, walked ${version.walked}, reused ${version.reused})`;
  const fresh = parseSource(filePath, text);
  if (fresh.ast === null) {
    assert.ok(got.parseErrors.length > 0, label);
    return { ...version, parses: false, label };
  }
  const want = analyzeSource({ filePath, text });
  assert.deepEqual(findingLines(got), findingLines(want), label);
  assert.deepEqual(got.parseErrors, want.parseErrors, label);
  const kept = parser.parse(filePath, text);
  assert.equal(firstDifference({ ast: fresh.ast, problems: fresh.problems }, { ast: kept.ast, problems: kept.problems }), null, label);
  assert.ok(kept.ast !== null, label);
  assert.equal(moduleFactsText(kept.ast.program), moduleFactsText(fresh.ast.program), `${label}: module facts`);
  // The document's resolver keeps the scopes of what an edit left (statements, long functions in them).
  const scopes = scopeView(document.bindings, kept.ast);
  const freshScopes = scopeView(new BindingResolver(), fresh.ast);
  if (scopes !== freshScopes) assert.fail(`${label}: scopes differ from a fresh resolver's at\n${firstLineDifference(scopes, freshScopes)}`);
  return { ...version, parses: true, label };
}

/** The first line where two texts differ, both versions. */
function firstLineDifference(got: string, want: string): string {
  const a = got.split('\n');
  const b = want.split('\n');
  const i = a.findIndex((line, index) => line !== b[index]);
  const at = i < 0 ? a.length : i;
  return `kept:  ${a[at] ?? '(none)'}\nfresh: ${b[at] ?? '(none)'}`;
}

/** A session of random edits of every kind, each in a part of the current tree (a function's body, a block). */
export interface EditSession<Part extends t.Node> {
  name: string;
  text: string;
  seed: number;
  rounds: number;
  kinds: readonly string[];
  /** The parts of the tree an edit may go in. */
  partsOf(ast: t.File): Part[];
  /** One edit of `kind` in `part`; null when the part has no site for it. */
  editInside(text: string, part: Part, kind: string, random: () => number): string | null;
}

/** One checked version of a session, with the kind of edit that made it. */
export interface SessionVersion extends CheckedVersion {
  editKind: string;
}

/**
 * Opens `session.text` in a document and makes `rounds` passes over the kinds, each edit in a part
 * picked at random and checked (checkVersion); a version that does not parse is undone, as people
 * do, and the undo is checked too. Returns the edited versions (not the undos).
 */
export function runEditSession<Part extends t.Node>(session: EditSession<Part>): SessionVersion[] {
  const filePath = `/virtual/${session.name}`;
  const random = randomFrom(session.seed);
  const document = new StaticDocument();
  analyzeSource({ filePath, text: session.text, document });
  let text = session.text;
  let tree = parseSource(filePath, text).ast;
  const versions: SessionVersion[] = [];
  for (let round = 0; round < session.rounds; round++) {
    for (const kind of session.kinds) {
      assert.ok(tree !== null);
      const parts = session.partsOf(tree);
      const part = parts[Math.floor(random() * parts.length)];
      const edited = session.editInside(text, part, kind, random);
      if (edited === null) continue;
      const where = `${session.name}, round ${round}, ${kind} in the ${part.type} at line ${part.loc?.start.line}`;
      const version = checkVersion(document, filePath, edited, where);
      versions.push({ ...version, editKind: kind });
      if (version.parses) {
        text = edited;
        tree = parseSource(filePath, text).ast;
      } else {
        checkVersion(document, filePath, text, `${where}, undone`);
      }
    }
  }
  return versions;
}
