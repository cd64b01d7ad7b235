// The language server as a process: real JSON-RPC over the child's stdio, as an editor speaks it.
// Every wait is for an event (a publishDiagnostics for a given version, a response); no sleeps.
import { strict as assert } from 'node:assert';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fork, spawn, spawnSync } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { createMessageConnection, IPCMessageReader, IPCMessageWriter, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import type { CodeAction, Diagnostic, PublishDiagnosticsParams, TextEdit, WorkspaceEdit } from 'vscode-languageserver';

import { LEAN_HANDLER, SPAWN_TIMER, writeLeanProfile, writeProject, writeSpawnProfile } from './analyzeFixture';
import { DEFAULT_SETTINGS, parseSettings, readPathMappings } from '../../server/lsp/settings';
import { bundles } from './bundles';

const URI = 'file:///virtual/project/routes/tasks.js';

/** LEAN_HANDLER's `mongoose-missing-lean`, in 0-based LSP positions. */
const LEAN_RANGE = { start: { line: 5, character: 17 }, end: { line: 5, character: 30 } };

interface Client {
  child: ChildProcessWithoutNullStreams;
  connection: MessageConnection;
  published: PublishDiagnosticsParams[];
  logs: string[];
  settings: Record<string, unknown>;
  /** workspace/configuration requests the server made. */
  configurationPulls: number;
  /** Resolves with the first publish for `uri` at `version` (already received or still to come). */
  diagnosticsFor(uri: string, version: number): Promise<Diagnostic[]>;
  /** Resolves with the first log line containing `text`. */
  logLine(text: string): Promise<string>;
  /** Resolves once `probe` returns a value, re-checked on every notification. */
  waitFor<T>(probe: () => T | undefined): Promise<T>;
  stderr: () => string;
}

async function startClient(): Promise<Client> {
  const { server } = await bundles();
  const child = spawn(process.execPath, [server, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const published: PublishDiagnosticsParams[] = [];
  const logs: string[] = [];
  const waiters: (() => void)[] = [];
  const wake = () => waiters.splice(0).forEach((w) => w());
  const until = <T>(probe: () => T | undefined): Promise<T> =>
    new Promise((resolve) => {
      const check = () => {
        const value = probe();
        if (value === undefined) waiters.push(check);
        else resolve(value);
      };
      check();
    });
  const client: Client = {
    child,
    connection,
    published,
    logs,
    settings: {},
    configurationPulls: 0,
    diagnosticsFor: (uri, version) => until(() => published.find((p) => p.uri === uri && p.version === version)?.diagnostics),
    logLine: (text) => until(() => logs.find((l) => l.includes(text))),
    waitFor: until,
    stderr: () => stderr,
  };
  connection.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) => {
    published.push(params);
    wake();
  });
  connection.onNotification('window/logMessage', (params: { message: string }) => {
    logs.push(params.message);
    wake();
  });
  connection.onRequest('workspace/configuration', (params: { items: { section?: string }[] }) => {
    client.configurationPulls++;
    wake();
    return params.items.map(() => client.settings);
  });
  connection.onRequest('client/registerCapability', () => null);
  connection.onRequest('window/workDoneProgress/create', () => null);
  connection.listen();
  await connection.sendRequest('initialize', {
    processId: process.pid,
    rootUri: null,
    capabilities: { workspace: { configuration: true, workspaceEdit: { documentChanges: true }, didChangeConfiguration: { dynamicRegistration: true } } },
  });
  await connection.sendNotification('initialized', {});
  return client;
}

function open(client: Client, uri: string, text: string, version = 1): Promise<void> {
  return client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'javascript', version, text } });
}

function change(client: Client, uri: string, version: number, text: string): Promise<void> {
  return client.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ text }] });
}

/** The LSP position (0-based line, UTF-16 character) of an offset in `text`. */
function positionAt(text: string, offset: number): { line: number; character: number } {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length - 1, character: offset - lineStart };
}

/** Applies LSP text edits (non-overlapping, against the same original) the way an editor does. */
function applyEdits(text: string, edits: TextEdit[]): string {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
  const offset = (p: { line: number; character: number }) => lineStarts[p.line] + p.character;
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  let result = text;
  for (const edit of sorted) result = result.slice(0, offset(edit.range.start)) + edit.newText + result.slice(offset(edit.range.end));
  return result;
}

function editsOf(edit: WorkspaceEdit | undefined, uri: string, version: number): TextEdit[] {
  assert.ok(edit?.documentChanges, 'a versioned edit (the client announced documentChanges)');
  const [change] = edit.documentChanges as { textDocument: { uri: string; version: number }; edits: TextEdit[] }[];
  assert.deepEqual(change.textDocument, { uri, version });
  return change.edits;
}

