// Reach across modules that the project-wide analysis missed (issue 22, recall), one class per
// describe: what compilers emit (a TypeScript or Babel build imports through interop helpers,
// `http_1.default`, calls imports as `(0, m_1.f)(...)`, picks its server factory by a condition);
// a class of another module constructed by a handler. Each should-reach case has a
// should-not-reach twin, so that the fix is not "everything runs per request".
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { analyzeFileList } from '../../cli/fileAnalysis';
import { collectSourceFiles } from '../../shared/sourceFiles';
import { findingsOf, projectOf, removeProjects } from '../../../test/unit/projectOnDisk';

after(removeProjects);

const INTEROP = 'var __importDefault = (this && this.__importDefault) || function (mod) { return (mod && mod.__esModule) ? mod : { "default": mod }; };\n';

/** A compiled git-over-HTTP server whose server factory is `factory` (a source expression). */
function gitServer(factory: string): Record<string, string> {
  return {
    'server.js': `"use strict";
${INTEROP}const http_1 = __importDefault(require("http"));
const https_1 = __importDefault(require("https"));
const refs_1 = require("./refs");
class Git {
    handle(req, res) {
        return (0, refs_1.advertise)(req.url, res);
    }
    listen(port, options) {
        const createServer = ${factory};
        this.server = createServer((req, res) => {
            this.handle(req, res);
        });
        this.server.listen(port);
    }
}
exports.Git = Git;
`,
    'refs.js': `"use strict";
const child_process_1 = require("child_process");
function advertise(repo, res) {
    const cmd = ['git-upload-pack', '--advertise-refs', repo];
    const ps = (0, child_process_1.spawn)(cmd[0], cmd.slice(1));
    ps.stdout.pipe(res);
}
exports.advertise = advertise;
`,
  };
}

describe('reach through compiled modules (interop helpers, (0, f)() calls, a server factory chosen by a condition)', () => {
  it('a spawn in another module, called as (0, m_1.f)() from a handler of a server made by a conditional createServer, runs per request', () => {
    const dir = projectOf(gitServer("options.type == 'http' ? http_1.default.createServer : https_1.default.createServer.bind(this, options)"));
    assert.deepEqual(findingsOf(dir, ['refs.js', 'server.js'])['refs.js'], ['spawn-without-env:5:information']);
  });

  it('a factory local that is not a server module\'s createServer registers nothing', () => {
    const dir = projectOf(gitServer('options.createServer'));
    assert.deepEqual(findingsOf(dir, ['refs.js', 'server.js'])['refs.js'], []);
  });

  it('blocking calls through interop imports are seen in a handler and not at start-up', () => {
    const dir = projectOf({
      'app.js': `"use strict";
${INTEROP}const express_1 = __importDefault(require("express"));
const bcryptjs_1 = __importDefault(require("bcryptjs"));
const fs_1 = require("fs");
const app = (0, express_1.default)();
const config = (0, fs_1.readFileSync)('config.json', 'utf8');
const adminHash = bcryptjs_1.default.hashSync(config, 10);
app.post('/users', (req, res) => {
    const hash = bcryptjs_1.default.hashSync(req.body.password, 10);
    (0, fs_1.appendFileSync)('users.log', req.body.name);
    res.json({ hash });
});
app.listen(3000);
`,
    });
    // The append is a small write on a route that creates a user: a hint until a profile measures it (see the route-method describe below).
    assert.deepEqual(findingsOf(dir, ['app.js'])['app.js'], ['blocking-sync-call:10:warning', 'blocking-sync-call:11:hint']);
  });
});

describe('reach into the constructor of another module\'s class (`new mod.Service(req)` in a handler)', () => {
  const service = `const { spawn } = require('child_process');
const { EventEmitter } = require('events');
class Service extends EventEmitter {
  constructor(opts, req, res) {
    super();
    this.once('accept', () => {
      const ps = spawn('git-receive-pack', ['--stateless-rpc', opts.cwd]);
      ps.stdout.pipe(res);
    });
  }
  describe() {
    return spawn('git', ['--version']);
  }
}
exports.Service = Service;
`;

  it('the constructor (and the listener it registers) runs per request; another method of the class is not told so', () => {
    const dir = projectOf({
      'service.js': service,
      'server.js': "const http = require('http');\nconst service_1 = require('./service');\nhttp.createServer((req, res) => {\n  const action = new service_1.Service({ cwd: '/srv/repo' }, req, res);\n  action.emit('accept');\n}).listen(8000);\n",
    });
    assert.deepEqual(findingsOf(dir, ['service.js', 'server.js'])['service.js'], ['spawn-without-env:7:information']);
  });

  it('a class constructed once at start-up is not on a serving path', () => {
    const dir = projectOf({
      'service.js': service,
      'server.js': "const http = require('http');\nconst { Service } = require('./service');\nconst boot = new Service({ cwd: '/srv/repo' });\nhttp.createServer((req, res) => res.end('ok')).listen(8000);\n",
    });
    assert.deepEqual(findingsOf(dir, ['service.js', 'server.js'])['service.js'], []);
  });
});

