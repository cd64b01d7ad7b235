// The demo service (examples/demo-app) is the product's showcase and the e2e suite's workspace.
// Its trailing `// expect: <rule-id>[, <rule-id>]` markers must equal EXACTLY what the engine
// reports over its files (rule + line, both ways), and its recorded profiles must load and show
// the demo's own functions, mapped onto this clone.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join, relative, resolve } from 'node:path';

import mongoose from 'mongoose';

import type { RuleId } from '../../rules/api';
import { allRules } from '../../rules/index';
import { collectSourceFiles } from '../../server/shared/sourceFiles';
import { loadCostIndex } from '../../server/join/costIndex';
import { loadProfile } from '../../server/profile/readers/load';
import { buildReport } from '../../server/profile/analysis/report';
import type { FunctionCost, InsightId, ProfileReport } from '../../server/profile/model/types';
import { analyzeSource } from '../../server/static/engine';
import { ProjectIndex } from '../../server/static/projectIndex';

const DEMO = resolve(__dirname, '..', '..', 'examples', 'demo-app');
const PROFILES = join(DEMO, 'profiles');
const FAKE_MONGO_PORT = 41751; // H8's port range

interface FakeMongo {
  uri: string;
  close(): Promise<void>;
}
// Plain CommonJS of the demo, typed here at the one place the tests use it.
const { startFakeMongo } = require(join(DEMO, 'fake-mongo')) as { startFakeMongo(options: { port: number }): Promise<FakeMongo> };
const { seedCollections } = require(join(DEMO, 'fake-mongo', 'seedData.js')) as { seedCollections(): { users: unknown[]; tasks: unknown[] } };
// The driver's own BSON, as the fake server resolves it.
const BSON = require(join(DEMO, 'fake-mongo', 'bson.js')) as {
  serialize(doc: object): Buffer;
  deserialize(bytes: Buffer): Record<string, unknown>;
};

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

  /** Line of `function <name>` in the demo's current source: a recording older than an edit shows heat on the wrong lines. */
  function declarationLine(file: string, name: string): number {
    const lines = readFileSync(join(DEMO, file), 'utf8').split('\n');
    const line = lines.findIndex((text) => new RegExp(`^(async )?function ${name}\\(`).test(text)) + 1;
    assert.ok(line > 0, `no function ${name} in ${file}`);
    return line;
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
      assert.equal(cost.line, declarationLine(file, name), `${name}: profile older than ${file} (npm run demo:record)`);
    }
    assert.ok(report.categories.gc.samples > 0, 'no GC samples');
  });

  it('before.cpuprofile raises the insight of every seed it reproduces; after.cpuprofile only GC', async () => {
    const before = (await reportOf('before.cpuprofile')).insights.map((i) => i.id).sort();
    const after = (await reportOf('after.cpuprofile')).insights.map((i) => i.id).sort();
    // (blocking-sync-io: the stats timer's execSync, measured while the service serves)
    const expected: InsightId[] = ['blocking-sync-io', 'date-now-hot', 'gc-pressure', 'mongoose-hydration', 'spawn-env-walk'];
    assert.deepEqual(before, expected);
    assert.deepEqual(after, ['gc-pressure']);
  });

  it('gives a measured cost to every finding whose code the load ran', async () => {
    const costs = await loadCostIndex(join(PROFILES, 'before.cpuprofile'), { root: DEMO });
    const project = new ProjectIndex();
    const measured: string[] = [];
    for (const file of collectSourceFiles([DEMO], DEMO)) {
      for (const finding of analyzeSource({ filePath: file, text: readFileSync(file, 'utf8'), project }).findings) {
        const cost = costs.costOf(file, finding);
        measured.push(`${finding.ruleId} ${cost !== null && cost.percent > 0 ? 'measured' : 'not in profile'}`);
      }
    }
    // The middleware chain is flagged where the route is registered, which runs once at start-up.
    assert.deepEqual([...new Set(measured)].sort(), [
      'blocking-sync-call measured',
      'connection-per-request measured',
      'date-now-hot-path measured',
      'mongoose-count-by-loading measured',
      'mongoose-missing-lean measured',
      'serial-heavy-middleware not in profile',
      'spawn-without-env measured',
    ]);
  });

  it('after.cpuprofile runs the fixed code only', async () => {
    const report = await reportOf('after.cpuprofile');
    for (const [file, name] of [
      ['messages.js', 'onTaskEventsFixed'],
      ['routes/tasks.js', 'listTasksV2'],
    ]) {
      const cost = demoFunction(report, file, name);
      assert.ok((cost?.totalSamples ?? 0) > 0, `${name} has no samples`);
      assert.equal(cost?.line, declarationLine(file, name), `${name}: profile older than ${file} (npm run demo:record)`);
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
      const cost = demoFunction(report, file, name);
      assert.ok((cost?.totalSamples ?? 0) > 0, `${name} (${file}) has no ticks`);
      assert.equal(cost?.line, declarationLine(file, name), `${name}: profile older than ${file} (npm run demo:record)`);
    }
  });
});