describe('language server over stdio', function () {
  this.timeout(60_000);
  let client: Client;

  before(async () => {
    client = await startClient();
  });

  after(async () => {
    if (client.child.exitCode === null) client.child.kill();
  });

  it('publishes a finding with its exact range, code, source and rule documentation link', async () => {
    await open(client, URI, LEAN_HANDLER, 1);
    const diagnostics = await client.diagnosticsFor(URI, 1);
    assert.equal(diagnostics.length, 1, JSON.stringify(diagnostics));
    const [d] = diagnostics;
    assert.deepEqual(d.range, LEAN_RANGE);
    assert.equal(d.code, 'mongoose-missing-lean');
    assert.equal(d.source, 'hotframe');
    assert.equal(d.severity, 2); // warning, the rule's default
    // The page shipped beside the bundle (test/unit/links.test.ts follows it in the package's layout).
    assert.match(d.codeDescription?.href ?? '', /^file:\/\/.*\/docs\/rules\/mongoose-missing-lean\.md$/);
    assert.match(d.message, /\.lean\(\)/);
  });

  it('offers the rule fix (preferred) and the disable comments, computed for the validated version', async () => {
    const [diagnostic] = await client.diagnosticsFor(URI, 1);
    const actions: CodeAction[] = await client.connection.sendRequest('textDocument/codeAction', {
      textDocument: { uri: URI },
      range: { start: { line: 5, character: 20 }, end: { line: 5, character: 20 } },
      context: { diagnostics: [diagnostic] },
    });
    assert.deepEqual(
      actions.map((a) => [a.title, a.kind, a.isPreferred === true]),
      [
        ['Add .lean() to the query', 'quickfix', true],
        [actions[1].title, 'quickfix', false],
        [actions[2].title, 'quickfix', false],
      ],
    );
    assert.equal(actions.length, 3);
    const fixed = applyEdits(LEAN_HANDLER, editsOf(actions[0].edit, URI, 1));
    assert.equal(fixed.split('\n')[5], '  res.json(await Task.find({}).lean());');
    const disabledLine = applyEdits(LEAN_HANDLER, editsOf(actions[1].edit, URI, 1)).split('\n');
    assert.equal(disabledLine[5], '  // hotframe-disable-next-line mongoose-missing-lean');
    assert.equal(disabledLine[6], '  res.json(await Task.find({}));');
    // A range with no finding under it gets nothing.
    const none: CodeAction[] = await client.connection.sendRequest('textDocument/codeAction', {
      textDocument: { uri: URI },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 5 } },
      context: { diagnostics: [] },
    });
    assert.deepEqual(none, []);
  });

  it('places ranges and fixes right in a CRLF document', async () => {
    const uri = 'file:///virtual/project/routes/crlf.js';
    const text = LEAN_HANDLER.replace(/\n/g, '\r\n');
    await open(client, uri, text, 1);
    const [diagnostic] = await client.diagnosticsFor(uri, 1);
    assert.deepEqual(diagnostic.range, LEAN_RANGE);
    const actions: CodeAction[] = await client.connection.sendRequest('textDocument/codeAction', {
      textDocument: { uri },
      range: diagnostic.range,
      context: { diagnostics: [diagnostic] },
    });
    const lines = (index: number) => applyEdits(text, editsOf(actions[index].edit, uri, 1)).split('\r\n');
    assert.equal(lines(0)[5], '  res.json(await Task.find({}).lean());');
    assert.deepEqual(lines(1).slice(5, 7), ['  // hotframe-disable-next-line mongoose-missing-lean', '  res.json(await Task.find({}));']);
  });

  it('clears the diagnostic when an edit removes the violation', async () => {
    await change(client, URI, 2, LEAN_HANDLER.replace('Task.find({})', 'Task.find({}).lean()'));
    assert.deepEqual(await client.diagnosticsFor(URI, 2), []);
  });

  it('publishes after every edit of a session what opening the same text afresh publishes', async () => {
    // The server keeps each document's tree between edits (incremental parse, kept scopes); a
    // copy opened anew beside it (same folder, so `require('../models')` resolves alike) is analyzed from scratch.
    const path = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'examples', 'demo-app', 'routes', 'tasks.js');
    const uri = pathToFileURL(path).href;
    const copy = pathToFileURL(join(dirname(path), 'tasks-session-copy.js')).href;
    let text = readFileSync(path, 'utf8');
    await open(client, uri, text);
    await client.diagnosticsFor(uri, 1);
    const steps: [string, string][] = [
      ['// Task routes in', '// Task routes, typed in'], // before the first statement
      ['projectOf(req) })); // expect: mongoose-missing-lean', 'projectOf(req) }).lean());'], // a finding goes
      ['function listTasksV1(', 'function stamp(ids) {\n  return ids.map(() => Date.now());\n}\n\nasync function listTasksV1('],
      ["views: await counters.incr(`task:${req.params.taskId}:views`) }", "views: await counters.incr(`task:${req.params.taskId}:views`), at: stamp([1, 2]) }"], // one comes (a clock read per item)
      ['function sendBoard(req, res) {', 'function sendBoard(req, res {'], // broken: the other statements keep their findings
      ['function sendBoard(req, res {', 'function sendBoard(req, res) {'], // mended
      ['const redis = new Redis(', 'const redisClient = new Redis('], // `redis` below becomes a global
      ["router.post('/v2/tasks/:taskId/views', countViewV2);\n", ''],
      ['const router = express.Router();', 'const extra = 1;\nconst router = express.Router();'],
    ];
    let version = 1;
    let counts = '';
    for (const [find, replace] of steps) {
      const at = text.indexOf(find);
      assert.ok(at >= 0, `the demo still holds ${JSON.stringify(find)}`);
      const range = { start: positionAt(text, at), end: positionAt(text, at + find.length) };
      text = text.slice(0, at) + replace + text.slice(at + find.length);
      version++;
      await client.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ range, text: replace }] });
      const got = await client.diagnosticsFor(uri, version);
      await open(client, copy, text, version);
      const fresh = await client.diagnosticsFor(copy, version);
      await client.connection.sendNotification('textDocument/didClose', { textDocument: { uri: copy } });
      if (replace === 'function sendBoard(req, res {') {
        // Broken: the session keeps the findings of the other statements (what the text says with
        // the broken function blanked out), and the error is the one a fresh open reports.
        const brokenFunction = text.slice(text.indexOf(replace), text.indexOf('}\n', text.indexOf(replace)) + 1);
        await open(client, copy, text.replace(brokenFunction, brokenFunction.replace(/[^\n]/g, ' ')), version + 100);
        const blanked = await client.diagnosticsFor(copy, version + 100);
        await client.connection.sendNotification('textDocument/didClose', { textDocument: { uri: copy } });
        assert.deepEqual(got.filter((d) => d.code !== 'parse-error'), blanked, 'the findings of the other statements stay');
        // A fresh open (no earlier tree) keeps them too: the statements that parse are kept (issue 26).
        assert.deepEqual(fresh.filter((d) => d.code !== 'parse-error'), blanked, 'a fresh open keeps the findings of the statements that parse');
        assert.deepEqual(got.filter((d) => d.code === 'parse-error'), fresh.filter((d) => d.code === 'parse-error'), 'the syntax error, once, where a fresh open puts it');
      } else {
        assert.deepEqual(got, fresh, `after edit ${version - 1}: ${JSON.stringify(replace)}`);
      }
      counts += `${got.length} `;
    }
    // The session went through fewer, more and broken states, not one state nine times.
    assert.equal(counts.trim(), '4 3 3 4 5 4 4 4 4');
  });

  it("keeps a file's findings while another statement has a syntax error, and reports the error once, at its place", async () => {
    // What the buffer looks like between keystrokes: one call not yet closed near the top of a
    // handler-dense file. Only the broken line's findings may go.
    // (a clock read per item: one read per request is quiet since issue 11)
    const block = (i: number) => `function stamp${i}() {
  return [0, 1].map(() => Date.now());
}
router.get('/items${i}', async (req, res) => {
  const items = await Item.find({ group: ${i} });
  res.json({ items, at: stamp${i}() });
});
router.get('/items${i}/count', async (req, res) => {
  const all = await Item.find({ group: ${i} });
  res.json({ count: all.length });
});
`;
    let text = `'use strict';
const express = require('express');
const mongoose = require('mongoose');
const Item = mongoose.model('Item', new mongoose.Schema({ group: Number }));
const router = express.Router();
${Array.from({ length: 8 }, (_, i) => block(i)).join('')}`;
    const uri = 'file:///virtual/project/routes/typing.js';
    const copy = 'file:///virtual/project/routes/typing-fresh.js';
    const key = (d: Diagnostic) => `${String(d.code)} ${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character} ${d.message}`;
    let copyVersion = 0; // a publish is found by version: each opening of the copy gets its own
    const freshDiagnostics = async (source: string) => {
      copyVersion++;
      await open(client, copy, source, copyVersion);
      const diagnostics = await client.diagnosticsFor(copy, copyVersion);
      await client.connection.sendNotification('textDocument/didClose', { textDocument: { uri: copy } });
      return diagnostics;
    };
    await open(client, uri, text, 1);
    const clean = await client.diagnosticsFor(uri, 1);
    assert.ok(clean.length >= 24, `the file has ${clean.length} findings`);
    let version = 1;
    const edit = async (find: string, replace: string) => {
      const at = text.indexOf(find);
      assert.ok(at >= 0, find);
      const range = { start: positionAt(text, at), end: positionAt(text, at + find.length) };
      text = text.slice(0, at) + replace + text.slice(at + find.length);
      version++;
      await client.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ range, text: replace }] });
      return client.diagnosticsFor(uri, version);
    };
    // The broken line, blanked out (lines kept), is what the findings must match: the statement
    // around it parses without it, and keeps the findings of its other lines (issue 26).
    const blankedOut = (source: string, line: string) => source.replace(line, line.replace(/[^\n]/g, ' '));
    const brokenLine = '  const items = await Item.find({ group: 1 };';

    const broken = await edit('Item.find({ group: 1 });\n  res.json({ items', 'Item.find({ group: 1 };\n  res.json({ items');
    const errors = broken.filter((d) => d.code === 'parse-error');
    assert.equal(errors.length, 1, 'the parse error is reported once');
    assert.equal(errors[0].range.start.line, text.slice(0, text.indexOf('{ group: 1 };')).split('\n').length - 1, 'on the unclosed call');
    const kept = broken.filter((d) => d.code !== 'parse-error');
    assert.ok(kept.length >= clean.length - 3, `${kept.length} of ${clean.length} findings kept`);
    assert.deepEqual(kept.map(key), (await freshDiagnostics(blankedOut(text, brokenLine))).map(key));
    // A fresh open of the broken text (no earlier tree) keeps the same: every statement that
    // parses keeps its findings, the one that does not reports its error (issue 26).
    assert.deepEqual((await freshDiagnostics(text)).map(key), broken.map(key));

    // Typing elsewhere while the error stays: findings follow the edit, the error stays one.
    const typed = await edit("Item.find({ group: 6 });\n  res.json({ items", "Item.find({ group: 6 }).lean();\n  res.json({ items");
    assert.equal(typed.filter((d) => d.code === 'parse-error').length, 1);
    assert.equal(typed.length, broken.length - 1, 'the .lean() typed below took its finding away');
    assert.deepEqual(typed.filter((d) => d.code !== 'parse-error').map(key),
      (await freshDiagnostics(blankedOut(text, brokenLine))).map(key));

    // Closing the call: everything is back, as a fresh analysis has it.
    const mended = await edit('{ group: 1 };', '{ group: 1 });');
    assert.equal(mended.filter((d) => d.code === 'parse-error').length, 0);
    assert.deepEqual(mended.map(key), (await freshDiagnostics(text)).map(key));
    assert.equal(mended.length, clean.length - 1);
  });

  it('publishes only the newest version when two changes arrive together', async () => {
    // Both notifications in one write, so the server reads them before validating either.
    const frame = (version: number, text: string) => {
      const body = JSON.stringify({ jsonrpc: '2.0', method: 'textDocument/didChange', params: { textDocument: { uri: URI, version }, contentChanges: [{ text }] } });
      return `Content-Length: ${Buffer.byteLength(body, 'utf8')}\r\n\r\n${body}`;
    };
    const before = client.published.length;
    client.child.stdin.write(frame(3, LEAN_HANDLER) + frame(4, LEAN_HANDLER.replace('async (req, res)', 'async (request, res)')));
    const diagnostics = await client.diagnosticsFor(URI, 4);
    assert.deepEqual(diagnostics.map((d) => d.range), [LEAN_RANGE]);
    const versions = client.published.slice(before).filter((p) => p.uri === URI).map((p) => p.version);
    assert.deepEqual(versions, [4], 'version 3 was superseded before it was validated');
  });

  it('reports a syntax error as one parse-error diagnostic and still reports what parsed', async () => {
    const uri = 'file:///virtual/project/broken.js';
    const text = LEAN_HANDLER + 'const broken;\n';
    await open(client, uri, text, 1);
    const diagnostics = await client.diagnosticsFor(uri, 1);
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.range.start.line, d.range.start.character, d.severity]),
      [
        ['mongoose-missing-lean', 5, 17, 2],
        ['parse-error', 8, 12, 1],
      ],
    );
    assert.equal(diagnostics[1].message, 'Missing initializer in const declaration.');
  });

  it('skips a minified document with one log line and keeps answering', async () => {
    const uri = 'file:///virtual/project/bundle.min.js';
    const minified = 'var a=' + JSON.stringify('x'.repeat(12_000)) + ';Date.now();\n';
    await open(client, uri, minified, 1);
    assert.deepEqual(await client.diagnosticsFor(uri, 1), []);
    const line = await client.logLine('bundle.min.js');
    assert.match(line, /skipped .*bundle\.min\.js \(minified\)/);
    const binaryUri = 'file:///virtual/project/blob.js';
    await open(client, binaryUri, 'abc\0def', 1);
    assert.deepEqual(await client.diagnosticsFor(binaryUri, 1), []);
    assert.match(await client.logLine('blob.js'), /\(binary\)/);
    const actions = await client.connection.sendRequest('textDocument/codeAction', {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
      context: { diagnostics: [] },
    });
    assert.deepEqual(actions, []);
  });

  it('reads imported modules from open, unsaved documents', async () => {
    const routes = 'file:///virtual/project/api/routes.js';
    const models = 'file:///virtual/project/api/models.js';
    const routesText = "const express = require('express');\nconst { Task } = require('./models');\nconst app = express();\napp.get('/tasks', async (req, res) => {\n  res.json(await Task.find({}));\n});\n";
    await open(client, routes, routesText, 1);
    assert.deepEqual(await client.diagnosticsFor(routes, 1), [], 'nothing says Task is a model yet');
    await open(client, models, "const mongoose = require('mongoose');\nmodule.exports.Task = mongoose.model('Task', new mongoose.Schema({}));\n", 1);
    await client.diagnosticsFor(models, 1);
    await change(client, routes, 2, routesText);
    const diagnostics = await client.diagnosticsFor(routes, 2);
    assert.deepEqual(diagnostics.map((d) => [d.code, d.range.start.line, d.range.start.character]), [['mongoose-missing-lean', 4, 17]]);
    await client.connection.sendNotification('textDocument/didClose', { textDocument: { uri: models } });
    await change(client, routes, 3, routesText);
    assert.deepEqual(await client.diagnosticsFor(routes, 3), [], 'the closed document is forgotten (and not on disk)');
  });

  it('analyzes another open document again when an edit changes what the project says of it, without a save', async () => {
    const routes = 'file:///virtual/project/app/routes.js';
    const controller = 'file:///virtual/project/app/controller.js';
    const routesText = "const express = require('express');\nconst ctrl = require('./controller');\nconst app = express();\napp.get('/disk', ctrl.disk);\napp.listen(3000);\n";
    const controllerText = "const { execSync } = require('child_process');\nexports.disk = (req, res) => {\n  res.send(execSync('df -k', { env: {} }));\n};\n";
    await open(client, routes, routesText, 1);
    await client.diagnosticsFor(routes, 1);
    await open(client, controller, controllerText, 1);
    assert.deepEqual((await client.diagnosticsFor(controller, 1)).map((d) => [d.code, d.range.start.line]), [['blocking-sync-call', 2]], 'the route registers disk');
    // The route is removed in the editor (not saved): the handler is no longer seen registered, only
    // guessed from its (req, res) shape, and the message says so.
    const guessed = waitForPublish(client, controller, (d) => /no registration was found/.test(d[0]?.message ?? ''), (p) => p.version === 1);
    await change(client, routes, 2, routesText.replace("app.get('/disk', ctrl.disk);\n", ''));
    assert.equal((await guessed).length, 1);
    // And back.
    const registered = waitForPublish(client, controller, (d) => d.length === 1 && !/no registration was found/.test(d[0].message), (p) => p.version === 1);
    await change(client, routes, 3, routesText);
    assert.match((await registered)[0].message, /while handling a request \(via exports\.disk\): nothing else runs/);
    for (const uri of [routes, controller]) await client.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
  });

  it('leaves documents that are not JavaScript or TypeScript alone', async () => {
    await client.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri: 'file:///virtual/project/package.json', languageId: 'json', version: 1, text: '{"name": "x"}' },
    });
    // Messages are handled in order: once the next document is published, the JSON one would have been.
    const next = 'file:///virtual/project/next.mjs';
    await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: next, languageId: 'plaintext', version: 1, text: 'export {};\n' } });
    assert.deepEqual(await client.diagnosticsFor(next, 1), []);
    assert.deepEqual(client.published.filter((p) => p.uri.endsWith('package.json')), []);
  });

  it('re-reads hotframe.rules on didChangeConfiguration and revalidates open documents', async () => {
    client.settings = { rules: { 'mongoose-missing-lean': 'error' } };
    const raising = waitForPublish(client, URI, (d) => d.length === 1 && d[0].severity === 1);
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: null });
    const raised = await raising;
    assert.equal(raised[0].code, 'mongoose-missing-lean');
    client.settings = { rules: { 'mongoose-missing-lean': 'off', 'no-such-rule': 'error' } };
    const cleared = waitForPublish(client, URI, (d) => d.length === 0);
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: null });
    assert.deepEqual(await cleared, []);
    assert.match(await client.logLine('no-such-rule'), /unknown rule 'no-such-rule' ignored/);
  });

  it('clears diagnostics on close, then shuts down and exits with 0', async () => {
    const cleared = waitForPublish(client, URI, (d) => d.length === 0, (p) => p.version === undefined);
    await client.connection.sendNotification('textDocument/didClose', { textDocument: { uri: URI } });
    await cleared;
    await client.connection.sendRequest('shutdown');
    const exited = new Promise<number | null>((resolve) => client.child.once('exit', (code) => resolve(code)));
    await client.connection.sendNotification('exit');
    assert.equal(await exited, 0);
    assert.equal(client.stderr(), '');
  });
});

