// FlameSession: the flame panel's message state, driven by a recording host.
import assert from 'node:assert/strict';
import { posix } from 'node:path';
import { FlameSession, isInsideFolders, type FlameSessionHost } from '../../client/flameSession';
import type { FlameGraphResult, FlameMode } from '../../server/protocol/wire';
import type { ToWebview } from '../../server/protocol/webview';

function graph(title: string, mode: FlameMode = 'normal'): FlameGraphResult {
  return {
    title,
    mode,
    unit: 'ms',
    cpuMs: 10,
    root: { name: '(root)', value: 10, self: 10, category: 'program', file: '', line: 0, children: [] },
    openableFiles: ['/srv/app/lib/models.js'],
  };
}

interface Pending {
  mode: FlameMode;
  onlyMyCode: boolean;
  resolve(g: FlameGraphResult): void;
  reject(e: Error): void;
}

function recordingHost() {
  const posted: ToWebview[] = [];
  const opened: Array<[string, number]> = [];
  const logged: string[] = [];
  const pending: Pending[] = [];
  let swaps = 0;
  const host: FlameSessionHost = {
    post: (m) => posted.push(m),
    requestGraph: (mode, onlyMyCode) => new Promise((resolve, reject) => pending.push({ mode, onlyMyCode, resolve, reject })),
    openFile: (file, line) => opened.push([file, line]),
    mayOpen: (file) => isInsideFolders(file, ['/srv/app'], posix),
    log: (line) => logged.push(line),
    swap: () => swaps++,
  };
  return { host, posted, opened, logged, pending, swaps: () => swaps };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('FlameSession', () => {
  it("passes the comparison's swap button to the host, and only under a diff graph", () => {
    const r = recordingHost();
    const session = new FlameSession(r.host);
    session.receive({ type: 'ready' });
    session.show(graph('a'));
    session.receive({ type: 'swap' });
    assert.equal(r.swaps(), 0);
    assert.match(r.logged[0], /swap ignored/);
    session.show(graph('before → after', 'diff'));
    session.receive({ type: 'swap' });
    assert.equal(r.swaps(), 1);
  });

  it('holds messages until the webview is ready, then sends the last one', () => {
    const r = recordingHost();
    const session = new FlameSession(r.host);
    session.show(graph('a'));
    session.show(graph('b'));
    assert.deepEqual(r.posted, []);
    session.receive({ type: 'ready' });
    assert.deepEqual(r.posted, [{ type: 'render', graph: graph('b'), onlyMyCode: false }]);
    session.showError('boom');
    assert.deepEqual(r.posted[1], { type: 'error', message: 'boom' });
  });

  it('re-sends the last message when a recreated webview is ready again', () => {
    const r = recordingHost();
    const session = new FlameSession(r.host);
    session.receive({ type: 'ready' });
    session.show(graph('a'));
    session.reset();
    session.show(graph('c'));
    assert.equal(r.posted.length, 1, 'nothing is posted to a webview that is not ready');
    session.receive({ type: 'ready' });
    assert.deepEqual(r.posted.map((m) => (m.type === 'render' ? m.graph.title : m.type === 'error' ? m.message : m.type)), ['a', 'c']);
  });

  it('starts a panel opened after a close empty: the closed one\'s graph is never drawn again', () => {
    const r = recordingHost();
    const session = new FlameSession(r.host);
    session.receive({ type: 'ready' });
    session.show(graph('old'));
    session.forget();
    session.receive({ type: 'ready' });
    assert.deepEqual(r.posted.map((m) => (m.type === 'render' ? m.graph.title : m.type === 'error' ? m.message : m.type)), ['old'], 'nothing stale is posted to the new webview');
    assert.equal(session.shown, null);
    session.receive({ type: 'open', file: '/srv/app/lib/models.js', line: 43 });
    assert.deepEqual(r.opened, [], 'the closed graph\'s files are not openable');
    session.show(graph('new'));
    assert.deepEqual(r.posted.map((m) => (m.type === 'render' ? m.graph.title : m.type === 'error' ? m.message : m.type)), ['old', 'new']);
  });

  it('opens only files of the graph shown', () => {
    const r = recordingHost();
    const session = new FlameSession(r.host);
    session.receive({ type: 'open', file: '/srv/app/lib/models.js', line: 43 });
    assert.deepEqual(r.opened, [], 'no graph yet: nothing is openable');
    session.show(graph('a'));
    session.receive({ type: 'open', file: '/srv/app/lib/models.js', line: 43 });
    session.receive({ type: 'open', file: '/etc/shadow', line: 1 });
    assert.deepEqual(r.opened, [['/srv/app/lib/models.js', 43]]);
  });

  it('logs invalid messages once, with their type only', () => {
    const r = recordingHost();
    const session = new FlameSession(r.host);
    session.receive({ type: '<script>'.repeat(20), payload: 'secret' });
    session.receive('garbage');
    assert.equal(r.logged.length, 1);
    assert.match(r.logged[0]!, /ignored an invalid message from the flame graph view \(type "<script><script>/);
    assert.doesNotMatch(r.logged[0]!, /secret/);
    assert.ok(r.logged[0]!.length < 160);
  });

  it('requests a new graph on a toggle and renders it with the filter it asked for', async () => {
    const r = recordingHost();
    const session = new FlameSession(r.host);
    session.receive({ type: 'ready' });
    session.receive({ type: 'request', mode: 'inverted', onlyMyCode: true });
    assert.deepEqual(r.pending.map((p) => [p.mode, p.onlyMyCode]), [['inverted', true]]);
    r.pending[0]!.resolve(graph('inv', 'inverted'));
    await tick();
    assert.deepEqual(r.posted, [{ type: 'render', graph: graph('inv', 'inverted'), onlyMyCode: true }]);
    assert.deepEqual(session.view, { mode: 'inverted', onlyMyCode: true });
  });

  it('drops an answer overtaken by a later request, success or failure', async () => {
    const r = recordingHost();
    const session = new FlameSession(r.host);
    session.receive({ type: 'ready' });
    session.receive({ type: 'request', mode: 'normal', onlyMyCode: true });
    session.receive({ type: 'request', mode: 'normal', onlyMyCode: false });
    r.pending[1]!.resolve(graph('second'));
    await tick();
    r.pending[0]!.resolve(graph('first (stale)'));
    await tick();
    assert.deepEqual(r.posted.map((m) => (m.type === 'render' ? m.graph.title : m.type === 'error' ? m.message : m.type)), ['second']);
    session.receive({ type: 'request', mode: 'diff', onlyMyCode: false });
    session.receive({ type: 'request', mode: 'normal', onlyMyCode: false });
    r.pending[2]!.reject(new Error('stale failure'));
    r.pending[3]!.reject(new Error('no baseline profile loaded\n    at stack line'));
    await tick();
    assert.deepEqual(r.posted.slice(1), [{ type: 'error', message: 'no baseline profile loaded' }]);
  });

  it('lets a graph shown by a command win over a toggle still waiting', async () => {
    const r = recordingHost();
    const session = new FlameSession(r.host);
    session.receive({ type: 'ready' });
    session.receive({ type: 'request', mode: 'inverted', onlyMyCode: false });
    session.show(graph('from the command'));
    r.pending[0]!.resolve(graph('late toggle answer', 'inverted'));
    await tick();
    assert.deepEqual(r.posted.map((m) => (m.type === 'render' ? m.graph.title : m.type === 'error' ? m.message : m.type)), ['from the command']);
  });

  it('opens a declared file only inside the workspace or a mapping', () => {
    const r = recordingHost();
    const session = new FlameSession(r.host);
    session.show({ ...graph('a'), openableFiles: ['/srv/app/lib/models.js', '/etc/passwd', '/srv/app/../../etc/shadow', '/srv/application/x.js'] });
    session.receive({ type: 'ready' });
    for (const file of ['/etc/passwd', '/srv/app/../../etc/shadow', '/srv/application/x.js', '/srv/app/lib/models.js']) session.receive({ type: 'open', file, line: 3 });
    assert.deepEqual(r.opened, [['/srv/app/lib/models.js', 3]]);
    assert.equal(r.logged.length, 3);
    assert.match(r.logged[0], /not opening "\/etc\/passwd": outside the workspace/);
  });

  it('opens a stall by its index into the shown graph, only at a line the server named inside the workspace', () => {
    const r = recordingHost();
    const session = new FlameSession(r.host);
    const site = (file: string, line: number) => ({ file, line, function: 'tick', call: 'execSync', found: 'exactLine' as const });
    const stall = (at: ReturnType<typeof site> | null) => ({ startMs: 10, durationMs: 200, samples: 150, at, atMs: at === null ? 0 : 200 });
    session.show({
      ...graph('a'),
      openableFiles: ['/srv/app/lib/models.js', '/etc/passwd'],
      stalls: { thresholdMs: 50, runMs: 1000, count: 4, startupCount: 0, totalMs: 800, unnamedCount: 1, stalls: [stall(site('/srv/app/lib/models.js', 14)), stall(null), stall(site('/etc/passwd', 1)), stall(site('/srv/app/other.js', 2))] },
    });
    session.receive({ type: 'ready' });
    for (const index of [0, 1, 2, 3, 4, 99]) session.receive({ type: 'openStall', index });
    assert.deepEqual(r.opened, [['/srv/app/lib/models.js', 14]]);
    assert.equal(r.logged.length, 5);
    assert.match(r.logged[1], /not opening "\/etc\/passwd"/);
    // A graph without stalls opens nothing.
    session.show(graph('b'));
    session.receive({ type: 'openStall', index: 0 });
    assert.equal(r.opened.length, 1);
  });

  it('reports the graph drawn: the latest answer, kept under an error', async () => {
    const r = recordingHost();
    const session = new FlameSession(r.host);
    const shownTitle = (): string | null => session.shown?.title ?? null;
    assert.equal(shownTitle(), null);
    session.show(graph('a'));
    assert.equal(shownTitle(), 'a');
    const older = session.request('inverted', false);
    const newer = session.request('normal', true);
    r.pending[1]!.resolve(graph('c'));
    r.pending[0]!.resolve(graph('b', 'inverted'));
    await Promise.all([older, newer]);
    assert.equal(shownTitle(), 'c');
    session.showError('boom');
    assert.equal(shownTitle(), 'c');
  });
});