describe('examples/demo-app fake MongoDB, through the real mongoose driver', () => {
  let fake: FakeMongo;
  let db: mongoose.Connection;
  interface TaskShape {
    projectId: number;
    title: string;
    creatorId: mongoose.Types.ObjectId;
    subtasks: { title: string; done: boolean }[];
  }
  let Task: mongoose.Model<TaskShape>;
  let User: mongoose.Model<{ name: string }>;

  before(async () => {
    fake = await startFakeMongo({ port: FAKE_MONGO_PORT });
    db = await mongoose.createConnection(fake.uri, { autoIndex: false, autoCreate: false, serverSelectionTimeoutMS: 5000 }).asPromise();
    Task = db.model<TaskShape>(
      'Task',
      new mongoose.Schema<TaskShape>({ projectId: Number, title: String, creatorId: mongoose.Schema.Types.ObjectId, subtasks: [{ title: String, done: Boolean }] }),
    );
    User = db.model<{ name: string }>('User', new mongoose.Schema<{ name: string }>({ name: String }));
  });

  after(async () => {
    await db?.close();
    await fake?.close();
  });

  it('seeds the same documents on every start', () => {
    assert.equal(JSON.stringify(seedCollections()), JSON.stringify(seedCollections()));
    const { users, tasks } = seedCollections();
    assert.equal(users.length, 400);
    assert.equal(tasks.length, 6000);
  });

  it('answers find with hydrated documents across getMore batches (200 > the first batch of 101)', async () => {
    const tasks = await Task.find({ projectId: 3 });
    assert.equal(tasks.length, 200);
    assert.ok(tasks.every((t) => t instanceof mongoose.Document && t.projectId === 3));
    assert.equal(new Set(tasks.map((t) => String(t._id))).size, 200);
    assert.equal(tasks[0].subtasks.length, 4);
  });

  it('honours skip and limit, equality on ObjectIds and $in', async () => {
    const all = await Task.find({ projectId: 3 }).lean();
    const page = await Task.find({ projectId: 3 }).skip(5).limit(7).lean();
    assert.deepEqual(
      page.map((t) => String(t._id)),
      all.slice(5, 12).map((t) => String(t._id)),
    );
    const creator = await User.findById(all[0].creatorId).lean();
    assert.equal(String(creator?._id), String(all[0].creatorId));
    const ids = [all[0].creatorId, all[1].creatorId];
    const users = await User.find({ _id: { $in: ids } }).lean();
    assert.deepEqual(users.map((u) => String(u._id)).sort(), [...new Set(ids.map(String))].sort());
  });

  it('counts with countDocuments ($match + $group) and sees inserted documents', async () => {
    assert.equal(await Task.countDocuments({ projectId: 3 }), 200);
    assert.equal(await Task.countDocuments({ projectId: 999 }), 0);
    await Task.create({ projectId: 999, title: 'inserted' });
    assert.equal(await Task.countDocuments({ projectId: 999 }), 1);
    assert.equal((await Task.findOne({ projectId: 999 }).lean())?.title, 'inserted');
  });

  it('refuses queries it cannot answer instead of returning wrong data', async () => {
    await assert.rejects(Task.find({ projectId: { $gt: 3 } }).lean(), /fake-mongo: query operator \$gt is not supported/);
    await assert.rejects(Task.aggregate([{ $sort: { projectId: 1 } }]), /aggregate stage \$sort/);
  });

  it('drops a connection that sends garbage and keeps serving the others', async () => {
    const closed = await new Promise<boolean>((done, fail) => {
      const socket = connect(FAKE_MONGO_PORT, '127.0.0.1', () => socket.write(Buffer.from([10, 0, 0, 0, 1, 2, 3, 4])));
      socket.on('close', () => done(true));
      socket.on('error', fail);
      setTimeout(() => fail(new Error('the server kept a connection that sent a 10-byte message length')), 3000).unref();
    });
    assert.ok(closed);
    assert.equal(await Task.countDocuments({ projectId: 3 }), 200);
  });
});

