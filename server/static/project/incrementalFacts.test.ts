import assert from 'node:assert/strict';
import * as path from 'node:path';
import { seededRandom } from '../../shared/seededRandom';
import { collectImports } from '../imports';
import { parseSource } from '../parse';
import { moduleFactsOf, type CallUse, type ModuleFacts } from './moduleFacts';
import { ProjectFacts } from './projectFacts';

// The project-wide answers are derived incrementally (each module's contribution kept with what it
// read); answering after every change must give what deriving everything from the final state gives.

const root = path.resolve('/project');
const FILES = ['routes', 'handlers', 'barrel', 'auth', 'boot', 'worker', 'services'].map((name) => path.join(root, `${name}.js`));
const [ROUTES, HANDLERS, BARREL, AUTH, BOOT, WORKER, SERVICES] = FILES;

/** Versions of each module's text: registrations, route tables through a barrel, classes, globals, injections, workers. */
const VERSIONS: Record<string, string[]> = {
  [ROUTES]: [
    "const h = require('./handlers');\nconst api = require('./barrel');\nrouter.get('/x', h.list);\nrouter.post('/login', api.auth.login);\nsetInterval(h.tick, 1000);\n",
    "const h = require('./handlers');\nmodule.exports = [{ method: 'DELETE', path: '/x/:id', handler: h.remove }];\nbus.on('data', h.list);\n",
    "const h = require('./handlers');\nrouter.get('/admin/x', h.list);\n",
  ],
  [HANDLERS]: [
    'function list() {}\nfunction remove() {}\nmodule.exports = { list, remove, tick: () => 1 };\n',
    'exports.list = function () {};\nclass UserService { change() {} find() {} }\nmodule.exports.UserService = UserService;\n',
    'var api = { list: function () {}, remove() {} };\nmodule.exports = api;\n',
  ],
  [BARREL]: ["module.exports = { auth: require('./auth') };\n", "exports.auth = require('./handlers');\n", 'module.exports = {};\n'],
  [AUTH]: ['exports.login = function login() {};\nclass Session { open() {} }\n', 'function login() {}\nmodule.exports = { login };\n'],
  [BOOT]: [
    "global.Store = require('./services');\nconst { fork } = require('child_process');\nfork('./worker.js');\nrequire('./handlers').use(Store);\n",
    "global.Store = require('./auth');\nconst m = require('./handlers');\nm.use(require('./services'));\n",
    "const { Worker } = require('worker_threads');\nnew Worker('./services.js');\n",
  ],
  [WORKER]: ["const m = require('./handlers');\nm.use(Store);\nprocess.on('message', require('./auth').login);\n", 'class UserService { change() {} }\n'],
  [SERVICES]: ['class UserService { change() {} }\nmodule.exports = UserService;\n', 'exports.getDb = () => new Db();\nclass Db { find() {} }\n', ''],
};

const CALLS: CallUse[][] = [
  [],
  [{ specifier: './handlers', exported: 'list', kind: 'request', intervalMs: null, highRate: false }],
  [
    { specifier: '', exported: 'change', receiver: 'userService', kind: 'request', intervalMs: null, highRate: true, changesState: true },
    { specifier: './services', exported: 'getDb', resultMethod: 'find', kind: 'timer', intervalMs: 500, highRate: false, fromServingModule: true },
    { specifier: './services', exported: 'default', constructs: true, kind: 'message', intervalMs: null, highRate: true },
  ],
];

const factsCache = new Map<string, ModuleFacts>();
function factsOf(file: string, text: string): ModuleFacts {
  const key = `${file}\0${text}`;
  let facts = factsCache.get(key);
  if (facts === undefined) {
    const ast = parseSource(file, text).ast!;
    facts = moduleFactsOf(ast.program, collectImports(ast.program), 'k');
    factsCache.set(key, facts);
  }
  return facts;
}

type Step = { op: 'note'; file: string; version: number } | { op: 'calls'; file: string; calls: number } | { op: 'forget'; file: string } | { op: 'toggle'; file: string };

/** A project whose files are `present` (a forgotten file may also have gone from the disk). */
function projectOver(present: Set<string>): ProjectFacts {
  return new ProjectFacts((from, specifier) => {
    if (!specifier.startsWith('.')) return null;
    const base = path.resolve(path.dirname(from), specifier);
    return [base, `${base}.js`].find((candidate) => present.has(candidate)) ?? null;
  });
}

function apply(facts: ProjectFacts, present: Set<string>, step: Step): void {
  if (step.op === 'note') facts.note(step.file, factsOf(step.file, VERSIONS[step.file][step.version]));
  else if (step.op === 'calls') facts.noteCalls(step.file, CALLS[step.calls]);
  else if (step.op === 'forget') facts.forget(step.file);
  else {
    // A file appears or goes away on disk, and is forgotten (what a watcher's event does).
    if (present.has(step.file)) present.delete(step.file);
    else present.add(step.file);
    facts.forget(step.file);
  }
}

function answersOf(facts: ProjectFacts): string {
  return JSON.stringify(FILES.map((file) => [facts.registrationsOf(file), facts.startedAsWorker(file), facts.injectedInto(file)]));
}

