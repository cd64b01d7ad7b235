// Typing inside a comment parses nothing (commentEdit.ts): the tree, its problems, the findings and
// the module's facts after each such edit must be those of a whole parse and a fresh analysis, on the
// real modules of the bench (comments between top-level statements, JSDoc between the methods of one
// huge object) and on the edits that must be parsed (a line break typed, a comment closed or opened).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as t from '@babel/types';
import { firstDifference, randomFrom } from '../../test/editSessions';
import { checkVersion, findingLines, nodesIn } from '../../test/editedDocuments';
import { commentHolding } from './commentEdit';
import { analyzeSource } from './engine';
import { parseSource } from './parse';
import { StaticDocument } from './staticDocument';

const inputs = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bench', 'inputs');
const realModules = ['iobroker-js-controller-main.js', 'apostrophe-page-index.js'];

/** A service whose findings read text around comments: a callee written with a comment inside, a line a directive may silence. */
const SERVICE = `'use strict';
const express = require('express');
const pg = require('pg');
const router = express.Router();
// routes: the list, then one item
router.get('/items', async (req, res) => {
  /* a client per request */
  const client = new pg./* the pool's */Client();
  await client.connect();
  // read the clock
  const started = Date.now();
  res.json({ rows: await client.query('select 1'), took: Date.now() - started });
});
module.exports = {
  /**
   * The handlers.
   */
  list(req, res) {
    res.json({ at: Date.now() }); // per request
  },
};
/* the end */
`;

