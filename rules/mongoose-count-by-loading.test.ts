import type { ModuleSummary, ProjectView } from './api';
import rule from './mongoose-count-by-loading';
import { runRuleTests } from '../test/ruleTester';

const TASK = `const mongoose = require('mongoose');
const Task = mongoose.model('Task', new mongoose.Schema({ done: Boolean }));
`;

const project: ProjectView = {
  moduleAt(_from: string, specifier: string): ModuleSummary | null {
    return specifier === '../models' ? { mongooseModelExports: new Set(['Task']) } : null;
  },
};

runRuleTests(rule, {
  valid: [
    {
      name: 'a migration script of the project counts once, with data it chose (tooling, rules/detectors/toolingFiles.ts)',
      filename: 'scripts/report-open-tasks.js',
      code: `${TASK}async function main() {
  const open = await Task.find({ done: false });
  console.log(open.length);
}
main();`,
    },
    {
      name: 'one-time work: an installer checks whether default content exists (calipso content.js install)',
      code: `${TASK}function install(next) {
  Task.find({ alias: 'welcome' }).sort('-created').find(function (err, existing) {
    if (!existing || existing.length === 0) return new Task({ alias: 'welcome' }).save(next);
    next();
  });
}`,
    },
    {
      name: 'test code: a check inside it(...) never serves a request (formio test/actions.js)',
      code: `${TASK}describe('tasks', () => {
  it('leaves no open task', async () => {
    const open = await Task.find({ done: false }).exec();
    if (open && open.length !== 0) throw new Error('open tasks left');
  });
});`,
    },
    {
      name: 'Model.find(q, callback) whose documents are used beyond their length',
      code: `${TASK}app.get('/open', (req, res) => {
  Task.find({ done: false }, (err, tasks) => res.json({ open: tasks.length, first: tasks[0] }));
});`,
    },
    { name: 'countDocuments', code: `${TASK}app.get('/n', async (req, res) => res.json({ n: await Task.countDocuments({ done: false }) }));` },
    { name: 'estimatedDocumentCount', code: `${TASK}app.get('/n', async (req, res) => res.json({ n: await Task.estimatedDocumentCount() }));` },
    {
      name: 'the array is used for more than its length',
      code: `${TASK}app.get('/t', async (req, res) => {
  const tasks = await Task.find({ done: false });
  res.json({ total: tasks.length, tasks });
});`,
    },
    {
      name: 'the length is written, not read',
      code: `${TASK}async function clear() { const tasks = await Task.find({}); tasks.length = 0; }`,
    },
    {
      name: 'a variable reassigned later',
      code: `${TASK}async function n() { let tasks = await Task.find({}); tasks = tasks.concat(extra); return tasks.length; }`,
    },
    {
      name: 'a then callback that uses the documents',
      code: `${TASK}const n = () => Task.find({}).then((tasks) => tasks.map((t) => t.id));`,
    },
    { name: 'findOne returns one document, not an array', code: `${TASK}const n = async () => (await Task.findOne({})).length;` },
    { name: 'string length of a field', code: `${TASK}const n = async () => (await Task.findById(1)).title.length;` },
    { name: 'a local array named like a model', code: `const Task = [];\nconst n = async () => (await Task.find((t) => t)).length;` },
    { name: 'loaded together with other queries (Promise.all): not followed', code: `${TASK}const n = async () => (await Promise.all([Task.find({})]))[0].length;` },
    { name: 'a destructured length in the callback is not followed', code: `${TASK}const n = () => Task.find({}).then(({ length }) => length);` },
    {
      name: 'odd shapes neither throw nor report',
      code: `${TASK}const f = Task.find;
new Task.find();
const n1 = async () => (await Task?.find?.({}))?.length;
const n2 = async () => (await Task.find(...args))[0].length;
const n3 = async () => { let docs; docs = await Task.find({}); return docs.length; };
const n4 = () => Task.find({}).then();
const n5 = () => Task.find({}).then(countOf);`,
    },
    {
      name: 'the documents are sent after an emptiness test of their length',
      code: `${TASK}app.get('/t', async (req, res) => {
  const tasks = await Task.find({ owner: req.user.id });
  if (!tasks.length) return res.status(404).json([]);
  res.json(tasks.map((task) => task.title));
});`,
    },
    {
      name: 'a callback that counts and keeps the documents (stored for later)',
      code: `${TASK}const cache = {};
app.get('/t', (req, res) => {
  Task.find({}, (err, tasks) => { cache.tasks = tasks; res.json({ n: tasks.length }); });
});`,
    },
    {
      name: 'a then callback that returns the documents when there are any',
      code: `${TASK}const open = () => Task.find({ done: false }).then((tasks) => (tasks.length ? tasks : null));`,
    },
    {
      name: 'an array that is not a database read: the length of a list built in memory',
      code: `const items = [{ id: 1 }];
app.get('/t', async (req, res) => res.json({ n: (await Promise.resolve(items.filter((i) => i.id))).length, m: items.find((i) => i.id === 1) }));`,
    },
    { name: 'distinct() returns values, not documents', code: `${TASK}const n = async () => (await Task.find({}).distinct('owner')).length;` },
  ],
  invalid: [
    {
      name: 'formio: an _id equality loads at most one document: a hint, the message says so',
      code: `const mongoose = require('mongoose');
module.exports = (router) => async function removeAction(req, actionId) {
  const actions = await router.formio.actions.model.find({ _id: actionId, form: req.formId }).exec();
  if (!actions || !actions.length) {
    throw Error('Could not find the action');
  }
};`,
      errors: [{
        messageId: 'existsByLoading', line: 3, column: 25, severity: 'hint',
        message: 'router.formio.actions.model.find() loads and hydrates the document matching its _id (at most one) only to test whether any matched (its .length is only tested against zero); use router.formio.actions.model.exists() or router.formio.actions.model.countDocuments(). It matters only when this runs often.',
      }],
      output: null,
    },
    {
      name: 'Model.find(q, callback) whose documents are only counted (no fix: the callback would change meaning)',
      code: `${TASK}app.get('/open', (req, res) => {
  Task.find({ done: false }, function (err, tasks) {
    res.json({ open: tasks.length });
  });
});`,
      errors: [{ messageId: 'countByLoading', line: 4, column: 3, severity: 'warning', message: /^Task\.find\(\) loads and hydrates every matching document only to take \.length while handling a request/ }],
      output: null,
    },
    {
      name: "seed 004's count endpoint: (await M.find(q)).length",
      code: `${TASK}app.get('/count', async (req, res) => {
  res.json({ count: (await Task.find({ project: req.params.id })).length });
});`,
      errors: [{
        messageId: 'countByLoading', line: 4, column: 28, endLine: 4, endColumn: 65,
        message: 'Task.find() loads and hydrates every matching document only to take .length while handling a request; use Task.countDocuments().',
      }],
      output: `${TASK}app.get('/count', async (req, res) => {
  res.json({ count: (await Task.countDocuments({ project: req.params.id })) });
});`,
    },
    {
      name: 'exec() and select() do not change the count',
      code: `${TASK}const n = async (q) => (await Task.find(q).select('_id').exec()).length;`,
      errors: [{ messageId: 'countByLoading', line: 3, column: 31, message: /only to take \.length; use/ }],
      output: `${TASK}const n = async (q) => (await Task.countDocuments(q));`,
    },
    {
      name: 'find() with no filter',
      code: `${TASK}const n = async () => (await Task.find()).length;`,
      errors: [{ messageId: 'countByLoading', line: 3, column: 30 }],
      output: `${TASK}const n = async () => (await Task.countDocuments());`,
    },
    {
      name: 'a variable whose only use is .length (no fix: the variable would change meaning)',
      code: `${TASK}app.get('/count', async (req, res) => {
  const tasks = await Task.find({ owner: req.user.id });
  if (tasks.length > 100) res.set('X-Many', '1');
  res.json({ count: tasks.length });
});`,
      errors: [{ messageId: 'countByLoading', line: 4, column: 23 }],
      output: null,
    },
    {
      name: 'then(d => d.length) becomes countDocuments',
      code: `${TASK}function countOpen() { return Task.find({ done: false }).then((docs) => docs.length); }`,
      errors: [{ messageId: 'countByLoading', line: 3, column: 31, message: /only to take \.length; use/ }],
      output: `${TASK}function countOpen() { return Task.countDocuments({ done: false }); }`,
    },
    {
      name: 'exec().then(function (d) { return d.length }) is flagged without a fix (block body)',
      code: `${TASK}function countOpen() { return Task.find({}).exec().then(function (docs) { return docs.length; }); }`,
      errors: [{ messageId: 'countByLoading', line: 3, column: 31 }],
      output: null,
    },
    {
      name: 'exec().then(d => d.length) becomes countDocuments',
      code: `${TASK}const countOpen = () => Task.find({ done: false }).exec().then((docs) => docs.length);`,
      errors: [{ messageId: 'countByLoading', line: 3, column: 25 }],
      output: `${TASK}const countOpen = () => Task.countDocuments({ done: false });`,
    },
    {
      name: 'limit() changes the count: flagged, no fix, and the message does not say every document is loaded',
      code: `${TASK}const n = async () => (await Task.find({}).limit(50)).length;`,
      errors: [{ messageId: 'countByLoading', line: 3, column: 30, severity: 'hint', message: /^Task\.find\(\) loads and hydrates the matching documents up to its limit only to take \.length; use Task\.countDocuments\(\)\. It matters when the read returns many documents or runs often\.$/ }],
      output: null,
    },
    {
      name: 'a skip option bounds nothing: shown, no fix, the message names the offset',
      code: `${TASK}const n = async () => (await Task.find({}, null, { skip: 10 })).length;`,
      errors: [{ messageId: 'countByLoading', line: 3, column: 30, severity: 'warning', message: /^Task\.find\(\) loads and hydrates every matching document after its skip\(\) offset only to take \.length; use/ }],
      output: null,
    },
    {
      name: 'a limit option, and an options argument not read here (it may limit): hints, no fix',
      code: `${TASK}const a = async () => (await Task.find({}, null, { limit: 20 })).length;
const b = async (opts) => (await Task.find({}, null, opts)).length;`,
      errors: [
        { messageId: 'countByLoading', line: 3, column: 30, severity: 'hint', message: /loads and hydrates the matching documents up to its limit only/ },
        { messageId: 'countByLoading', line: 4, column: 34, severity: 'hint', message: /loads and hydrates the matching documents \(its options argument, not read here, may limit them\) only/ },
      ],
      output: null,
    },
    {
      name: 'an existence check on a page of one (limit(1)) or by _id: hints; an _id list ($in, an array of ids) is shown',
      code: `${TASK}app.post('/t', async (req, res) => {
  const open = await Task.find({ owner: req.user.id, done: false }).limit(1);
  if (open.length > 0) return res.status(409).end();
  const same = await Task.find({ _id: req.params.id, owner: req.user.id });
  if (!same.length) return res.status(404).end();
  const byObjectId = await Task.find({ _id: new ObjectId(req.params.id) });
  if (!byObjectId.length) return res.status(404).end();
  const listed = await Task.find({ _id: { $in: req.body.ids } });
  const many = await Task.find({ _id: req.body.taskIds });
  res.json({ listed: listed.length, many: many.length });
});`,
      errors: [
        { messageId: 'existsByLoading', line: 4, column: 22, severity: 'hint', message: /the matching documents up to its limit only to test whether any matched/ },
        { messageId: 'existsByLoading', line: 6, column: 22, severity: 'hint', message: /the document matching its _id \(at most one\)/ },
        { messageId: 'existsByLoading', line: 8, column: 28, severity: 'hint' },
        { messageId: 'countByLoading', line: 10, column: 24, severity: 'warning', message: /loads and hydrates every matching document only to take \.length while handling a request;/ },
        { messageId: 'countByLoading', line: 11, column: 22, severity: 'warning' },
      ],
      output: null,
    },
    {
      name: 'a filter variable given one _id before the query (formio delete.js): a hint; given several ids in a branch: shown',
      code: `${TASK}app.delete('/t/:id', async (req, res) => {
  const query = { deleted: { $eq: null } };
  if (req.params.id) {
    query._id = idToBson(req.params.id);
    const tasks = await Task.find(query).exec();
    if (!tasks || !tasks.length) throw Error('not found');
  }
  const other = { deleted: null };
  other._id = req.params.id;
  if (req.body.all) other._id = { $in: req.body.ids };
  const many = await Task.find(other);
  const late = { late: true };
  const lateOnes = await Task.find(late);
  res.json({ many: many.length, late: lateOnes.length });
});`,
      errors: [
        { messageId: 'existsByLoading', line: 7, column: 25, severity: 'hint', message: /the document matching its _id \(at most one\)/ },
        { messageId: 'countByLoading', line: 13, column: 22, severity: 'warning', message: /every matching document/ },
        { messageId: 'countByLoading', line: 15, column: 26, severity: 'warning' },
      ],
      output: null,
    },
    {
      name: 'start-up code (a seed-if-empty check at module level): a hint, it runs once',
      code: `${TASK}Task.find({}).then((tasks) => {
  if (tasks.length === 0) Task.create({ done: false });
});
app.listen(3000, async () => {
  const all = await Task.find({});
  console.log('tasks:', all.length);
});`,
      errors: [
        { messageId: 'existsByLoading', line: 3, column: 1, severity: 'hint', message: /only to test whether any matched \(its \.length is only tested against zero\); use Task\.exists\(\) or Task\.countDocuments\(\)\. It matters when the read returns many documents or runs often\.$/ },
        { messageId: 'countByLoading', line: 7, column: 21, severity: 'hint' },
      ],
      output: null,
    },
    {
      name: 'emptiness comparisons (=== 0, > 0, >= 1, in an if) say existence; a comparison with another number is a count',
      code: `${TASK}app.get('/t', async (req, res) => {
  const open = await Task.find({ done: false });
  if (open.length === 0 || !(open.length > 0)) return res.end();
  const late = await Task.find({ late: true });
  if (late.length) res.set('X-Late', '1');
  const many = await Task.find({ many: true });
  res.json({ many: many.length > 5 });
});`,
      errors: [
        { messageId: 'existsByLoading', line: 4, column: 22, message: /only to test whether any matched \(its \.length is only tested against zero\) while handling a request; use Task\.exists\(\) or Task\.countDocuments\(\)\.$/ },
        { messageId: 'existsByLoading', line: 6, column: 22 },
        { messageId: 'countByLoading', line: 8, column: 22, message: /only to take \.length while handling a request;/ },
      ],
      output: null,
    },
    {
      name: 'model imported from ../models (TypeScript)',
      filename: 'routes/count.ts',
      code: `import { Task } from '../models';
export const countFor = async (owner: string): Promise<number> => (await Task.find({ owner }).lean()).length;`,
      errors: [{ messageId: 'countByLoading', line: 2, column: 74, message: /^Task\.find\(\) loads every matching document only to take \.length; use Task\.countDocuments\(\)\.$/ }],
      output: `import { Task } from '../models';
export const countFor = async (owner: string): Promise<number> => (await Task.countDocuments({ owner }));`,
    },
  ],
}, { project });
