// Issue 23 / 28 ("one view"): a capture of several processes merged names one denominator in every
// view. Two Node processes are recorded now into one folder (as `hotframe attach` or `record`
// leave them); the CLI (text and JSON) and the language server over stdio (summary, hover, line
// notes, the Profile view's rows, the flame graph's tooltip) must all say "all processes and
// threads", never a single process's "% of CPU time, idle excluded"; with one process kept, all of
// them say which one.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { overviewChildren, overviewRow } from '../../client/presentation/overview';
import { planHeat } from '../../client/presentation/heat';
import type { FileHeat, FlameGraphResult, FlameNode, OverviewResult, ProfileSummary } from '../../server/protocol/wire';
import { frameFacts, graphScale } from '../../webview/frameText';
import { bundles } from './bundles';
import { plainNodeEnv } from './plainNodeEnv';
import { startStdioServer, type StdioServer } from './stdioServer';

const WORK = `// CPU-bound work, recorded twice: two processes of one capture.
function spin(n) {
  let s = 0;
  for (let i = 0; i < n; i++) s += Math.sqrt(i) * Math.sin(i);
  return s;
}
let total = 0;
const end = Date.now() + 400;
while (Date.now() < end) total += spin(20000);
if (!Number.isFinite(total)) throw new Error('no work done');
`;
const SPIN_LINE = 2;
const ALL = '% of CPU time, all processes and threads, idle excluded';
const SINGLE = /of CPU time, idle excluded/;

function find(node: FlameNode, name: string): FlameNode | null {
  if (node.name === name) return node;
  for (const child of node.children) {
    const found = find(child, name);
    if (found !== null) return found;
  }
  return null;
}

describe('a merged capture names one denominator in every view (CLI and language server, recorded now)', function () {
  this.timeout(180_000);
  let dir: string;
  let capture: string;
  let source: string;
  let server: StdioServer | undefined;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'hotframe-merged-share-'));
    capture = join(dir, 'capture');
    source = join(dir, 'work.js');
    writeFileSync(source, WORK);
    for (let run = 0; run < 2; run++) {
      const recorded = spawnSync(process.execPath, ['--cpu-prof', '--cpu-prof-dir', capture, source], { cwd: dir, env: plainNodeEnv(), encoding: 'utf8', timeout: 60_000 });
      assert.equal(recorded.status, 0, recorded.stderr);
    }
    assert.equal(readdirSync(capture).filter((f) => f.endsWith('.cpuprofile')).length, 2);
  });

  afterEach(() => {
    server?.stop();
    server = undefined;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('says "all processes and threads" in the hover, the notes, the view, the flame tooltip and the CLI', async () => {
    server = await startStdioServer({ initializationOptions: { workspaceRoots: [dir] } });
    const { connection } = server;
    const uri = pathToFileURL(source).href;
    await connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'javascript', version: 1, text: readFileSync(source, 'utf8') } });
    const summary: ProfileSummary = await connection.sendRequest('hotframe/loadProfile', { path: capture, role: 'primary', pathMappings: [], roots: [dir] });
    assert.equal(summary.shareOf, ALL);

    // The hover on the function: every share names the capture's denominator.
    const hover: { contents: { value: string } } | null = await connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: SPIN_LINE - 1, character: 2 } });
    const hoverText = (hover?.contents.value ?? '').replace(/\\(.)/g, '$1');
    assert.match(hoverText, /\*\*spin\*\*: self .*all processes and threads, idle excluded/, hoverText);
    assert.doesNotMatch(hoverText, SINGLE, hoverText);

    // The line notes, as the extension draws them from the server's heat.
    const heat: FileHeat = await connection.sendRequest('hotframe/fileHeat', { uri });
    const notes = planHeat(heat, 0, WORK.split('\n').length).notes;
    assert.ok(notes.length > 0, 'the work has notes');
    for (const note of notes) assert.match(note.text, /% CPU, all processes/, note.text);

    // The Profile view's rows: the hot function and its tooltip.
    const overview: OverviewResult = await connection.sendRequest('hotframe/overview');
    const section = overviewChildren(overview).find((n) => n.kind === 'section' && n.id === 'functions')!;
    const spinRow = overviewChildren(overview, section).map((n) => overviewRow(n, overview)).find((r) => r.label === 'spin');
    assert.ok(spinRow, 'spin is a hot function');
    assert.match(spinRow.description ?? '', /% CPU, all processes$/);
    assert.ok(spinRow.tooltip?.includes(ALL.slice(1)) && !SINGLE.test(spinRow.tooltip), spinRow.tooltip);

    // The flame graph's tooltip.
    const graph: FlameGraphResult = await connection.sendRequest('hotframe/flameGraph', { mode: 'normal', onlyMyCode: false });
    const spinFrame = find(graph.root, 'spin');
    assert.ok(spinFrame !== null, 'spin is in the flame graph');
    assert.match(frameFacts(spinFrame, graphScale(graph, graph.root.value)).total, /% CPU, all processes\)$/);

    // The CLI: the same words in its text header and its JSON.
    const { cli } = await bundles();
    const json = spawnSync(process.execPath, [cli, 'profile', capture, '--format', 'json', '--root', dir], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(json.status, 0, json.stderr);
    assert.equal((JSON.parse(json.stdout) as { shareOf: string }).shareOf, summary.shareOf);
    const text = spawnSync(process.execPath, [cli, 'profile', capture, '--root', dir], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(text.status, 0, text.stderr);
    assert.ok(text.stdout.includes(`Every % below is ${ALL}`), text.stdout);
    assert.doesNotMatch(text.stdout, SINGLE);
  });

  it('with one process kept, every view says which one', async () => {
    server = await startStdioServer({ initializationOptions: { workspaceRoots: [dir] } });
    const { connection } = server;
    const uri = pathToFileURL(source).href;
    await connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'javascript', version: 1, text: readFileSync(source, 'utf8') } });
    const all: ProfileSummary = await connection.sendRequest('hotframe/loadProfile', { path: capture, role: 'primary', pathMappings: [], roots: [dir] });
    const kept = all.threads![0]!.id;
    const one: ProfileSummary = await connection.sendRequest('hotframe/loadProfile', { path: capture, role: 'primary', pathMappings: [], roots: [dir], thread: kept });
    const only = `% of CPU time of ${kept} only (1 of 2 processes and threads), idle excluded`;
    assert.equal(one.shareOf, only);
    const hover: { contents: { value: string } } | null = await connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: SPIN_LINE - 1, character: 2 } });
    const hoverText = (hover?.contents.value ?? '').replace(/\\(.)/g, '$1');
    assert.ok(hoverText.includes(only.slice(1)), hoverText);
    const heat: FileHeat = await connection.sendRequest('hotframe/fileHeat', { uri });
    for (const note of planHeat(heat, 0, WORK.split('\n').length).notes) assert.match(note.text, /% CPU, 1 of 2 processes/, note.text);
    const { cli } = await bundles();
    const json = spawnSync(process.execPath, [cli, 'profile', capture, '--thread', kept, '--format', 'json', '--root', dir], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(json.status, 0, json.stderr);
    assert.equal((JSON.parse(json.stdout) as { shareOf: string }).shareOf, only);
  });
});