describe('the route method across modules: a handler or helper reached only through routes that change state (issue 22, evidence)', () => {
  const store = "const fs = require('fs');\nfunction save(settings) {\n  fs.writeFileSync('/data/settings.json', JSON.stringify(settings));\n}\nexports.save = save;\nexports.saveRoute = (req, res) => { fs.renameSync('/data/a', '/data/b'); res.end(); };\n";

  it('a write in a helper called from a POST handler, and in a handler a router of another module registers for POST, is a hint', () => {
    const dir = projectOf({
      'store.js': store,
      'server.js': "const express = require('express');\nconst store = require('./store');\nconst app = express();\napp.post('/settings', (req, res) => { store.save(req.body); res.end(); });\napp.post('/rename', store.saveRoute);\napp.listen(3000);\n",
    });
    assert.deepEqual(findingsOf(dir, ['store.js', 'server.js'])['store.js'], ['blocking-sync-call:3:hint', 'blocking-sync-call:6:hint']);
  });

  it('the same helper and handler reached from a GET route too are shown', () => {
    const dir = projectOf({
      'store.js': store,
      'server.js': "const express = require('express');\nconst store = require('./store');\nconst app = express();\napp.post('/drafts', (req, res) => { store.save(req.body); res.end(); });\napp.get('/drafts', (req, res) => { store.save({}); res.end(); });\napp.post('/rename', store.saveRoute);\napp.get('/rename', store.saveRoute);\napp.listen(3000);\n",
    });
    assert.deepEqual(findingsOf(dir, ['store.js', 'server.js'])['store.js'], ['blocking-sync-call:3:warning', 'blocking-sync-call:6:warning']);
  });

  it('a GET route of another module whose path names administration or that an admin guard precedes, a route table entry under /admin, a child\'s IPC: hints; the same helper on a route of the traffic: shown', () => {
    const spawner = "const { spawn } = require('child_process');\nexports.runNpm = (args) => spawn('npm', args, { cwd: '/srv' });\nexports.tail = (req, res) => { spawn('tail', ['-n', '50', '/var/log/app.log']).stdout.pipe(res); };\n";
    const admin = projectOf({
      'npm.js': spawner,
      'server.js': "const express = require('express');\nconst npm = require('./npm');\nconst app = express();\napp.get('/admin/plugins/refresh', (req, res) => { npm.runNpm(['update']); res.end(); });\napp.get('/logs', requireAdmin, npm.tail);\nprocess.on('message', (m) => npm.runNpm(['install', m.name]));\napp.listen(3000);\n",
    });
    assert.deepEqual(findingsOf(admin, ['npm.js', 'server.js'])['npm.js'], ['spawn-without-env:2:hint', 'spawn-without-env:3:hint']);
    const table = projectOf({
      'npm.js': spawner,
      'routes.js': "const npm = require('./npm');\nmodule.exports = [\n  { method: 'GET', path: '/api/admin/logs', handler: npm.tail },\n];\n",
    });
    assert.deepEqual(findingsOf(table, ['npm.js', 'routes.js'])['npm.js'], ['spawn-without-env:3:hint']);
    const traffic = projectOf({
      'npm.js': spawner,
      'server.js': "const express = require('express');\nconst npm = require('./npm');\nconst app = express();\napp.get('/admin/plugins/refresh', (req, res) => { npm.runNpm(['update']); res.end(); });\napp.get('/packages/:name', (req, res) => { npm.runNpm(['view', req.params.name]); res.end(); });\napp.get('/logs', npm.tail);\napp.listen(3000);\n",
    });
    assert.deepEqual(findingsOf(traffic, ['npm.js', 'server.js'])['npm.js'], ['spawn-without-env:2:information', 'spawn-without-env:3:information']);
  });

  it('a route table entry with method POST registers its handler as a route that changes state', () => {
    const dir = projectOf({
      'store.js': store,
      'routes.js': "const store = require('./store');\nmodule.exports = [\n  { method: 'POST', path: '/rename', handler: store.saveRoute },\n];\n",
    });
    assert.deepEqual(findingsOf(dir, ['store.js', 'routes.js'])['store.js'], ['blocking-sync-call:6:hint']);
  });
});

