// The incremental parser must give exactly the AST a whole parse gives: every node, position
// (index, line, column), `extra` field and comment. Checked on real files (this repository's
// examples and fixtures, express and mongoose from node_modules, our own TypeScript) under
// sequences of edits like typing: renames, spaces and line breaks before tokens, comments,
// statements inserted, duplicated (a redeclaration) and deleted, and random damage.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { editCorpus, firstDifference, randomFrom, typedEdit } from '../../test/editSessions';
import { analyzeSource } from './engine';
import { IncrementalParser } from './incrementalParse';
import { parseSource, type ParsedSource } from './parse';

const comparable = (parsed: ParsedSource) => ({ ast: parsed.ast, problems: parsed.problems });

describe('IncrementalParser', () => {
  it('gives the same AST as a whole parse after every edit of a session, reusing most of it', function () {
    this.timeout(240_000);
    const files = editCorpus();
    assert.ok(files.length > 100, `expected a real corpus, found ${files.length} files`);
    const random = randomFrom(20261121);
    const kinds = { full: 0, incremental: 0, unchanged: 0 };
    for (const file of files) {
      let text = readFileSync(file, 'utf8');
      const parser = new IncrementalParser();
      let current = parser.parse(file, text).ast;
      let clean = text;
      for (let step = 0; step < 12; step++) {
        // A broken file is put right the way people do: undo.
        text = current === null ? clean : typedEdit(text, current, random);
        const got = parser.parse(file, text);
        kinds[parser.lastKind]++;
        const want = parseSource(file, text);
        const difference = firstDifference(comparable(want), comparable(got));
        assert.equal(difference, null, `${file}, edit ${step + 1} (${parser.lastKind}): ${difference}`);
        // The next edit is placed on the tree the editor would have (a fresh one when `got` is reused).
        current = want.ast !== null && want.problems.length === 0 ? want.ast : null;
        if (current !== null) clean = text;
      }
    }
    const edits = kinds.full + kinds.incremental + kinds.unchanged;
    assert.ok(kinds.incremental > edits / 2, `only ${kinds.incremental} of ${edits} parses were incremental`);
    assert.ok(kinds.full > edits / 20, `only ${kinds.full} of ${edits} parses were whole: the fallbacks went untested`);
  });

  it('parses only the statements around a change in a 5,000-line file', () => {
    const block = (i: number) => `// block ${i}\nfunction stamp${i}() {\n  return Date.now();\n}\napp.get('/a${i}', (req, res) => res.json({ at: stamp${i}() }));\n`;
    let text = "'use strict';\n" + Array.from({ length: 1000 }, (_, i) => block(i)).join('');
    const parser = new IncrementalParser();
    parser.parse('/virtual/big.js', text);
    const at = text.indexOf('// block 500') + 3;
    text = `${text.slice(0, at)}x${text.slice(at)}`;
    const got = parser.parse('/virtual/big.js', text);
    assert.equal(parser.lastKind, 'incremental');
    assert.equal(firstDifference(comparable(parseSource('/virtual/big.js', text)), comparable(got)), null);
    const last = got.ast?.program.body.at(-1);
    const start = last?.loc?.start;
    assert.deepEqual([start?.line, start?.column, start?.index], [5001, 0, text.lastIndexOf('app.get')]);
  });

  it('parses the whole file again when a change joins two statements, declares a name twice or adds module syntax', () => {
    const base = 'const a = 1;\nfoo()\nbar();\nfunction f() {}\nbaz();\n';
    const cases: [string, string][] = [
      ['joins statements (ASI)', base.replace('bar();', '(bar)();')],
      ['declares a name twice', base.replace('baz();', 'const a = 2;')],
      ['adds module syntax', base.replace('baz();', 'export const b = 1;')],
      ['breaks the syntax', base.replace('baz();', 'baz(;')],
    ];
    for (const [why, changed] of cases) {
      const parser = new IncrementalParser();
      parser.parse('/virtual/a.js', base);
      const got = parser.parse('/virtual/a.js', changed);
      assert.equal(parser.lastKind, 'full', why);
      assert.equal(firstDifference(comparable(parseSource('/virtual/a.js', changed)), comparable(got)), null, why);
    }
  });
});

describe('analysis of incrementally parsed documents', () => {
  it('finds what a fresh analysis finds after every edit, although nodes, paths and scopes live on', function () {
    this.timeout(240_000);
    // The files with findings: the demo service and the fixtures hold every rule's patterns; the
    // service below holds many of them, in one file, with the shapes of seeds 000-004.
    const documents = editCorpus().filter((file) => /examples|fixtures/.test(file)).map((file) => ({ file, text: readFileSync(file, 'utf8') }));
    documents.push({ file: '/virtual/routes.js', text: serviceWithBlocks(40) });
    const random = randomFrom(7);
    let incremental = 0;
    let findings = 0;
    for (const document of documents) {
      const file = document.file;
      let text = document.text;
      const parser = new IncrementalParser();
      const parse = (path: string, source: string) => parser.parse(path, source);
      analyzeSource({ filePath: file, text, parse });
      let clean = text;
      let current = parseSource(file, text).ast;
      for (let step = 0; step < 12; step++) {
        text = current === null ? clean : typedEdit(text, current, random);
        const got = analyzeSource({ filePath: file, text, parse });
        if (parser.lastKind === 'incremental') incremental++;
        const want = analyzeSource({ filePath: file, text });
        findings += want.findings.length;
        const difference = firstDifference(want, got);
        assert.equal(difference, null, `${file}, edit ${step + 1} (${parser.lastKind}): ${difference}`);
        const fresh = parseSource(file, text);
        current = fresh.ast !== null && fresh.problems.length === 0 ? fresh.ast : null;
        if (current !== null) clean = text;
      }
    }
    assert.ok(incremental > 100, `only ${incremental} analyses ran on an incremental parse`);
    // 1,878 after issue 11 made single clock reads per request and start-up spawns quiet (2,000+ before).
    assert.ok(findings > 1500, `only ${findings} findings compared: the corpus lost its patterns`);
  });
});

/** An express + mongoose + ioredis router with a block of incident patterns per group of routes. */
function serviceWithBlocks(count: number): string {
  let text = `'use strict';
const { execSync } = require('child_process');
const express = require('express');
const mongoose = require('mongoose');
const Redis = require('ioredis');
const Item = mongoose.model('Item', new mongoose.Schema({ group: Number }));
const router = express.Router();
`;
  for (let i = 0; i < count; i++) {
    text += `// items ${i}
function stamp${i}() {
  return Date.now();
}
router.get('/items${i}', async (req, res) => {
  const items = await Item.find({ group: ${i} });
  res.json({ items, at: stamp${i}() });
});
router.get('/items${i}/count', async (req, res) => {
  const all = await Item.find({ group: ${i} });
  const redis = new Redis();
  res.json({ count: all.length, free: String(execSync('free -m')) });
});
`;
  }
  return text;
}
