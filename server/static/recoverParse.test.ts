// A document opened with a syntax error Babel cannot recover from keeps the findings of every
// statement that parses (issue 26: one unclosed call near the top dropped 243 of 244).
import assert from 'node:assert/strict';
import { analyzeSource } from './engine';
import { parseSource } from './parse';
import { parseWithoutBrokenLine } from './recoverParse';
import { StaticDocument } from './staticDocument';

const file = '/virtual/gateway.js';

const handler = (i: number) => `router.get('/devices${i}', async (req, res) => {
  const devices = await Device.find({ group: ${i} });
  for (const device of devices) device.seen = Date.now();
  res.json({ devices });
});
`;

const text = (broken: string) => `'use strict';
const mongoose = require('mongoose');
const express = require('express');
const router = express.Router();
const Device = mongoose.model('Device', new mongoose.Schema({ id: String }));
${broken}
router.use((req, res, next) => next());
${Array.from({ length: 30 }, (_, i) => handler(i)).join('')}`;

/** Findings as one line each (the document's, or a fresh analysis'), and the parse errors. */
function analyze(source: string, document?: StaticDocument) {
  const result = analyzeSource({ filePath: file, text: source, document });
  return { findings: result.findings.map((f) => `${f.range.loc.start.line}:${f.range.loc.start.column} ${f.ruleId} ${f.message}`), errors: result.parseErrors };
}

describe('a document opened with a syntax error', () => {
  const brokenCall = "router.get('/boot', (req, res) => res.json({ at: 1 });\n";
  it('keeps the findings of every statement that parses, and reports the error once, at its place', () => {
    const opened = analyze(text(brokenCall), new StaticDocument());
    // The same text with the broken statement blanked out (lines kept) is what the rest must give.
    const expected = analyze(text(brokenCall.replace(/[^\n]/g, ' ')));
    assert.ok(expected.findings.length >= 30, `${expected.findings.length} findings`);
    assert.deepEqual(opened.findings, expected.findings);
    assert.equal(opened.errors.length, 1);
    assert.equal(opened.errors[0].line, 6, 'on the unclosed call');
    // Without a document (the CLI) a whole parse fails as before: nothing else to keep.
    assert.equal(analyze(text(brokenCall)).findings.length, 0);
  });

  it('mending the error at the first edit gives what a fresh analysis gives', () => {
    const document = new StaticDocument();
    analyze(text(brokenCall), document);
    const mended = text(brokenCall.replace('1 });', '1 }));'));
    assert.deepEqual(analyze(mended, document), analyze(mended));
  });

  it('a broken statement whose template literal has lines at column 0 is one hole with one error (apostrophe\'s messages)', () => {
    // Lines of a template at column 0 look like statement starts; their fragments fail to parse too.
    const brokenWithTemplate = "router.get('/boot', (req, res) => {\n  res.json({ at: 1 };\n  res.send(`first line\nsecond line, @apostrophecms/page\nthird line.`);\n});\n";
    const opened = analyze(text(brokenWithTemplate), new StaticDocument());
    const expected = analyze(text(brokenWithTemplate.replace(/[^\n]/g, ' ')));
    assert.ok(expected.findings.length >= 30, `${expected.findings.length} findings`);
    assert.deepEqual(opened.findings, expected.findings);
    assert.deepEqual(opened.errors.map((error) => error.line), [7], 'one error, on the unclosed call');
  });

  it('an error that swallows the rest of the file keeps what comes before it', () => {
    const opened = analyze(text('') + 'router.get(\'/last\', (req, res) => {\n  res.json(\n', new StaticDocument());
    assert.deepEqual(opened.findings, analyze(text('')).findings);
    assert.equal(opened.errors.length, 1);
  });
});

describe('a document opened with a syntax error inside a statement that holds the whole module', () => {
  // A module wrapped in one function (an app factory, a plugin's `module.exports = function (app)`),
  // as a device gateway or a CommonJS build is: a hole over the broken statement is the whole file.
  const wrapped = (broken: string) => `'use strict';
const mongoose = require('mongoose');
const Device = mongoose.model('Device', new mongoose.Schema({ id: String }));
module.exports = function mount(router) {
  router.use((req, res, next) => next());
${broken}
${Array.from({ length: 30 }, (_, i) => handler(i)).join('').replace(/^/gm, '  ')}};
`;

  it('keeps the findings of the statements around the one broken line, and reports the error once', () => {
    const brokenLine = "  router.get('/boot', (req, res) => res.json({ at: 1 });";
    const opened = analyze(wrapped(brokenLine), new StaticDocument());
    const expected = analyze(wrapped(brokenLine.replace(/[^\n]/g, ' ')));
    assert.ok(expected.findings.length >= 30, `${expected.findings.length} findings`);
    assert.deepEqual(opened.findings, expected.findings);
    assert.equal(opened.errors.length, 1);
  });

  it('mending the line at the first edit gives what a fresh analysis gives', () => {
    const document = new StaticDocument();
    const brokenLine = '  foo(';
    analyze(wrapped(brokenLine), document);
    const mended = wrapped('  foo();');
    assert.deepEqual(analyze(mended, document), analyze(mended));
  });
});

describe('a line blanked to parse a broken statement', () => {
  // A class holding the module, its methods under JSDoc comments, one signature broken. Blanking
  // that line leaves its body in the class body; blanking the comment's closing line above it made
  // the method part of the comment, up to the next comment's end, and the class "parsed".
  const source = `class Facts {
  /**
   * Notes calls.
   */
  noteCalls(a b) {
    return true;
  }

  /** Forgets. */
  forget() {}
}
`;

  it('is never the line that closes a comment: every comment of the tree is the text at its place', () => {
    const { plugins } = parseSource('/virtual/facts.js', source);
    const repaired = parseWithoutBrokenLine(source, { index: 0, line: 1, column: 0 }, source.indexOf('b)'), plugins);
    for (const comment of repaired?.parsed.ast?.comments ?? []) {
      assert.equal(source.slice(comment.start ?? 0, comment.end ?? 0), comment.type === 'CommentLine' ? `//${comment.value}` : `/*${comment.value}*/`);
    }
  });
});