describe('a periodic timer of a serving module calling another module (issue 22, class 3: ticks on the serving event loop)', () => {
  // A metrics helper whose export is a member of the object a factory returns (`module.exports = create()`).
  const metrics = "const { execFile } = require('child_process');\nfunction run(bin, args) {\n  return new Promise((resolve) => execFile(bin, args, { timeout: 2000 }, (err, out) => resolve(out)));\n}\nfunction create() {\n  async function disk() { return run('df', ['-kP']); }\n  async function collect(cb) { cb(await disk()); }\n  return { collect, disk };\n}\nmodule.exports = create();\n";
  const stats = "const { execSync } = require('child_process');\nexports.processes = function () {\n  return execSync('ps -eo pid,rss').toString();\n};\n";

  it('a spawn and an execSync in helpers of other modules, called each tick of a server\'s setInterval, are shown', () => {
    const dir = projectOf({
      'lib/util/metrics.js': metrics,
      'lib/util/stats.js': stats,
      'lib/server.js': "const http = require('http');\nconst metrics = require('./util/metrics');\nconst stats = require('./util/stats');\nlet last = null;\nsetInterval(() => { metrics.collect((d) => { last = d; }); last.ps = stats.processes(); }, 5000);\nhttp.createServer((req, res) => res.end(JSON.stringify(last))).listen(3000);\n",
    });
    const found = findingsOf(dir, ['lib/util/metrics.js', 'lib/util/stats.js', 'lib/server.js']);
    assert.deepEqual(found['lib/util/metrics.js'], ['spawn-without-env:3:information']);
    assert.deepEqual(found['lib/util/stats.js'], ['blocking-sync-call:3:warning', 'spawn-without-env:3:information']);
  });

  it('the same timer in a module that serves nothing (a CLI\'s progress tick) reaches nothing', () => {
    const dir = projectOf({
      'lib/util/metrics.js': metrics,
      'lib/util/stats.js': stats,
      'lib/report.js': "const metrics = require('./util/metrics');\nconst stats = require('./util/stats');\nsetInterval(() => { metrics.collect(console.log); console.log(stats.processes()); }, 5000);\n",
    });
    const found = findingsOf(dir, ['lib/util/metrics.js', 'lib/util/stats.js', 'lib/report.js']);
    assert.deepEqual(found['lib/util/metrics.js'], []);
    assert.deepEqual(found['lib/util/stats.js'], []);
  });

  it('a one-shot setTimeout of a serving module is not a tick: its callee stays quiet', () => {
    const dir = projectOf({
      'lib/util/stats.js': stats,
      'lib/server.js': "const http = require('http');\nconst stats = require('./util/stats');\nsetTimeout(() => console.log(stats.processes()), 5000);\nhttp.createServer((req, res) => res.end('ok')).listen(3000);\n",
    });
    assert.deepEqual(findingsOf(dir, ['lib/util/stats.js', 'lib/server.js'])['lib/util/stats.js'], []);
  });
});

describe('a router mounted under an administrative prefix in another module (issue 22, class 5)', () => {
  const adminRoutes = "const express = require('express');\nconst { execFile } = require('child_process');\nconst router = express.Router();\nrouter.get('/processes', (req, res) => {\n  execFile('ps', ['-eo', 'pid,rss'], (err, out) => res.send(out));\n});\nmodule.exports = router;\n";

  it('its routes are administrative (a hint until a profile measures them), whether the mount names a required variable or requires inline', () => {
    for (const mount of ["const admin = require('./routes/admin');\napp.use('/admin', admin);\n", "app.use('/admin', requireLogin, require('./routes/admin'));\n"]) {
      const dir = projectOf({
        'routes/admin.js': adminRoutes,
        'app.js': `const express = require('express');\nconst app = express();\nfunction requireLogin(req, res, next) { next(); }\n${mount}app.listen(3000);\n`,
      });
      assert.deepEqual(findingsOf(dir, ['routes/admin.js', 'app.js'])['routes/admin.js'], ['spawn-without-env:5:hint'], mount);
    }
  });

  it('the same router mounted under a prefix of the traffic, or under both, is shown', () => {
    for (const mount of ["app.use('/api', require('./routes/admin'));\n", "app.use('/admin', require('./routes/admin'));\napp.use('/api', require('./routes/admin'));\n"]) {
      const dir = projectOf({
        'routes/admin.js': adminRoutes,
        'app.js': `const express = require('express');\nconst app = express();\n${mount}app.listen(3000);\n`,
      });
      assert.deepEqual(findingsOf(dir, ['routes/admin.js', 'app.js'])['routes/admin.js'], ['spawn-without-env:5:information'], mount);
    }
  });
});

