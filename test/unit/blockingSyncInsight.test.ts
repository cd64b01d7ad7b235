// The profile-only insight for synchronous I/O on the serving path, from a real node run recorded
// at test time: a tiny HTTP server that writes its "database" with fs.writeFileSync on every
// request (json-server's shape, 27% of CPU there), under a bounded load it drives itself, after
// a start-up that compresses with zlib.gzipSync (sync at start-up is fine and must stay quiet).
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { buildDiagnostics } from '../../server/lsp/diagnostics';
import type { ProfileFeatures } from '../../server/lsp/profileFeatures';
import { formatCost } from '../../server/shared/format';
import { analyzeProfileFile } from '../../server/profile/analysis/report';
import { analyzeSource } from '../../server/static/engine';
import { tempFolders } from './tempFolders';

const SERVER = `const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const zlib = require('node:zlib');

const seed = zlib.gzipSync(Buffer.alloc(32 * 1024 * 1024, 'seed'));
const db = path.join(__dirname, 'db.json');
const rows = Array.from({ length: 2000 }, (_, i) => ({ id: i, title: 'task ' + i, size: seed.length }));

function save(req, res) {
  rows.push({ id: rows.length, title: req.url });
  fs.writeFileSync(db, JSON.stringify(rows));
  res.end('ok');
}

const server = http.createServer((req, res) => save(req, res));
server.listen(0, '127.0.0.1', async () => {
  const { port } = server.address();
  for (let i = 0; i < 200; i++) {
    await new Promise((done, fail) => http.get({ port, host: '127.0.0.1', path: '/t' + i }, (r) => r.resume().on('end', done)).on('error', fail));
  }
  server.close(() => process.exit(0));
});
`;
const WRITE_LINE = 12;

describe('blocking sync I/O insight (a real node run)', () => {
  const temp = tempFolders();
  let dir = '';
  let profile = '';
  before(function () {
    this.timeout(60_000);
    dir = temp.make('hotframe-syncio-');
    writeFileSync(join(dir, 'server.js'), SERVER);
    const run = spawnSync(process.execPath, ['--cpu-prof', '--cpu-prof-dir', join(dir, 'prof'), join(dir, 'server.js')], { cwd: dir, encoding: 'utf8', timeout: 50_000 });
    assert.equal(run.status, 0, run.stderr);
    profile = join(dir, 'prof', readdirSync(join(dir, 'prof'))[0]!);
  });
  after(() => temp.removeAll());

  it('points at the writeFileSync line of the request handler, and not at start-up sync work', async () => {
    const { report } = await analyzeProfileFile(profile, { root: dir });
    const sync = report.insights.filter((i) => i.id === 'blocking-sync-io');
    assert.equal(sync.length, 1, JSON.stringify(report.insights.map((i) => [i.id, i.title, i.location])));
    const [insight] = sync;
    assert.deepEqual(insight!.location, { file: join(dir, 'server.js'), line: WRITE_LINE });
    assert.match(insight!.title, /^fs\.writeFileSync\(\) blocks the event loop/);
    assert.match(insight!.message, /Use the asynchronous fs\.writeFile/);
    // Its share is of CPU time like every other; the start-up gzipSync cost more than 1% and is not reported.
    assert.ok(Math.abs((insight!.percent * report.cpuMs) / 100 - insight!.ms) < 1e-6);
    // (gzipSync shows as zlibBufferSync when V8 inlined the wrapper)
    const gzip = report.functions.find((f) => f.file === 'node:zlib' && f.name.endsWith('Sync'));
    assert.ok(gzip !== undefined && (gzip.totalPercent ?? 0) >= 1, `start-up gzipSync: ${JSON.stringify(gzip)}`);
  });

  it('joins the blocking-sync-call finding on that line instead of a second diagnostic', async () => {
    const { report } = await analyzeProfileFile(profile, { root: dir });
    const insight = report.insights.find((i) => i.id === 'blocking-sync-io')!;
    const file = join(dir, 'server.js');
    const { findings } = analyzeSource({ filePath: file, text: SERVER });
    const blocking = findings.filter((f) => f.ruleId === 'blocking-sync-call');
    assert.deepEqual(blocking.map((f) => f.range.loc.start.line), [WRITE_LINE]);
    const features: ProfileFeatures = {
      costOf: () => null,
      hotThresholdPercent: () => 1,
      insightsFor: () => [{ line: WRITE_LINE, message: insight.message, insightId: insight.id, rule: insight.rule, cost: formatCost(insight.ms, insight.percent, insight.shareBasis) }],
    };
    const diagnostics = buildDiagnostics(file, findings, [], features, () => 80);
    const onLine = diagnostics.filter((d) => d.range.start.line === WRITE_LINE - 1);
    assert.equal(onLine.length, 1, JSON.stringify(onLine));
    assert.equal(onLine[0]!.code, 'blocking-sync-call');
    assert.ok(onLine[0]!.message.endsWith(`measured in this profile: ${formatCost(insight.ms, insight.percent, insight.shareBasis)} in this call`), onLine[0]!.message);
  });
});