/** One OP_MSG: a body section, optional document sequences (kind 1), optional checksum. */
function opMsg(requestId: number, body: object, sequences: Record<string, object[]> = {}, checksum = false): Buffer {
  const sections: Buffer[] = [Buffer.from([0]), BSON.serialize(body)];
  for (const [identifier, docs] of Object.entries(sequences)) {
    const payload = Buffer.concat([Buffer.from(`${identifier}\0`), ...docs.map((d) => BSON.serialize(d))]);
    const size = Buffer.alloc(4);
    size.writeInt32LE(payload.length + 4);
    sections.push(Buffer.from([1]), size, payload);
  }
  const flags = Buffer.alloc(4);
  flags.writeUInt32LE(checksum ? 1 : 0);
  const rest = Buffer.concat([flags, ...sections, checksum ? Buffer.alloc(4) : Buffer.alloc(0)]);
  const header = Buffer.alloc(16);
  header.writeInt32LE(16 + rest.length, 0);
  header.writeInt32LE(requestId, 4);
  header.writeInt32LE(2013, 12);
  return Buffer.concat([header, rest]);
}

/** Sends messages on one connection and decodes the body of each reply, in order. */
function exchange(port: number, messages: Buffer[], replies: number): Promise<{ responseTo: number; body: Record<string, unknown> }[]> {
  return new Promise((done, fail) => {
    const out: { responseTo: number; body: Record<string, unknown> }[] = [];
    let pending = Buffer.alloc(0);
    const socket = connect(port, '127.0.0.1', () => socket.write(Buffer.concat(messages)));
    socket.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4 && pending.length >= pending.readInt32LE(0)) {
        const length = pending.readInt32LE(0);
        // header(16) flagBits(4) kind(1) body
        out.push({ responseTo: pending.readInt32LE(8), body: BSON.deserialize(pending.subarray(21, length)) });
        pending = pending.subarray(length);
      }
      if (out.length === replies) {
        socket.end();
        done(out);
      }
    });
    socket.on('error', fail);
    setTimeout(() => fail(new Error(`${out.length} of ${replies} replies`)), 3000).unref();
  });
}

describe('examples/demo-app fake MongoDB wire protocol', () => {
  let fake: FakeMongo;
  before(async () => {
    fake = await startFakeMongo({ port: FAKE_MONGO_PORT + 1 });
  });
  after(async () => {
    await fake?.close();
  });

  it('reads document sequences (kind 1) and checksummed messages, and answers each request in order', async () => {
    const replies = await exchange(
      FAKE_MONGO_PORT + 1,
      [
        opMsg(7, { insert: 'notes', $db: 'demo' }, { documents: [{ n: 1 }, { n: 2 }] }),
        opMsg(8, { find: 'notes', filter: { n: 2 }, $db: 'demo' }, {}, true),
        opMsg(9, { frobnicate: 1, $db: 'demo' }),
      ],
      3,
    );
    assert.deepEqual(
      replies.map((r) => r.responseTo),
      [7, 8, 9],
    );
    assert.deepEqual(replies[0].body, { n: 2, ok: 1 });
    const cursor = replies[1].body.cursor as { firstBatch: { n: number }[]; ns: string };
    assert.deepEqual(
      cursor.firstBatch.map((d) => d.n),
      [2],
    );
    assert.equal(cursor.ns, 'demo.notes');
    assert.equal(replies[2].body.ok, 0);
    assert.equal(replies[2].body.codeName, 'CommandNotFound');
  });

  it('sends no reply when the client says moreToCome', async () => {
    const fireAndForget = opMsg(10, { insert: 'quiet', $db: 'demo' }, { documents: [{ a: 1 }] });
    fireAndForget.writeUInt32LE(2, 16); // flagBits: moreToCome
    const replies = await exchange(FAKE_MONGO_PORT + 1, [fireAndForget, opMsg(11, { count: 'quiet', $db: 'demo' })], 1);
    assert.equal(replies[0].responseTo, 11);
    assert.equal(replies[0].body.n, 1);
  });
});
