// The one join of findings × cost (server/join/costIndex.ts) on a real Express directory-listing
// service recorded in this run with node --cpu-prof: a readdirSync per request and a statSync per
// entry, both in one handler. `hotframe analyze --profile` must cost each finding by the calls on
// its own line (statSync dominates), not by the handler both share, and say so.
import { strict as assert } from 'node:assert';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import type { Diagnostic, PublishDiagnosticsParams } from 'vscode-languageserver';

import { analyze } from './analyzeFixture';
import { bundles, REPO_ROOT } from './bundles';

interface JsonFinding {
  ruleId: string;
  line: number;
  severity: string;
  message: string;
  cost: { totalMs: number; percent: number; basis?: string } | null;
}

describe('analyze --profile on a recorded Express directory listing (statSync per entry)', function () {
  this.timeout(180_000);
  let dir: string;
  let profile: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'hotframe-listing-'));
    const app = join(dir, 'app');
    const listed = join(dir, 'listed');
    mkdirSync(app);
    mkdirSync(listed);
    for (let i = 0; i < 400; i++) writeFileSync(join(listed, `file-${i}.txt`), String(i));
    // The workload is copied out of test/fixtures (which the rules treat as tooling) into a project of its own.
    copyFileSync(join(REPO_ROOT, 'test', 'fixtures', 'workloads', 'dirListing.js'), join(app, 'server.js'));
    const run = spawnSync(process.execPath, ['--cpu-prof', '--cpu-prof-dir', join(dir, 'prof'), 'server.js', listed, '150'], {
      cwd: app,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, NODE_PATH: join(REPO_ROOT, 'node_modules') },
    });
    assert.equal(run.status, 0, run.stderr);
    profile = join(dir, 'prof', readdirSync(join(dir, 'prof'))[0]);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('costs statSync and readdirSync each by the calls on its line, statSync first, and says so', async () => {
    const app = join(dir, 'app');
    const run = await analyze(app, '.', '--profile', profile, '--root', app, '--format', 'json');
    assert.equal(run.status, 1, run.stderr);
    const out = JSON.parse(run.stdout) as { findings: JsonFinding[]; profile: { insights: { id: string; title: string; ms: number }[] } };
    const sync = out.findings.filter((f) => f.ruleId === 'blocking-sync-call');
    const stat = sync.find((f) => f.line === 20);
    const readdir = sync.find((f) => f.line === 18);
    assert.ok(stat?.cost && readdir?.cost, JSON.stringify(sync));
    assert.equal(stat.cost.basis, 'callLine');
    assert.equal(readdir.cost.basis, 'callLine');
    // Not the handler's total, which both share: each line its own figure, statSync's the larger.
    assert.notEqual(stat.cost.totalMs, readdir.cost.totalMs);
    assert.ok(stat.cost.totalMs > readdir.cost.totalMs, `statSync ${stat.cost.totalMs} ms, readdirSync ${readdir.cost.totalMs} ms`);
    assert.equal(sync[0], stat, 'findings are ranked by measured cost: statSync first');
    // The insight measuring statSync frames alone is within the call line's cost (which adds path.join and the line's own time).
    const insight = out.profile.insights.find((i) => i.title.startsWith('fs.statSync()'));
    assert.ok(insight);
    assert.ok(insight.ms <= stat.cost.totalMs + 0.01 && insight.ms >= 0.5 * stat.cost.totalMs, `insight ${insight.ms} ms, call line ${stat.cost.totalMs} ms`);
    assert.match(stat.message, /blocks the event loop/);
  });

  it('SARIF and the editor (the language server over stdio) give each finding the figure and basis the CLI gives: one join', async () => {
    const app = join(dir, 'app');
    const json = JSON.parse((await analyze(app, '.', '--profile', profile, '--root', app, '--format', 'json')).stdout) as { findings: JsonFinding[] };
    const cliCost = (line: number) => json.findings.find((f) => f.ruleId === 'blocking-sync-call' && f.line === line)?.cost;
    // SARIF: the same cost object on each result, basis included.
    const sarif = JSON.parse((await analyze(app, '.', '--profile', profile, '--root', app, '--format', 'sarif')).stdout) as {
      runs: { results: { ruleId: string; locations: { physicalLocation: { region: { startLine: number } } }[]; properties?: { cost: JsonFinding['cost'] } }[] }[];
    };
    for (const line of [18, 20]) {
      const result = sarif.runs[0].results.find((r) => r.ruleId === 'blocking-sync-call' && r.locations[0].physicalLocation.region.startLine === line);
      assert.deepEqual(result?.properties?.cost, cliCost(line), `SARIF line ${line}`);
    }
    // The CLI text's figure for each line, as the editor must say it.
    const text = (await analyze(app, '.', '--profile', profile, '--root', app)).stdout.split('\n');
    const cliText = (line: number) => /\(([^()]+ in the calls on this line, [\d.]+% of CPU time, idle excluded)\)$/.exec(text.find((l) => l.includes(`server.js:${line}:`)) ?? '')?.[1];
    // The editor: the server loads the same profile and publishes the findings with their cost.
    const { server } = await bundles();
    const child = spawn(process.execPath, [server, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    const uri = pathToFileURL(join(app, 'server.js')).href;
    try {
      // Bounded, so that the server is stopped (finally) even when the costs never come.
      const costed = new Promise<Diagnostic[]>((done, fail) => {
        const timer = setTimeout(() => fail(new Error('no findings with a measured cost published within 90 s')), 90_000);
        connection.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) => {
          if (params.uri !== uri || params.diagnostics.filter((d) => d.message.includes(' in this profile')).length < 2) return;
          clearTimeout(timer);
          done(params.diagnostics);
        });
      });
      connection.onRequest('workspace/configuration', (params: { items: unknown[] }) => params.items.map(() => ({})));
      connection.onRequest('client/registerCapability', () => null);
      connection.onRequest('window/workDoneProgress/create', () => null);
      connection.listen();
      await connection.sendRequest('initialize', { processId: process.pid, rootUri: pathToFileURL(app).href, capabilities: { workspace: { configuration: true } } });
      await connection.sendNotification('initialized', {});
      await connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'javascript', version: 1, text: readFileSync(join(app, 'server.js'), 'utf8') } });
      await connection.sendRequest('hotframe/loadProfile', { path: profile, role: 'primary', pathMappings: [], roots: [app] });
      const diagnostics = await costed;
      for (const line of [18, 20]) {
        const finding = diagnostics.find((d) => d.code === 'blocking-sync-call' && d.range.start.line === line - 1);
        const said = cliText(line);
        assert.ok(said !== undefined, `the CLI's text costs server.js:${line} by the calls on its line`);
        // The join's figure comes first; what else the profile measured there (an insight, stalls) follows.
        assert.ok(finding?.message.includes(` — ${said} in this profile`), `editor, line ${line}: ${finding?.message} (CLI: ${said})`);
      }
    } finally {
      connection.dispose();
      child.kill();
    }
  });

  it('the text output says which code a figure is the cost of', async () => {
    const app = join(dir, 'app');
    const run = await analyze(app, '.', '--profile', profile, '--root', app);
    const line = run.stdout.split('\n').find((l) => l.includes('server.js:20:'));
    assert.match(line ?? '', /\([\d.]+ (ms|s) in the calls on this line, [\d.]+% of CPU time, idle excluded\)$/);
  });
});
