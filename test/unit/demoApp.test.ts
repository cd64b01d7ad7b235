// The demo service (examples/demo-app) is the product's showcase and the e2e suite's workspace.
// Its trailing `// expect: <rule-id>[, <rule-id>]` markers must equal EXACTLY what the engine
// reports over its files (rule + line, both ways), and its recorded profiles must load and show
// the demo's own functions, mapped onto this clone.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

import type { RuleId } from '../../rules/api';
import { allRules } from '../../rules/index';
import { collectSourceFiles } from '../../server/cli/sourceFiles';
import { loadProfile } from '../../server/profile/load';
import { buildReport } from '../../server/profile/report';
import type { FunctionCost, ProfileReport } from '../../server/profile/types';
import { analyzeSource } from '../../server/static/engine';
import { ProjectIndex } from '../../server/static/projectIndex';

const DEMO = resolve(__dirname, '..', '..', 'examples', 'demo-app');
const PROFILES = join(DEMO, 'profiles');
// Same syntax as the e2e suite's reader (test/e2e/suite/workbench.ts).
const MARKER = /\/\/\s*expect:\s*([\w-]+(?:\s*,\s*[\w-]+)*)\s*$/;

/** "file:line rule" keys, file relative to the demo, sorted. */
function markersOf(files: readonly string[]): string[] {
  const keys: string[] = [];
  for (const file of files) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((text, i) => {
        const match = MARKER.exec(text);
        if (match === null) return;
        for (const id of match[1].split(',')) keys.push(`${relative(DEMO, file)}:${i + 1} ${id.trim()}`);
      });
  }
  return keys.sort();
}

function findingsOf(files: readonly string[]): { keys: string[]; problems: string[] } {
  const project = new ProjectIndex();
  const keys: string[] = [];
  const problems: string[] = [];
  for (const file of files) {
    const result = analyzeSource({ filePath: file, text: readFileSync(file, 'utf8'), project });
    const where = relative(DEMO, file);
    if (result.skipped !== null) problems.push(`${where}: skipped (${result.skipped.reason})`);
    for (const p of result.parseErrors) problems.push(`${where}:${p.line}: parse error ${p.message}`);
    for (const e of result.ruleErrors) problems.push(`${where}: rule ${e.ruleId} threw ${e.message}`);
    for (const f of result.findings) keys.push(`${where}:${f.range.loc.start.line} ${f.ruleId}`);
  }
  return { keys: keys.sort(), problems };
}

describe('examples/demo-app', () => {
  const files = collectSourceFiles([DEMO], DEMO);

  it('is analyzed file by file: the service, its routes and the fake MongoDB', () => {
    const names = files.map((f) => relative(DEMO, f));
    for (const expected of ['server.js', 'messages.js', 'clock.js', 'models/index.js', 'routes/tasks.js', 'routes/stats.js', 'fake-mongo/index.js']) {
      assert.ok(names.includes(expected), `${expected} not collected: ${names.join(', ')}`);
    }
  });

  it('marks a line for every rule', () => {
    const marked = new Set(markersOf(files).map((key) => key.split(' ')[1]));
    const ids: RuleId[] = allRules.map((rule) => rule.meta.id);
    assert.deepEqual(ids.filter((id) => !marked.has(id)), []);
    assert.deepEqual([...marked].filter((id) => !(ids as string[]).includes(id)), [], 'markers naming no rule');
  });

  it('gets exactly the findings its // expect: markers promise, and none in the fixed code', () => {
    const { keys, problems } = findingsOf(files);
    assert.deepEqual(problems, []);
    const expected = markersOf(files);
    assert.deepEqual(
      { missing: expected.filter((k) => !keys.includes(k)), unexpected: keys.filter((k) => !expected.includes(k)) },
      { missing: [], unexpected: [] },
    );
    assert.equal(keys.length, expected.length, 'a marker is reported twice');
  });
});

describe('examples/demo-app recorded profiles', () => {
  const reports = new Map<string, ProfileReport>();

  async function reportOf(name: string): Promise<ProfileReport> {
    let report = reports.get(name);
    if (report === undefined) {
      report = buildReport(await loadProfile(join(PROFILES, name)), { root: DEMO }).report;
      reports.set(name, report);
    }
    return report;
  }

  function demoFunction(report: ProfileReport, file: string, name: string): FunctionCost | undefined {
    return report.functions.find((f) => f.name === name && f.file === join(DEMO, file));
  }

  it('before.cpuprofile maps the demo functions onto this clone, with samples', async () => {
    const report = await reportOf('before.cpuprofile');
    assert.equal(report.format, 'cpuprofile');
    for (const [file, name] of [
      ['messages.js', 'getTimestamp'],
      ['messages.js', 'onTaskEvents'],
      ['routes/tasks.js', 'listTasksV1'],
      ['routes/stats.js', 'sampleHostStats'],
      ['routes/reports.js', 'tagReportV1'],
    ]) {
      const cost = demoFunction(report, file, name);
      assert.ok(cost !== undefined, `${name} (${file}) not in the profile`);
      assert.ok(cost.totalSamples > 0, `${name} has no samples`);
      assert.equal(cost.category, 'user');
    }
    assert.ok(report.categories.gc.samples > 0, 'no GC samples');
  });

  it('after.cpuprofile runs the fixed code only', async () => {
    const report = await reportOf('after.cpuprofile');
    for (const [file, name] of [
      ['messages.js', 'onTaskEventsFixed'],
      ['routes/tasks.js', 'listTasksV2'],
    ]) {
      assert.ok((demoFunction(report, file, name)?.totalSamples ?? 0) > 0, `${name} has no samples`);
    }
    for (const name of ['getTimestamp', 'onTaskEvents', 'listTasksV1', 'sampleHostStats']) {
      assert.equal(report.functions.find((f) => f.name === name && f.file.startsWith(DEMO)), undefined, `${name} ran in the fixed service`);
    }
  });

  it('before.v8.log.gz (raw --prof log) loads and maps the demo functions', async () => {
    const report = await reportOf('before.v8.log.gz');
    assert.equal(report.format, 'v8log');
    for (const [file, name] of [
      ['messages.js', 'onTaskEvents'],
      ['routes/stats.js', 'sampleHostStats'],
    ]) {
      assert.ok((demoFunction(report, file, name)?.totalSamples ?? 0) > 0, `${name} (${file}) has no ticks`);
    }
  });
});