describe('a module required by a path built from __dirname (issue 22, class 2: computed specifiers)', () => {
  const passwords = "const bcrypt = require('bcryptjs');\nexports.check = function (password, hash) {\n  return bcrypt.compareSync(password, hash);\n};\n";
  const app = (specifier: string, root = ''): string => `const express = require('express');\nconst path = require('path');\nconst app = express();\n${root}app.post('/login', (req, res) => res.json({ ok: require(${specifier}).check(req.body.password, req.user.hash) }));\napp.listen(3000);\n`;

  for (const specifier of ["path.join(__dirname, 'lib', 'passwords')", "path.resolve(__dirname, './lib/passwords')", "__dirname + '/lib/passwords'", '`${__dirname}/lib/passwords`']) {
    it(`require(${specifier}) in a route handler reaches the export it names`, () => {
      const dir = projectOf({ 'lib/passwords.js': passwords, 'app.js': app(specifier) });
      assert.deepEqual(findingsOf(dir, ['lib/passwords.js', 'app.js'])['lib/passwords.js'], ['blocking-sync-call:3:warning']);
    });
  }

  it('a path from another folder than __dirname (the working directory) names no module of the project', () => {
    const dir = projectOf({ 'lib/passwords.js': passwords, 'app.js': app("path.join(root, 'lib', 'passwords')", 'const root = process.cwd();\n') });
    assert.deepEqual(findingsOf(dir, ['lib/passwords.js', 'app.js'])['lib/passwords.js'], []);
  });
});

describe('a module in a folder named like tooling (tools/, scripts/, bin/) that serving code of the project calls', () => {
  const files = (caller: string): Record<string, string> => ({
    [caller]: `const express = require('express');
const disk = require('${caller.startsWith('test/') ? '../' : './'}lib/tools/disk');
const app = express();
app.get('/health/disk', (req, res) => res.json(disk.usage()));
app.listen(3000);
`,
    'lib/tools/disk.js': `const { execSync } = require('child_process');
function usage() {
  return execSync('df -k /').toString();
}
module.exports = { usage };
`,
  });

  it('serves when a handler of a serving module calls it: its blocking exec is shown', () => {
    const dir = projectOf(files('server.js'));
    assert.deepEqual(findingsOf(dir, ['lib/tools/disk.js', 'server.js'])['lib/tools/disk.js'], ['blocking-sync-call:3:warning', 'spawn-without-env:3:information']);
  });

  it('stays tooling when only tooling calls it (a test\'s server is not the service)', () => {
    const dir = projectOf(files('test/server.js'));
    assert.deepEqual(findingsOf(dir, ['lib/tools/disk.js', 'test/server.js'])['lib/tools/disk.js'], []);
  });
});

describe('a module handed to another module\'s exported setter and kept in a module variable (issue 22, recall)', () => {
  const git = "const childProcess = require('child_process');\nfunction gitSpawn(args, cb) {\n  const child = childProcess.spawn('git', args, { cwd: '/srv/wiki' });\n  child.on('close', cb);\n}\nexports.show = function (file, cb) {\n  gitSpawn(['show', file], cb);\n};\n";
  const models = "var git;\nmodule.exports = {\n  use: function (g) {\n    git = g;\n  },\n  load: function (name, cb) {\n    git.show(name, cb);\n  },\n};\n";
  const app = (wiring: string): string => `const http = require('http');\nconst models = require('./lib/models');\n${wiring}\nhttp.createServer((req, res) => {\n  models.load(req.url, () => res.end());\n}).listen(8000);\n`;
  // The setter's caller is read before the module it wires: findingsOf analyzes twice, the command line until answers settle.
  const files = ['app.js', 'lib/models.js', 'lib/git.js'];

  for (const wiring of ["models.use(require('./lib/git'));", "const git = require('./lib/git');\nmodels.use(git);"]) {
    it(`a handler calling the module variable's method reaches the injected module's export (${wiring.split('\n').pop()})`, () => {
      const dir = projectOf({ 'lib/git.js': git, 'lib/models.js': models, 'app.js': app(wiring) });
      assert.deepEqual(findingsOf(dir, files)['lib/git.js'], ['spawn-without-env:3:information']);
    });
  }

  it('a variable the setter also assigns something else, or a setter handed a package, names no module of the project', () => {
    const twice = models.replace('git = g;', 'git = g;\n  },\n  reset: function () {\n    git = null;');
    let dir = projectOf({ 'lib/git.js': git, 'lib/models.js': twice, 'app.js': app("models.use(require('./lib/git'));") });
    assert.deepEqual(findingsOf(dir, files)['lib/git.js'], []);
    dir = projectOf({ 'lib/git.js': git, 'lib/models.js': models, 'app.js': app("models.use(require('simple-git'));\nrequire('./lib/git');") });
    assert.deepEqual(findingsOf(dir, files)['lib/git.js'], []);
  });
});

