// Editing sessions for the tests of incremental work: real files and edits like typing, so that
// what is reused between versions of a document can be compared with starting from scratch.
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as t from '@babel/types';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === 'node_modules') continue;
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (/\.(?:[cm]?js|ts)$/.test(name) && statSync(path).size < 300_000) out.push(path);
  }
  return out;
}

/** The first difference between two parse results as `path: a !== b`, or null. Undefined fields count as absent. */
export function firstDifference(a: unknown, b: unknown, path = ''): string | null {
  if (a === b) return null;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return `${path}: ${String(a)} !== ${String(b)}`;
  const record = (value: object) => value as Record<string, unknown>;
  const keysA = Object.keys(a).filter((key) => record(a)[key] !== undefined);
  const keysB = Object.keys(b).filter((key) => record(b)[key] !== undefined);
  if (keysA.join() !== keysB.join()) return `${path}: keys [${keysA.join()}] !== [${keysB.join()}]`;
  for (const key of keysA) {
    const found = firstDifference(record(a)[key], record(b)[key], `${path}.${key}`);
    if (found) return found;
  }
  return null;
}

/** A small deterministic generator (tests must fail the same way twice). */
export function randomFrom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff;
    return state / 0x80000000;
  };
}

function nodesOf(ast: t.File): t.Node[] {
  const nodes: t.Node[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object' && typeof (value as t.Node).type === 'string') {
      nodes.push(value as t.Node);
      for (const [key, child] of Object.entries(value)) if (key !== 'loc' && key !== 'extra') visit(child);
    }
  };
  visit(ast.program);
  return nodes;
}

/** One edit a person might make, placed by the current AST so that most of them keep the file valid. */
export function typedEdit(text: string, ast: t.File, random: () => number): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const splice = (at: number, remove: number, insert: string) => text.slice(0, at) + insert + text.slice(at + remove);
  const roll = random();
  if (roll < 0.08) {
    // Damage anywhere: a parse with errors, after which the next parse must be whole again.
    return splice(Math.floor(random() * text.length), Math.floor(random() * 4), pick(['(', '}', '"', '`', '/*', 'x', '\n', '']));
  }
  const nodes = nodesOf(ast);
  const statements = ast.program.body;
  if (roll < 0.3) {
    const ids = nodes.filter((node) => node.type === 'Identifier');
    if (ids.length > 0) return splice(pick(ids).end ?? 0, 0, pick(['x', 'é', '😀', '_1']));
  }
  if (roll < 0.5) return splice(pick(nodes).start ?? 0, 0, pick([' ', '\n', '\r\n', '\n\n  ', '/* c */ ', '// note\n']));
  if (roll < 0.6 && ast.comments && ast.comments.length > 0) {
    const comment = pick(ast.comments);
    return splice((comment.start ?? 0) + 2, 0, pick(['x', ' hotframe-disable-next-line date-now-hot-path', '\u2028']));
  }
  if (statements.length > 2) {
    const statement = pick(statements);
    const start = statement.start ?? 0;
    const end = statement.end ?? 0;
    if (roll < 0.72) return splice(start, end - start, ''); // delete a top-level statement
    if (roll < 0.8) return splice(end, 0, `\n${text.slice(start, end)}`); // duplicate one (may redeclare)
    if (roll < 0.9) return splice(start, 0, pick(['f();\n', 'var late = 1;\n', 'let fresh = 2;\n', 'function g() {}\n', '(a)\n', 'x = 1\n', "'use strict';\n"]));
  }
  const inner = pick(nodes);
  return splice(inner.end ?? 0, 0, pick(['.b', '(1)', ' + 1', ';', '\n(y)']));
}

/** Real files to edit: our examples and fixtures, our own TypeScript, express and mongoose from node_modules. */
export function editCorpus(): string[] {
  return [
    ...sourceFiles(join(root, 'examples', 'demo-app')),
    ...sourceFiles(join(root, 'test', 'fixtures')),
    ...sourceFiles(join(root, 'server', 'static')),
    ...sourceFiles(join(root, 'node_modules', 'express', 'lib')),
    ...sourceFiles(join(root, 'node_modules', 'mongoose', 'lib', 'helpers')),
  ];
}
