// An edit inside a top-level function re-parses a part of it in place (blockReparse.ts,
// nestedReparse.ts): the statement keeps its node, marked revised (statementRevisions.ts). The
// statements that call the function keep their records when all they read of its declaration is
// which function it is (the hot context's call targets), and are walked again when they read
// more of it (a table's entries, a declarator's value). Findings always as a fresh analysis has them.
import assert from 'node:assert/strict';
import { checkVersion, findingLines } from '../../test/editedDocuments';
import { analyzeSource } from './engine';
import { PerStatement, revise, revisionOf } from './statementRevisions';
import { StaticDocument } from './staticDocument';

const filePath = '/srv/service/app.js';

const header = `'use strict';
const express = require('express');
const Redis = require('ioredis');
const app = express();
`;

/** Opens `before`, then edits it to `after`: how many statements were walked, with the findings checked against a fresh analysis. */
function edit(before: string, after: string): { walked: number; reused: number; findings: string[] } {
  const document = new StaticDocument();
  analyzeSource({ filePath, text: before, document });
  const version = checkVersion(document, filePath, after, 'edited');
  assert.ok(version.parses);
  assert.ok(version.inBlock || version.inFunction, `${version.label}: re-parsed inside the statement`);
  return { walked: version.walked, reused: version.reused, findings: findingLines(analyzeSource({ filePath, text: after })) };
}

describe('statementRevisions: a statement edited in place keeps its node, and its callers their records', () => {
  it('keeps a value per statement until the statement is revised', () => {
    const statement = { type: 'EmptyStatement' } as const;
    const kept = new PerStatement<string>();
    kept.set(statement, 'made');
    assert.equal(kept.get(statement), 'made');
    const before = revisionOf(statement);
    revise(statement);
    assert.equal(revisionOf(statement), before + 1);
    assert.equal(kept.get(statement), undefined);
    assert.equal(kept.has(statement), false);
  });

  it('a connection opened in a function the routes call: found there (the call still runs it per request), the routes not walked again', () => {
    const before = `${header}function stamp(req) {
  req.seen = true;
  return 1;
}
app.get('/a', (req, res) => {
  res.json({ at: stamp(req) });
});
app.get('/b', (req, res) => {
  res.json({ at: stamp(req) });
});
`;
    const after = before.replace('  req.seen = true;\n', '  req.seen = true;\n  new Redis().get(1);\n');
    const { walked, reused, findings } = edit(before, after);
    assert.ok(findings.some((line) => line.includes('connection-per-request')), `the connection is found in the function the routes call: ${findings.join('\n')}`);
    assert.equal(walked, 1, 'only the edited function is walked');
    assert.equal(reused, 5);
  });

  it('a route that reads a table of handlers (the declarator\'s value) is walked again when a handler in the table is edited', () => {
    const before = `${header}const handlers = {
  list: function (req) {
    req.seen = true;
  },
};
app.get('/:op', (req, res) => {
  handlers[req.params.op](req);
  res.end();
});
`;
    const after = before.replace('    req.seen = true;\n', '    req.seen = true;\n    new Redis().get(1);\n');
    const { walked, findings } = edit(before, after);
    assert.ok(findings.some((line) => line.includes('connection-per-request')), findings.join('\n'));
    assert.equal(walked, 2, 'the table and the route that reads it');
  });

  it('a handler a factory returns, edited in place: found per request through the registration of the call and of a local bound to it', () => {
    const before = `${header}function makeStatus(name) {
  const label = name.toUpperCase();
  return function status(req, res) {
    res.json({ label, at: Date.now() });
  };
}
const status = makeStatus('api');
app.get('/status', status);
app.get('/other', makeStatus('other'));
`;
    const added = before.replace('    res.json({ label, at: Date.now() });\n', '    new Redis().get(label);\n    res.json({ label, at: Date.now() });\n');
    const shown = (text: string): string[] => findingLines(analyzeSource({ filePath, text }))
      .filter((line) => line.includes('connection-per-request') && !line.includes('hint') && !line.includes('no registration was found'));
    const document = new StaticDocument();
    analyzeSource({ filePath, text: before, document });
    const inPlace = checkVersion(document, filePath, added, 'a connection added to the returned handler');
    assert.ok(inPlace.inBlock || inPlace.inFunction, `${inPlace.label}: re-parsed inside the statement`);
    assert.equal(shown(added).length, 1, 'the connection in the returned handler');
    // The factory no longer returns a function: no registration runs the connection (its parameters may still be guessed from).
    const unreturned = added.replace('  return function status(req, res) {', '  const unused = function status(req, res) {')
      .replace('  };\n}\nconst status', '  };\n  return unused && null;\n}\nconst status');
    checkVersion(document, filePath, unreturned, 'the factory returns no function');
    assert.deepEqual(shown(unreturned), []);
  });
});
