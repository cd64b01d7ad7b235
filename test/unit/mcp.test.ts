// `hotframe mcp` driven by the MCP SDK's own client over stdio, on the demo service and its recorded
// profiles: every tool's answer is checked against the command line's `--format json` output for
// the same question (with the workspace's paths made relative here, independently).
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import { bundles, REPO_ROOT } from './bundles';

const DEMO = join(REPO_ROOT, 'examples', 'demo-app');

/** Every `file` field that names a path under `root`, and such paths in texts, relative to it: what the MCP answers promise. */
function relativeToRoot(value: unknown, root: string): unknown {
  if (Array.isArray(value)) return value.map((v) => relativeToRoot(v, root));
  if (typeof value === 'string') return value.replaceAll(`${root}/`, '');
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, key === 'file' && typeof inner === 'string' && inner.startsWith(`${root}/`) ? inner.slice(root.length + 1) : relativeToRoot(inner, root)]),
  );
}

describe('hotframe mcp (the SDK client over stdio, on the demo service)', function () {
  this.timeout(120_000);
  let workspace: string;
  let cli: string;
  let client: Client;

  before(async () => {
    // A copy of the demo with its profiles, so that a path outside it can be named by a link.
    workspace = mkdtempSync(join(tmpdir(), 'hotframe-mcp-'));
    cpSync(DEMO, workspace, { recursive: true, filter: (src) => !src.includes('node_modules') });
    symlinkSync(join(REPO_ROOT, 'package.json'), join(workspace, 'outside.cpuprofile'));
    ({ cli } = await bundles());
    client = new Client({ name: 'hotframe-test', version: '1.0.0' });
    const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
    delete env.ELECTRON_RUN_AS_NODE;
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp', '--root', workspace], cwd: REPO_ROOT, env, stderr: 'pipe' }));
  });

  after(async () => {
    await client?.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  /** The command line's JSON answer in the workspace. */
  function hotframeJson(...args: string[]): unknown {
    const run = spawnSync(process.execPath, [cli, ...args], { cwd: workspace, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    assert.ok(run.status === 0 || run.status === 1, run.stderr);
    return JSON.parse(run.stdout);
  }

  async function call(name: string, args: Record<string, unknown>): Promise<{ json: unknown; text: string; isError: boolean }> {
    const result = (await client.callTool({ name, arguments: args })) as { content: { type: string; text: string }[]; isError?: boolean };
    const text = result.content[0].text;
    return { text, isError: result.isError === true, json: result.isError === true ? null : JSON.parse(text) };
  }

  it('lists its tools, each read-only', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ['call_sites', 'cost', 'diff', 'findings', 'gate', 'profile_report', 'stalls']);
    for (const tool of tools) assert.equal(tool.annotations?.readOnlyHint, true, tool.name);
  });

  it('findings: as `hotframe analyze --format json`, ranked by the profile, the list cut to top', async () => {
    const cliJson = hotframeJson('analyze', '--format', 'json', '--profile', 'profiles/before.cpuprofile') as { findings: unknown[] };
    const { json } = await call('findings', { profile: 'profiles/before.cpuprofile', top: 3 });
    assert.deepEqual(json, relativeToRoot({ ...cliJson, findings: cliJson.findings.slice(0, 3), findingsTotal: cliJson.findings.length }, workspace));
    assert.ok(cliJson.findings.length > 3);
    const plain = hotframeJson('analyze', 'routes', '--format', 'json') as { findings: unknown[] };
    const { json: mcpPlain } = await call('findings', { paths: ['routes'], top: 200 });
    assert.deepEqual(mcpPlain, { ...plain, findingsTotal: plain.findings.length });
  });

  it('profile_report: as `hotframe profile --format json`, with the workspace\'s paths relative', async () => {
    const cliJson = hotframeJson('profile', 'profiles/before.cpuprofile', '--root', workspace, '--format', 'json', '--top', '15');
    const { json, text } = await call('profile_report', { profile: 'profiles/before.cpuprofile', top: 15 });
    assert.deepEqual(json, relativeToRoot(cliJson, workspace));
    assert.ok(!text.includes(workspace), 'no absolute path of the workspace in the answer');
  });

  it('cost and call_sites: the entries of the profile\'s report for a file, a line, a function', async () => {
    const full = relativeToRoot(hotframeJson('profile', 'profiles/before.cpuprofile', '--root', workspace, '--format', 'json', '--top', '100000'), workspace) as {
      functions: { name: string; file: string }[];
      lines: { file: string; line: number }[];
      callLines: { file: string; line: number; callee: string; function: string }[];
      callSites: { libraries: { name: string }[] }[];
    };
    const { json: ofFile } = (await call('cost', { profile: 'profiles/before.cpuprofile', file: 'messages.js' })) as { json: typeof full };
    assert.deepEqual(ofFile.functions, full.functions.filter((f) => f.file === 'messages.js'));
    assert.deepEqual(ofFile.lines, full.lines.filter((l) => l.file === 'messages.js'));
    assert.ok(ofFile.lines.length > 0);
    const hottest = ofFile.lines[0];
    const { json: ofLine } = (await call('cost', { profile: 'profiles/before.cpuprofile', file: 'messages.js', line: hottest.line })) as { json: typeof full };
    assert.deepEqual(ofLine.lines, [hottest]);
    const { json: ofFunction } = (await call('cost', { profile: 'profiles/before.cpuprofile', function: 'getTimestamp' })) as { json: typeof full };
    assert.deepEqual(ofFunction.functions, full.functions.filter((f) => f.name === 'getTimestamp'));
    assert.equal(ofFunction.functions.length, 1);

    const callee = full.callLines[0].callee;
    const { json: sites } = (await call('call_sites', { profile: 'profiles/before.cpuprofile', function: callee })) as { json: typeof full };
    assert.deepEqual(sites.callLines, full.callLines.filter((c) => c.callee === callee));
    const library = full.callSites[0].libraries[0].name;
    const { json: libSites } = (await call('call_sites', { profile: 'profiles/before.cpuprofile', function: library })) as { json: typeof full };
    assert.deepEqual(libSites.callSites, full.callSites.filter((s) => s.libraries.some((l) => l.name === library)));
    assert.ok(libSites.callSites.length > 0);
  });

  it('stalls: as `hotframe profile --stalls --format json`, lists cut to top', async () => {
    const cliJson = relativeToRoot(hotframeJson('profile', 'profiles/before.cpuprofile', '--root', workspace, '--stalls', '--format', 'json'), workspace) as { stalls: unknown[]; lines: unknown[] };
    const { json } = await call('stalls', { profile: 'profiles/before.cpuprofile', top: 5 });
    assert.ok(cliJson.stalls.length > 5, 'the demo profile has stalls to cut');
    assert.deepEqual(json, { ...cliJson, stalls: cliJson.stalls.slice(0, 5), lines: cliJson.lines.slice(0, 5) });
  });

  it('diff and gate: as `hotframe diff` and `hotframe gate` with --format json', async () => {
    const diff = hotframeJson('diff', 'profiles/before.cpuprofile', 'profiles/after.cpuprofile', '--root', workspace, '--format', 'json', '--top', '10');
    const { json } = await call('diff', { before: 'profiles/before.cpuprofile', after: 'profiles/after.cpuprofile', top: 10 });
    assert.deepEqual(json, relativeToRoot(diff, workspace));
    // Two recordings a side (each format of one run), cut into 3 windows: 6 runs a side, the fewest the default confidence needs.
    const gate = hotframeJson('gate', '--before', 'profiles/before.cpuprofile', '--before', 'profiles/before.v8.log.gz', '--after', 'profiles/after.cpuprofile', '--after', 'profiles/after.v8.log.gz', '--windows', '3', '--format', 'json');
    const { json: gateAnswer } = await call('gate', { before: ['profiles/before.cpuprofile', 'profiles/before.v8.log.gz'], after: ['profiles/after.cpuprofile', 'profiles/after.v8.log.gz'], windows: 3 });
    assert.deepEqual(gateAnswer, gate);
    // One recording a side, cut into windows.
    const windowed = hotframeJson('gate', '--before', 'profiles/before.cpuprofile', '--after', 'profiles/after.cpuprofile', '--windows', '6', '--format', 'json');
    const { json: windowedAnswer } = await call('gate', { before: ['profiles/before.cpuprofile'], after: ['profiles/after.cpuprofile'], windows: 6 });
    assert.deepEqual(windowedAnswer, windowed);
    assert.deepEqual((windowed as { runs: unknown }).runs, { before: 6, after: 6 });
  });

  it('never reads outside the workspace, and answers input errors in one line', async () => {
    for (const [args, message] of [
      [{ profile: '../package.json' }, /^\.\.\/package\.json: outside the workspace$/],
      [{ profile: join(REPO_ROOT, 'package.json') }, /: give a path relative to the workspace$/],
      [{ profile: 'outside.cpuprofile' }, /^outside\.cpuprofile: leads outside the workspace$/],
      [{ profile: 'server.js' }, /^.+$/],
    ] as const) {
      const { isError, text } = await call('profile_report', args);
      assert.equal(isError, true, text);
      assert.match(text, message);
      assert.equal(text.split('\n').length, 1);
    }
  });
});
