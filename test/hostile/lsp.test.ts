// Hostile inputs through the language server as an editor drives it (real JSON-RPC over the
// child's stdio): a document importing special files, profiles that are special files, and an
// untrusted workspace. After each probe the server still answers a fresh document, its peak
// memory (VmHWM of the process) stays under the bound, and failures come back as one line.
import { strict as assert } from 'node:assert';
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import type { Diagnostic, PublishDiagnosticsParams } from 'vscode-languageserver';

import type { FlameNode } from '../../server/protocol/wire';
import { jsonValueBudget } from '../../server/profile/readers/budgets';
import { MAX_JSON_BYTES } from '../../server/profile/readers/byteCaps';
import { bundles } from '../unit/bundles';
import { LEAN_HANDLER, writeLeanProfile } from '../unit/analyzeFixture';
import { MAX_PEAK_MB, mkfifo, tempDir, traceOfSamples } from './probe';

interface Server {
  child: ChildProcessWithoutNullStreams;
  connection: MessageConnection;
  diagnostics(uri: string, version: number): Promise<Diagnostic[]>;
  peakMb(): number;
}

async function startServer(cwd: string, options: { trusted?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<Server> {
  const { server } = await bundles();
  const child = spawn(process.execPath, [server, '--stdio'], { cwd, env: { ...process.env, ...options.env }, stdio: ['pipe', 'pipe', 'pipe'] });
  const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const published: PublishDiagnosticsParams[] = [];
  const waiters: (() => void)[] = [];
  connection.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) => {
    published.push(params);
    waiters.splice(0).forEach((w) => w());
  });
  connection.onRequest('workspace/configuration', (params: { items: unknown[] }) => params.items.map(() => ({})));
  connection.onRequest('client/registerCapability', () => null);
  connection.listen();
  const initializationOptions = options.trusted === undefined ? undefined : { workspaceRoots: [cwd], workspaceTrusted: options.trusted };
  await connection.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: { workspace: { configuration: true } }, initializationOptions });
  await connection.sendNotification('initialized', {});
  after(() => {
    if (child.exitCode === null) child.kill();
  });
  return {
    child,
    connection,
    diagnostics: (uri, version) =>
      new Promise((resolve) => {
        const check = (): void => {
          const found = published.find((p) => p.uri === uri && p.version === version);
          if (found === undefined) waiters.push(check);
          else resolve(found.diagnostics);
        };
        check();
      }),
    peakMb: () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? Infinity) / 1024,
  };
}

async function openDocument(server: Server, path: string, text: string): Promise<Diagnostic[]> {
  const uri = pathToFileURL(path).href;
  await server.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'javascript', version: 1, text } });
  return server.diagnostics(uri, 1);
}

/** The server is alive and analyzes a new document. */
async function assertStillAnswers(server: Server, dir: string, name: string): Promise<void> {
  const diagnostics = await openDocument(server, join(dir, name), LEAN_HANDLER);
  assert.deepEqual(diagnostics.map((d) => d.code), ['mongoose-missing-lean']);
  assert.ok(server.peakMb() < MAX_PEAK_MB, `server peak memory ${Math.round(server.peakMb())} MB`);
}

