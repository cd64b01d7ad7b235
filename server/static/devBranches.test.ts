import assert from 'node:assert/strict';
import { analyzeSource } from './engine';

/** The shown findings (information or above) of a file, as rule:line. */
function shown(text: string): string[] {
  return analyzeSource({ filePath: '/srv/app.js', text }).findings
    .filter((f) => f.severity !== 'hint')
    .map((f) => `${f.ruleId}:${f.range.loc.start.line}`);
}

const header = "const fs = require('fs');\nconst { execSync } = require('child_process');\nconst app = require('express')();\n";

describe('code that runs only outside production is not a serving path (server/static/devBranches)', () => {
  it('a route registered in a NODE_ENV test/development branch, and a branch of a production handler, are not per request', () => {
    const text = `${header}if (process.env.NODE_ENV !== 'production') {
  app.post('/e2e/reset', (req, res) => { fs.writeFileSync('/tmp/db.json', '{}'); res.end(); });
}
app.get('/a', (req, res) => {
  if (process.env.NODE_ENV === 'test') execSync('git status', { env: {} });
  const dev = process.env.NODE_ENV === 'development';
  if (dev) fs.writeFileSync('/tmp/trace', req.url);
  process.env.NODE_ENV === 'production' ? res.end() : fs.writeFileSync('/tmp/x', '1');
  res.end();
});
app.get('/b', (req, res) => {
  if (process.env.NODE_ENV === 'production') return res.end();
  fs.appendFileSync('/tmp/debug.log', req.url);
});
app.listen(3000);
`;
    assert.deepEqual(shown(text), []);
  });

  it('a test that proves nothing about production keeps the finding (staging, an unresolved name, the production branch)', () => {
    const text = `${header}app.get('/a', (req, res) => {
  if (process.env.NODE_ENV !== 'test') fs.writeFileSync('/tmp/a', req.url);
  if (isDev) fs.writeFileSync('/tmp/b', req.url);
  if (process.env.NODE_ENV === 'production') fs.writeFileSync('/tmp/c', req.url);
  else res.end();
  res.end();
});
app.listen(3000);
`;
    assert.deepEqual(shown(text), ['blocking-sync-call:5', 'blocking-sync-call:6', 'blocking-sync-call:7']);
  });
});
