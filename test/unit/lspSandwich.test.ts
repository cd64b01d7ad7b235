// hotframe/sandwich over stdio JSON-RPC (the language server process, its profile worker beside
// it): on a profile recorded here from a recursive workload (test/fixtures/workloads/recursive.js),
// the editor's answer carries the same figures as `hotframe profile --function` for the same
// profile, names the function under the cursor, and gives each caller's call line from the source.
import { strict as assert } from 'node:assert';
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMessageConnection, ResponseError, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';

import type { SandwichEntry, SandwichResult } from '../../server/protocol/wire';
import { withCallLineFindings } from '../../server/lsp/callLineFindings';
import { bundles, REPO_ROOT } from './bundles';

interface CliNode {
  name: string;
  line: number;
  selfMs: number;
  totalMs: number;
  callLines?: number[];
  children: CliNode[];
}

describe('hotframe/sandwich: callers and callees in the editor (language server over stdio)', function () {
  this.timeout(120_000);
  let dir: string;
  let profile: string;
  let source: string;
  let child: ChildProcessWithoutNullStreams;
  let connection: MessageConnection;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hotframe-lsp-sandwich-'));
    source = join(dir, 'recursive.js');
    copyFileSync(join(REPO_ROOT, 'test', 'fixtures', 'workloads', 'recursive.js'), source);
    const env = { ...process.env };
    delete env.ELECTRON_RUN_AS_NODE;
    const run = spawnSync(process.execPath, ['--no-turbo-inlining', '--cpu-prof', '--cpu-prof-dir', dir, 'recursive.js'], { cwd: dir, env, encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    profile = join(dir, readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))!);
    const { server } = await bundles();
    child = spawn(process.execPath, [server, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    connection.onRequest('workspace/configuration', (params: { items: unknown[] }) => params.items.map(() => ({})));
    connection.onRequest('client/registerCapability', () => null);
    connection.onNotification('textDocument/publishDiagnostics', () => undefined);
    connection.onNotification('window/logMessage', () => undefined);
    connection.listen();
    await connection.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: { workspace: { configuration: true } }, initializationOptions: { workspaceRoots: [dir] } });
    await connection.sendNotification('initialized', {});
    await connection.sendRequest('hotframe/loadProfile', { path: profile, role: 'primary', pathMappings: [], roots: [dir] });
  });

  after(() => {
    connection?.dispose();
    child?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  const sandwich = (params: Record<string, unknown>): Promise<SandwichResult> => connection.sendRequest<SandwichResult>('hotframe/sandwich', params);

  async function cli(): Promise<{ function: { selfMs: number; totalMs: number }; callers: CliNode; callees: CliNode }> {
    const { cli: script } = await bundles();
    const run = spawnSync(process.execPath, [script, 'profile', profile, '--root', dir, '--function', 'fib', '--format', 'json'], { cwd: dir, encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    return JSON.parse(run.stdout) as { function: { selfMs: number; totalMs: number }; callers: CliNode; callees: CliNode };
  }

  /** Both trees as the CLI rounds them (to the microsecond), names, lines and call lines. */
  function shape(node: SandwichEntry | CliNode): unknown {
    const round = (ms: number): number => Math.round(ms * 1000) / 1000;
    return { name: node.name, line: node.line, self: round(node.selfMs), total: round(node.totalMs), callLines: node.callLines ?? [], children: node.children.map(shape) };
  }

  it('answers a row (file, line, name) with the figures and trees of hotframe profile --function', async () => {
    const expected = await cli();
    const answer = await sandwich({ file: source, line: 11, name: 'fib' });
    assert.equal(answer.target.name, 'fib');
    assert.equal(answer.target.file, source);
    assert.ok(answer.target.totalMs > 100, `fib ran ${answer.target.totalMs} ms`);
    assert.ok(Math.abs(answer.target.totalMs - expected.function.totalMs) < 0.001);
    assert.ok(Math.abs(answer.target.selfMs - expected.function.selfMs) < 0.001);
    assert.deepEqual(shape(answer.callers), shape(expected.callers));
    assert.deepEqual(shape(answer.callees), shape(expected.callees));
    // The callers' call lines, read from the source (a .cpuprofile records none): viaOnce calls fib on line 17, viaThrice on 22.
    const callers = new Map(answer.callers.children.map((c) => [c.name, c.callLines]));
    assert.deepEqual(callers.get('viaOnce'), [17]);
    assert.deepEqual(callers.get('viaThrice'), [22]);
    assert.ok(answer.openableFiles.includes(source));
  });

  it('takes the word under the cursor, else the innermost profiled function holding it', async () => {
    // The cursor on the call `fib(19)` in viaThrice: fib, not viaThrice.
    const onCall = await sandwich({ file: source, line: 22, column: 40, name: 'fib' });
    assert.equal(onCall.target.name, 'fib');
    // The cursor inside viaOnce's body on no function name: viaOnce.
    const inBody = await sandwich({ file: source, line: 17, column: 3, name: 'return' });
    assert.equal(inBody.target.name, 'viaOnce');
    assert.deepEqual(inBody.callees.children.map((c) => c.name), ['fib']);
    // Module-level code runs in the module's own (anonymous) function, which holds the whole file.
    assert.equal((await sandwich({ file: source, line: 27, column: 1 })).target.name, '(anonymous)');
    // A file the profile never ran: one line, no stack.
    await assert.rejects(sandwich({ file: join(dir, 'other.js'), line: 3, column: 1 }), (error: unknown) => error instanceof ResponseError && /^no function of the loaded profile at other\.js:3/.test(error.message) && !error.message.includes('\n'));
  });

  it('refuses a malformed question in one line', async () => {
    await assert.rejects(sandwich({ file: 'relative.js', line: 1 }), /sandwich: expected/);
    await assert.rejects(sandwich({ file: source, line: 0 }), /sandwich: expected/);
    await assert.rejects(sandwich({ file: source, line: 11, name: 'x'.repeat(501) }), /name must be/);
  });

  it('names the findings on a caller call line, and only there', () => {
    const entry = (name: string, callLines: number[], children: SandwichEntry[] = []): SandwichEntry => ({ name, category: 'user', file: '/w/a.js', line: 1, callLines, selfMs: 0, totalMs: 1, children });
    const result = {
      title: 't',
      unit: 'ms',
      cpuMs: 1,
      shareOf: '',
      target: { name: 'f', category: 'user', file: '/w/a.js', line: 1, selfMs: 0, totalMs: 1 },
      callers: entry('f', [], [entry('g', [5], [entry('h', [9])])]),
      callees: entry('f', [7]),
      openableFiles: [],
    } satisfies SandwichResult;
    const asked: string[] = [];
    const annotated = withCallLineFindings(result, (file) => {
      asked.push(file);
      return [
        { rule: 'date-now-hot', message: 'Date.now() per message', startLine: 5, endLine: 5 },
        { rule: 'serial-await', message: 'awaits in series', startLine: 8, endLine: 10 },
        { rule: 'other', message: 'elsewhere', startLine: 6, endLine: 7 },
      ];
    });
    assert.deepEqual(annotated.callers.children[0].findings, [{ line: 5, rule: 'date-now-hot', message: 'Date.now() per message' }]);
    assert.deepEqual(annotated.callers.children[0].children[0].findings, [{ line: 9, rule: 'serial-await', message: 'awaits in series' }]);
    assert.equal(annotated.callers.findings, undefined);
    // Callees carry no call lines of callers: never annotated.
    assert.equal(annotated.callees.findings, undefined);
    assert.deepEqual(asked, ['/w/a.js']);
  });
});
