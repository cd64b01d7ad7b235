// The engine's walk calls visitor functions as @babel/traverse would (same nodes, same order,
// enter and exit, skip), and goes to no node that no visitor function asks about and that has no
// child: most of a tree's nodes are identifiers and literals (issue 26: the walk of a long
// statement is most of an edit's cost).
import assert from 'node:assert/strict';
import traverseModule, { type NodePath, type Visitor } from '@babel/traverse';
import type * as t from '@babel/types';
import { BindingResolver } from './bindings';
import { parseSource } from './parse';
import { forEachChild, walkFile } from './walk';

type TraverseFn = typeof traverseModule;
const traverse: TraverseFn = (traverseModule as unknown as { default?: TraverseFn }).default ?? traverseModule;

const source = `'use strict';
const express = require('express');
const app = express();
class Store { constructor(db) { this.db = db; } async get(id) { return this.db.find({ id, at: Date.now() }); } }
app.get('/items/:id', async (req, res) => {
  const item = await new Store(req.app.locals.db).get(req.params.id);
  if (!item) return res.status(404).end();
  for (const [k, v] of Object.entries(item)) res.set(k, String(v));
  res.json({ item, tags: [1, 'two', null, \`t\${item.id}\`], re: /x+/g });
});
function helper(a = 1, ...rest) { return rest.map((r) => r * a); }
label: for (;;) { break label; }
module.exports = { helper, nested: { deep() { return helper(2, 3); } } };
`;

function treeOf(text: string): t.File {
  const ast = parseSource('/virtual/walked.js', text).ast;
  assert.ok(ast !== null);
  return ast;
}

/** The calls a visitor receives: phase, node type and offset, in order. */
function recording(types: readonly string[], log: string[], skipFunctions = false): Visitor {
  const visitor: Record<string, { enter: (path: NodePath) => void; exit: (path: NodePath) => void }> = {};
  for (const type of types) {
    visitor[type] = {
      enter(path) {
        log.push(`enter ${path.node.type} ${path.node.start}`);
        if (skipFunctions && path.isFunction()) path.skip();
      },
      exit(path) {
        log.push(`exit ${path.node.type} ${path.node.start}`);
      },
    };
  }
  return visitor as Visitor;
}

function walked(types: readonly string[], skipFunctions = false): { log: string[]; visited: number } {
  const log: string[] = [];
  const ast = treeOf(source);
  const bindings = new BindingResolver();
  bindings.startAnalysis(ast);
  const visited = walkFile(ast, traverse.visitors.merge([recording(types, log, skipFunctions)]), bindings);
  return { log, visited };
}

function traversed(types: readonly string[], skipFunctions = false): string[] {
  const log: string[] = [];
  traverse(treeOf(source), { ...recording(types, log, skipFunctions), noScope: true });
  return log;
}

function nodeCount(node: t.Node): number {
  let count = 1;
  forEachChild(node, (child) => {
    count += nodeCount(child);
  });
  return count;
}

describe('walkFile', () => {
  const engineShape = ['Program', 'CallExpression', 'NewExpression', 'ObjectExpression', 'ObjectProperty', 'ReturnStatement', 'Function'];
  const leaves = ['Identifier', 'StringLiteral', 'NumericLiteral', 'NullLiteral', 'TemplateElement', 'RegExpLiteral', 'ThisExpression', 'BreakStatement', 'MemberExpression'];

  it('calls the visitor functions @babel/traverse calls, in its order, leaves asked for included', () => {
    for (const types of [engineShape, leaves, [...engineShape, ...leaves]]) {
      const { log } = walked(types);
      assert.ok(log.length > 0);
      assert.deepEqual(log, traversed(types), types.join(', '));
    }
  });

  it('skips below a node whose visitor skipped it, as @babel/traverse does', () => {
    const types = [...engineShape, 'Identifier'];
    assert.deepEqual(walked(types, true).log, traversed(types, true));
  });

  it('goes to no childless node that no visitor function asks about', () => {
    const all = nodeCount(treeOf(source).program) + 0;
    const { visited } = walked(engineShape);
    // The identifiers and literals are most of the nodes; none of them is asked about here.
    assert.ok(visited < all * 0.6, `${visited} of ${all} nodes visited`);
    // Asked about, they are gone to.
    const withIdentifiers = walked([...engineShape, 'Identifier']).visited;
    assert.ok(withIdentifiers > visited, `${withIdentifiers} with identifiers asked about, ${visited} without`);
  });
});
