// A field set to what a project module's function returned, and a method called on that field by
// serving code (issue 22, recall, class d): `app.strategy = require(name)(app)` with `name` set to
// a relative path, `this.db = makeDb()`, then `app.strategy.check()` / `this.db.query()` per
// request. Each should-reach case has a should-not-reach twin.
import assert from 'node:assert/strict';
import { findingsOf, projectOf, removeProjects } from '../../../test/unit/projectOnDisk';

after(removeProjects);

/** A factory module: the object it returns hashes synchronously in `requestAccess`. */
const TOKENS = `const bcrypt = require('bcryptjs');
function tokenSecurity(app, config) {
  const strategy = {};
  strategy.requestAccess = (request) => {
    request.hash = bcrypt.hashSync(request.password, 10);
    return request;
  };
  strategy.describe = () => 'tokens';
  return strategy;
}
module.exports = tokenSecurity;
`;

/** Routes calling `app.<field>.<method>()` per request. */
const ROUTES = `module.exports = function (app) {
  app.post('/access/requests', (req, res) => {
    res.json(app.securityStrategy.requestAccess(req.body));
  });
};
`;

/** The entry script: sets the field (by `assignment`), mounts the routes, serves. */
function entry(assignment: string): string {
  return `const express = require('express');
const app = express();
function startSecurity(app) {
  let name = process.env.SECURITY_STRATEGY;
  if (name === 'tokens') name = './tokens';
${assignment}
}
startSecurity(app);
require('./routes')(app);
app.listen(3000);
`;
}

describe('a method called on a field the project sets to what a module\'s function returned', () => {
  it('a variable require of a relative path: the member of what the factory returns runs per request', () => {
    const dir = projectOf({ 'tokens.js': TOKENS, 'routes.js': ROUTES, 'server.js': entry('  app.securityStrategy = require(name)(app, {});') });
    assert.deepEqual(findingsOf(dir, ['tokens.js', 'routes.js', 'server.js'])['tokens.js'], ['blocking-sync-call:5:warning']);
  });

  it('an imported factory called into a field (`this.strategy = tokens(app)` style, through an import)', () => {
    const dir = projectOf({
      'tokens.js': TOKENS,
      'routes.js': ROUTES,
      'server.js': entry("  app.securityStrategy = require('./tokens')(app, {});"),
    });
    assert.deepEqual(findingsOf(dir, ['tokens.js', 'routes.js', 'server.js'])['tokens.js'], ['blocking-sync-call:5:warning']);
  });

  it('a field set to something else (a package\'s factory, a variable never set to a project path) reaches nothing', () => {
    const noPath = entry('  app.securityStrategy = require(process.env.SECURITY_STRATEGY)(app, {});');
    const dir = projectOf({ 'tokens.js': TOKENS, 'routes.js': ROUTES, 'server.js': noPath });
    assert.deepEqual(findingsOf(dir, ['tokens.js', 'routes.js', 'server.js'])['tokens.js'], []);
  });

  it('the field called at start-up only is not on a serving path', () => {
    const dir = projectOf({
      'tokens.js': TOKENS,
      'routes.js': "module.exports = function (app) {\n  app.securityStrategy.requestAccess({ password: 'warm-up' });\n};\n",
      'server.js': entry('  app.securityStrategy = require(name)(app, {});'),
    });
    assert.deepEqual(findingsOf(dir, ['tokens.js', 'routes.js', 'server.js'])['tokens.js'], []);
  });

  it('`this.db = makeDb()` in a class, `this.db.query()` in its handler: the returned object\'s method runs per request', () => {
    const db = `const { execFileSync } = require('child_process');
exports.makeDb = function makeDb(file) {
  return {
    query(sql) { return execFileSync('sqlite3', ['-json', file, sql], { env: {} }).toString(); },
    close() {},
  };
};
`;
    const server = (handler: string): string => `const http = require('http');
const { makeDb } = require('./db');
class Service {
  constructor() {
    this.db = makeDb('/data/rows.db');
  }
  listen() {
    http.createServer((req, res) => { ${handler} }).listen(8000);
  }
}
new Service().listen();
`;
    const perRequest = projectOf({ 'db.js': db, 'server.js': server('res.end(JSON.stringify(this.db.query(req.url)));') });
    assert.deepEqual(findingsOf(perRequest, ['db.js', 'server.js'])['db.js'], ['blocking-sync-call:4:warning']);
    const other = projectOf({ 'db.js': db, 'server.js': server('res.end(JSON.stringify(this.cache.query(req.url)));') });
    assert.deepEqual(findingsOf(other, ['db.js', 'server.js'])['db.js'], []);
  });
});
