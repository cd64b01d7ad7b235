// Event-loop stalls in the editor, over stdio JSON-RPC with the real language server and a profile
// recorded at test time (test/fixtures/editorStalls/service.js: seed 003's execSync in a stats
// setInterval, twice, then an execSync in a request handler). The blocking-sync-call finding on each
// line carries its measured stalls and the route they served, the line's note has the same figures,
// and the flame graph's stall strip is the report `hotframe profile --stalls --format json` prints.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import type { Diagnostic } from 'vscode-languageserver';
import type { FileHeat, FlameGraphResult, Stall, StallLine } from '../../server/protocol/wire';
import { bundles, REPO_ROOT } from './bundles';
import { startStdioServer, type StdioServer } from './stdioServer';

const FIXTURE = resolve(REPO_ROOT, 'test/fixtures/editorStalls/service.js');

/** The 1-based line of the fixture marked `// stall: <kind>`. */
function markedLine(text: string, kind: string): number {
  const index = text.split('\n').findIndex((l) => l.includes(`// stall: ${kind}`));
  assert.ok(index >= 0, `the fixture marks its ${kind} stall`);
  return index + 1;
}

describe('event-loop stalls in the editor (language server over stdio, a profile recorded now)', function () {
  this.timeout(120_000);
  let dir: string;
  let text: string;
  let server: StdioServer | undefined;
  let connection: MessageConnection;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hotframe-editor-stalls-'));
    copyFileSync(FIXTURE, join(dir, 'service.js'));
    text = readFileSync(FIXTURE, 'utf8');
    // A real Node run on loopback; express is found through NODE_PATH from the repository's node_modules.
    const run = spawnSync(process.execPath, ['--cpu-prof', '--cpu-prof-name', 'app.cpuprofile', 'service.js'], {
      cwd: dir,
      env: { ...process.env, NODE_PATH: join(REPO_ROOT, 'node_modules') },
      timeout: 60_000,
      encoding: 'utf8',
    });
    assert.equal(run.status, 0, run.stderr);
    server = await startStdioServer();
    connection = server.connection;
  });

  after(() => {
    server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The first publish for `uri` whose diagnostics `ok` accepts (already received or still to come). */
  const publishFor = (uri: string, ok: (d: Diagnostic[]) => boolean): Promise<Diagnostic[]> => server!.publishFor(uri, (p) => ok(p.diagnostics));

  it('says the stalls on their lines, with the CLI\'s figures, routes included, and draws them in the flame graph\'s strip', async () => {
    const uri = pathToFileURL(join(dir, 'service.js')).href;
    const timerLine = markedLine(text, 'timer');
    const routeLine = markedLine(text, 'route');
    await connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'javascript', version: 1, text } });
    await publishFor(uri, () => true);
    const carried = publishFor(uri, (d) => d.some((x) => x.message.includes('stalled the event loop')));
    await connection.sendRequest('hotframe/loadProfile', { path: join(dir, 'app.cpuprofile'), role: 'primary', pathMappings: [], roots: [dir] });
    const diagnostics = await carried;

    // The CLI's report of the same file: the one set of numbers every view shows.
    const { cli } = await bundles();
    const json = spawnSync(process.execPath, [cli, 'profile', join(dir, 'app.cpuprofile'), '--stalls', '--format', 'json', '--root', dir], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(json.status, 0, json.stderr);
    const report = JSON.parse(json.stdout) as { count: number; startupCount: number; totalMs: number; stalls: Stall[]; lines: StallLine[] };
    const cliLine = (line: number): StallLine => {
      const found = report.lines.find((l) => l.line === line);
      assert.ok(found, `the CLI names line ${line}: ${json.stdout}`);
      return found;
    };
    assert.equal(cliLine(timerLine).count, 2, 'both stats runs stalled the loop on the execSync line');
    assert.ok(cliLine(timerLine).longestMs >= 190, `a 200 ms sleep stalls about 200 ms (${cliLine(timerLine).longestMs} ms)`);
    assert.deepEqual(cliLine(routeLine).routes, ['GET /report']);

    // The blocking-sync-call finding on each line carries its stalls (and the route): no second diagnostic there.
    const onLine = (line: number) => diagnostics.filter((d) => d.range.start.line === line - 1);
    const finding = (line: number) => onLine(line).find((d) => d.code === 'blocking-sync-call');
    assert.match(finding(timerLine)?.message ?? '', /— in this profile it stalled the event loop 2 times \(stalls over 50\.0 ms\): longest [\d.]+ m?s, [\d.]+ m?s in all$/);
    assert.match(finding(routeLine)?.message ?? '', /— in this profile it stalled the event loop once \(stalls over 50\.0 ms\): longest [\d.]+ m?s, [\d.]+ m?s in all, serving GET \/report$/);
    assert.deepEqual([...onLine(timerLine), ...onLine(routeLine)].filter((d) => d.code === 'event-loop-stall'), []);

    // The line notes: the worker's figures are the CLI's (rounded to the µs by its JSON).
    const heat: FileHeat = await connection.sendRequest('hotframe/fileHeat', { uri });
    assert.equal(heat.stalls?.thresholdMs, 50);
    const round = (ms: number) => Math.round(ms * 1000) / 1000;
    for (const line of [timerLine, routeLine]) {
      const noted: StallLine | undefined = heat.stalls?.lines.find((l) => l.line === line);
      assert.ok(noted, `line ${line} has a stall note`);
      const cli = cliLine(line);
      assert.deepEqual([noted.count, round(noted.longestMs), round(noted.totalMs), noted.routes], [cli.count, cli.longestMs, cli.totalMs, cli.routes]);
    }

    // The flame graph's strip: every stall of the report, start-up included, on the run's timeline.
    const graph: FlameGraphResult = await connection.sendRequest('hotframe/flameGraph', { mode: 'normal', onlyMyCode: false });
    const strip = graph.stalls;
    assert.ok(strip, 'the graph carries the stall strip');
    assert.deepEqual([strip.count, strip.startupCount, round(strip.totalMs)], [report.count, report.startupCount, report.totalMs]);
    const shape = (s: Stall) => [round(s.startMs), round(s.durationMs), s.at?.line ?? null, s.route ?? null, s.startup === true];
    assert.deepEqual(strip.stalls.map(shape), report.stalls.map(shape));
    const last = strip.stalls.at(-1)!;
    assert.ok(strip.runMs >= last.startMs + last.durationMs, 'the run holds its last stall');
    assert.ok(graph.openableFiles.includes(resolve(dir, 'service.js')), 'the stalls\' file can be opened from the strip');
  });
});
