import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { allRules } from '../../rules';
import { analyzeSource } from './engine';
import { ProjectIndex } from './projectIndex';

const FIXTURE = path.resolve(__dirname, '../../test/fixtures/static-project');
const at = (relative: string): string => path.join(FIXTURE, relative);
const exportsOf = (index: ProjectIndex, relative: string): string[] | null => {
  const summary = index.summaryOf(at(relative));
  return summary === null ? null : [...summary.mongooseModelExports].sort();
};

describe('ProjectIndex', () => {
  describe('resolve', () => {
    const index = new ProjectIndex();
    const from = at('routes/users.js');
    it('adds extensions and finds index files', () => {
      assert.equal(index.resolve(from, '../models/user'), at('models/user.js'));
      assert.equal(index.resolve(from, '../models'), at('models/index.js'));
      assert.equal(index.resolve(from, '../models/comment.cjs'), at('models/comment.cjs'));
    });
    it('maps a .js specifier onto the .ts file on disk (TypeScript ESM)', () => {
      assert.equal(index.resolve(from, '../models/task.js'), at('models/task.ts'));
      assert.equal(index.resolve(from, '../models/task'), at('models/task.ts'));
    });
    it('returns null for packages, node: builtins and missing files', () => {
      assert.equal(index.resolve(from, 'mongoose'), null);
      assert.equal(index.resolve(from, 'node:fs'), null);
      assert.equal(index.resolve(from, '@koa/router'), null);
      assert.equal(index.resolve(from, '../models/nope'), null);
      assert.equal(index.moduleAt(from, 'mongoose'), null);
      assert.equal(index.moduleAt(from, './missing'), null);
    });
  });

  describe('model exports of each module shape', () => {
    const index = new ProjectIndex();
    const cases: [string, string[]][] = [
      ['models/user.js', ['default']], // module.exports = mongoose.model(...)
      ['models/task.ts', ['Task', 'default']], // export const Task = model<T>(...); export default Task
      ['models/project.mjs', ['default']], // export default conn.model(...)
      ['models/comment.cjs', ['Comment']], // exports.Comment = model(...) beside exports.MAX_LENGTH
      ['models/index.js', ['Comment', 'Task', 'User']], // module.exports = { User, Task, Comment: require(..).Comment, formatName }
      ['models/esm.ts', ['Comment', 'Project', 'TaskModel', 'User']], // export { default as User } from, export *, renames
      ['models/same.js', ['default']], // module.exports = require('./user')
      ['models/notModels.js', []],
      ['models/cycleA.js', ['Alpha', 'Beta']], // A spreads B which spreads A: cut, no hang
      ['models/cycleB.js', ['Alpha', 'Beta']],
      ['models/legacy.ts', ['default']], // export = mongoose.models.Legacy || mongoose.model(...)
      ['models/broken.js', ['Broken']], // a recoverable syntax error: what parsed still counts
    ];
    for (const [file, expected] of cases) {
      it(`${file} -> [${expected.join(', ')}]`, () => assert.deepEqual(exportsOf(index, file), expected));
    }
    it('routes export no models', () => {
      assert.deepEqual(exportsOf(index, 'routes/users.js'), []);
      assert.deepEqual(exportsOf(index, 'routes/tasks.ts'), []);
    });
  });

  describe('never throws', () => {
    const index = new ProjectIndex();
    it('unreadable paths, directories and binary files give null or an empty summary', () => {
      assert.equal(index.summaryOf(at('models/does-not-exist.js')), null);
      assert.equal(index.summaryOf(FIXTURE), null); // a directory
      assert.equal(index.summaryOf(at('models/garbage.js')), null); // the parser cannot recover
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hotframe-pi-'));
      try {
        fs.writeFileSync(path.join(dir, 'blob.js'), Buffer.from([0, 159, 146, 150, 0, 0, 255]));
        const summary = index.moduleAt(path.join(dir, 'main.js'), './blob');
        assert.ok(summary === null || summary.mongooseModelExports.size === 0);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
    it('a reader that throws is contained', () => {
      const throwing = new ProjectIndex({ readFile: () => { throw new Error('EACCES'); } });
      assert.equal(throwing.moduleAt(at('routes/users.js'), '../models/user'), null);
      assert.equal(throwing.summaryOf(at('models/user.js')), null);
      assert.equal(throwing.resolve(at('routes/users.js'), '../models/nope'), null);
    });
  });

  describe('cache and invalidation', () => {
    let dir = '';
    beforeEach(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hotframe-pi-'));
      fs.writeFileSync(path.join(dir, 'user.js'), `module.exports = { helper: 1 };\n`);
      fs.writeFileSync(path.join(dir, 'index.js'), `module.exports = { User: require('./user') };\n`);
    });
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('re-reads a file whose mtime changed, and summaries that re-export it', () => {
      const index = new ProjectIndex();
      const main = path.join(dir, 'main.js');
      assert.deepEqual([...(index.moduleAt(main, './index')?.mongooseModelExports ?? [])], []);
      fs.writeFileSync(path.join(dir, 'user.js'), `const m = require('mongoose');\nmodule.exports = m.model('User', new m.Schema({}));\n`);
      const later = new Date(Date.now() + 5000);
      fs.utimesSync(path.join(dir, 'user.js'), later, later);
      assert.deepEqual([...(index.moduleAt(main, './user')?.mongooseModelExports ?? [])], ['default']);
      assert.deepEqual([...(index.moduleAt(main, './index')?.mongooseModelExports ?? [])], ['User']);
    });

    it('serves unsaved text from an injected reader until invalidate()', () => {
      const open = new Map<string, string>();
      const index = new ProjectIndex({ readFile: (file) => open.get(file) ?? (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null) });
      const main = path.join(dir, 'main.js');
      assert.deepEqual([...(index.moduleAt(main, './user')?.mongooseModelExports ?? [])], []);
      open.set(path.join(dir, 'user.js'), `module.exports = require('mongoose').model('User', {});\n`);
      // Same mtime on disk: the cached summary stands until the editor says the document changed.
      assert.deepEqual([...(index.moduleAt(main, './user')?.mongooseModelExports ?? [])], []);
      index.invalidate(path.join(dir, 'user.js'));
      assert.deepEqual([...(index.moduleAt(main, './user')?.mongooseModelExports ?? [])], ['default']);
      assert.deepEqual([...(index.moduleAt(main, './index')?.mongooseModelExports ?? [])], ['User']);
      // A new, unsaved file exists only in the editor.
      open.set(path.join(dir, 'draft.ts'), `import { model } from 'mongoose';\nexport const Draft = model('Draft', {});\n`);
      assert.deepEqual([...(index.moduleAt(main, './draft.js')?.mongooseModelExports ?? [])], ['Draft']);
    });

    it('parses a module once while it is unchanged', () => {
      let reads = 0;
      const index = new ProjectIndex({ readFile: (file) => { if (file.endsWith('user.js')) reads += 1; return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null; } });
      const main = path.join(dir, 'main.js');
      index.moduleAt(main, './user');
      const afterFirst = reads;
      for (let i = 0; i < 5; i += 1) index.moduleAt(main, './user');
      assert.equal(reads - afterFirst, 0);
    });
  });
});

describe('cross-module rules through ProjectIndex (test/fixtures/static-project)', () => {
  const index = new ProjectIndex();
  const findingsOf = (relative: string): string[] => {
    const filePath = at(relative);
    const result = analyzeSource({ filePath, text: fs.readFileSync(filePath, 'utf8'), project: index, rules: allRules });
    assert.deepEqual(result.parseErrors, []);
    assert.deepEqual(result.ruleErrors, []);
    return result.findings
      .filter((f) => f.ruleId.startsWith('mongoose-'))
      .map((f) => `${f.ruleId} ${f.range.loc.start.line}:${f.range.loc.start.column + 1}`);
  };

  it('CommonJS express routes: model file, barrel, whole-module object; look-alikes ignored', () => {
    assert.deepEqual(findingsOf('routes/users.js'), [
      'mongoose-missing-lean 11:18', // User.find from ../models/user
      'mongoose-count-by-loading 15:27', // Task.find from ../models (destructured)
      'mongoose-missing-lean 18:60', // models.Comment.find
    ]);
  });

  it('TypeScript ESM koa routes: .js specifiers, renamed re-exports', () => {
    assert.deepEqual(findingsOf('routes/tasks.ts'), [
      'mongoose-missing-lean 9:20', // Task.find from ../models/task.js (task.ts)
      'mongoose-missing-lean 13:31', // Project.findById via export { default as Project } from './project.mjs'
      'mongoose-count-by-loading 13:77', // TaskModel.find via export { Task as TaskModel }
    ]);
  });

  it('ESM on http.createServer: module.exports = require(...) and a re-export cycle', () => {
    assert.deepEqual(findingsOf('routes/misc.mjs'), [
      'mongoose-missing-lean 7:23',
      'mongoose-missing-lean 8:24',
    ]);
  });

  it('messages say the code runs per request', () => {
    const filePath = at('routes/users.js');
    const result = analyzeSource({ filePath, text: fs.readFileSync(filePath, 'utf8'), project: index });
    const lean = result.findings.find((f) => f.ruleId === 'mongoose-missing-lean');
    assert.match(lean?.message ?? '', /^User\.find\(\) hydrates full mongoose documents that are only sent with res\.json\(\) while handling a request/);
  });

  it('without a project view the imported models are unknown (no findings)', () => {
    const filePath = at('routes/users.js');
    const result = analyzeSource({ filePath, text: fs.readFileSync(filePath, 'utf8') });
    assert.deepEqual(result.findings.filter((f) => f.ruleId.startsWith('mongoose-')), []);
  });
});
