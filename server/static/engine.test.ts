// The engine without any real rule: guards, parsing, imports, hot context, disable comments,
// levels, containment of a failing rule. Tiny probe rules report what the engine tells them.
import assert from 'node:assert/strict';
import type { NodePath } from '@babel/traverse';
import type * as t from '@babel/types';
import type { ExecutionContext, HotContext, RuleContext, RuleModule, RuleVisitor } from '../../rules/api';
import { analyzeSource } from './engine';
import { disableFixes } from './disableComments';

/** A rule (borrowing a real id) that reports every call to `probe()` with what `describe` returns. */
function probeRule(describeWith: (hot: HotContext, path: NodePath, ctx: RuleContext) => string,
  extra: Partial<RuleVisitor> = {}): RuleModule {
  return {
    meta: {
      id: 'date-now-hot-path',
      description: 'probe',
      defaultSeverity: 'warning',
      incident: { seed: '000', summary: 'probe' },
      messages: { probe: '{{what}}' },
      fixable: false,
    },
    create(ctx) {
      return {
        visitor: {
          CallExpression(path) {
            if (path.node.callee.type === 'Identifier' && path.node.callee.name === 'probe') {
              ctx.report({ node: path.node, messageId: 'probe', describe: (hot) => ({ what: describeWith(hot, path, ctx) }) });
            }
          },
        },
        ...extra,
      };
    },
  };
}

const contextProbe = probeRule((hot, path) => {
  const c: ExecutionContext = hot.contextOf(path);
  return [c.kind, c.via.join('>'), c.timerIntervalMs ?? '-', c.inLoop ? 'loop' : '', c.registeredAt ? `@${c.registeredAt.line}` : ''].join('|');
});

function messages(code: string, rule: RuleModule = contextProbe, filePath = 'a.js'): string[] {
  const result = analyzeSource({ filePath, text: code, rules: [rule] });
  assert.deepEqual(result.parseErrors, []);
  assert.deepEqual(result.ruleErrors, []);
  return result.findings.map((f) => `${f.range.loc.start.line}:${f.message}`);
}