describe('hostile input: the language server', function () {
  this.timeout(120_000);
  const dir = tempDir('lsp');

  before(() => {
    mkfifo(join(dir, 'fifo.js'));
    symlinkSync('/dev/zero', join(dir, 'zero.js'));
    writeLeanProfile(join(dir, 'app.cpuprofile'), join(dir, 'fresh-1.js'), join(dir, 'fresh-1.js'));
    mkfifo(join(dir, 'pipe.cpuprofile'));
  });

  for (const trusted of [true, false]) {
    it(`modules outside the workspace folders are not read through absolute, ../ or linked requires (${trusted ? 'trusted' : 'Restricted Mode'})`, async () => {
      const root = join(dir, `index-${trusted}`);
      const workspace = join(root, 'workspace');
      mkdirSync(join(root, 'outside'), { recursive: true });
      mkdirSync(join(workspace, 'lib'), { recursive: true });
      // The same mongoose model module outside and inside: a finding appears only when it was read.
      const models = "const mongoose = require('mongoose');\nmodule.exports.Task = mongoose.model('Task', new mongoose.Schema({}));\n";
      writeFileSync(join(root, 'outside', 'models.js'), models);
      writeFileSync(join(workspace, 'lib', 'models.js'), models);
      symlinkSync(join(root, 'outside'), join(workspace, 'linked'));
      const server = await startServer(workspace, { trusted });
      const handler = (specifier: string) =>
        `const express = require('express');\nconst { Task } = require(${JSON.stringify(specifier)});\nconst app = express();\napp.get('/tasks', async (req, res) => {\n  res.json(await Task.find({}));\n});\n`;
      const codes = async (name: string, specifier: string) => (await openDocument(server, join(workspace, name), handler(specifier))).map((d) => d.code);
      assert.deepEqual(await codes('inside.js', './lib/models'), ['mongoose-missing-lean'], 'control: the module inside is read');
      assert.deepEqual(await codes('dotdot.js', '../outside/models'), [], '../ out of the workspace');
      assert.deepEqual(await codes('absolute.js', join(root, 'outside', 'models.js')), [], 'an absolute path outside');
      assert.deepEqual(await codes('linked.js', './linked/models'), [], 'a link inside pointing out');
    });
  }

  it('a document importing /dev/zero, a FIFO and a link to /dev/zero is analyzed; the server goes on', async () => {
    const server = await startServer(dir);
    const text = [
      "const express = require('express');",
      "const A = require('/dev/zero');",
      "const B = require('./fifo');",
      "const C = require('./zero');",
      "import D from '/dev/stdin';",
      'const app = express();',
      "app.get('/x', async (req, res) => {",
      '  res.json(await A.find({}));',
      '  res.json(await B.find({}));',
      '  res.json(await C.find({}));',
      '  res.json(await D.find({}));',
      '});',
      '',
    ].join('\n');
    await openDocument(server, join(dir, 'imports.js'), text);
    await assertStillAnswers(server, dir, 'fresh-1.js');
  });

  it('a profile that is a FIFO or /dev/zero fails with one line, and the next load works', async () => {
    const server = await startServer(dir);
    for (const path of [join(dir, 'pipe.cpuprofile'), '/dev/zero', join(dir, 'zero.js')]) {
      await assert.rejects(server.connection.sendRequest('hotframe/loadProfile', { path, role: 'primary', pathMappings: [], roots: [dir] }), (error: Error) => {
        assert.match(error.message, /^[^\n]*: not a regular file \((a FIFO|a character device)\)$/);
        return true;
      });
    }
    const summary = (await server.connection.sendRequest('hotframe/loadProfile', { path: join(dir, 'app.cpuprofile'), role: 'primary', pathMappings: [], roots: [dir] })) as { samples: number };
    assert.ok(summary.samples > 0);
    await assertStillAnswers(server, dir, 'fresh-2.js');
  });

  it('a small gzipped trace that would become gigabytes is refused in one line, and the server goes on', async () => {
    // 195 KB gzipped, 100 M samples: the CLI peaked at 4.7 GB; the server grew past 6 GB without answering.
    writeFileSync(join(dir, 'samples.json.gz'), gzipSync(traceOfSamples(jsonValueBudget(MAX_JSON_BYTES) + 1)));
    const server = await startServer(dir);
    await assert.rejects(server.connection.sendRequest('hotframe/loadProfile', { path: join(dir, 'samples.json.gz'), role: 'primary', pathMappings: [], roots: [dir] }), (error: Error) => {
      assert.match(error.message, /^[^\n]*: more than [\d,]+ JSON values \(after gunzip\); not read \(the budget for JSON read whole, docs\/security\.md\)$/);
      return true;
    });
    await assertStillAnswers(server, dir, 'fresh-4.js');
  });

  describe('an untrusted workspace (VS Code Restricted Mode)', () => {
    // nm is found in the system folders only (docs/security.md): a stand-in `nm` first on PATH
    // and in the workspace (an empty PATH entry means the working folder) must never run, in any
    // case. Whether the real nm ran shows in the frames: only its symbol table names C++ code
    // (v8::internal::…) in a log recorded here from a real Node run.
    const bin = join(dir, 'bin');
    const calls = join(dir, 'nm-called');
    const env = (): NodeJS.ProcessEnv => ({ PATH: `${bin}::${process.env.PATH}` });

    before(() => {
      mkdirSync(bin);
      for (const folder of [bin, dir]) {
        writeFileSync(join(folder, 'nm'), `#!/bin/sh\necho "$@" >> ${JSON.stringify(calls)}\n`);
        chmodSync(join(folder, 'nm'), 0o755);
      }
      // Busy in V8's C++ (JSON.stringify) long enough for a few hundred ticks there.
      writeFileSync(join(dir, 'busy.js'), "const end = Date.now() + 300;\nlet n = 0;\nwhile (Date.now() < end) n += JSON.stringify({ a: [1, 2, 3], b: 'x'.repeat(50) }).length;\n");
      execFileSync(process.execPath, ['--prof', '--no-logfile-per-isolate', `--logfile=${join(dir, 'native.v8.log')}`, join(dir, 'busy.js')], { cwd: dir, stdio: 'ignore' });
      // A profile recorded in a container, and its source here.
      mkdirSync(join(dir, 'mapped'));
      writeLeanProfile(join(dir, 'container.cpuprofile'), '/usr/src/app/fresh-3.js', '/usr/src/app/fresh-3.js');
      writeFileSync(join(dir, 'mapped', 'fresh-3.js'), LEAN_HANDLER);
    });

    beforeEach(() => rmSync(calls, { force: true }));

    const load = (server: Server, path: string, pathMappings: unknown[] = []) =>
      server.connection.sendRequest('hotframe/loadProfile', { path, role: 'primary', pathMappings, roots: [join(dir, 'elsewhere')] }) as Promise<{ unresolvedFiles: string[] }>;

    /** Loads the recorded log; whether any frame of its flame graph carries a C++ name, which only nm gives. */
    const nativeNamed = async (server: Server): Promise<boolean> => {
      await load(server, join(dir, 'native.v8.log'));
      const graph = (await server.connection.sendRequest('hotframe/flameGraph', { mode: 'normal', onlyMyCode: false, minFraction: 0 })) as { root: FlameNode };
      const named = (node: FlameNode): boolean => /v8::internal::|node::/.test(node.name) || node.children.some(named);
      return named(graph.root);
    };

    it('control: in a trusted workspace the system nm names native frames and path mappings apply; the stand-ins never run', async () => {
      const server = await startServer(dir, { trusted: true, env: env() });
      assert.ok(await nativeNamed(server), 'nm named C++ frames');
      assert.equal(existsSync(calls), false, 'no stand-in nm ran (PATH, the working folder)');
      const summary = await load(server, join(dir, 'container.cpuprofile'), [{ from: '/usr/src/app', to: join(dir, 'mapped') }]);
      assert.deepEqual(summary.unresolvedFiles, []);
    });

    it('untrusted: nm never runs and path mappings are ignored; trust granted later lifts both; the stand-ins never run', async () => {
      const server = await startServer(dir, { trusted: false, env: env() });
      assert.equal(await nativeNamed(server), false, 'nm did not name C++ frames');
      const summary = await load(server, join(dir, 'container.cpuprofile'), [{ from: '/usr/src/app', to: join(dir, 'mapped') }]);
      assert.deepEqual(summary.unresolvedFiles, ['/usr/src/app/fresh-3.js']);
      await server.connection.sendNotification('hotframe/workspaceTrusted');
      assert.ok(await nativeNamed(server), 'nm named C++ frames once trusted');
      assert.equal(existsSync(calls), false, 'no stand-in nm ran (PATH, the working folder)');
    });
  });
});