describe('parseSettings', () => {
  const parse = (raw: unknown) => {
    const warnings: string[] = [];
    return { settings: parseSettings(raw, (line) => warnings.push(line)), warnings };
  };

  it('reads every hotframe setting the server uses (the client reads heat.enabled and pathMappings)', () => {
    const { settings, warnings } = parse({
      rules: { 'date-now-hot-path': 'error', 'spawn-without-env': 'off' },
      hotThresholdPercent: 5,
      stallThresholdMs: 120,
      pathMappings: [{ from: '/usr/src/app', to: '/home/me/app' }],
      heat: { enabled: false },
    });
    assert.deepEqual(settings, {
      rules: { 'date-now-hot-path': 'error', 'spawn-without-env': 'off' },
      hotThresholdPercent: 5,
      stallThresholdMs: 120,
    });
    assert.deepEqual(warnings, []);
  });

  it('uses the defaults when nothing is set', () => {
    assert.deepEqual(parse(undefined), { settings: { ...DEFAULT_SETTINGS }, warnings: [] });
    assert.deepEqual(parse(null).settings, { ...DEFAULT_SETTINGS });
  });

  it('replaces each bad value by its default with one warning line', () => {
    const { settings, warnings } = parse({
      rules: { 'date-now-hot-path': 'loud', 'no-such-rule': 'error', 'blocking-sync-call': 'hint' },
      hotThresholdPercent: 'high',
      stallThresholdMs: 0,
    });
    assert.deepEqual(settings, { rules: { 'blocking-sync-call': 'hint' }, hotThresholdPercent: 1, stallThresholdMs: 50 });
    assert.deepEqual(warnings, [
      "hotframe.rules.date-now-hot-path: 'loud' is not one of off|hint|information|warning|error, using the default",
      "hotframe.rules: unknown rule 'no-such-rule' ignored",
      "hotframe.hotThresholdPercent: 'high' is not a number in 0..100, using 1",
      "hotframe.stallThresholdMs: '0' is not a number of ms above 0 and at most 60000, using 50",
    ]);
    assert.equal(parse({ stallThresholdMs: 1e9 }).settings.stallThresholdMs, 50);
    assert.deepEqual(parse({ hotThresholdPercent: 101 }).settings.hotThresholdPercent, 1);
    assert.deepEqual(parse('hotframe').warnings, ['hotframe settings: expected an object, using defaults']);
  });
});