describe('static engine', () => {
  describe('file guards', () => {
    it('skips binary, minified and oversized text with a reason and no findings', () => {
      const binary = analyzeSource({ filePath: 'a.js', text: 'probe();\0\0', rules: [contextProbe] });
      assert.equal(binary.skipped?.reason, 'binary');
      assert.deepEqual(binary.findings, []);
      const minified = analyzeSource({ filePath: 'a.js', text: `probe();\nvar a=${'1+'.repeat(5001)}1;`, rules: [contextProbe] });
      assert.equal(minified.skipped?.reason, 'minified');
      assert.match(minified.skipped?.message ?? '', /line 2/);
      const large = analyzeSource({ filePath: 'a.js', text: `probe();\n${'// padding padding padding\n'.repeat(80_000)}`, rules: [contextProbe] });
      assert.equal(large.skipped?.reason, 'too-large');
      const fine = analyzeSource({ filePath: 'a.js', text: `probe();\n${'a=1;'.repeat(2499)}`, rules: [contextProbe] });
      assert.equal(fine.skipped, null);
      assert.equal(fine.findings.length, 1);
    });

    it('does not call a file minified for a long comment line (an inline source map)', () => {
      // Babel/tsc output with an inline map: short lines of code, then one 12k-character comment.
      const map = `//# sourceMappingURL=data:application/json;charset=utf-8;base64,${'QUJD'.repeat(3000)}`;
      const compiled = analyzeSource({ filePath: 'a.js', text: `"use strict";\nprobe();\n${map}`, rules: [contextProbe] });
      assert.equal(compiled.skipped, null);
      assert.equal(compiled.findings.length, 1);
      const indented = analyzeSource({ filePath: 'a.js', text: `probe();\n  \t// ${'x'.repeat(12_000)}\n`, rules: [contextProbe] });
      assert.equal(indented.skipped, null);
      // Code before the comment on the same long line is still code.
      const codeThenComment = analyzeSource({ filePath: 'a.js', text: `probe();\nvar a=${'1+'.repeat(5001)}1; ${map}`, rules: [contextProbe] });
      assert.equal(codeThenComment.skipped?.reason, 'minified');
    });

    it('turns nesting too deep to walk into one problem, not a crash', () => {
      const deep = analyzeSource({ filePath: 'a.js', text: `probe();\n${'x=(\n'.repeat(3000)}1${')\n'.repeat(3000)}`, rules: [contextProbe] });
      assert.equal(deep.skipped, null);
      assert.equal(deep.findings.length + deep.parseErrors.length >= 1, true);
      for (const problem of deep.parseErrors) assert.equal(typeof problem.message, 'string');
    });
  });

  describe('parsing', () => {
    it('parses TypeScript, TSX, JSX in .js, and plain JS that the JSX plugin would reject', () => {
      assert.deepEqual(messages('const x: number = 1; probe<string>();', contextProbe, 'a.ts'), ['1:startup||-||']);
      assert.deepEqual(messages('const el = <div onClick={() => probe()} />;', contextProbe, 'a.tsx'), ['1:unknown||-||']);
      assert.deepEqual(messages('const el = <div>{probe()}</div>;', contextProbe, 'a.jsx'), ['1:startup||-||']);
      assert.deepEqual(messages('const el = <b>{probe()}</b>;', contextProbe, 'a.js'), ['1:startup||-||']);
      // `<T>(x)` casts are TypeScript-only syntax and must not be parsed as JSX in .ts files.
      assert.deepEqual(messages('const n = <number>(probe() as unknown);', contextProbe, 'a.ts'), ['1:startup||-||']);
      assert.deepEqual(messages('import x from "y"; export default probe();', contextProbe, 'a.mjs'), ['1:startup||-||']);
      assert.deepEqual(messages('return probe();', contextProbe, 'a.cjs'), ['1:startup||-||']);
    });

    it('reports recovered syntax errors and still analyzes what parsed', () => {
      const result = analyzeSource({ filePath: 'a.js', text: 'probe();\nconst a = 1;\nconst a = 2;\n', rules: [contextProbe] });
      assert.equal(result.parseErrors.length, 1);
      assert.equal(result.parseErrors[0].line, 3);
      assert.equal(result.findings.length, 1);
    });

    it('reports what only strict code forbids where Node would: not in a CommonJS script, but inside its strict parts and in a module', () => {
      const lines = (text: string, filePath = 'bin/tool'): number[] => analyzeSource({ filePath, text, rules: [contextProbe] }).parseErrors.map((p) => p.line);
      // An old CLI's colour codes, a legacy octal and `with`: Node runs this script as it is.
      const sloppy = "console.log('\\033[31mred\\033[0m');\nvar mode = 0755;\nwith (Math) probe(PI);\nvar interface = 1;\n";
      assert.deepEqual(lines(sloppy), []);
      assert.deepEqual(lines(sloppy, 'lib/colours.js'), []);
      // Strict parts of a script keep their errors: a function with 'use strict', a class body, the whole file with it.
      assert.deepEqual(lines(`${sloppy}function f() { 'use strict'; return '\\07'; }\nclass C { m() { return '\\05'; } }\n`), [5, 6]);
      assert.deepEqual(lines(`'use strict';\n${sloppy}`), [2, 2, 3, 4, 5]);
      // A module is strict throughout.
      assert.deepEqual(lines(`import x from 'x';\n${sloppy}`, 'lib/colours.mjs'), [2, 2, 3, 4, 5]);
      assert.deepEqual(lines(`import x from 'x';\n${sloppy}`, 'lib/colours.js'), [2, 2, 3, 4, 5]);
    });

    it('returns one parse error and no findings when the parser cannot recover', () => {
      const result = analyzeSource({ filePath: 'a.js', text: 'probe();\nfunction (', rules: [contextProbe] });
      assert.equal(result.parseErrors.length, 1);
      assert.equal(result.parseErrors[0].line, 2);
      assert.deepEqual(result.findings, []);
      assert.equal(result.skipped, null);
    });
  });

  describe('imports', () => {
    const importProbe = probeRule((_hot, path, ctx) => {
      const arg = (path.node as t.CallExpression).arguments[0];
      const origin = arg && arg.type === 'Identifier' ? ctx.importOf(arg.name) : null;
      return origin ? `${origin.source}:${origin.imported}:${origin.namespace}` : 'none';
    });
    it('maps require, destructuring, require().x, import forms and node: prefixes', () => {
      const code = `const cp = require('node:child_process');
const { exec, spawn: sp } = require('child_process');
const readFile = require('fs').readFile;
import def from 'express';
import * as ns from 'node:net';
import { createClient as cc } from 'redis';
let later;
let bcrypt;
try { bcrypt = require('bcrypt'); } catch (e) { bcrypt = require('bcryptjs'); }
probe(cp); probe(exec); probe(sp); probe(readFile); probe(def); probe(ns); probe(cc); probe(later); probe(bcrypt);`;
      assert.deepEqual(messages(code, importProbe).map((m) => m.replace(/^\d+:/, '')), [
        'child_process:default:true', 'child_process:exec:false', 'child_process:spawn:false', 'fs:readFile:false',
        'express:default:false', 'net:default:true', 'redis:createClient:false', 'none', 'bcrypt:default:true',
      ]);
    });
  });

  describe('hot context', () => {
    it('follows calls from handlers through module functions, this.method and object members', () => {
      const code = `const sub = redis.duplicate();
function getTimestamp() { return probe(); }
function onMessage(ch, msg) { msg.ts = getTimestamp(); }
sub.on('message', onMessage);
const svc = { load() { return this.inner(); }, inner() { probe(); } };
app.get('/x', (req, res) => svc.load());
class Worker { run() { this.step(); } step() { probe(); } }
const w = new Worker();
router.post('/y', function handle(req, res) { for (const i of req.items) probe(); });
app.use((req, res, next) => { [1, 2].map(() => probe()); next(); });`;
      assert.deepEqual(messages(code), [
        '2:message|onMessage>getTimestamp|-||@4',
        '5:request|load>inner|-||@6',
        '7:unknown||-||',
        '9:request|handle|-|loop|@9',
        '10:request||-||@10',
      ]);
    });

    it('resolves instance methods, static methods and class-field arrows', () => {
      const code = `class Ctl {
  static stamp() { probe(); }
  list(req, res) { Ctl.stamp(); }
  show = (req, res) => { this.load(); };
  load() { probe(); }
}
const ctl = new Ctl();
router.get('/list', (req, res) => ctl.list(req, res));
router.get('/show', ctl.show);`;
      assert.deepEqual(messages(code), ['2:request|list>stamp|-||@8', '5:request|show>load|-||@9']);
    });

    it('treats (req, res) / (request, reply) / (ctx, next) functions as request handlers even when registered elsewhere', () => {
      const code = `exports.list = async (req, res) => { probe(); };
module.exports.show = function show(request, reply) { probe(); };
async function mw(ctx, next) { probe(); await next(); }
function helper(record, options) { probe(); }
function authorize(request, response, apiId, config) { probe(); }
export default { mw, helper, authorize };`;
      assert.deepEqual(messages(code), ['1:request|exports.list|-||', '2:request|show|-||', '3:request|mw|-||', '4:unknown||-||', '5:unknown||-||']);
    });

    it('ranks start-up, timers, signals and unknown code', () => {
      const code = `probe();
(function boot() { probe(); })();
function init() { probe(); }
init();
setInterval(function tick() { probe(); }, 5 * 100);
setTimeout(() => probe(), WAIT);
process.on('SIGTERM', () => probe());
module.exports = function exported() { probe(); };
for (let i = 0, t = probe(); i < 3; i++) probe();`;
      assert.deepEqual(messages(code), [
        '1:startup||-||', '2:startup|boot|-||', '3:startup|init|-||', '5:timer|tick|500||@5', '6:timer||-||@6',
        '7:signal||-||@7', '8:unknown||-||', '9:startup||-||', '9:startup||-|loop|',
      ]);
    });

    it('a setTimeout has an interval only when its callback reschedules it', () => {
      const code = `setTimeout(() => probe(), 50);
function poll() { probe(); setTimeout(poll, 100); }
poll();
class Q { drain() { probe(); this.timer = setTimeout(() => this.drain(), 0); } }`;
      assert.deepEqual(messages(code), ['1:timer||-||@1', '2:timer|poll|100||@2', '4:timer|drain|0||@4']);
    });

    it('a chain of one-shot timeouts that re-arm through another registration is no interval (nodecg bundle watcher)', () => {
      // Minimized from nodecg@2.6.4 dist/server/bootstrap.js: the backoff timer ends by arming a
      // 100 ms debounce per changed bundle, whose callback resets the backoff: file-change driven.
      const code = `class Bundles {
  handleChange(name) { setTimeout(() => { this.reparse(name); }, 100); }
  resetBackoff() { backoff = setTimeout(() => { for (const n of changed) this.handleChange(n); }, 500); }
  reparse(name) { this.resetBackoff(); probe(); }
}`;
      assert.deepEqual(messages(code), ['4:timer|reparse|-||@2']);
    });

    it('a timeout armed in a listener of the function it calls is a respawn after an event, not a poll loop (zone-mta receiver)', () => {
      // Minimized from zone-mta@3.10.3 lib/receiver/smtp-proxy.js: a child forked again 5 s after it
      // exits; the timeout runs once per crash, whatever the function it calls registers.
      const code = `class Proxy {
  spawnReceiver() {
    probe();
    const child = fork('receiver.js');
    child.on('close', () => { setTimeout(() => this.spawnReceiver(), 5000); });
  }
}`;
      assert.deepEqual(messages(code), ['3:timer|spawnReceiver|-||@5']);
    });

    it('a work queue runs its worker in the context of the code that pushes a task (etherpad LibreOffice conversions)', () => {
      const code = `const async = require('async');
function convert(task) { probe(); }
const conversions = async.queue(convert, 1);
const idle = async.queue(function (task) { probe(); }, 1);
app.post('/export', async (req, res) => { await conversions.pushAsync({ file: req.body.file }); });`;
      assert.deepEqual(messages(code), ['2:request|convert|-||@5', '4:startup||-||']);
    });

    it('a function reached from several contexts takes the hottest; a timer callback inside a handler stays a timer', () => {
      const code = `function shared() { probe(); }
shared();
process.on('SIGINT', shared);
sub.on('message', () => { shared(); setInterval(() => probe(), 2000); });`;
      assert.deepEqual(messages(code), ['1:message|shared|-||@4', '4:timer||2000||@4']);
    });

    it('servesRequests: routes, message handlers, createServer or listen; not a plain script', () => {
      const serves = probeRule((hot) => String(hot.servesRequests));
      assert.deepEqual(messages('probe(); server.listen(80);', serves), ['1:true']);
      assert.deepEqual(messages("probe(); require('http').createServer();", serves), ['1:true']);
      assert.deepEqual(messages("probe(); queue.on('message', handle);", serves), ['1:true']);
      assert.deepEqual(messages("probe(); setInterval(() => {}, 10); map.get('/k');", serves), ['1:false']);
      // HTTP clients and caches with path-like keys are not routes.
      assert.deepEqual(messages("probe(); axios.get('/users', { params }); request.get('/x', (err, res) => {}); api.get('/u', cfg);", serves), ['1:false']);
      assert.deepEqual(messages("probe(); router.get('/users', listUsers);", serves), ['1:true']);
    });
  });

  describe('reporting', () => {
    it('fills templates, names the innermost named function and sorts by position', () => {
      const code = `function outer() {\n  const f = () => { probe(); };\n  [1].forEach(function () { probe(); });\n}\nprobe();`;
      const result = analyzeSource({ filePath: 'a.js', text: code, rules: [contextProbe] });
      assert.deepEqual(result.findings.map((f) => [f.range.loc.start.line, f.enclosingFunction]), [
        [2, { name: 'f', line: 2, column: 12 }],
        [3, { name: 'outer', line: 1, column: 0 }],
        [5, null],
      ]);
      assert.equal(result.findings[0].severity, 'warning');
      assert.equal(result.findings[0].message, 'unknown||-||');
    });

    it('finds the enclosing function past earlier siblings and nested functions that end before the finding', () => {
      const code = [
        'function a() { probe(); }',
        'function b() {',
        '  function c() { return () => 1; }',
        '  const d = () => { function e() {} return () => { probe(); }; };',
        '  probe();',
        '}',
        '[0].map(() => [1].map(() => probe()));',
        'probe();',
      ].join('\n');
      const result = analyzeSource({ filePath: 'a.js', text: code, rules: [contextProbe] });
      assert.deepEqual(result.findings.map((f) => [f.range.loc.start.line, f.range.loc.start.column, f.enclosingFunction]), [
        [1, 15, { name: 'a', line: 1, column: 0 }],
        [4, 51, { name: 'd', line: 4, column: 12 }],
        [5, 2, { name: 'b', line: 2, column: 0 }],
        [7, 28, { name: '(anonymous)', line: 7, column: 22 }],
        [8, 0, null],
      ]);
    });

    it('applies levels: a severity override, and off runs nothing', () => {
      let created = 0;
      const counting: RuleModule = { ...contextProbe, create: (ctx) => { created++; return contextProbe.create(ctx); } };
      const error = analyzeSource({ filePath: 'a.js', text: 'probe();', rules: [counting], levels: { 'date-now-hot-path': 'error' } });
      assert.equal(error.findings[0].severity, 'error');
      const off = analyzeSource({ filePath: 'a.js', text: 'probe();', rules: [counting], levels: { 'date-now-hot-path': 'off' } });
      assert.deepEqual(off.findings, []);
      assert.equal(created, 1);
    });

    it('runs rule visitors keyed by alias and a top-level enter, guarded like the others', () => {
      const seen: string[] = [];
      const aliasRule: RuleModule = {
        meta: { ...contextProbe.meta, id: 'connection-per-request' },
        create: () => ({
          visitor: {
            enter(path) { if (path.isProgram()) seen.push('enter:Program'); },
            'Function|NewExpression'(path) { seen.push(path.node.type); },
          },
        }),
      };
      const result = analyzeSource({ filePath: 'a.js', text: 'new A(() => 1);', rules: [aliasRule] });
      assert.deepEqual(result.ruleErrors, []);
      assert.deepEqual(seen, ['enter:Program', 'NewExpression', 'ArrowFunctionExpression']);
    });

    it('contains a rule that throws in its visitor or in a callback asked after traversal; other rules keep their findings', () => {
      const throwsInVisitor: RuleModule = {
        meta: { ...contextProbe.meta, id: 'spawn-without-env' },
        create: () => ({ visitor: { Identifier() { throw new Error('boom'); } } }),
      };
      const throwsInFinish: RuleModule = {
        meta: { ...contextProbe.meta, id: 'blocking-sync-call' },
        create: (ctx) => ({
          visitor: {
            CallExpression(path) {
              ctx.report({ node: path.node, messageId: 'probe', data: { what: 'kept' } });
              ctx.report({ node: path.node, messageId: 'probe', when: () => { throw new Error('late'); } });
            },
          },
        }),
      };
      const result = analyzeSource({ filePath: 'a.js', text: 'probe();', rules: [throwsInVisitor, contextProbe, throwsInFinish] });
      assert.deepEqual(result.ruleErrors, [
        { ruleId: 'spawn-without-env', message: 'boom' },
        { ruleId: 'blocking-sync-call', message: 'late' },
      ]);
      assert.deepEqual(result.findings.map((f) => f.ruleId), ['date-now-hot-path']);
    });
  });

  describe('disable comments', () => {
    it('next-line with ids, with no ids, other ids, and whole-file', () => {
      const code = `// hotframe-disable-next-line date-now-hot-path, spawn-without-env
probe();
// hotframe-disable-next-line
probe();
// hotframe-disable-next-line blocking-sync-call
probe();
probe();`;
      assert.deepEqual(messages(code).map((m) => m.split(':')[0]), ['6', '7']);
      assert.deepEqual(messages(`/* hotframe-disable date-now-hot-path */\nprobe();`), []);
      assert.deepEqual(messages(`/* hotframe-disable connection-per-request */\nprobe();`).length, 1);
      // A mention in prose is not a directive.
      assert.deepEqual(messages(`// see hotframe-disable-next-line docs\nprobe();`).length, 1);
    });

    it('disableFixes extends a next-line directive already above the finding instead of stacking a second one', () => {
      const text = 'function f() {\r\n  // hotframe-disable-next-line spawn-without-env -- legacy\r\n  probe();\r\n}\r\n';
      const start = text.indexOf('probe');
      const finding = { ruleId: 'date-now-hot-path' as const, range: { start, end: start + 7, loc: { start: { line: 3, column: 2 }, end: { line: 3, column: 9 } } } };
      const [line] = disableFixes(finding, text);
      const at = text.indexOf(' -- legacy');
      assert.deepEqual(line.edits, [{ start: at, end: at, text: ', date-now-hot-path' }]);
      const silenced = text.slice(0, at) + line.edits[0].text + text.slice(at);
      assert.match(silenced, /hotframe-disable-next-line spawn-without-env, date-now-hot-path -- legacy/);
      assert.deepEqual(messages(silenced), []);
    });

    it('disableFixes: a comment line above with the same indentation, and a file comment after a shebang', () => {
      const text = '#!/usr/bin/env node\nfunction f() {\n    probe();\n}\n';
      const start = text.indexOf('probe');
      const finding = { ruleId: 'date-now-hot-path' as const, range: { start, end: start + 7, loc: { start: { line: 3, column: 4 }, end: { line: 3, column: 11 } } } };
      const [line, file] = disableFixes(finding, text);
      assert.equal(line.title, 'Disable date-now-hot-path for this line');
      assert.deepEqual(line.edits, [{ start: text.indexOf('    probe'), end: text.indexOf('    probe'), text: '    // hotframe-disable-next-line date-now-hot-path\n' }]);
      assert.equal(file.title, 'Disable date-now-hot-path for this file');
      assert.deepEqual(file.edits, [{ start: 20, end: 20, text: '/* hotframe-disable date-now-hot-path */\n' }]);
      // The edits, applied, silence the finding.
      const silenced = text.slice(0, line.edits[0].start) + line.edits[0].text + text.slice(line.edits[0].start);
      assert.deepEqual(messages(silenced), []);
      const silencedFile = text.slice(0, 20) + file.edits[0].text + text.slice(20);
      assert.deepEqual(messages(silencedFile), []);
    });
  });
});
