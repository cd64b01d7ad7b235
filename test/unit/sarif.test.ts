// `hotframe analyze --format sarif`: the SARIF 2.1.0 shape GitHub code scanning accepts, and
// fingerprints that survive code moving up or down.
import { strict as assert } from 'node:assert';
import { rmSync } from 'node:fs';

import { allRules } from '../../rules/index';
import { LEAN_HANDLER, LEAN_MESSAGE, analyze, writeProject } from './analyzeFixture';

interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: string;
  message: { text: string };
  locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId: string }; region: Record<string, number> } }[];
  partialFingerprints: Record<string, string>;
}

interface SarifLog {
  $schema: string;
  version: string;
  runs: {
    tool: { driver: { name: string; informationUri: string; version: string; rules: Record<string, unknown>[] } };
    originalUriBaseIds: Record<string, { uri: string }>;
    invocations: { executionSuccessful: boolean; toolExecutionNotifications: { level: string; message: { text: string } }[] }[];
    results: SarifResult[];
  }[];
}

async function sarifOf(files: Record<string, string>, ...args: string[]): Promise<{ log: SarifLog; root: string; status: number | null }> {
  const root = writeProject(files);
  const run = await analyze(root, '--format', 'sarif', ...args);
  assert.equal(run.stderr, '');
  return { log: JSON.parse(run.stdout) as SarifLog, root, status: run.status };
}

describe('hotframe analyze --format sarif', function () {
  this.timeout(60_000);
  const roots: string[] = [];
  after(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

  it('describes the tool and every rule, with help links and default levels', async () => {
    const { log, root } = await sarifOf({ 'routes/tasks.js': LEAN_HANDLER });
    roots.push(root);
    assert.equal(log.$schema, 'https://json.schemastore.org/sarif-2.1.0.json');
    assert.equal(log.version, '2.1.0');
    assert.equal(log.runs.length, 1);
    const { driver } = log.runs[0].tool;
    assert.equal(driver.name, 'hotframe');
    assert.match(driver.informationUri, /^file:\/\/.*\/README\.md$/);
    assert.equal(driver.version, '0.0.0-test');
    assert.deepEqual(
      driver.rules.map((r) => r.id),
      allRules.map((r) => r.meta.id),
    );
    const lean = driver.rules.find((r) => r.id === 'mongoose-missing-lean');
    const meta = allRules.find((r) => r.meta.id === 'mongoose-missing-lean')!.meta;
    assert.match(String(lean?.helpUri), /^file:\/\/.*\/docs\/rules\/mongoose-missing-lean\.md$/);
    assert.deepEqual(lean, {
      id: 'mongoose-missing-lean',
      name: 'MongooseMissingLean',
      shortDescription: { text: meta.description },
      fullDescription: { text: `${meta.description} ${meta.incident.summary}` },
      helpUri: lean?.helpUri,
      help: { text: `${meta.description} ${meta.incident.summary} See docs/rules/mongoose-missing-lean.md in the hotframe package.` },
      defaultConfiguration: { level: 'warning' },
      properties: { tags: ['performance', 'database'], precision: 'medium' },
    });
    assert.deepEqual(log.runs[0].originalUriBaseIds, { '%SRCROOT%': { uri: `file://${root}/` } });
  });

  it('locates results relative to %SRCROOT% with 1-based regions and the rule index', async () => {
    const { log, root, status } = await sarifOf({ 'routes/tasks.js': LEAN_HANDLER, 'src/other.js': LEAN_HANDLER }, '--rule', 'mongoose-missing-lean=information');
    roots.push(root);
    assert.equal(status, 1);
    const { results, tool } = log.runs[0];
    const index = tool.driver.rules.findIndex((r) => r.id === 'mongoose-missing-lean');
    assert.deepEqual(
      results.map((r) => ({ ...r, partialFingerprints: Object.keys(r.partialFingerprints) })),
      ['routes/tasks.js', 'src/other.js'].map((uri) => ({
        ruleId: 'mongoose-missing-lean',
        ruleIndex: index,
        level: 'note', // information -> note
        message: { text: LEAN_MESSAGE },
        locations: [{ physicalLocation: { artifactLocation: { uri, uriBaseId: '%SRCROOT%' }, region: { startLine: 6, startColumn: 18, endLine: 6, endColumn: 31 } } }],
        partialFingerprints: ['primaryLocationLineHash'],
      })),
    );
    // Same rule and same line text, different files: different fingerprints.
    assert.notEqual(results[0].partialFingerprints.primaryLocationLineHash, results[1].partialFingerprints.primaryLocationLineHash);
  });

  it('percent-encodes each path segment of artifact URIs', async () => {
    const { log, root } = await sarifOf({ 'odd dir/#1?.js': LEAN_HANDLER });
    roots.push(root);
    assert.deepEqual(log.runs[0].results.map((r) => r.locations[0].physicalLocation.artifactLocation.uri), ['odd%20dir/%231%3F.js']);
  });

  it('keeps fingerprints when code moves, and numbers identical lines', async () => {
    const twice = LEAN_HANDLER.replace("app.listen(3000);", "app.get('/again', async (req, res) => {\n  res.json(await Task.find({}));\n});\napp.listen(3000);");
    const first = await sarifOf({ 'app.js': twice });
    const moved = await sarifOf({ 'app.js': '// a header comment\n\n' + twice });
    roots.push(first.root, moved.root);
    const lines = (log: SarifLog) => log.runs[0].results.map((r) => r.locations[0].physicalLocation.region.startLine);
    const prints = (log: SarifLog) => log.runs[0].results.map((r) => r.partialFingerprints.primaryLocationLineHash);
    assert.deepEqual(lines(first.log), [6, 9]);
    assert.deepEqual(lines(moved.log), [8, 11]);
    assert.deepEqual(prints(moved.log), prints(first.log));
    const [a, b] = prints(first.log);
    assert.match(a, /^[0-9a-f]{32}:1$/);
    assert.equal(b, a.replace(/:1$/, ':2'));
  });

  it('lists parse errors and skipped files as tool notifications, not results', async () => {
    const { log, root } = await sarifOf({ 'broken.js': 'const broken;\n', 'bundle.min.js': 'var a=' + JSON.stringify('x'.repeat(12_000)) + ';\n' });
    roots.push(root);
    assert.deepEqual(log.runs[0].results, []);
    assert.deepEqual(log.runs[0].invocations, [
      {
        executionSuccessful: true,
        toolExecutionNotifications: [
          {
            level: 'error',
            message: { text: 'parse-error: Missing initializer in const declaration. (1:13)' },
            locations: [{ physicalLocation: { artifactLocation: { uri: 'broken.js', uriBaseId: '%SRCROOT%' }, region: { startLine: 1, startColumn: 13 } } }],
          },
          {
            level: 'note',
            message: { text: 'Skipped: minified' },
            locations: [{ physicalLocation: { artifactLocation: { uri: 'bundle.min.js', uriBaseId: '%SRCROOT%' } } }],
          },
        ],
      },
    ]);
  });
});