describe('commentEdit: typing inside a comment parses nothing', () => {
  it('finds the comment whose text holds an edit that leaves it one comment of its kind', () => {
    const text = 'a(); // note\n/* block */ b();\n';
    const comments = parseSource('/virtual/a.js', text).ast?.comments ?? [];
    const at = (needle: string) => text.indexOf(needle);
    const edit = (from: number, to: number, insert: string) => {
      const next = text.slice(0, from) + insert + text.slice(to);
      return commentHolding(comments, text, next, from, to, insert.length - (to - from));
    };
    assert.equal(edit(at('note'), at('note'), 'x'), 0);
    assert.equal(edit(at('note') + 4, at('note') + 4, 'x'), 0, 'at the end of a line comment');
    assert.equal(edit(at('block'), at('block') + 5, ''), 1);
    assert.equal(edit(at(' */'), at(' */'), ' x'), 1, 'just before the closer');
    assert.equal(edit(at('note'), at('note'), '\n'), -1, 'a line break ends a line comment');
    assert.equal(edit(at('block'), at('block'), '*/'), -1, 'a closer typed in a block comment');
    assert.equal(edit(at('block'), at('block'), '\u2028'), -1, 'a line break in a block comment may end a statement (ASI)');
    assert.equal(edit(at('*/'), at('*/') + 1, ''), -1, 'the closer taken apart');
    assert.equal(edit(at('// note') + 1, at('// note') + 1, 'x'), -1, 'the opener taken apart');
    assert.equal(edit(at('a()'), at('a()'), 'x'), -1, 'code');
  });

  it('edits in the comments of a service: findings, tree and facts as a fresh analysis, nothing parsed', () => {
    const filePath = '/srv/service/app.js';
    const document = new StaticDocument();
    const opened = analyzeSource({ filePath, text: SERVICE, document });
    assert.ok(opened.findings.some((finding) => finding.message.includes("the pool's")), 'the callee is shown with its comment');
    let text = SERVICE;
    // What is typed where, and whether it stays inside one comment.
    const steps: [string, string, string, boolean][] = [
      ['routes: the list', 'routes: the list, more', 'a line comment between top-level statements', true],
      ["the pool's", 'the shared pool', 'the comment inside the callee a finding shows', true],
      ['a client per request', 'hotframe-disable-next-line connection-per-request', 'a directive typed in a block comment (the finding goes)', true],
      ['// read the clock', '// read the clock twice', 'a line comment inside a handler', true],
      ['The handlers.', 'The handlers of the list.', 'a JSDoc between the methods of module.exports', true],
      ['/* the end */', '/* the very end */', 'the comment after the last statement', true],
      ['// per request', '// per\n request', 'a line break typed in a line comment (parsed)', false],
      ['/* the very end */', '/* the very */ end */', 'a block comment closed early (parsed)', false],
    ];
    let findings = opened.findings.length;
    for (const [find, replace, what, inComment] of steps) {
      const at = text.indexOf(find);
      assert.ok(at >= 0, what);
      const next = text.slice(0, at) + replace + text.slice(at + find.length);
      const version = checkVersion(document, filePath, next, what);
      assert.equal(version.inComment, inComment, `${version.label}: parsed nothing`);
      if (what.includes('the finding goes')) assert.equal(version.findings, findings - 1, version.label);
      findings = version.findings;
      if (version.parses) text = next;
      else checkVersion(document, filePath, text, `${what}, undone`);
    }
  });

  // The bench's "type while a syntax error is elsewhere": a call left unclosed inside a long
  // statement makes it a hole parsed without its broken line (recoverParse.ts); typing in the
  // comments before and after that line then keeps the hole's tree, that line and the one error.
  for (const name of realModules) {
    it(`${name}: typing in its comments while a call is left unclosed keeps what a parse without the broken line finds`, function () {
      this.timeout(300_000);
      const filePath = `/srv/service/${name}`;
      const original = readFileSync(join(inputs, name), 'utf8');
      // A call on one line, as a statement, 40% down the file: its closing parenthesis taken out.
      const call = nodesIn(parseSource(filePath, original).ast!.program).find((node): node is t.ExpressionStatement => node.type === 'ExpressionStatement'
        && node.expression.type === 'CallExpression' && (node.start ?? 0) > original.length * 0.4 && node.loc?.start.line === node.loc?.end.line
        && original[(node.expression.end ?? 0) - 1] === ')');
      assert.ok(call !== undefined);
      const close = (call.expression.end ?? 0) - 1;
      let text = original.slice(0, close) + original.slice(close + 1);
      assert.equal(parseSource(filePath, text).ast, null, 'the call left unclosed does not parse');
      const document = new StaticDocument();
      analyzeSource({ filePath, text: original, document });
      analyzeSource({ filePath, text, document });
      const hole = document.parser.parse(filePath, text).ast?.program.body.find((statement) => document.parser.blankedLineOf(statement) !== null);
      assert.ok(hole !== undefined, 'the statement is parsed without its broken line');
      const line = document.parser.blankedLineOf(hole);
      assert.ok(line !== null);
      const brokenLine = text.slice(line.start, line.end);
      const blank = (version: string): string => version.slice(0, line.start) + version.slice(line.start, line.end).replace(/[^\r\n\u2028\u2029]/g, ' ') + version.slice(line.end);
      let inComment = 0;
      const comments = (parseSource(filePath, blank(text)).ast?.comments ?? []).filter((comment) => (comment.start ?? 0) > (hole.start ?? 0));
      const picked = Array.from({ length: 12 }, (_, i) => comments[Math.floor(((i + 0.5) * comments.length) / 12)]);
      // From the last to the first, so that the offsets of those still to come stay as they were.
      for (const comment of picked.reverse()) {
        const at = (comment.start ?? 0) + 2;
        text = `${text.slice(0, at)}x${text.slice(at)}`;
        const got = analyzeSource({ filePath, text, document });
        const where: string = `${name}: 'x' typed in the comment at line ${comment.loc?.start.line}, ${at < line.start ? 'before' : 'after'} the broken line`;
        if (document.parser.lastInComment) inComment++;
        assert.equal(text.slice(line.start, line.end), brokenLine, `${where}: the line left out is where it was`);
        const kept = document.parser.parse(filePath, text).ast;
        const want = parseSource(filePath, blank(text)).ast;
        assert.ok(kept !== null && want !== null, where);
        assert.equal(firstDifference({ program: want.program, comments: want.comments }, { program: kept.program, comments: kept.comments }), null, where);
        assert.deepEqual(findingLines(got), findingLines(analyzeSource({ filePath, text: blank(text) })), where);
        assert.equal(got.parseErrors.length, 1, `${where}: one parse error`);
      }
      assert.ok(inComment >= 10, `only ${inComment} of 12 edits in comments parsed nothing`);
    });
  }

  for (const [index, name] of realModules.entries()) {
    it(`${name}: typing and deleting inside its comments gives a whole parse's tree and a fresh analysis, parsing nothing`, function () {
      this.timeout(300_000);
      const filePath = `/srv/service/${name}`;
      const original = readFileSync(join(inputs, name), 'utf8');
      const random = randomFrom(20261129 + index);
      const document = new StaticDocument();
      analyzeSource({ filePath, text: original, document });
      let text = original;
      let inComment = 0;
      const steps = 24;
      for (let step = 0; step < steps; step++) {
        const comments = parseSource(filePath, text).ast?.comments ?? [];
        const comment = comments[Math.floor(random() * comments.length)];
        const open = (comment.start ?? 0) + 2;
        const close = (comment.end ?? 0) - (comment.type === 'CommentBlock' ? 2 : 0);
        const at = open + Math.floor(random() * (close - open + 1));
        const typed = ['x', ' hotframe-disable-next-line', '😀', '', '*', '/'][step % 6];
        // Every sixth step deletes the character before instead (inside the comment's text when there is one).
        const remove = typed === '' && at > open ? 1 : 0;
        const next = text.slice(0, at - remove) + typed + text.slice(at);
        const version = checkVersion(document, filePath, next, `${name}, step ${step}: '${typed}' at ${at} in the comment at line ${comment.loc?.start.line}`);
        if (version.inComment) inComment++;
        if (version.parses) text = next;
        else checkVersion(document, filePath, text, `${name}, step ${step}, undone`);
      }
      assert.ok(inComment >= steps * 0.6, `only ${inComment} of ${steps} edits in comments parsed nothing`);
    });
  }
});
