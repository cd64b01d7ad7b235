// An editor document reuses the findings of the top-level statements an edit did not touch.
// Each case below edits one statement so that the findings of ANOTHER, unchanged statement
// change (through a name it looks up, the reads of a name, a neighbouring statement, where its
// code runs): the reused analysis must find what a fresh analysis of the new text finds, while
// still reusing the statements that rest on nothing that changed.
import assert from 'node:assert/strict';
import type { ProjectView } from '../../rules/api';
import { analyzeSource } from './engine';
import { StaticDocument } from './staticDocument';

const file = '/virtual/service.js';

const header = `'use strict';
const { execSync } = require('child_process');
const express = require('express');
const mongoose = require('mongoose');
const router = express.Router();
const app = express();
`;

/** Findings as one line each: line, rule, message, then fixes (offsets included) and function. */
function lines(text: string, document?: StaticDocument): string[] {
  return analyzeSource({ filePath: file, text, document }).findings.map((finding) =>
    `${finding.range.loc.start.line} ${finding.ruleId} ${finding.message}\t${JSON.stringify(finding.fixes)} ${finding.enclosingFunction?.name ?? '-'}`);
}

interface Case {
  name: string;
  before: string;
  after: string;
}

const cases: Case[] = [
  {
    name: 'a model declared in another statement stops being a model',
    before: `${header}const Item = mongoose.model('Item', new mongoose.Schema({ n: Number }));
const spacer = 1;
router.get('/items', async (req, res) => {
  const items = await Item.find({});
  res.json({ count: items.length });
});
router.get('/other', (req, res) => res.end());
`,
    after: `${header}const Item = { find: async () => [] };
const spacer = 1;
router.get('/items', async (req, res) => {
  const items = await Item.find({});
  res.json({ count: items.length });
});
router.get('/other', (req, res) => res.end());
`,
  },
  {
    name: 'a global becomes a local of the file (Date declared at the top)',
    before: `${header}let spacer = 1;
router.get('/a', (req, res) => {
  const out = [];
  for (const row of req.body.rows) out.push({ row, at: Date.now() });
  res.json(out);
});
router.get('/other', (req, res) => res.end());
`,
    after: `${header}const Date = { now: () => 0 };
let spacer = 1;
router.get('/a', (req, res) => {
  const out = [];
  for (const row of req.body.rows) out.push({ row, at: Date.now() });
  res.json(out);
});
router.get('/other', (req, res) => res.end());
`,
  },
  {
    name: 'a function starts being called per request from a statement added below it',
    before: `${header}function stampAll(rows) {
  return rows.map((row) => ({ row, at: Date.now() }));
}
router.get('/other', (req, res) => res.end());
`,
    after: `${header}function stampAll(rows) {
  return rows.map((row) => ({ row, at: Date.now() }));
}
router.get('/other', (req, res) => res.end());
router.get('/stamped', (req, res) => res.json(stampAll(req.body.rows)));
`,
  },
  {
    name: 'a caller elsewhere starts using a helper\'s result as a document (the reads of the helper\'s name)',
    before: `${header}const Item = mongoose.model('Item', new mongoose.Schema({ n: Number }));
async function itemsOf(owner) {
  return Item.find({ owner });
}
router.get('/unrelated', (req, res) => res.end());
router.get('/items', async (req, res) => {
  const items = await itemsOf(req.params.owner);
  res.json(items);
});
`,
    after: `${header}const Item = mongoose.model('Item', new mongoose.Schema({ n: Number }));
async function itemsOf(owner) {
  return Item.find({ owner });
}
router.get('/unrelated', (req, res) => res.end());
router.get('/items', async (req, res) => {
  const items = await itemsOf(req.params.owner);
  await items[0].save();
  res.json(items);
});
`,
  },
  {
    name: 'a middleware chain of top-level app.use statements loses its last member (two statements below the first)',
    before: `${header}app.use(async (req, res, next) => {
  req.user = await store.get('user');
  next();
});
app.use(async (req, res, next) => {
  req.flags = await store.get('flags');
  next();
});
app.use(async (req, res, next) => {
  req.plan = await store.get('plan');
  next();
});
router.get('/other', (req, res) => res.end());
`,
    after: `${header}app.use(async (req, res, next) => {
  req.user = await store.get('user');
  next();
});
app.use(async (req, res, next) => {
  req.flags = await store.get('flags');
  next();
});
app.get('/plan', async (req, res, next) => {
  req.plan = await store.get('plan');
  next();
});
router.get('/other', (req, res) => res.end());
`,
  },
  {
    name: 'a module-level name starts being reassigned elsewhere (no longer constant)',
    before: `${header}let options = { encoding: 'utf8' };
router.get('/disk', (req, res) => res.send(execSync('df -k', options)));
router.get('/other', (req, res) => res.end());
`,
    after: `${header}let options = { encoding: 'utf8' };
router.get('/disk', (req, res) => res.send(execSync('df -k', options)));
router.get('/other', (req, res) => res.end());
options = makeOptions();
`,
  },
  {
    name: 'lines added above a statement with fixes move the fixes with it',
    before: `${header}const Item = mongoose.model('Item', new mongoose.Schema({ n: Number }));
router.get('/count', async (req, res) => {
  const all = await Item.find({ group: 1 });
  res.json({ count: all.length });
});
`,
    after: `${header}
// a comment typed above, and a statement
const limit = 10;
const Item = mongoose.model('Item', new mongoose.Schema({ n: Number }));
router.get('/count', async (req, res) => {
  const all = await Item.find({ group: 1 });
  res.json({ count: all.length });
});
`,
  },
];