describe('readPathMappings (the mappings a profile load carries)', () => {
  const read = (raw: unknown) => {
    const warnings: string[] = [];
    return { mappings: readPathMappings(raw, (line) => warnings.push(line)), warnings };
  };

  it('keeps well-formed entries', () => {
    assert.deepEqual(read([{ from: '/usr/src/app', to: '/home/me/app' }]), { mappings: [{ from: '/usr/src/app', to: '/home/me/app' }], warnings: [] });
    assert.deepEqual(read(undefined), { mappings: [], warnings: [] });
  });

  it('drops each bad entry with one warning line', () => {
    assert.deepEqual(read([{ from: '/a' }, { from: '/b', to: '/c' }, { from: '', to: '/d' }, 'x']), {
      mappings: [{ from: '/b', to: '/c' }],
      warnings: Array(3).fill('hotframe.pathMappings: an entry without string "from" and "to" was ignored'),
    });
    assert.deepEqual(read({ from: '/a', to: '/b' }), { mappings: [], warnings: ['hotframe.pathMappings: expected an array of {from, to}, ignored'] });
  });
});

describe('language server lifetime', function () {
  this.timeout(60_000);

  it('exits (code 1, no shutdown was requested) when the client closes its end of stdio', async () => {
    const client = await startClient();
    const exited = new Promise<number | null>((resolve) => client.child.once('exit', (code) => resolve(code)));
    client.child.stdin.end();
    assert.equal(await exited, 1);
  });

  it('refuses to start without a transport, with one line on stderr', async () => {
    const { server } = await bundles();
    const child = spawn(process.execPath, [server], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
    assert.equal(code, 2);
    assert.equal(stderr, 'hotframe language server: usage: node dist/server.js --stdio | --node-ipc | --socket=PORT | --pipe=NAME\n');
  });

  it('refuses a --socket that is not a port, with one line on stderr', async () => {
    const { server } = await bundles();
    for (const args of [['--socket=notaport'], ['--socket', '70000']]) {
      const child = spawn(process.execPath, [server, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
      assert.equal(code, 2);
      assert.equal(stderr, `hotframe language server: --socket: '${args.at(-1)!.replace('--socket=', '')}' is not a port number\n`);
    }
  });
});

describe('language server over node IPC (how the VS Code client starts it)', function () {
  this.timeout(60_000);

  it('initializes, publishes diagnostics and exits cleanly', async () => {
    const { server } = await bundles();
    const child = fork(server, ['--node-ipc'], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    let stdout = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const connection = createMessageConnection(new IPCMessageReader(child), new IPCMessageWriter(child));
    const published = new Promise<PublishDiagnosticsParams>((resolve) => connection.onNotification('textDocument/publishDiagnostics', resolve));
    connection.listen();
    const init: { capabilities: { textDocumentSync: unknown; codeActionProvider: unknown }; serverInfo: { name: string } } = await connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: null,
      capabilities: {},
    });
    assert.deepEqual(init.capabilities.textDocumentSync, { openClose: true, change: 2 });
    assert.deepEqual(init.capabilities.codeActionProvider, { codeActionKinds: ['quickfix'] });
    assert.equal(init.serverInfo.name, 'hotframe');
    await connection.sendNotification('initialized', {});
    await connection.sendNotification('textDocument/didOpen', { textDocument: { uri: URI, languageId: 'javascript', version: 7, text: LEAN_HANDLER } });
    const params = await published;
    assert.deepEqual([params.version, params.diagnostics.map((d) => d.range)], [7, [LEAN_RANGE]]);
    await connection.sendRequest('shutdown');
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await connection.sendNotification('exit');
    assert.equal(await exited, 0);
    assert.equal(stdout, '', 'nothing written to stdout');
    connection.dispose();
  });

  it('takes the arguments vscode-languageclient passes: --node-ipc --clientProcessId=PID', async () => {
    const { server } = await bundles();
    const child = fork(server, ['--node-ipc', `--clientProcessId=${process.pid}`], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const connection = createMessageConnection(new IPCMessageReader(child), new IPCMessageWriter(child));
    connection.listen();
    const init: { serverInfo: { name: string } } = await connection.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {} });
    assert.equal(init.serverInfo.name, 'hotframe');
    await connection.sendRequest('shutdown');
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await connection.sendNotification('exit');
    assert.equal(await exited, 0);
    assert.equal(stderr, '');
    connection.dispose();
  });
});

describe('language server ranking by a loaded profile', function () {
  this.timeout(60_000);
  let client: Client;
  let dir: string;

  before(async () => {
    client = await startClient();
    dir = writeProject({ 'routes/a.js': LEAN_HANDLER, 'routes/b.js': LEAN_HANDLER, 'stats.js': SPAWN_TIMER });
    writeLeanProfile(join(dir, 'app.cpuprofile'), join(dir, 'routes/b.js'), join(dir, 'routes/a.js'));
    writeSpawnProfile(join(dir, 'spawn.cpuprofile'), join(dir, 'stats.js'));
    mkdirSync(join(dir, 'api'));
  });

  after(async () => {
    client.child.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('raises a hot finding one severity step with its cost, honours hotThresholdPercent, and restores it when cleared', async () => {
    const hot = pathToFileURL(join(dir, 'routes/b.js')).href;
    const cold = pathToFileURL(join(dir, 'routes/a.js')).href;
    await open(client, hot, LEAN_HANDLER);
    await open(client, cold, LEAN_HANDLER);
    const [plain] = await client.diagnosticsFor(hot, 1);
    assert.equal(plain.severity, 2);
    assert.equal((await client.diagnosticsFor(cold, 1))[0].severity, 2);

    // Each wait starts before its action: the publish may overtake the response.
    const raising = waitForPublish(client, hot, (d) => d.length === 1 && d[0].severity === 1);
    await client.connection.sendRequest('hotframe/loadProfile', { path: join(dir, 'app.cpuprofile'), role: 'primary', pathMappings: [], roots: [dir] });
    const [raised] = await raising;
    assert.equal(raised.message, plain.message + ' — 30.0 ms on this line, 30.3% of CPU time, idle excluded in this profile');
    assert.deepEqual(raised.range, plain.range);
    // The cold file was republished too, its finding unchanged: 0 of its samples are on the finding's
    // line (the profile's 99 ms gap there is a stall of its own, reported apart: cliStalls.test.ts).
    const coldNow = client.published.filter((p) => p.uri === cold).at(-1)!;
    assert.deepEqual(coldNow.diagnostics.filter((d) => d.code !== 'event-loop-stall').map((d) => [d.severity, d.message]), [[2, plain.message]]);

    client.settings = { hotThresholdPercent: 31 };
    const lowered = waitForPublish(client, hot, (d) => d.length === 1 && d[0].severity === 2);
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: null });
    assert.equal((await lowered)[0].message, plain.message);
    client.settings = { hotThresholdPercent: 30 };
    const raisedAgain = waitForPublish(client, hot, (d) => d.length === 1 && d[0].severity === 1);
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: null });
    await raisedAgain;

    const clearing = waitForPublish(client, hot, (d) => d.length === 1 && d[0].severity === 2);
    await client.connection.sendRequest('hotframe/clearProfile');
    const [cleared] = await clearing;
    assert.equal(cleared.message, plain.message);
  });

  it('reads hotframe.stallThresholdMs when a profile is opened: the 99 ms stall is noted over 50 ms, not over 150 ms', async () => {
    const cold = pathToFileURL(join(dir, 'routes/a.js')).href;
    const load = () => client.connection.sendRequest('hotframe/loadProfile', { path: join(dir, 'app.cpuprofile'), role: 'primary', pathMappings: [], roots: [dir] });
    const isStall = (d: Diagnostic): boolean => d.code === 'event-loop-stall';
    client.settings = { stallThresholdMs: 150 };
    // Open unless the test before did (the document then stays open).
    if (!client.published.some((p) => p.uri === cold)) {
      await open(client, cold, LEAN_HANDLER);
      await client.diagnosticsFor(cold, 1);
    }
    // The server pulls the settings (workspace/configuration) after the notification; nothing is published when only this one changed.
    const pulled = client.configurationPulls;
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: null });
    await client.waitFor(() => (client.configurationPulls > pulled ? true : undefined));
    const loaded = waitForPublish(client, cold, () => true);
    await load();
    assert.deepEqual((await loaded).filter(isStall), []);
    client.settings = {};
    const noted = waitForPublish(client, cold, (d) => d.some(isStall));
    const pulledAgain = client.configurationPulls;
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: null });
    await client.waitFor(() => (client.configurationPulls > pulledAgain ? true : undefined));
    await load();
    const stall = (await noted).find(isStall)!;
    assert.match(stall.message, /stalled the event loop once \(stalls over 50\.0 ms\): longest 99\.0 ms/);
    const clearing = waitForPublish(client, cold, (d) => !d.some(isStall));
    await client.connection.sendRequest('hotframe/clearProfile');
    await clearing;
  });

  it('revalidates open documents when a file they import changes on disk', async () => {
    const routes = pathToFileURL(join(dir, 'api/routes.js')).href;
    const routesText = "const express = require('express');\nconst { Task } = require('./models');\nconst app = express();\napp.get('/tasks', async (req, res) => {\n  res.json(await Task.find({}));\n});\n";
    writeFileSync(join(dir, 'api/models.js'), 'module.exports.Task = {};\n');
    await open(client, routes, routesText);
    assert.deepEqual(await client.diagnosticsFor(routes, 1), []);
    writeFileSync(join(dir, 'api/models.js'), "const mongoose = require('mongoose');\nmodule.exports.Task = mongoose.model('Task', new mongoose.Schema({}));\n");
    const found = waitForPublish(client, routes, (d) => d.length === 1);
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(join(dir, 'api/models.js')).href, type: 2 }] });
    assert.deepEqual((await found).map((d) => [d.code, d.range.start.line]), [['mongoose-missing-lean', 4]]);
  });

  it("ranks a finding by its enclosing function's cost and shows the profile's insights on their line", async () => {
    const uri = pathToFileURL(join(dir, 'stats.js')).href;
    await open(client, uri, SPAWN_TIMER);
    // The stats timer's execSync is also a blocking-sync-call (certain from the code: a warning).
    const plain = (await client.diagnosticsFor(uri, 1)).find((d) => d.code === 'spawn-without-env')!;
    // A spawn while serving copies the environment each time (proved by the code): information (3)...
    assert.deepEqual([plain.code, plain.severity, plain.range], ['spawn-without-env', 3, { start: { line: 2, character: 9 }, end: { line: 2, character: 28 } }]);
    const ranked = waitForPublish(client, uri, (d) => d.some((x) => x.code === 'profile-insight'));
    await client.connection.sendRequest('hotframe/loadProfile', { path: join(dir, 'spawn.cpuprofile'), role: 'primary', pathMappings: [], roots: [dir] });
    const published = await ranked;
    const finding = published.find((d) => d.code === 'spawn-without-env')!;
    const insight = published.find((d) => d.code === 'profile-insight' && (d.data as { insightId?: string }).insightId === 'spawn-env-walk')!;
    // No samples on line 3 itself: the cost is that of `stats`, 60 of 100 samples.
    // ...and louder with a profile that shows the code hot: one step up, a warning (2), with its cost.
    assert.deepEqual([finding.code, finding.severity, finding.message], ['spawn-without-env', 2, plain.message + ' — 60.0 ms in its function stats, 100% of CPU time, idle excluded in this profile']);
    assert.deepEqual([insight.code, insight.severity, insight.source, insight.data], ['profile-insight', 3, 'hotframe', { insightId: 'spawn-env-walk' }]);
    assert.deepEqual(insight.range, { start: { line: 1, character: 0 }, end: { line: 1, character: 'function stats() {'.length } });
    assert.match(insight.message, /^normalizeSpawnArguments copies process\.env on every spawn: Copying process\.env for child processes \(normalizeSpawnArguments\) took .* Pass a small env/);
  });

  it("lists a trace's threads in the summary and loads the one asked for (the editor's quick pick)", async () => {
    const trace = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'peers', 'speedscope-chrome-66-worker.cpuprofile-events.json.gz');
    const load = (thread?: string): Promise<{ samples: number; thread?: string; threads?: { id: string; name: string; samples: number }[] }> =>
      client.connection.sendRequest('hotframe/loadProfile', { path: trace, role: 'primary', pathMappings: [], roots: [dir], ...(thread === undefined ? {} : { thread }) });
    const busiest = await load();
    assert.deepEqual(busiest.threads?.map((t) => [t.id, t.name, t.samples]), [
      ['30834:30851', 'CrRendererMain', 4447],
      ['30834:31089', 'DedicatedWorker thread', 3792],
    ]);
    assert.deepEqual([busiest.thread, busiest.samples], ['30834:30851', 4447]);
    const worker = await load('30834:31089');
    assert.deepEqual([worker.thread, worker.samples], ['30834:31089', 3792]);
  });
});