describe('a method called on an instance of another module\'s class or constructor function (`const page = new models.Page(name); page.fetch()`)', () => {
  const git = "const childProcess = require('child_process');\nexports.show = function (file, cb) {\n  childProcess.spawn('git', ['show', file], { cwd: '/srv/wiki' });\n};\n";
  const shapes: Record<string, string> = {
    'an ES class': "const git = require('./git');\nclass Page {\n  constructor(name) { this.name = name; }\n  exists() { return this.name !== ''; }\n  fetch() { return this.fetchContent(); }\n  fetchContent() { git.show(this.name); }\n}\nmodule.exports = { Page };\n",
    'a constructor function with prototype methods': "const git = require('./git');\nfunction Page(name) { this.name = name; }\nPage.prototype.exists = function () { return this.name !== ''; };\nPage.prototype.fetch = function () { return this.fetchContent(); };\nPage.prototype.fetchContent = function () { git.show(this.name); };\nmodule.exports = { Page };\n",
  };
  const app = (body: string, startup = ''): string => `const http = require('http');\nconst models = require('./lib/models');\n${startup}http.createServer((req, res) => {\n  const page = new models.Page(req.url);\n  ${body}\n}).listen(8000);\n`;
  const files = ['app.js', 'lib/models.js', 'lib/git.js'];

  for (const [shape, models] of Object.entries(shapes)) {
    it(`a handler calling the method reaches what it calls in a third module (${shape})`, () => {
      const dir = projectOf({ 'lib/git.js': git, 'lib/models.js': models, 'app.js': app('page.fetch();') });
      assert.deepEqual(findingsOf(dir, files)['lib/git.js'], ['spawn-without-env:3:information']);
    });

    it(`a handler calling only another method, and the method called on an instance made at start-up, reach nothing (${shape})`, () => {
      const startup = "const home = new models.Page('index');\nhome.fetch();\n";
      const dir = projectOf({ 'lib/git.js': git, 'lib/models.js': models, 'app.js': app('if (!page.exists()) res.end();', startup) });
      assert.deepEqual(findingsOf(dir, files)['lib/git.js'], []);
    });
  }

  it('the body of a constructor function runs where it is constructed: per request in a handler, not at start-up', () => {
    const models = "const git = require('./git');\nfunction Page(name) {\n  this.name = name;\n  git.show(name);\n}\nmodule.exports = { Page };\n";
    let dir = projectOf({ 'lib/git.js': git, 'lib/models.js': models, 'app.js': app('res.end(page.name);') });
    assert.deepEqual(findingsOf(dir, files)['lib/git.js'], ['spawn-without-env:3:information']);
    dir = projectOf({ 'lib/git.js': git, 'lib/models.js': models, 'app.js': "const http = require('http');\nconst models = require('./lib/models');\nconst home = new models.Page('index');\nhttp.createServer((req, res) => res.end(home.name)).listen(8000);\n" });
    assert.deepEqual(findingsOf(dir, files)['lib/git.js'], []);
  });
});

describe('a member of the object a module exports whole (`var api = { show: function () {} }; module.exports = api`)', () => {
  const git = "const childProcess = require('child_process');\nvar api = {\n  show: function (file) {\n    childProcess.spawn('git', ['show', file], { cwd: '/srv/wiki' });\n  },\n  version: function () {\n    return '1';\n  },\n};\nmodule.exports = api;\n";
  const app = (call: string): string => `const http = require('http');\nconst git = require('./lib/git');\nhttp.createServer((req, res) => {\n  res.end(${call});\n}).listen(8000);\n`;

  it('called from a handler of another module, runs per request', () => {
    const dir = projectOf({ 'lib/git.js': git, 'app.js': app('git.show(req.url)') });
    assert.deepEqual(findingsOf(dir, ['app.js', 'lib/git.js'])['lib/git.js'], ['spawn-without-env:4:information']);
  });

  it('another member called from the handler leaves it alone', () => {
    const dir = projectOf({ 'lib/git.js': git, 'app.js': app('git.version()') });
    assert.deepEqual(findingsOf(dir, ['app.js', 'lib/git.js'])['lib/git.js'], []);
  });
});

describe('a module handed over by a global the entry script sets (`global.Git = require(\'./lib/git\')` in an extensionless `bin/wiki`)', () => {
  const git = "const childProcess = require('child_process');\nexports.show = function (file, cb) {\n  childProcess.spawn('git', ['show', file], { cwd: '/srv/wiki' });\n};\n";
  const models = "var git;\nmodule.exports = {\n  use: function (g) {\n    git = g;\n  },\n  load: function (name, cb) {\n    git.show(name, cb);\n  },\n};\n";
  const routes = (prelude: string): string => `${prelude}const http = require('http');\nconst models = require('../lib/models');\nmodels.use(Git);\nhttp.createServer((req, res) => {\n  models.load(req.url, () => res.end());\n}).listen(8000);\n`;
  const entry = (sets: string): string => `#!/usr/bin/env node\n${sets}\nrequire('../routes/wiki');\n`;

  /** The command line's run over the folder: the files it collects, analyzed until answers settle. */
  const shownOfFolder = (dir: string): string[] => analyzeFileList(collectSourceFiles([dir], dir), dir, {})
    .flatMap((o) => o.findings.filter(({ finding }) => finding.severity !== 'hint').map(({ finding }) => `${path.relative(dir, o.path)}:${finding.ruleId}:${finding.range.loc.start.line}`));

  it('the setter handed the global reaches the module the entry script set it to: its spawn runs per request', () => {
    const dir = projectOf({ 'bin/wiki': entry("global.Git = require('../lib/git');"), 'lib/git.js': git, 'lib/models.js': models, 'routes/wiki.js': routes('') });
    assert.deepEqual(shownOfFolder(dir), ['lib/git.js:spawn-without-env:3']);
  });

  it('a name the module declares itself, a global set to two different modules, or one nobody sets names no module', () => {
    const other = "exports.show = function () {};\n";
    for (const [sets, prelude] of [
      ["global.Git = require('../lib/git');", "const Git = require('../lib/other');\n"],
      ["global.Git = require('../lib/git');\nif (process.env.OTHER) global.Git = require('../lib/other');", ''],
      ["global.Repo = require('../lib/git');", ''],
    ]) {
      const dir = projectOf({ 'bin/wiki': entry(sets), 'lib/git.js': git, 'lib/other.js': other, 'lib/models.js': models, 'routes/wiki.js': routes(prelude) });
      assert.deepEqual(shownOfFolder(dir), [], sets);
    }
  });
});

