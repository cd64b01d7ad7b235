import assert from 'node:assert/strict';
import { analyzeSource } from './engine';

/** Each finding of a file as rule:line:severity. */
function findings(text: string): string[] {
  return analyzeSource({ filePath: '/srv/app.js', text }).findings.map((f) => `${f.ruleId}:${f.range.loc.start.line}:${f.severity}`);
}

describe("a child's banner branch is occasional (server/static/textMatchBranches)", () => {
  it('words tested by includes, startsWith, a regular expression, indexOf and && make a call occasional; a delimiter and || with a delimiter do not', () => {
    const text = `const { spawn } = require('child_process');
const mysql = require('mysql2');
require('express')().listen(3000);
const child = spawn('db', [], { env: {} });
const open = () => mysql.createConnection({ socketPath: '/run/db.sock' }).query('SELECT 1');
child.stdout.on('data', (data) => {
  const line = data.toString();
  if (/ready for connections/.test(line)) open();
  if (line.indexOf('Listening on') !== -1) open();
  if (line.length > 0 && line.startsWith('Started')) open();
  if (line.includes('\\r\\n') || line.includes('ready')) open();
});
`;
    // Every call occasional but the last: the connection is a hint (how often the banner comes is not in the code).
    assert.deepEqual(findings(text), ['connection-per-request:5:warning']);
    const quiet = text.replace("  if (line.includes('\\r\\n') || line.includes('ready')) open();\n", '');
    assert.notEqual(quiet, text);
    assert.deepEqual(findings(quiet), ['connection-per-request:5:hint']);
  });
});