describe('statement records (findings reused across edits)', () => {
  for (const { name, before, after } of cases) {
    it(name, () => {
      const document = new StaticDocument();
      const first = lines(before, document);
      assert.deepEqual(first, lines(before), 'the first analysis of a document is a fresh one');
      const got = lines(after, document);
      assert.deepEqual(got, lines(after));
      assert.ok(document.records.lastReused > 0, 'some statements were reused');
      assert.ok(document.records.lastWalked < after.split('\n').length, 'not every statement was walked');
    });
  }

  it('the cases change the findings of a statement the edit did not touch (or the test proves nothing)', () => {
    const changedElsewhere = cases.filter(({ before, after }) => {
      // Each finding as the text of its line, its rule and its message: lines moved by the edit compare equal.
      const at = (text: string, findings: string[]) => findings.map((line) => {
        const number = Number(line.split(' ')[0]);
        return `${text.split('\n')[number - 1]} ${line.split('\t')[0].split(' ').slice(1).join(' ')}`;
      });
      const beforeFindings = at(before, lines(before));
      const afterFindings = at(after, lines(after));
      return beforeFindings.join('\n') !== afterFindings.join('\n');
    });
    // The last case only moves its finding; every other one changes a finding of an unchanged statement.
    assert.deepEqual(changedElsewhere.map((c) => c.name), cases.slice(0, -1).map((c) => c.name));
  });

  // The neighbours are parsed again (to see that the edit joined or split no statement) but keep their nodes (issue 26).
  it('reuses every statement but the edited one on a typed character', () => {
    let text = header;
    for (let i = 0; i < 50; i++) text += `router.get('/r${i}', async (req, res) => {\n  res.json({ at: Date.now(), i: ${i} });\n});\n`;
    const document = new StaticDocument();
    const statements = analyzeSource({ filePath: file, text, document }) && document.parser.parse(file, text).ast?.program.body.length;
    const at = text.indexOf('i: 25') + 'i: 2'.length;
    const edited = `${text.slice(0, at)}0${text.slice(at)}`;
    assert.deepEqual(lines(edited, document), lines(edited));
    assert.equal(document.parser.lastKind, 'incremental');
    assert.equal(document.records.lastWalked, 1);
    assert.equal(document.records.lastReused, (statements ?? 0) - 1);
  });

  it('a module the project summarizes differently since (another file edited) changes the statements that asked about it', () => {
    let models = new Set(['Item']);
    const project: ProjectView = { moduleAt: (_from, specifier) => (specifier === './models' ? { mongooseModelExports: models } : null) };
    const text = `${header}const { Item } = require('./models');
router.get('/items', async (req, res) => {
  const items = await Item.find({});
  res.json({ count: items.length });
});
router.get('/other', (req, res) => res.end());
let spacer = 1;
`;
    const document = new StaticDocument();
    const found = (version: string) => analyzeSource({ filePath: file, text: version, document, project }).findings.map((f) => f.ruleId);
    const fresh = (version: string) => analyzeSource({ filePath: file, text: version, project }).findings.map((f) => f.ruleId);
    assert.deepEqual(found(text), ['mongoose-count-by-loading']);
    models = new Set(['Other']);
    const edited = text.replace('let spacer = 1;', 'let spacer = 2;');
    assert.deepEqual(found(edited), fresh(edited));
    assert.deepEqual(fresh(edited), []);
    assert.ok(document.records.lastReused > 0);
  });

  it('settings and project views of another analysis are not mixed: other levels walk everything', () => {
    const text = cases[0].before;
    const document = new StaticDocument();
    analyzeSource({ filePath: file, text, document });
    const quiet = analyzeSource({ filePath: file, text: `${text}\n`, document, levels: { 'mongoose-missing-lean': 'off' } });
    assert.equal(document.records.lastReused, 0);
    assert.deepEqual(quiet.findings, analyzeSource({ filePath: file, text: `${text}\n`, levels: { 'mongoose-missing-lean': 'off' } }).findings);
  });
});