describe('exports written inside a function the module calls at once with its exports object (`(function (module) { module.hash = f }(exports))`)', () => {
  const password = (argument: string): string => `(function (module) {
  var fork = require('child_process').fork;
  module.compare = function (password, hash, callback) {
    var child = fork('./bcrypt', []);
    child.on('message', function (msg) { callback(null, msg.result); });
    child.send({ password: password, hash: hash });
  };
}(${argument}));
`;
  const controller = "const express = require('express');\nconst Password = require('./password');\nconst app = express();\napp.get('/verify', (req, res) => {\n  Password.compare(req.body.password, req.user.hash, (err, ok) => res.json({ ok }));\n});\napp.listen(3000);\n";

  for (const argument of ['exports', 'module.exports']) {
    it(`a member written through the parameter is the export another module's handler calls (${argument})`, () => {
      const dir = projectOf({ 'password.js': password(argument), 'app.js': controller });
      assert.deepEqual(findingsOf(dir, ['password.js', 'app.js'])['password.js'], ['spawn-without-env:4:information']);
    });
  }

  it('the same function called with another object writes no export', () => {
    const dir = projectOf({ 'password.js': password('{}'), 'app.js': controller });
    assert.deepEqual(findingsOf(dir, ['password.js', 'app.js'])['password.js'], []);
  });
});

describe('an authentication strategy\'s verify function (`passport.use(new LocalStrategy(options, verify))`), and a handler named through a module an index module exports', () => {
  const auth = "const bcrypt = require('bcryptjs');\nexports.verify = function (req, username, password, done) {\n  done(null, bcrypt.compareSync(password, req.app.locals.hashes[username]));\n};\n";
  const routes = (registration: string): string => `const express = require('express');
const passport = require('passport');
const LocalStrategy = require('passport-local').Strategy;
const controllers = require('./controllers');
const app = express();
app.use(passport.initialize());
${registration}
app.listen(3000);
`;
  const index = (auth: string): string => `var Controllers = {\n  auth: ${auth},\n};\nmodule.exports = Controllers;\n`;

  it('the verify function, named as a member of the module an index exports, runs per authenticated request: its blocking compare is shown', () => {
    const dir = projectOf({
      'controllers/auth.js': auth,
      'controllers/index.js': index("require('./auth')"),
      'routes.js': routes('passport.use(new LocalStrategy({ passReqToCallback: true }, controllers.auth.verify));'),
    });
    assert.deepEqual(findingsOf(dir, ['controllers/auth.js', 'controllers/index.js', 'routes.js'])['controllers/auth.js'], ['blocking-sync-call:3:warning']);
  });

  it('a verify function written in the registering module runs per authenticated request', () => {
    const dir = projectOf({
      'routes.js': routes("const bcrypt = require('bcryptjs');\npassport.use('local', new LocalStrategy((username, password, done) => done(null, bcrypt.compareSync(password, username))));"),
    });
    assert.deepEqual(findingsOf(dir, ['routes.js'])['routes.js'], ['blocking-sync-call:8:warning']);
  });

  it('requires written inside a function the module calls at once around its code name modules as top-level ones do', () => {
    const dir = projectOf({
      'controllers/auth.js': auth,
      'controllers/index.js': index("require('./auth')"),
      'routes.js': `(function (Auth) {
  var passport = require('passport'),
    LocalStrategy = require('passport-local').Strategy,
    controllers = require('./controllers');
  Auth.reload = function (app) {
    passport.use(new LocalStrategy({ passReqToCallback: true }, controllers.auth.verify));
  };
}(exports));
`,
    });
    assert.deepEqual(findingsOf(dir, ['controllers/auth.js', 'controllers/index.js', 'routes.js'])['controllers/auth.js'], ['blocking-sync-call:3:warning']);
  });

  it('a constructor that is no strategy handed to another `use`, or an index export that is no module, registers nothing', () => {
    const other = projectOf({
      'controllers/auth.js': auth,
      'controllers/index.js': index("require('./auth')"),
      'routes.js': routes('app.use(new Cache({ max: 10 }, controllers.auth.verify));'),
    });
    assert.deepEqual(findingsOf(other, ['controllers/auth.js', 'controllers/index.js', 'routes.js'])['controllers/auth.js'], []);
    const notModule = projectOf({
      'controllers/auth.js': auth,
      'controllers/index.js': index('{ verify: function () {} }'),
      'routes.js': routes('passport.use(new LocalStrategy({ passReqToCallback: true }, controllers.auth.verify));'),
    });
    assert.deepEqual(findingsOf(notModule, ['controllers/auth.js', 'controllers/index.js', 'routes.js'])['controllers/auth.js'], []);
  });
});