describe('language server: an allocation profile joined to the CPU profile (issue 16)', function () {
  this.timeout(120_000);
  const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
  let client: Client;
  let dir: string;
  let workload: string;
  let text: string;
  let cli: string;

  before(async () => {
    // A GC-heavy route recorded twice in this run, CPU and allocations (test/fixtures/recordGcJoin.mjs),
    // copied out of test/ first (the rules take files under test/ for tooling).
    dir = writeProject({});
    workload = join(dir, 'garbageRoute.js');
    copyFileSync(join(FIXTURES, 'workloads', 'garbageRoute.js'), workload);
    text = readFileSync(workload, 'utf8');
    const recorded = spawnSync(process.execPath, [join(FIXTURES, 'recordGcJoin.mjs'), join(dir, 'profiles'), workload], { encoding: 'utf8', timeout: 90_000 });
    assert.equal(recorded.status, 0, recorded.stderr);
    ({ cli } = await bundles());
    client = await startClient();
  });

  after(async () => {
    client.child.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  const load = (file: string, role: string): Promise<{ name: string; unit: string } | null> =>
    client.connection.sendRequest('hotframe/loadProfile', { path: join(dir, 'profiles', file), role, pathMappings: [], roots: [dir] });
  const hotframe = (...args: string[]): string => {
    const run = spawnSync(process.execPath, [cli, ...args], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    assert.ok(run.status === 0 || run.status === 1, run.stderr);
    return run.stdout;
  };

  it('refuses a join without a CPU profile, and a CPU profile as the allocation profile, in one line', async () => {
    await assert.rejects(load('garbage.heapprofile', 'allocation'), /^Error: no CPU profile loaded: open the CPU profile first/);
    await load('gc.cpuprofile', 'primary');
    await assert.rejects(load('gc.cpuprofile', 'allocation'), /^Error: gc\.cpuprofile measures CPU time, not allocations/);
    const overview = (await client.connection.sendRequest('hotframe/overview')) as { profile: { name: string } | null; allocation: unknown };
    assert.deepEqual([overview.profile?.name, overview.allocation], ['gc.cpuprofile', null]);
    await client.connection.sendRequest('hotframe/clearProfile');
  });

  it('names who makes the garbage in the GC insight and says what a finding allocates, as the CLI does; another CPU profile ends the join', async () => {
    const uri = pathToFileURL(workload).href;
    const line = (needle: string): number => text.split('\n').findIndex((l) => l.includes(needle));
    await open(client, uri, text);
    const [plain] = await client.diagnosticsFor(uri, 1);
    assert.deepEqual([plain.code, plain.range.start.line], ['blocking-sync-call', line('fs.readFileSync(')]);

    // The CPU profile alone: the GC insight names nobody. (Whether the finding's line is hot in
    // CPU time depends on where the samples fell: the readFileSync line's own samples, if any,
    // else serveTagReport's total.)
    const cpuOnly = waitForPublish(client, uri, () => true);
    await load('gc.cpuprofile', 'primary');
    const cpuFinding = (await cpuOnly).find((d) => d.code === 'blocking-sync-call')!;
    const cpuCost = / — ([\d.]+ (?:µs|ms|s)(?: (?:on|in) [^,]+)?, [\d.]+% of CPU time, idle excluded) in this profile$/.exec(cpuFinding.message)?.[1];
    assert.ok(cpuFinding.message === plain.message || cpuCost !== undefined, cpuFinding.message);
    let overview = (await client.connection.sendRequest('hotframe/overview')) as { allocation: { name: string } | null; insights: { id: string; message: string }[] };
    const gcAlone = overview.insights.find((i) => i.id === 'gc-pressure');
    assert.ok(gcAlone, `the 1 MB semi-space recording spends >= 10% in GC: ${JSON.stringify(overview.insights.map((i) => i.id))}`);
    assert.doesNotMatch(gcAlone.message, /Who makes the garbage/);

    // The allocation profile next to it.
    // The joined state is the one whose GC insight sits on the allocating line: a publish of the CPU
    // profile alone (its other insights are diagnostics too) may still arrive after this point.
    const joining = waitForPublish(client, uri, (d) => d.some((x) => x.code === 'profile-insight' && (x.data as { insightId?: string } | undefined)?.insightId === 'gc-pressure'));
    const summary = await load('garbage.heapprofile', 'allocation');
    assert.deepEqual([summary?.name, summary?.unit], ['garbage.heapprofile', 'bytes']);
    const joined = await joining;

    // The GC insight: the CLI's words and figures (`hotframe profile --alloc`), on the top allocating line.
    const cliReport = JSON.parse(hotframe('profile', 'profiles/gc.cpuprofile', '--root', dir, '--alloc', 'profiles/garbage.heapprofile', '--format', 'json')) as { insights: { id: string; title: string; message: string }[] };
    const cliGc = cliReport.insights.find((i) => i.id === 'gc-pressure')!;
    assert.match(cliGc.message, new RegExp(`Who makes the garbage \\(garbage\\.heapprofile\\): copyTasksPerTag at ${workload.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:${line('function copyTasksPerTag') + 1} allocates [\\d.]+ [KMG]iB \\([\\d.]+% of bytes\\)`));
    const insight = joined.find((d) => d.code === 'profile-insight' && (d.data as { insightId?: string }).insightId === 'gc-pressure');
    assert.ok(insight, JSON.stringify(joined.map((d) => d.code)));
    assert.equal(insight.message, `${cliGc.title}: ${cliGc.message}`);
    assert.equal(insight.range.start.line, line('function copyTasksPerTag'));
    overview = (await client.connection.sendRequest('hotframe/overview')) as typeof overview;
    assert.equal(overview.allocation?.name, 'garbage.heapprofile');
    assert.equal(overview.insights.find((i) => i.id === 'gc-pressure')?.message, cliGc.message);

    // The finding keeps its CPU cost and says what its code allocates, the figures of
    // `hotframe analyze --profile garbage.heapprofile`; allocating nearly all the bytes raises it.
    const finding = joined.find((d) => d.code === 'blocking-sync-call')!;
    const cliAllocated = /\((allocates [\d.]+ [KMG]iB(?: (?:on|in) [^,]+)?, [\d.]+% of allocated bytes)\)/.exec(hotframe('analyze', 'garbageRoute.js', '--profile', 'profiles/garbage.heapprofile', '--root', dir))?.[1];
    assert.ok(cliAllocated, 'the CLI says what the finding allocates');
    // The join takes the calls on the line, then the line, then the function (one join): when the
    // allocation sampler caught the readFileSync line's own buffer, that small share is the figure;
    // when it did not, the function's, most of the bytes. Both come from the recording.
    const allocatedPercent = Number(/, ([\d.]+)% of allocated bytes/.exec(cliAllocated)?.[1]);
    if (cpuCost === undefined && allocatedPercent < 1) {
      // Cold in both profiles: the editor appends a cost to hot findings only, as with one profile.
      assert.equal(finding.message, plain.message);
    } else {
      const joinedCost = new RegExp(`^ — ([\\d.]+ (?:µs|ms|s)(?: (?:on|in) [^,]+)?, [\\d.]+% of CPU time, idle excluded); ${cliAllocated.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} in the loaded profiles$`).exec(finding.message.slice(plain.message.length));
      assert.ok(finding.message.startsWith(plain.message) && joinedCost !== null, finding.message);
      if (cpuCost !== undefined) assert.equal(joinedCost[1], cpuCost);
      // The same join on the command line (`analyze --profile CPU --alloc ALLOCATION`): the same words and figures.
      const cliJoined = hotframe('analyze', 'garbageRoute.js', '--profile', 'profiles/gc.cpuprofile', '--alloc', 'profiles/garbage.heapprofile', '--root', dir)
        .split('\n').find((l) => l.includes('[blocking-sync-call]'));
      assert.equal(` — ${/\(([^()]+)\)$/.exec(cliJoined ?? '')?.[1]} in the loaded profiles`, finding.message.slice(plain.message.length));
      assert.equal(finding.severity, 2, 'a hint raised to its rule level, a warning: its code allocates most of the bytes');
    }
    const analyzeReport = JSON.parse(hotframe('analyze', 'garbageRoute.js', '--profile', 'profiles/gc.cpuprofile', '--alloc', 'profiles/garbage.heapprofile', '--root', dir, '--format', 'json')) as { profile: { insights: { id: string; message: string }[] } };
    assert.equal(analyzeReport.profile.insights.find((i) => i.id === 'gc-pressure')?.message, cliGc.message);

    // Another CPU profile ends the join: the finding and the insight are the CPU profile's alone again.
    const ending = waitForPublish(client, uri, (d) => d.some((x) => x.code === 'blocking-sync-call' && !x.message.includes('allocates')));
    await load('gc.cpuprofile', 'primary');
    const ended = await ending;
    assert.equal(ended.find((d) => d.code === 'blocking-sync-call')?.message, cpuFinding.message);
    assert.ok(!ended.some((d) => d.code === 'profile-insight' && d.message.includes('Who makes the garbage')));
    overview = (await client.connection.sendRequest('hotframe/overview')) as typeof overview;
    assert.equal(overview.allocation, null);
    assert.doesNotMatch(overview.insights.find((i) => i.id === 'gc-pressure')?.message ?? '', /Who makes the garbage/);
  });
});

/** The next publish for `uri` (after this call) whose diagnostics satisfy `accept`. */
function waitForPublish(
  client: Client,
  uri: string,
  accept: (diagnostics: Diagnostic[]) => boolean,
  also: (p: PublishDiagnosticsParams) => boolean = () => true,
): Promise<Diagnostic[]> {
  const from = client.published.length;
  return client.waitFor(() => client.published.slice(from).find((p) => p.uri === uri && also(p) && accept(p.diagnostics))?.diagnostics);
}