function randomSteps(seed: number, count: number): Step[] {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const steps: Step[] = [];
  for (let i = 0; i < count; i++) {
    const file = pick(FILES);
    const draw = random();
    if (draw < 0.55) steps.push({ op: 'note', file, version: Math.floor(random() * VERSIONS[file].length) });
    else if (draw < 0.8) steps.push({ op: 'calls', file, calls: Math.floor(random() * CALLS.length) });
    else if (draw < 0.92) steps.push({ op: 'forget', file });
    else steps.push({ op: 'toggle', file });
  }
  return steps;
}

describe('project-wide answers, derived incrementally (projectFacts.ts)', () => {
  it('answered after every change, they are what a project fed the same changes and asked once at the end answers', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const steps = randomSteps(seed, 60);
      const present = new Set(FILES);
      const live = projectOver(present);
      for (let i = 0; i < steps.length; i++) {
        apply(live, present, steps[i]);
        // Asked now and then, as the editor asks after some changes only.
        if (i % 3 !== 2) continue;
        const replayPresent = new Set(FILES);
        const replay = projectOver(replayPresent);
        for (const step of steps.slice(0, i + 1)) apply(replay, replayPresent, step);
        assert.equal(answersOf(live), answersOf(replay), `seed ${seed}, after step ${i}: ${JSON.stringify(steps[i])}`);
      }
    }
  });

  it('joins the registrations of several modules in the order they were first noted; a forgotten module noted again comes last', () => {
    const present = new Set(FILES);
    const facts = projectOver(present);
    const routesText = "const h = require('./handlers');\nrouter.get('/x', h.list);\n";
    facts.note(HANDLERS, factsOf(HANDLERS, VERSIONS[HANDLERS][0]));
    facts.note(ROUTES, factsOf(ROUTES, routesText));
    facts.note(WORKER, factsOf(WORKER, "require('./handlers');\nbus.on('data', require('./handlers').list);\n"));
    facts.noteCalls(AUTH, CALLS[1]);
    facts.note(AUTH, factsOf(AUTH, VERSIONS[AUTH][1]));
    const order = (): string[] => facts.registrationsOf(HANDLERS).map((r) => `${path.basename(r.registeredIn)}:${r.kind}`);
    assert.deepEqual(order(), ['routes.js:request', 'worker.js:message', 'auth.js:request']);
    // A new version of a known module keeps its place.
    facts.note(ROUTES, factsOf(ROUTES, "const h = require('./handlers');\nrouter.post('/x', h.list);\n"));
    assert.deepEqual(order(), ['routes.js:request', 'worker.js:message', 'auth.js:request']);
    assert.equal(facts.registrationsOf(HANDLERS)[0].changesState, true);
    facts.forget(ROUTES);
    assert.deepEqual(order(), ['worker.js:message', 'auth.js:request']);
    facts.note(ROUTES, factsOf(ROUTES, routesText));
    assert.deepEqual(order(), ['worker.js:message', 'auth.js:request', 'routes.js:request']);
  });

  it('a class or a global noted in one module changes what other modules\' calls and injections name', () => {
    const present = new Set(FILES);
    const facts = projectOver(present);
    facts.note(ROUTES, factsOf(ROUTES, ''));
    facts.noteCalls(ROUTES, CALLS[2]);
    facts.note(WORKER, factsOf(WORKER, VERSIONS[WORKER][0]));
    const methods = (): string[] => facts.registrationsOf(SERVICES).map((r) => `${r.method?.className}.${r.method?.name}`);
    // `new (require('./services'))()`: its constructor, by the export's name until the module's own facts tell its local name.
    assert.deepEqual(methods(), ['default.constructor']);
    assert.deepEqual(facts.injectedInto(HANDLERS), []);
    // The one class named after the field: `this.userService.change()` runs per request there.
    facts.note(SERVICES, factsOf(SERVICES, VERSIONS[SERVICES][0]));
    assert.deepEqual(methods(), ['UserService.change', 'UserService.constructor']);
    // A second class of that name: the field names neither.
    facts.note(AUTH, factsOf(AUTH, 'class UserService { change() {} }\n'));
    assert.deepEqual(methods(), ['UserService.constructor']);
    // The global the worker hands to `use` is set in another module.
    facts.note(BOOT, factsOf(BOOT, VERSIONS[BOOT][0]));
    assert.deepEqual(facts.injectedInto(HANDLERS).map((i) => path.basename(i.file)), ['services.js']);
    assert.equal(facts.startedAsWorker(WORKER), true);
    facts.note(BOOT, factsOf(BOOT, VERSIONS[BOOT][2]));
    assert.deepEqual(facts.injectedInto(HANDLERS), []);
    assert.equal(facts.startedAsWorker(WORKER), false);
    assert.equal(facts.startedAsWorker(SERVICES), true);
  });

  it('a file that appears on disk changes where specifiers lead once it is forgotten', () => {
    const present = new Set(FILES.filter((file) => file !== HANDLERS));
    const facts = projectOver(present);
    facts.note(ROUTES, factsOf(ROUTES, VERSIONS[ROUTES][2]));
    assert.deepEqual(facts.registrationsOf(HANDLERS), []);
    present.add(HANDLERS);
    facts.forget(HANDLERS);
    assert.deepEqual(facts.registrationsOf(HANDLERS).map((r) => `${r.exported}:${r.occasional}`), ['list:true']);
  });
});