describe('a SvelteKit app: remote functions (`query(schema, fn)` of `$app/server`), `$lib` imports, a method of what another module\'s function returned', () => {
  const db = `import { MongoClient } from 'mongodb';
class Connections {
  async statsFrom(node: string) {
    const client = new MongoClient('mongodb://' + node);
    try {
      await client.connect();
      return await client.db('admin').command({ serverStatus: 1 });
    } finally {
      await client.close();
    }
  }
}
let connections: Connections | null = null;
export async function getConnections(): Promise<Connections> {
  if (!connections) connections = new Connections();
  return connections;
}
`;
  const remote = (factory: string): string => `import { ${factory} } from '$app/server';
import { getConnections } from '$lib/server/db';
export const nodeStats = ${factory}(async (nodes: string[]) => {
  const connections = await getConnections();
  return Promise.all(nodes.map((node) => connections.statsFrom(node)));
});
`;

  it('a query\'s function runs per request: the client a method of the $lib module\'s class opens per call is shown', () => {
    const dir = projectOf({ 'svelte.config.js': 'export default {};\n', 'src/lib/server/db.ts': db, 'src/routes/stats.remote.ts': remote('query') });
    assert.deepEqual(findingsOf(dir, ['src/lib/server/db.ts', 'src/routes/stats.remote.ts'])['src/lib/server/db.ts'], ['connection-per-request:4:warning']);
  });

  it('without a svelte.config, `$lib` is a package; and a `query` of another module registers nothing', () => {
    const noApp = projectOf({ 'src/lib/server/db.ts': db, 'src/routes/stats.remote.ts': remote('query') });
    assert.deepEqual(findingsOf(noApp, ['src/lib/server/db.ts', 'src/routes/stats.remote.ts'])['src/lib/server/db.ts'], []);
    const other = projectOf({
      'svelte.config.js': 'export default {};\n', 'src/lib/server/db.ts': db,
      'src/routes/stats.remote.ts': remote('query').replace("'$app/server'", "'./query-builder'"),
    });
    assert.deepEqual(findingsOf(other, ['src/lib/server/db.ts', 'src/routes/stats.remote.ts'])['src/lib/server/db.ts'], []);
  });
});

describe('a method called on what another module\'s function returned (`const repo = open(dir); repo.log()`)', () => {
  const repo = (second: string): string => `const { spawn } = require('child_process');
class Repo {
  log() { return spawn('git', ['log']); }
}
${second}
function open() { return new Repo(); }
module.exports = { open };
`;
  const app = "const express = require('express');\nconst { open } = require('./repo');\nconst app = express();\napp.get('/log', (req, res) => {\n  const repo = open();\n  repo.log().stdout.pipe(res);\n});\napp.listen(3000);\n";

  it('is the method of the one class of that module that has it: per request in the handler', () => {
    const dir = projectOf({ 'repo.js': repo(''), 'app.js': app });
    assert.deepEqual(findingsOf(dir, ['repo.js', 'app.js'])['repo.js'], ['spawn-without-env:3:information']);
  });

  it('two classes of the module with that method resolve to neither', () => {
    const dir = projectOf({ 'repo.js': repo("class Mirror {\n  log() { return spawn('git', ['log', '--all']); }\n}"), 'app.js': app });
    assert.deepEqual(findingsOf(dir, ['repo.js', 'app.js'])['repo.js'], []);
  });
});

