// The profile half of the language server as a process, with the profile worker beside it (as
// in dist/): real JSON-RPC over stdio, real fixtures, waits on responses and notifications only.
import { strict as assert } from 'node:assert';
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, CancellationTokenSource, ResponseError, type MessageConnection } from 'vscode-jsonrpc/node';
import type { Hover, WorkDoneProgressBegin, WorkDoneProgressEnd, WorkDoneProgressReport } from 'vscode-languageserver';

import type { FileHeat, FlameGraphResult, OverviewResult, ProfileSummary } from '../protocol/wire';
import type { LoadProfileParams } from '../protocol/lsp';
import type { FlameNode } from '../profile/model/types';
import { bundles } from '../../test/unit/bundles';
import { tempFolders } from '../../test/unit/tempFolders';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const PROFILES = join(REPO, 'test', 'fixtures', 'profiles');
const WORKLOADS = join(REPO, 'test', 'fixtures', 'workloads');

type Progress = WorkDoneProgressBegin | WorkDoneProgressReport | WorkDoneProgressEnd;

function countNodes(node: FlameNode): number {
  return 1 + node.children.reduce((sum, c) => sum + countNodes(c), 0);
}

describe('language server profile features (server process + profile worker)', function () {
  this.timeout(60_000);
  let child: ChildProcessWithoutNullStreams;
  let connection: MessageConnection;
  const progress = new Map<string, Progress[]>();
  let nextToken = 0;
  const temp = tempFolders();

  before(async () => {
    const { server } = await bundles();
    child = spawn(process.execPath, [server, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    connection.onNotification('$/progress', (params: { token: string; value: Progress }) => {
      const list = progress.get(params.token) ?? [];
      list.push(params.value);
      progress.set(params.token, list);
    });
    connection.onRequest('workspace/configuration', (params: { items: unknown[] }) => params.items.map(() => ({})));
    connection.onRequest('client/registerCapability', () => null);
    connection.onNotification('textDocument/publishDiagnostics', () => undefined);
    connection.onNotification('window/logMessage', () => undefined);
    connection.listen();
    await connection.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: { workspace: { configuration: true } } });
    await connection.sendNotification('initialized', {});
  });

  after(() => {
    connection.dispose();
    child.kill();
    temp.removeAll();
  });

  function load(path: string, role: 'primary' | 'baseline' = 'primary', token?: CancellationTokenSource): Promise<ProfileSummary | null> {
    const params: LoadProfileParams & { workDoneToken: string } = { path, role, pathMappings: [], roots: [WORKLOADS], workDoneToken: `load-${nextToken++}` };
    // A trailing `undefined` would be sent as a second positional parameter: pass the token only when there is one.
    return token === undefined
      ? connection.sendRequest<ProfileSummary | null>('hotframe/loadProfile', params)
      : connection.sendRequest<ProfileSummary | null>('hotframe/loadProfile', params, token.token);
  }

  const heatOf = (file: string): Promise<FileHeat> => connection.sendRequest<FileHeat>('hotframe/fileHeat', { uri: pathToFileURL(file).href });

  it('loads a profile with progress in the worker, then serves file heat with exact lines', async () => {
    const threads = (): number => readdirSync(`/proc/${child.pid}/task`).length;
    const before = existsSync('/proc/self/task') ? threads() : 0;
    const summary = await load(join(PROFILES, 'service.cpuprofile'));
    // The worker starts with the first load (Linux: it shows as more threads in the server process).
    if (before > 0) assert.ok(threads() > before, `threads ${before} -> ${threads()}`);
    assert.equal(summary?.name, 'service.cpuprofile');
    assert.equal(summary?.format, 'cpuprofile');
    assert.deepEqual(summary?.unresolvedFiles, []);
    const events = progress.get(`load-${nextToken - 1}`) ?? [];
    assert.equal(events[0]?.kind, 'begin');
    assert.equal(events[events.length - 1]?.kind, 'end');
    assert.ok(events.some((e) => e.kind === 'report' && e.percentage === 100));

    const heat = await heatOf(join(WORKLOADS, 'clock.js'));
    assert.equal(heat.profile?.name, 'service.cpuprofile');
    const line4 = heat.lines.find((l) => l.line === 4);
    assert.ok(line4 !== undefined && line4.selfSamples > 0 && line4.percent > 1);
    assert.deepEqual(
      heat.functions.map((f) => [f.name, f.line]),
      [['getTimestamp', 3]],
    );
    const service = await heatOf(join(WORKLOADS, 'service.js'));
    assert.ok(service.callSites.some((s) => s.function === 'collectStats' && s.libraries.some((l) => l.name === 'normalizeSpawnArguments')));
    // Files the profile never touched, and non-file URIs, have no heat.
    assert.deepEqual((await connection.sendRequest<FileHeat>('hotframe/fileHeat', { uri: 'untitled:Untitled-1' })).lines, []);
  });

  it('answers hovers on hot lines and stays silent elsewhere', async () => {
    const uri = pathToFileURL(join(WORKLOADS, 'clock.js')).href;
    const hover = await connection.sendRequest<Hover | null>('textDocument/hover', { textDocument: { uri }, position: { line: 3, character: 4 } });
    const text = (hover?.contents as { value: string } | undefined)?.value ?? '';
    assert.match(text, /^\*\*Hotframe\*\* · this line: self \d+(\.\d+)? (ms|s) \(\d+(\.\d+)?% of CPU time, idle excluded\)/);
    const onDeclaration = await connection.sendRequest<Hover | null>('textDocument/hover', { textDocument: { uri }, position: { line: 2, character: 10 } });
    const declaration = (onDeclaration?.contents as { value: string } | undefined)?.value ?? '';
    assert.match(declaration, /\*\*getTimestamp\*\*: self .* \(.*% of CPU time, idle excluded\), total .*\n\ncallers: handleMessage /);
    assert.doesNotMatch(declaration, /`/, 'names are escaped markdown, never code spans (a backslash is literal there)');
    const serviceUri = pathToFileURL(join(WORKLOADS, 'service.js')).href;
    const call = await connection.sendRequest<Hover | null>('textDocument/hover', { textDocument: { uri: serviceUri }, position: { line: 34, character: 10 } });
    assert.match((call?.contents as { value: string } | undefined)?.value ?? '', /calls in \*\*collectStats\*\* spent .* in libraries: execSync .*normalizeSpawnArguments/);
    assert.equal(await connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 0 } }), null);
  });

  it('serves normal, inverted and only-my-code flame graphs with openable files', async () => {
    const normal = await connection.sendRequest<FlameGraphResult>('hotframe/flameGraph', { mode: 'normal', onlyMyCode: false });
    assert.equal(normal.mode, 'normal');
    assert.equal(normal.unit, 'ms');
    assert.ok(normal.openableFiles.includes(join(WORKLOADS, 'service.js')));
    assert.ok(normal.openableFiles.every((f) => f.startsWith('/')));
    const mine = await connection.sendRequest<FlameGraphResult>('hotframe/flameGraph', { mode: 'normal', onlyMyCode: true, minFraction: 0 });
    const inverted = await connection.sendRequest<FlameGraphResult>('hotframe/flameGraph', { mode: 'inverted', onlyMyCode: false, minFraction: 0 });
    // Every view keeps the profile's samples at the root.
    // (values are ms, summed in a different order per view: equal to the float's rounding)
    assert.ok(Math.abs(mine.root.value - normal.root.value) < 1e-6, `${mine.root.value} vs ${normal.root.value}`);
    assert.ok(Math.abs(inverted.root.value - normal.root.value) < 1e-6, `${inverted.root.value} vs ${normal.root.value}`);
    // Only my code: no library frame is left except the one '(libraries)' node for code no user frame called.
    const libraryFrames: string[] = [];
    const walk = (node: FlameNode): void => {
      if (['node', 'native', 'dependency'].includes(node.category)) libraryFrames.push(node.name);
      node.children.forEach(walk);
    };
    walk(mine.root);
    assert.deepEqual(libraryFrames, ['(libraries)']);
    assert.equal(mine.root.children.filter((c) => c.name === '(libraries)').length, 1);
    assert.ok(countNodes(mine.root) < countNodes(inverted.root));
    await assert.rejects(connection.sendRequest('hotframe/flameGraph', { mode: 'diff', onlyMyCode: false }), (error: ResponseError<unknown>) => {
      assert.match(error.message, /^no baseline profile loaded/);
      return true;
    });
    await assert.rejects(connection.sendRequest('hotframe/flameGraph', { mode: 'sideways' }), /mode must be normal, inverted or diff/);
  });

  it('keeps the previous profile when a load fails, with a one-line error', async () => {
    const dir = temp.make('hotframe-lsp-broken-');
    const broken = join(dir, 'broken.cpuprofile');
    writeFileSync(broken, '{"nodes": [{"id": 1,');
    await assert.rejects(load(broken), (error: ResponseError<unknown>) => {
      assert.ok(!error.message.includes('\n'));
      assert.match(error.message, /broken\.cpuprofile/);
      return true;
    });
    await assert.rejects(load(join(dir, 'missing.cpuprofile')), /missing\.cpuprofile: no such file/);
    await assert.rejects(connection.sendRequest('hotframe/loadProfile', { path: 'relative.cpuprofile', role: 'primary' }), /absolute file path/);
    const overview = await connection.sendRequest<OverviewResult>('hotframe/overview', {});
    assert.equal(overview.profile?.name, 'service.cpuprofile');
    assert.ok((await heatOf(join(WORKLOADS, 'clock.js'))).lines.length > 0);
  });

  it('compares against a baseline with a diff flame graph', async () => {
    const baseline = await load(join(PROFILES, 'service.v8.log'), 'baseline');
    assert.equal(baseline?.format, 'v8log');
    const diff = await connection.sendRequest<FlameGraphResult>('hotframe/flameGraph', { mode: 'diff', onlyMyCode: true });
    assert.equal(diff.title, 'service.v8.log → service.cpuprofile');
    assert.equal(typeof diff.root.delta, 'number');
    const overview = await connection.sendRequest<OverviewResult>('hotframe/overview', {});
    assert.equal(overview.baseline?.name, 'service.v8.log');
    assert.ok(overview.insights.some((i) => i.id === 'spawn-env-walk'));
    assert.ok(overview.hotFunctions.length > 0 && overview.callSites.length > 0);
  });

  it("summarises the comparison as `hotframe diff BEFORE AFTER` prints it, the baseline being the BEFORE, and the other way round after a swap", async () => {
    const { cli } = await bundles();
    const cliDiff = (before: string, after: string): string => {
      const run = spawnSync(process.execPath, [cli, 'diff', join(PROFILES, before), join(PROFILES, after), '--root', WORKLOADS], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      assert.equal(run.status, 0, run.stderr);
      return run.stdout;
    };
    // Loaded by the previous test: service.cpuprofile the primary (AFTER), service.v8.log the baseline (BEFORE).
    const text = await connection.sendRequest<string>('hotframe/comparisonText', {});
    assert.match(text, /^before: service\.v8\.log \(v8log, /);
    assert.equal(text, cliDiff('service.v8.log', 'service.cpuprofile'));
    // Swapped (the client loads the after as primary first, then the before as baseline).
    await load(join(PROFILES, 'service.v8.log'));
    await load(join(PROFILES, 'service.cpuprofile'), 'baseline');
    const swapped = await connection.sendRequest<string>('hotframe/comparisonText', {});
    assert.match(swapped, /^before: service\.cpuprofile \(cpuprofile, /);
    assert.equal(swapped, cliDiff('service.cpuprofile', 'service.v8.log'));
    // A new primary ends the comparison: a one-line refusal, no stale text.
    await load(join(PROFILES, 'service.cpuprofile'));
    await assert.rejects(connection.sendRequest('hotframe/comparisonText', {}), (error: Error) => /^no comparison loaded/.test(error.message));
  });

  it('cancels a load without losing state, and clears', async () => {
    const source = new CancellationTokenSource();
    const pending = load(join(PROFILES, 'typed.v8.log'), 'primary', source);
    source.cancel();
    const result = await pending.catch((error: unknown) => error);
    const overview = await connection.sendRequest<OverviewResult>('hotframe/overview', {});
    // Either cancelled in time (nothing changed) or finished first (and then applied everywhere).
    if (result === null) assert.equal(overview.profile?.name, 'service.cpuprofile');
    else assert.equal(overview.profile?.name, 'typed.v8.log');
    await connection.sendRequest('hotframe/clearProfile', {});
    const cleared = await connection.sendRequest<OverviewResult>('hotframe/overview', {});
    assert.deepEqual([cleared.profile, cleared.baseline, cleared.hotFunctions], [null, null, []]);
    assert.equal((await heatOf(join(WORKLOADS, 'clock.js'))).profile, null);
  });
});
