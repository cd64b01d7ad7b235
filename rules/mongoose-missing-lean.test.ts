import type { ModuleSummary, ProjectView } from './api';
import rule from './mongoose-missing-lean';
import { runRuleTests } from '../test/ruleTester';

const USER = `const mongoose = require('mongoose');
const User = mongoose.model('User', new mongoose.Schema({ name: String }));
`;

/** In-memory project: `./models` exports User and Task, `./models/user` is a model by default export. */
const project: ProjectView = {
  moduleAt(_from: string, specifier: string): ModuleSummary | null {
    if (specifier === './models') return { mongooseModelExports: new Set(['User', 'Task']) };
    if (specifier === './models/user' || specifier === './models/user.js') return { mongooseModelExports: new Set(['default']) };
    if (specifier === './lib/cache') return { mongooseModelExports: new Set() };
    return null;
  },
};

runRuleTests(rule, {
  valid: [
    // Each document read only field by field (i42): what still needs a hydrated document stays quiet.
    {
      name: 'i42: each document handed whole to a function not read here (list.push(user)) is not read field by field',
      code: `${USER}app.get('/users', async (req, res) => {
  const users = await User.find({});
  const kept = [];
  users.forEach((user) => { kept.push(user); });
  res.locals.users = kept;
});`,
    },
    {
      name: 'i42: a mongoose Map field read with get() needs the hydrated document (a lean Map field is a plain object)',
      code: `${USER}app.get('/prefs', async (req, res) => {
  const users = await User.find({});
  const themes = [];
  for (const user of users) themes.push(user.settings.get('theme'));
  res.end(themes.join(','));
});`,
    },
    {
      name: 'i42: a field returned as is by map (maybe a subdocument) and the result used further: not read field by field',
      code: `${USER}app.get('/addresses', async (req, res) => {
  const users = await User.find({});
  const addresses = users.map((user) => user.address);
  req.addresses = addresses;
  res.end();
});`,
    },
    {
      name: 'i42: a field returned as is from a block callback, behind a condition, and the result used further',
      code: `${USER}app.get('/addresses', async (req, res) => {
  const users = await User.find({});
  req.addresses = users.map(function (user) {
    if (user.active) { return user.address; }
    return null;
  });
  res.end();
});`,
    },
    {
      name: 'i42: a document method called on each document in the loop',
      code: `${USER}app.post('/touch', async (req, res) => {
  const users = await User.find({});
  for (const user of users) { user.seen = Date.now(); await user.save(); }
  res.end();
});`,
    },
    {
      name: 'i42: only the length of the list is read (count-by-loading may apply; lean alone is not the fix)',
      code: `${USER}app.get('/n', async (req, res) => {
  const users = await User.find({});
  res.end(String(users.length));
});`,
    },
    {
      name: 'a test of the project reads a list once, with data it wrote (tooling, rules/detectors/toolingFiles.ts)',
      filename: 'test/users.test.js',
      code: `${USER}it('lists the users it made', async () => {
  const users = await User.find({});
  console.log(JSON.stringify(users));
});`,
    },
    {
      name: 'a seed script lists every document once (tooling, rules/detectors/toolingFiles.ts)',
      filename: 'scripts/export-users.js',
      code: `${USER}async function main() {
  const users = await User.find({});
  process.stdout.write(JSON.stringify(users));
}
main();`,
    },
    // Issue 22 (n22b): a query held in a variable the analysis cannot follow to one plain use.
    {
      name: 'issue 22 (q22m): a query variable put back by a helper of this module that makes it lean',
      code: `${USER}function page(q, n) { return q.skip(n).limit(20).lean(); }
app.get('/users', function (req, res) {
  var qry = User.find({});
  qry = page(qry, req.query.from);
  qry.find(function (err, users) { res.json(users); });
});`,
    },
    {
      name: 'issue 22 (q22m): a query variable put back by a helper of this module that does more than add steps',
      code: `${USER}function prepare(q) { q.setOptions({ lean: true }); return q; }
app.get('/users', function (req, res) {
  var qry = User.find({});
  qry = prepare(qry);
  qry.find(function (err, users) { res.json(users); });
});`,
    },
    {
      name: 'issue 22 (q22m): a query variable later assigned another value',
      code: `${USER}app.get('/users', function (req, res) {
  var qry = User.find({});
  if (req.query.cached) qry = cache.get('users');
  qry.exec(function (err, users) { res.json(users); });
});`,
    },
    {
      name: 'a query variable whose documents are saved after it runs',
      code: `${USER}app.get('/users', function (req, res) {
  var qry = User.find({}).limit(5);
  qry.exec(function (err, users) { users.forEach(function (u) { u.save(); }); res.json(users); });
});`,
    },
    {
      name: 'a query variable made lean later (qry.lean())',
      code: `${USER}app.get('/users', async (req, res) => {
  const qry = User.find({});
  qry.lean();
  res.json(await qry);
});`,
    },
    {
      name: 'a query variable run twice',
      code: `${USER}app.get('/users', async (req, res) => {
  const qry = User.find({});
  const a = await qry.exec();
  const b = await qry.exec();
  res.json([a, b]);
});`,
    },
    {
      name: 'issue 22 (m22b): a stored query handed to a function whose result is not put back: not followed',
      code: `${USER}app.get('/users', (req, res) => {
  const q = User.find({}).sort('name');
  paginate(q, req, res);
});`,
    },
    {
      name: 'issue 22 (m22b): a stored query whose documents are saved',
      code: `${USER}app.get('/users', (req, res) => {
  let q = User.find({});
  q = q.sort('name');
  q.exec((err, users) => { users.forEach((u) => u.save()); res.json(users); });
});`,
    },
    {
      name: 'issue 22 (m22b): toObject with options (virtuals, getters) needs the document',
      code: `${USER}app.get('/users', (req, res) => {
  User.find({}, (err, users) => res.json(users.map((u) => u.toObject({ virtuals: true }))));
});`,
    },
    {
      name: 'issue 22 (m22b): a helper of the module calls a document method on each',
      code: `${USER}app.get('/users', (req, res) => {
  User.find({}, (err, users) => res.json(describeAll(users)));
});
function describeAll(users) { return users.map((u) => u.describe()); }`,
    },
    {
      name: 'issue 22 (m22b): .lean() added on a later step of the stored query',
      code: `${USER}app.get('/users', (req, res) => {
  let q = User.find({});
  q = q.lean();
  q.exec((err, users) => res.json(users));
});`,
    },
    // Issue 11, from real code: what the rule must leave alone.
    {
      name: 'Bookshelf-style models.Post.findOne() in a module that does not import mongoose (ghost)',
      code: `const models = require('../../models');
module.exports = { read(frame) { return models.Post.findOne(frame.data, frame.options); } };`,
    },
    {
      name: "Bookshelf's registry: ghostBookshelf.model('Tag', Tag) defines no mongoose model (ghost)",
      code: `const ghostBookshelf = require('./base');
const Tag = ghostBookshelf.model('Tag', ghostBookshelf.Model.extend({ tableName: 'tags' }));
app.get('/tags/:id', async (req, res) => res.json(await Tag.findOne({ id: req.params.id })));`,
    },
    {
      name: 'the MongoDB driver: collection.find().sort().limit() is a cursor of plain objects',
      code: `app.get('/u', async (req, res) => res.json(await db.collection('users').find({}).sort({ name: 1 }).limit(20).toArray()));`,
    },
    {
      name: 'a query helper hands the query out unexecuted; its caller adds .lean()',
      code: `${USER}function active() {
  return User.find({ active: true }).sort({ name: 1 });
}
app.get('/u', async (req, res) => res.json(await active().lean()));`,
    },
    {
      name: 'schema.query helpers return the query for chaining',
      code: `const mongoose = require('mongoose');
const schema = new mongoose.Schema({ name: String });
schema.query.byName = function (name) { return this.where({ name: new RegExp(name, 'i') }); };`,
    },
    {
      name: 'callback documents handed to an unknown function (keystone: req.list.getData(item))',
      code: `module.exports = function (req, res) {
  req.list.model.find({}).populate('author').exec(function (err, items) {
    res.json({ results: items.map(function (item) { return req.list.getData(item); }) });
  });
};`,
    },
    {
      name: 'this.find() inside a document method is not a model read',
      code: `const mongoose = require('mongoose');
const schema = new mongoose.Schema({ name: String });
schema.methods.siblings = function () { return this.find({ parent: this.parent }); };`,
    },
    {
      name: 'an unresolved receiver without a mongoose-only method or a model name',
      code: `app.get('/u', async (req, res) => res.json(await store.find({ active: true })));`,
    },
    {
      name: 'an edit form filled from one document (calipso.form.render) is not a view sink',
      code: `const calipso = require('calipso');
function edit(req, res, template, block, next) {
  var Role = calipso.db.model('Role');
  Role.findById(req.moduleParams.id, function (err, c) {
    calipso.form.render(roleForm, { role: c }, req, function (form) { calipso.theme.renderItem(req, res, form, block, {}, next); });
  });
}`,
    },
    {
      name: 'callback documents mutated and saved',
      code: `${USER}app.post('/u/:id', (req, res) => {
  User.findById(req.params.id, function (err, user) { user.name = req.body.name; user.save(() => res.json(user)); });
});`,
    },
    { name: 'already lean', code: `${USER}app.get('/u', async (req, res) => res.json(await User.find({}).lean()));` },
    { name: 'lean after other builders, before exec', code: `${USER}app.get('/u', async (req, res) => res.json(await User.find({}).sort({ name: 1 }).lean().exec()));` },
    { name: '{ lean: true } in the options argument', code: `${USER}app.get('/u', async (req, res) => res.json(await User.find({}, null, { lean: true })));` },
    { name: 'setOptions({ lean: true })', code: `${USER}app.get('/u', async (req, res) => res.json(await User.findOne({}).setOptions({ lean: true })));` },
    {
      name: 'the document is modified and saved',
      code: `${USER}app.post('/u/:id', async (req, res) => {
  const user = await User.findById(req.params.id);
  user.name = req.body.name;
  await user.save();
  res.json(user);
});`,
    },
    {
      name: 'a document method is called on every element',
      code: `${USER}app.get('/u', async (req, res) => {
  const users = await User.find({});
  res.json(users.map((u) => u.toObject({ virtuals: true })));
});`,
    },
    {
      name: 'populate on the loaded document',
      code: `${USER}async function withTeam(id) {
  const user = await User.findById(id);
  await user.populate('team');
  return user;
}`,
    },
    {
      name: 'elements mutated in a for-of loop',
      code: `${USER}async function touchAll() {
  const users = await User.find({ stale: true });
  for (const u of users) u.seenAt = new Date();
  return users;
}`,
    },
    {
      name: 'mongoose array mutation through a property',
      code: `${USER}async function tag(id, t) {
  const user = await User.findOne({ _id: id });
  user.tags.push(t);
  return user;
}`,
    },
    {
      name: 'the result goes to an unknown function (it may call document methods)',
      code: `${USER}app.get('/u', async (req, res) => { const users = await User.find({}); res.json(present(users)); });`,
    },
    {
      name: 'docs.map(format): an unknown function sees each document',
      code: `${USER}app.get('/u', async (req, res) => res.json((await User.find({})).map(format)));`,
    },
    {
      name: 'stored on req for later middlewares',
      code: `${USER}async function loadUser(req, res, next) { req.user = await User.findById(req.params.id); next(); }`,
    },
    { name: 'counting is not a document read', code: `${USER}app.get('/n', async (req, res) => res.json(await User.countDocuments({})));` },
    { name: 'a cursor streams documents', code: `${USER}app.get('/u', async (req, res) => { for await (const u of User.find({}).cursor()) res.write(u.name); res.end(); });` },
    { name: 'the result is only tested', code: `${USER}app.get('/u', async (req, res) => { if (await User.findOne({ name: req.query.n })) res.sendStatus(409); else res.sendStatus(404); });` },
    { name: 'an unrelated object with a find method', code: `const repo = { find: async () => [] };\napp.get('/u', async (req, res) => res.json(await repo.find({})));` },
    { name: 'Array.prototype.find on a local array', code: `const users = [{ id: 1 }];\napp.get('/u', (req, res) => res.json(users.find((u) => u.id === 1)));` },
    {
      name: 'sequelize-style model lookup is not mongoose (one-argument .model on an unknown receiver)',
      code: `app.get('/u', async (req, res) => res.json(await sequelize.model('User').findOne({})));`,
    },
    {
      name: 'a model imported from a module whose summary says it is not a model',
      code: `const { cache } = require('./lib/cache');\napp.get('/u', async (req, res) => res.json(await cache.find({})));`,
    },
    {
      name: 'a local variable shadows the imported model',
      code: `const { User } = require('./models');\napp.get('/u', async (req, res) => { const User = { find: async () => [] }; res.json(await User.find({})); });`,
    },
    {
      name: 'destructured fields of one document are plain values',
      code: `${USER}app.get('/u/:id', async (req, res) => { const { name } = await User.findById(req.params.id); res.json({ name }); });`,
    },
    {
      name: 'a helper whose caller in this module saves the returned document',
      code: `${USER}async function getUser(id) { return User.findById(id); }
app.post('/u/:id/seen', async (req, res) => {
  const user = await getUser(req.params.id);
  user.seenAt = new Date();
  await user.save();
  res.sendStatus(204);
});`,
    },
    {
      name: 'the id virtual does not exist on lean objects',
      code: `${USER}app.get('/u', async (req, res) => res.json((await User.find({})).map((u) => ({ id: u.id, name: u.name }))));`,
    },
    {
      name: '$-properties are document internals',
      code: `${USER}app.get('/u/:id', async (req, res) => { const u = await User.findById(req.params.id); res.json({ u, local: u.$locals.extra }); });`,
    },
    {
      name: 'Promise.all results used as documents or not awaited into a pattern',
      code: `${USER}app.get('/a', async (req, res) => {
  const [me] = await Promise.all([User.findById(req.user.id)]);
  await me.save();
  const both = await Promise.all([User.find({})]);
  res.json(both);
});`,
    },
    {
      name: 'NestJS: an injected property that is not a model (no @InjectModel)',
      filename: 'cache.service.ts',
      code: `import { InjectModel } from '@nestjs/mongoose';
export class CacheService {
  constructor(private readonly store: { find(): Promise<unknown[]> }, @InjectModel('User') private readonly users: unknown) {}
  all(): Promise<unknown[]> { return this.store.find(); }
  outside = () => this.other.find();
}`,
    },
    {
      name: 'odd shapes neither throw nor report',
      code: `${USER}const f = User.find;
new User.find();
class Admin extends User { static async list() { return super.find(); } }
async function g(req, res) {
  res.json(await User?.find?.({}).lean());
  res.json(await User['findOne']({}).lean());
  const [a, ...rest] = await User.find({}).lean();
  for await (const d of User.find().cursor()) d.x = 1;
  label: { break label; }
  return User.find(...args).lean();
}`,
    },
    {
      name: 'an ESM namespace object used directly is not a model',
      filename: 'ns.ts',
      code: `import * as models from './models';
export const all = async () => JSON.stringify(await models.find({}));`,
    },
  ],
  invalid: [
    {
      name: 'i42: a loader reads each role field by field into a cache, reached by no request (one pass: a hint)',
      code: `${USER}function loadRoles(next) {
  User.find({}, function (err, roles) {
    roles.forEach(function (role) { cache[role.name] = { admin: role.isAdmin }; });
    next();
  });
}
exports.loadRoles = loadRoles;`,
      errors: [{ messageId: 'missingLean', line: 4, column: 3, severity: 'hint', message: /only read field by field \(name, isAdmin\); add \.lean\(\)\. It matters when/ }],
      output: `${USER}function loadRoles(next) {
  User.find({}).lean().exec(function (err, roles) {
    roles.forEach(function (role) { cache[role.name] = { admin: role.isAdmin }; });
    next();
  });
}
exports.loadRoles = loadRoles;`,
    },
    // Each document read only field by field (i42): the documents go nowhere, only their fields do.
    {
      name: 'i42: every user loaded in a callback, each only read for its email into a list (calipso mail form)',
      code: `${USER}app.get('/mail/form', function (req, res, next) {
  User.find(function (err, users) {
    var emails = ['Everyone'];
    users.forEach(function (user) {
      emails.push(user.email);
    });
    renderForm(res, emails, next);
  });
});`,
      errors: [{ messageId: 'missingLean', line: 4, column: 3, severity: 'warning', message: /^User\.find\(\) hydrates full mongoose documents that are only read field by field \(email\) while handling a request; add \.lean\(\)\.$/ }],
      output: `${USER}app.get('/mail/form', function (req, res, next) {
  User.find().lean().exec(function (err, users) {
    var emails = ['Everyone'];
    users.forEach(function (user) {
      emails.push(user.email);
    });
    renderForm(res, emails, next);
  });
});`,
    },
    {
      name: 'i42: a route that saves reloads every role field by field into a cache (how often someone saves is not in the code: a hint)',
      code: `${USER}app.post('/admin/permissions', function (req, res, next) {
  User.find({}, function (err, roles) {
    roles.forEach(function (role) { cache[role.name] = role.isAdmin; });
    res.redirect('/admin');
  });
});`,
      errors: [{ messageId: 'missingLean', line: 4, column: 3, severity: 'hint', message: /only read field by field \(name, isAdmin\) while handling a request; add \.lean\(\)\. It matters when/ }],
      output: `${USER}app.post('/admin/permissions', function (req, res, next) {
  User.find({}).lean().exec(function (err, roles) {
    roles.forEach(function (role) { cache[role.name] = role.isAdmin; });
    res.redirect('/admin');
  });
});`,
    },
    {
      name: 'i42: every role read in a for-of loop for its id and two flags (formio access map)',
      code: `${USER}app.use(async (req, res, next) => {
  const roles = await User.find({ deleted: null });
  const access = { roles: [] };
  for (const role of roles) {
    access.roles.push(role._id.toString());
    if (role.default) access.defaultRole = role._id.toString();
    if (role.admin) access.adminRole = role._id.toString();
  }
  req.access = access;
  next();
});`,
      errors: [{ messageId: 'missingLean', line: 4, column: 23, severity: 'warning', message: /only read field by field \(_id, default, admin\) while handling a request; add \.lean\(\)\.$/ }],
      output: `${USER}app.use(async (req, res, next) => {
  const roles = await User.find({ deleted: null }).lean();
  const access = { roles: [] };
  for (const role of roles) {
    access.roles.push(role._id.toString());
    if (role.default) access.defaultRole = role._id.toString();
    if (role.admin) access.adminRole = role._id.toString();
  }
  req.access = access;
  next();
});`,
    },
    // Issue 22 (n22b): a query built in steps and held in a variable, run once later.
    {
      name: 'issue 22 (q22m): a query variable put back by a helper of another module: shown, the assumption stated (short page: a hint)',
      code: `${USER}app.get('/users', function (req, res) {
  var qry = User.find({}).limit(5);
  qry = calipso.table.sortQuery(qry, req.query.sort);
  qry.find(function (err, users) { res.json(users); });
});`,
      errors: [{ messageId: 'missingLean', line: 4, column: 13, severity: 'hint', message: /only sent with res\.json\(\) while handling a request \(assuming calipso\.table\.sortQuery\(\) only adds query steps\); add \.lean\(\)\./ }],
      output: `${USER}app.get('/users', function (req, res) {
  var qry = User.find({}).lean().limit(5);
  qry = calipso.table.sortQuery(qry, req.query.sort);
  qry.find(function (err, users) { res.json(users); });
});`,
    },
    {
      name: 'issue 22 (q22m): a query variable put back by a helper of this module that only adds steps: no assumption',
      code: `${USER}function sortQuery(q, by) { return q.sort(by || 'name'); }
app.get('/users', function (req, res) {
  var qry = User.find({});
  qry = sortQuery(qry, req.query.sort);
  qry.find(function (err, users) { res.json(users); });
});`,
      errors: [{ messageId: 'missingLean', line: 5, column: 13, severity: 'warning', message: /^User\.find\(\) hydrates full mongoose documents that are only sent with res\.json\(\) while handling a request; add \.lean\(\)\.$/ }],
      output: `${USER}function sortQuery(q, by) { return q.sort(by || 'name'); }
app.get('/users', function (req, res) {
  var qry = User.find({}).lean();
  qry = sortQuery(qry, req.query.sort);
  qry.find(function (err, users) { res.json(users); });
});`,
    },
    {
      name: 'a paged query held in a variable, sorted in place, run with exec(callback); the page only rendered',
      code: `${USER}app.get('/users', function (req, res) {
  var qry = User.find({}).skip(0).limit(20);
  qry.sort('name');
  qry.exec(function (err, users) {
    res.render('users', { users: users });
  });
});`,
      errors: [{ messageId: 'missingLean', line: 4, column: 13, severity: 'warning', message: /^User\.find\(\) hydrates full mongoose documents that are only rendered with res\.render\(\) while handling a request; add \.lean\(\)\.$/ }],
      output: `${USER}app.get('/users', function (req, res) {
  var qry = User.find({}).lean().skip(0).limit(20);
  qry.sort('name');
  qry.exec(function (err, users) {
    res.render('users', { users: users });
  });
});`,
    },
    {
      name: 'a query variable rebuilt by reassignment (qry = qry.sort(s)) and run with find(callback); sent with res.json',
      code: `${USER}app.get('/users', function (req, res) {
  var qry = User.find({ active: true });
  qry = qry.sort('name');
  qry.find(function (err, users) {
    res.json(users);
  });
});`,
      errors: [{ messageId: 'missingLean', line: 4, column: 13, message: /only sent with res\.json\(\)/ }],
      output: `${USER}app.get('/users', function (req, res) {
  var qry = User.find({ active: true }).lean();
  qry = qry.sort('name');
  qry.find(function (err, users) {
    res.json(users);
  });
});`,
    },
    {
      name: 'a query variable awaited in an async handler, results only serialized',
      code: `${USER}app.get('/users', async (req, res) => {
  const qry = User.find({}).sort({ name: 1 });
  const users = await qry;
  res.json({ users });
});`,
      errors: [{ messageId: 'missingLean', line: 4, column: 15, message: /only sent with res\.json\(\)/ }],
      output: `${USER}app.get('/users', async (req, res) => {
  const qry = User.find({}).lean().sort({ name: 1 });
  const users = await qry;
  res.json({ users });
});`,
    },
    {
      name: 'a query variable run with exec().then(...), results only sent',
      code: `${USER}app.get('/users', (req, res) => {
  const qry = User.find({}).limit(50);
  qry.exec().then((users) => res.send(users));
});`,
      errors: [{ messageId: 'missingLean', line: 4, column: 15, message: /only sent with res\.send\(\)/ }],
      output: `${USER}app.get('/users', (req, res) => {
  const qry = User.find({}).lean().limit(50);
  qry.exec().then((users) => res.send(users));
});`,
    },
    // Issue 11, from real code (calipso, keystone, formio, mongoose studio).
    {
      name: 'Model.find(q, callback): the documents go straight to res.json()',
      code: `${USER}app.get('/users', (req, res) => {
  User.find({ active: true }, function (err, users) {
    if (err) return res.status(500).end();
    res.json(users);
  });
});`,
      errors: [{ messageId: 'missingLean', line: 4, column: 3, endLine: 4, endColumn: 12, severity: 'warning', message: /^User\.find\(\) hydrates full mongoose documents that are only sent with res\.json\(\) while handling a request; add \.lean\(\)\.$/ }],
      output: `${USER}app.get('/users', (req, res) => {
  User.find({ active: true }).lean().exec(function (err, users) {
    if (err) return res.status(500).end();
    res.json(users);
  });
});`,
    },
    {
      name: 'calipso todoApp: .exec(callback) whose documents are only rendered (res.render as a sink)',
      code: `${USER}app.get('/todos', function (req, res) {
  User.find({ owner: req.user.id }).sort('-updated').exec(function (err, todos) {
    res.render('todo-view', { title: 'Todos', todos: todos });
  });
});`,
      errors: [{ messageId: 'missingLean', line: 4, column: 3, severity: 'warning', message: /only rendered with res\.render\(\) while handling a request/ }],
      output: `${USER}app.get('/todos', function (req, res) {
  User.find({ owner: req.user.id }).lean().sort('-updated').exec(function (err, todos) {
    res.render('todo-view', { title: 'Todos', todos: todos });
  });
});`,
    },
    {
      name: "calipso (mongoose 3): query.sort(s).limit(n).find(callback), documents handed to the CMS's renderItem()",
      code: `const calipso = require('calipso');
function repoList(req, res, template, block, next) {
  var Repo = calipso.db.model('Repo');
  Repo.find({ type: req.moduleParams.type }).sort('name').limit(100).find(function (err, all) {
    calipso.theme.renderItem(req, res, template, block, { all: all }, next);
  });
}`,
      errors: [{ messageId: 'missingLean', line: 4, column: 3, message: /^Repo\.find\(\) hydrates full mongoose documents that are only rendered with renderItem\(\); add/ }],
      output: `const calipso = require('calipso');
function repoList(req, res, template, block, next) {
  var Repo = calipso.db.model('Repo');
  Repo.find({ type: req.moduleParams.type }).lean().sort('name').limit(100).find(function (err, all) {
    calipso.theme.renderItem(req, res, template, block, { all: all }, next);
  });
}`,
    },
    {
      name: 'a schema handed to any receiver defines a model: registry.model(name, userSchema)',
      code: `const userSchema = require('./schemas/user');
const User = registry.model('User', userSchema);
app.get('/u', async (req, res) => res.json(await User.find({})));`,
      errors: [{ messageId: 'missingLean', line: 3, column: 50 }],
      output: `const userSchema = require('./schemas/user');
const User = registry.model('User', userSchema);
app.get('/u', async (req, res) => res.json(await User.find({}).lean()));`,
    },
    {
      name: 'a single document read is quiet without a profile (a hint, says what would make it matter)',
      code: `${USER}app.get('/users/:id', async (req, res) => {
  res.json(await User.findById(req.params.id));
});`,
      errors: [{ messageId: 'missingLean', line: 4, column: 18, severity: 'hint', message: /while handling a request; add \.lean\(\)\. It matters when the read returns many documents or runs often\.$/ }],
      output: `${USER}app.get('/users/:id', async (req, res) => {
  res.json(await User.findById(req.params.id).lean());
});`,
    },
    {
      name: 'issue 22 (m22b): a page of documents (limit 20) only sent is a list read, shown',
      code: `${USER}app.get('/users', async (req, res) => res.json(await User.find({}).limit(20)));`,
      errors: [{ messageId: 'missingLean', line: 3, column: 54, severity: 'warning' }],
      output: `${USER}app.get('/users', async (req, res) => res.json(await User.find({}).lean().limit(20)));`,
    },
    {
      name: 'issue 22 (m22b): a paged query kept in a variable, passed through a sort helper, run with find(cb), rows only rendered (calipso user list)',
      code: `${USER}function listUsers(req, res, block, next) {
  var qry = User.find({}).skip(req.from).limit(req.limit);
  qry = calipso.table.sortQuery(qry, req.sortBy);
  qry.find(function (err, users) {
    var table = { id: 'user-list', columns: [{ name: 'fullname' }], data: users };
    calipso.theme.renderItem(req, res, calipso.table.render(req, table), block, null, next);
  });
}`,
      errors: [{ messageId: 'missingLean', line: 4, column: 13, severity: 'warning', message: /^User\.find\(\) hydrates full mongoose documents that are only rendered with table\.render\(\) \(assuming calipso\.table\.sortQuery\(\) only adds query steps\); add \.lean\(\)\.$/ }],
      output: `${USER}function listUsers(req, res, block, next) {
  var qry = User.find({}).lean().skip(req.from).limit(req.limit);
  qry = calipso.table.sortQuery(qry, req.sortBy);
  qry.find(function (err, users) {
    var table = { id: 'user-list', columns: [{ name: 'fullname' }], data: users };
    calipso.theme.renderItem(req, res, calipso.table.render(req, table), block, null, next);
  });
}`,
    },
    {
      name: 'issue 22 (m22b): documents only turned into plain objects with toObject() and sent: no fix (the calls must go too)',
      code: `${USER}function listJson(req, res) {
  var qry = User.find({}).skip(req.from);
  qry.find(function (err, users) {
    res.send(users.map(function (u) { return u.toObject(); }));
  });
}`,
      errors: [{ messageId: 'missingLeanPlainCopy', line: 4, column: 13, severity: 'warning', message: /only turned into plain objects with toObject\(\) .*; add \.lean\(\) and drop the toObject/ }],
      output: null,
    },
    {
      name: 'issue 22 (m22b): every role read field by field in a helper of the same module that builds HTML (calipso permissions)',
      code: `${USER}function showPermissions(req, res, options, next) {
  User.find({}).sort('name').find(function (err, roles) {
    var output = renderTable(roles);
    calipso.theme.renderItem(req, res, options.templateFn, options.block, { output: output }, next);
  });
}
function renderTable(roles) {
  var out = '<table>' + roles.length;
  roles.forEach(function (role) { out += '<th>' + role.name + '</th>'; });
  return out;
}`,
      errors: [{ messageId: 'missingLean', line: 4, column: 3, severity: 'warning', message: /only read field by field \(name\) in renderTable\(\); add \.lean\(\)\.$/ }],
      output: `${USER}function showPermissions(req, res, options, next) {
  User.find({}).lean().sort('name').find(function (err, roles) {
    var output = renderTable(roles);
    calipso.theme.renderItem(req, res, options.templateFn, options.block, { output: output }, next);
  });
}
function renderTable(roles) {
  var out = '<table>' + roles.length;
  roles.forEach(function (role) { out += '<th>' + role.name + '</th>'; });
  return out;
}`,
    },
    {
      name: 'issue 22 (m22b): async/await on a query built in steps in a variable',
      code: `${USER}app.get('/users', async (req, res) => {
  let q = User.find({ active: true });
  q = q.sort('name');
  const users = await q;
  res.json(users);
});`,
      errors: [{ messageId: 'missingLean', line: 4, column: 11, severity: 'warning', message: /only sent with res\.json\(\) while handling a request/ }],
      output: `${USER}app.get('/users', async (req, res) => {
  let q = User.find({ active: true }).lean();
  q = q.sort('name');
  const users = await q;
  res.json(users);
});`,
    },
    {
      name: 'issue 22 (m22b): a promise chain on a stored query (exec().then)',
      code: `${USER}app.get('/users', (req, res) => {
  const q = User.find({}).sort('name');
  q.exec().then((users) => res.json(users));
});`,
      errors: [{ messageId: 'missingLean', line: 4, column: 13, severity: 'warning' }],
      output: `${USER}app.get('/users', (req, res) => {
  const q = User.find({}).lean().sort('name');
  q.exec().then((users) => res.json(users));
});`,
    },
    {
      name: 'issue 22 (m22b): a query returned by a helper of the module, stored and run with exec(cb)',
      code: `${USER}function byName() {
  return User.find({}).sort('name');
}
app.get('/users', (req, res) => {
  const q = byName();
  q.exec((err, users) => res.json(users));
});`,
      errors: [{ messageId: 'missingLean', line: 4, column: 10, severity: 'warning' }],
      output: `${USER}function byName() {
  return User.find({}).lean().sort('name');
}
app.get('/users', (req, res) => {
  const q = byName();
  q.exec((err, users) => res.json(users));
});`,
    },
    {
      name: 'issue 22 (m22b): a short literal page (limit 5) stays a hint',
      code: `${USER}app.get('/users', async (req, res) => res.json(await User.find({}).limit(5)));`,
      errors: [{ messageId: 'missingLean', line: 3, column: 54, severity: 'hint' }],
      output: `${USER}app.get('/users', async (req, res) => res.json(await User.find({}).lean().limit(5)));`,
    },
    {
      name: 'issue 22: an unbounded list returned by an exported helper is a hint, not a warning: its callers in other modules were not read',
      code: `${USER}async function listUsers() {
  return User.find({});
}
module.exports = { listUsers };`,
      errors: [{ messageId: 'missingLean', line: 4, column: 10, severity: 'hint', message: /only returned \(its callers elsewhere were not read/ }],
      output: `${USER}async function listUsers() {
  return User.find({}).lean();
}
module.exports = { listUsers };`,
    },
    {
      name: 'schema statics: this.find() is the model; the documents are returned to callers not read, and the message says so (issue 22)',
      code: `const mongoose = require('mongoose');
const schema = new mongoose.Schema({ title: String, author: String });
schema.statics.list = function (options) {
  return this.find(options.criteria).populate('author', 'name').sort({ createdAt: -1 }).exec();
};`,
      errors: [{ messageId: 'missingLean', line: 4, column: 10, severity: 'hint', message: /^this\.find\(\) hydrates full mongoose documents that are only returned \(its callers elsewhere were not read: a caller may still use them as documents\); add/ }],
      output: `const mongoose = require('mongoose');
const schema = new mongoose.Schema({ title: String, author: String });
schema.statics.list = function (options) {
  return this.find(options.criteria).lean().populate('author', 'name').sort({ createdAt: -1 }).exec();
};`,
    },
    {
      name: "statics object and schema.static('name', fn)",
      code: `const mongoose = require('mongoose');
const schema = new mongoose.Schema({ name: String }, { statics: { async named(n) { return this.findOne({ name: n }); } } });
schema.static('recent', async function () { const docs = await this.find({}).sort({ _id: -1 }); return docs; });`,
      errors: [
        { messageId: 'missingLean', line: 2, column: 91 },
        { messageId: 'missingLean', line: 3, column: 64 },
      ],
      output: `const mongoose = require('mongoose');
const schema = new mongoose.Schema({ name: String }, { statics: { async named(n) { return this.findOne({ name: n }).lean(); } } });
schema.static('recent', async function () { const docs = await this.find({}).lean().sort({ _id: -1 }); return docs; });`,
    },
    {
      name: 'a model the analysis cannot resolve, unmistakable by .populate()/.exec() (keystone: req.list.model)',
      code: `module.exports = function (req, res) {
  req.list.model.find({ state: 'published' }).populate('author').exec(function (err, posts) {
    res.json({ posts: posts });
  });
};`,
      errors: [{ messageId: 'missingLean', line: 2, column: 3, message: /^req\.list\.model\.find\(\) hydrates/ }],
      output: `module.exports = function (req, res) {
  req.list.model.find({ state: 'published' }).lean().populate('author').exec(function (err, posts) {
    res.json({ posts: posts });
  });
};`,
    },
    {
      name: 'a model named so (formio: resources.form.model) in a module that imports mongoose',
      code: `const mongoose = require('mongoose');
module.exports = (router) => async function getForms(req, res) {
  res.json(await router.formio.resources.form.model.findOne({ _id: req.params.formId }));
};`,
      errors: [{ messageId: 'missingLean', line: 3, column: 18 }],
      output: `const mongoose = require('mongoose');
module.exports = (router) => async function getForms(req, res) {
  res.json(await router.formio.resources.form.model.findOne({ _id: req.params.formId }).lean());
};`,
    },
    {
      name: 'a query helper whose caller in the module awaits and sends it',
      code: `${USER}function active() {
  return User.find({ active: true });
}
app.get('/u', async (req, res) => res.json(await active()));`,
      errors: [{ messageId: 'missingLean', line: 4, column: 10, message: /only sent with res\.json\(\)/ }],
      output: `${USER}function active() {
  return User.find({ active: true }).lean();
}
app.get('/u', async (req, res) => res.json(await active()));`,
    },
    {
      name: 'awaited find sent with res.json (the fix goes before .sort/.exec)',
      code: `${USER}app.get('/users', async (req, res) => {
  const users = await User.find({ active: true }).sort({ name: 1 }).exec();
  res.json(users);
});`,
      errors: [{
        messageId: 'missingLean', line: 4, column: 23, endLine: 4, endColumn: 50,
        message: 'User.find() hydrates full mongoose documents that are only sent with res.json() while handling a request; add .lean().',
      }],
      output: `${USER}app.get('/users', async (req, res) => {
  const users = await User.find({ active: true }).lean().sort({ name: 1 }).exec();
  res.json(users);
});`,
    },
    {
      name: 'findById returned from a service function (not per request here)',
      code: `${USER}async function getUser(id) {
  return User.findById(id);
}`,
      errors: [{ messageId: 'missingLean', line: 4, column: 10, message: /only returned; add/ }],
      output: `${USER}async function getUser(id) {
  return User.findById(id).lean();
}`,
    },
    {
      name: 'koa: ctx.body = { tasks } (the object carries the documents)',
      filename: 'routes.mjs',
      code: `import mongoose, { model } from 'mongoose';
const Task = model('Task', new mongoose.Schema({}));
router.get('/tasks', async (ctx) => {
  ctx.body = { tasks: await Task.find({ project: ctx.params.id }) };
});`,
      errors: [{ messageId: 'missingLean', line: 4, column: 29, message: /only assigned to ctx\.body while handling a request/ }],
      output: `import mongoose, { model } from 'mongoose';
const Task = model('Task', new mongoose.Schema({}));
router.get('/tasks', async (ctx) => {
  ctx.body = { tasks: await Task.find({ project: ctx.params.id }).lean() };
});`,
    },
    {
      name: 'fastify reply.send in a then callback',
      code: `${USER}fastify.get('/u', (request, reply) => User.find({}).then((users) => reply.send(users)));`,
      errors: [{ messageId: 'missingLean', line: 3, column: 39, message: /sent with reply\.send\(\)/ }],
      output: `${USER}fastify.get('/u', (request, reply) => User.find({}).lean().then((users) => reply.send(users)));`,
    },
    {
      name: 'JSON.stringify on http.createServer',
      code: `${USER}require('http').createServer(async (req, res) => {
  const user = await User.findOne({ name: 'a' });
  res.end(JSON.stringify(user));
}).listen(3000);`,
      errors: [{ messageId: 'missingLean', line: 4, column: 22, message: /serialized with JSON\.stringify\(\) while handling a request/ }],
      output: `${USER}require('http').createServer(async (req, res) => {
  const user = await User.findOne({ name: 'a' });
  res.end(JSON.stringify(user));
}).listen(3000);`.replace(`User.findOne({ name: 'a' })`, `User.findOne({ name: 'a' }).lean()`),
    },
    {
      name: 'fields read in map, the mapped array sent',
      code: `${USER}app.get('/names', async (req, res) => {
  const users = await User.find({});
  res.json(users.map((u) => ({ id: u._id, name: u.name })));
});`,
      errors: [{ messageId: 'missingLean', line: 4, column: 23 }],
      output: `${USER}app.get('/names', async (req, res) => {
  const users = await User.find({}).lean();
  res.json(users.map((u) => ({ id: u._id, name: u.name })));
});`,
    },
    {
      name: 'spread into the response object',
      code: `${USER}app.get('/me', async (req, res) => res.json({ ...(await User.findById(req.user.id)), ok: true }));`,
      errors: [{ messageId: 'missingLean', line: 3, column: 57 }],
      output: `${USER}app.get('/me', async (req, res) => res.json({ ...(await User.findById(req.user.id).lean()), ok: true }));`,
    },
    {
      name: 'inline one-argument lookup mongoose.model(\'User\')',
      code: `const mongoose = require('mongoose');
app.get('/u', async (req, res) => res.send(await mongoose.model('User').where({ a: 1 })));`,
      errors: [{ messageId: 'missingLean', line: 2, column: 50, message: /mongoose\.model\('User'\)\.where\(\)/ }],
      output: `const mongoose = require('mongoose');
app.get('/u', async (req, res) => res.send(await mongoose.model('User').where({ a: 1 }).lean()));`,
    },
    {
      name: 'a connection model',
      code: `const mongoose = require('mongoose');
const conn = mongoose.createConnection(process.env.URI);
const Task = conn.model('Task', new mongoose.Schema({}));
app.get('/t', async (req, res) => { res.json(await Task.find()); });`,
      errors: [{ messageId: 'missingLean', line: 4, column: 52 }],
      output: `const mongoose = require('mongoose');
const conn = mongoose.createConnection(process.env.URI);
const Task = conn.model('Task', new mongoose.Schema({}));
app.get('/t', async (req, res) => { res.json(await Task.find().lean()); });`,
    },
    {
      name: 'model imported by destructuring from ./models (CommonJS)',
      code: `const { Task } = require('./models');
app.get('/t', async (req, res) => res.json(await Task.find({ done: false })));`,
      errors: [{ messageId: 'missingLean', line: 2, column: 50, message: /Task\.find\(\)/ }],
      output: `const { Task } = require('./models');
app.get('/t', async (req, res) => res.json(await Task.find({ done: false }).lean()));`,
    },
    {
      name: 'model used through the whole module object (models.User)',
      code: `const models = require('./models');
app.get('/u', async (req, res) => res.json(await models.User.findOne({})));`,
      errors: [{ messageId: 'missingLean', line: 2, column: 50, message: /models\.User\.findOne\(\)/ }],
      output: `const models = require('./models');
app.get('/u', async (req, res) => res.json(await models.User.findOne({}).lean()));`,
    },
    {
      name: 'TypeScript ESM default import with a .js specifier',
      filename: 'routes.ts',
      code: `import User from './models/user.js';
export async function list(): Promise<unknown> {
  const users = (await User.find({})) as unknown[];
  return users;
}`,
      errors: [{ messageId: 'missingLean', line: 3, column: 24 }],
      output: `import User from './models/user.js';
export async function list(): Promise<unknown> {
  const users = (await User.find({}).lean()) as unknown[];
  return users;
}`,
    },
    {
      name: 'a helper whose callers only send the result',
      code: `${USER}const getUser = async (id) => User.findById(id);
app.get('/u/:id', async (req, res) => res.json(await getUser(req.params.id)));`,
      errors: [{ messageId: 'missingLean', line: 3, column: 31, message: /only returned while handling a request \(via / }],
      output: `${USER}const getUser = async (id) => User.findById(id).lean();
app.get('/u/:id', async (req, res) => res.json(await getUser(req.params.id)));`,
    },
    {
      name: 'TypeScript import = require()',
      filename: 'legacy.ts',
      code: `import User = require('./models/user');
export const list = async (): Promise<string> => JSON.stringify(await User.find());`,
      errors: [{ messageId: 'missingLean', line: 2, column: 71 }],
      output: `import User = require('./models/user');
export const list = async (): Promise<string> => JSON.stringify(await User.find().lean());`,
    },
    {
      name: 'ESM namespace import: models.User',
      filename: 'ns.ts',
      code: `import * as models from './models';
export const all = async () => JSON.stringify(await models.User.find({}));`,
      errors: [{ messageId: 'missingLean', line: 2, column: 53 }],
      output: `import * as models from './models';
export const all = async () => JSON.stringify(await models.User.find({}).lean());`,
    },
    {
      name: 'the mongoose.models.X || mongoose.model(...) guard',
      code: `const mongoose = require('mongoose');
const User = mongoose.models.User || mongoose.model('User', new mongoose.Schema({}));
module.exports = async function list(req, res) { res.send(await User.find({})); };`,
      errors: [{ messageId: 'missingLean', line: 3, column: 65 }],
      output: `const mongoose = require('mongoose');
const User = mongoose.models.User || mongoose.model('User', new mongoose.Schema({}));
module.exports = async function list(req, res) { res.send(await User.find({}).lean()); };`,
    },
    {
      name: 'per Redis message: the message says so',
      code: `${USER}const Redis = require('ioredis');
const sub = new Redis();
const pub = new Redis();
sub.on('message', async (channel, message) => {
  const user = await User.findOne({ name: message });
  await pub.publish('users', JSON.stringify(user));
});`,
      errors: [{ messageId: 'missingLean', line: 7, column: 22, message: /only serialized with JSON\.stringify\(\) while handling a message; add/ }],
      output: `${USER}const Redis = require('ioredis');
const sub = new Redis();
const pub = new Redis();
sub.on('message', async (channel, message) => {
  const user = await User.findOne({ name: message }).lean();
  await pub.publish('users', JSON.stringify(user));
});`,
    },
    {
      name: 'Promise.all: each query follows its own element of the pattern',
      code: `${USER}const Task = mongoose.model('Task', new mongoose.Schema({}));
app.get('/home', async (req, res) => {
  const [users, tasks] = await Promise.all([User.find({}), Task.find({ owner: req.user.id })]);
  tasks.forEach((t) => t.markModified('seen'));
  res.json({ users, tasks: tasks.length });
});`,
      errors: [{ messageId: 'missingLean', line: 5, column: 45 }],
      output: `${USER}const Task = mongoose.model('Task', new mongoose.Schema({}));
app.get('/home', async (req, res) => {
  const [users, tasks] = await Promise.all([User.find({}).lean(), Task.find({ owner: req.user.id })]);
  tasks.forEach((t) => t.markModified('seen'));
  res.json({ users, tasks: tasks.length });
});`,
    },
    {
      name: 'NestJS: a model injected with @InjectModel, returned from a controller method',
      filename: 'users.service.ts',
      code: `import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
@Injectable()
export class UsersService {
  constructor(@InjectModel('User') private readonly userModel: Model<unknown>, private readonly cache: Map<string, unknown>) {}
  findAll(): Promise<unknown[]> {
    return this.userModel.find().exec();
  }
}`,
      errors: [{ messageId: 'missingLean', line: 8, column: 12 }],
      output: `import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
@Injectable()
export class UsersService {
  constructor(@InjectModel('User') private readonly userModel: Model<unknown>, private readonly cache: Map<string, unknown>) {}
  findAll(): Promise<unknown[]> {
    return this.userModel.find().lean().exec();
  }
}`,
    },
    {
      name: 'two queries in one handler: only the serialized one',
      code: `${USER}app.put('/u/:id', async (req, res) => {
  const me = await User.findById(req.user.id);
  me.lastSeen = Date.now();
  await me.save();
  res.json(await User.find({ team: me.team }));
});`,
      errors: [{ messageId: 'missingLean', line: 7, column: 18 }],
      output: `${USER}app.put('/u/:id', async (req, res) => {
  const me = await User.findById(req.user.id);
  me.lastSeen = Date.now();
  await me.save();
  res.json(await User.find({ team: me.team }).lean());
});`,
    },
  ],
}, { project });