describe('SvelteKit file routes: a `+server` file\'s GET/POST exports, a `+page.server` file\'s load and actions', () => {
  const endpoint = `import { MongoClient } from 'mongodb';
import { execSync } from 'node:child_process';
export async function GET({ url }) {
  const client = new MongoClient(url.searchParams.get('uri'));
  await client.connect();
  return new Response(JSON.stringify(await client.db('admin').command({ ping: 1 })));
}
export function version() {
  return execSync('git describe', { env: { PATH: process.env.PATH } });
}
`;
  const page = `import { execSync } from 'node:child_process';
export const load = async () => ({ log: execSync('git log -1', { env: { PATH: process.env.PATH } }).toString() });
export const actions = {
  default: async () => { execSync('git pull', { env: { PATH: process.env.PATH } }); },
};
`;

  it('run per request: their blocking and connecting calls are shown', () => {
    const dir = projectOf({ 'src/routes/ping/+server.ts': endpoint, 'src/routes/+page.server.ts': page });
    const found = findingsOf(dir, ['src/routes/ping/+server.ts', 'src/routes/+page.server.ts']);
    assert.deepEqual(found['src/routes/ping/+server.ts'], ['connection-per-request:4:warning']);
    assert.deepEqual(found['src/routes/+page.server.ts'], ['blocking-sync-call:2:warning', 'blocking-sync-call:4:warning']);
  });

  it('the same exports in files of other names run when something calls them', () => {
    const dir = projectOf({ 'src/routes/ping/server.ts': endpoint, 'src/routes/page.server.ts': page });
    const found = findingsOf(dir, ['src/routes/ping/server.ts', 'src/routes/page.server.ts']);
    assert.deepEqual(found['src/routes/ping/server.ts'], []);
    assert.deepEqual(found['src/routes/page.server.ts'], []);
  });
});

describe('a route added with its method and path in one string, or through addRoute (`router.addRoute(\'POST /login\', login)`, a CMS\'s own router)', () => {
  const passwords = "const bcrypt = require('bcryptjs');\nexports.check = function (password, hash) {\n  return bcrypt.compareSync(password, hash);\n};\n";
  const userModule = (registration: string): string => `const passwords = require('./passwords');
function init(module, app, next) {
  ${registration}
}
function login(req, res, template, block, next) {
  res.end(String(passwords.check(req.body.password, req.user.hash)));
}
exports.init = init;
`;

  for (const registration of ["module.router.addRoute('POST /user/login', login, { template: 'login' }, next);", 'module.router.addRoute(/^\\/user/, login, {}, next);', "routes.add('POST /user/login', login);"]) {
    it(`${registration.split('(')[0]}(…) registers its handler: a blocking call it reaches in another module runs per request`, () => {
      const dir = projectOf({ 'passwords.js': passwords, 'user.js': userModule(registration) });
      assert.deepEqual(findingsOf(dir, ['passwords.js', 'user.js'])['passwords.js'], ['blocking-sync-call:3:warning']);
    });
  }

  it('a request sent by a client named the same way (`client.request(\'POST /user/login\', cb)`) registers nothing', () => {
    const dir = projectOf({ 'passwords.js': passwords, 'user.js': userModule("client.request('POST /user/login', login);") });
    assert.deepEqual(findingsOf(dir, ['passwords.js', 'user.js'])['passwords.js'], []);
  });

  it('a path alone (no method) to a method other than addRoute registers nothing', () => {
    const dir = projectOf({ 'passwords.js': passwords, 'user.js': userModule("cache.add('/user/login', login);") });
    assert.deepEqual(findingsOf(dir, ['passwords.js', 'user.js'])['passwords.js'], []);
  });
});

describe('an entry of a route table whose handler is a function of the same module (`{ path: \'GET /admin/mail\', fn: show }`)', () => {
  const table = (entry: string): string => `const { execSync } = require('child_process');
var routes = [
  ${entry},
];
exports.routes = routes;
function show(req, res, options, next) {
  render(function (text) { res.end(text); });
}
function render(done) {
  done(execSync('uptime').toString());
}
`;

  // A route of a method that changes state (POST) keeps what matters only when it runs often a hint.
  const cases: [string, string][] = [
    ["{ path: 'GET /mail/show', fn: show, permit: {} }", 'information'],
    ["{ method: 'POST', path: '/mail', handler: show }", 'hint'],
    ["{ method: 'GET', url: '/mail', handler(req, res) { show(req, res); } }", 'information'],
  ];
  for (const [entry, spawnLevel] of cases) {
    it(`${entry} makes what its handler calls run per request`, () => {
      const dir = projectOf({ 'mail.js': table(entry) });
      assert.deepEqual(findingsOf(dir, ['mail.js'])['mail.js'], ['blocking-sync-call:10:warning', `spawn-without-env:10:${spawnLevel}`]);
    });
  }

  for (const entry of ["{ path: '/tmp/mail', handler: show }", "{ path: '/mail', fn: show }", "{ name: 'GET /mail', title: 'a label' }", "{ method: 'GET', url: '/mail', callback: show }"]) {
    it(`${entry} is not a route (a path alone, no handler, or a client's request options)`, () => {
      const dir = projectOf({ 'mail.js': table(entry) });
      assert.deepEqual(findingsOf(dir, ['mail.js'])['mail.js'].filter((f) => !f.endsWith(':hint')), []);
    });
  }
});
