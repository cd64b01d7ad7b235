// loadProfile recognizes formats by content and turns every broken file into one clear line.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, readFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { CHUNK_BYTES, loadProfile } from './load';
import { ProfileInputError } from './profileInputError';

const FIXTURES = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'profiles');

const tiny = JSON.stringify({
  nodes: [
    { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1, columnNumber: -1 }, children: [2] },
    { id: 2, callFrame: { functionName: 'main', url: '/srv/app.js', lineNumber: 0, columnNumber: 0 } },
  ],
  startTime: 0,
  endTime: 3000,
  samples: [2, 2, 2],
  timeDeltas: [1000, 1000, 1000],
});

/** Asserts loading fails with a ProfileInputError whose single line matches. */
async function rejects(path: string, pattern: RegExp): Promise<void> {
  await assert.rejects(loadProfile(path), (e: unknown) => {
    assert.ok(e instanceof ProfileInputError, `ProfileInputError, got ${String(e)}`);
    assert.match(e.message, pattern);
    assert.ok(!e.message.includes('\n'), 'one line');
    return true;
  });
}

describe('loadProfile', () => {
  let dir = '';
  const file = (name: string, data: string | Buffer): string => {
    const path = join(dir, name);
    writeFileSync(path, data);
    return path;
  };
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'hotframe-load-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('recognizes a cpuprofile by content, whatever its name, plain or gzipped', async () => {
    for (const path of [file('profile.txt', tiny), file('weird', gzipSync(tiny)), file('bom.json', `\ufeff  \n${tiny}`)]) {
      const p = await loadProfile(path);
      assert.equal(p.format, 'cpuprofile');
      assert.equal(p.samples, 3);
    }
  });

  it('recognizes a DevTools trace with a CPU profile', async () => {
    const { nodes, samples, timeDeltas } = JSON.parse(tiny) as { nodes: { id: number; children?: number[] }[]; samples: number[]; timeDeltas: number[] };
    // Trace nodes name their parent instead of listing children.
    const traceNodes = nodes.map((n) => ({ id: n.id, callFrame: (n as { callFrame?: unknown }).callFrame, ...(n.id === 2 ? { parent: 1 } : {}) }));
    const trace = [{ name: 'Profile', id: '0x1', args: { data: { startTime: 0 } } }, { name: 'ProfileChunk', id: '0x1', args: { data: { cpuProfile: { nodes: traceNodes, samples }, timeDeltas } } }];
    const p = await loadProfile(file('Trace-20260101.json', JSON.stringify(trace)));
    assert.equal(p.format, 'cpuprofile');
    assert.equal(p.samples, 3);
    assert.equal(p.functions[p.tree.func[1]].name, 'main');
  });

  it('recognizes raw V8 logs and --preprocess JSON, also gzipped', async () => {
    const log = readFileSync(join(FIXTURES, 'service.v8.log'));
    const fromGz = await loadProfile(file('log.gz', gzipSync(log)));
    const plain = await loadProfile(join(FIXTURES, 'service.v8.log'));
    assert.equal(plain.format, 'v8log');
    assert.equal(fromGz.format, 'v8log');
    assert.equal(fromGz.samples, plain.samples);
    assert.deepEqual(fromGz.tree.selfSamples, plain.tree.selfSamples);
    const pre = await loadProfile(join(FIXTURES, 'service.preprocessed.json.gz'));
    assert.equal(pre.format, 'v8log-preprocessed');
    assert.equal(pre.samples, plain.samples);
  });

  it('reports progress up to 1 and honours an abort signal', async () => {
    const seen: number[] = [];
    await loadProfile(join(FIXTURES, 'service.v8.log'), { onProgress: (f) => seen.push(f) });
    assert.ok(seen.length > 1);
    assert.equal(seen[seen.length - 1], 1);
    for (let i = 1; i < seen.length; i++) assert.ok(seen[i] >= seen[i - 1], 'progress never goes back');
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(loadProfile(join(FIXTURES, 'service.v8.log'), { signal: controller.signal }), { name: 'AbortError' });
  });

  it('stops reading when aborted part way, for every reader', async () => {
    for (const name of ['service.cpuprofile', 'service.v8.log', 'service.preprocessed.json.gz']) {
      const controller = new AbortController();
      const loading = loadProfile(join(FIXTURES, name), { signal: controller.signal, onProgress: () => controller.abort() });
      await assert.rejects(loading, { name: 'AbortError' }, name);
    }
  });

  it('names truncated JSON and where it ends', async () => {
    await rejects(file('cut.cpuprofile', tiny.slice(0, 100)), /cut\.cpuprofile: truncated JSON at byte 100$/);
    await rejects(file('cut.json.gz', gzipSync(tiny.slice(0, 57))), /truncated JSON at byte 57 \(after gunzip\)$/);
  });

  it('names invalid JSON with its byte offset or token', async () => {
    await rejects(file('tail.json', '{"nodes": []}x'), /tail\.json: invalid JSON at byte 13$/);
    await rejects(file('bad.json', '{"nodes": [1, 2,, 3]}'), /bad\.json: invalid JSON \(unexpected ","\)$/);
  });

  it('rejects empty files, binary garbage, text that is no profile, JSON that is no profile', async () => {
    await rejects(file('empty.cpuprofile', ''), /empty\.cpuprofile: empty file$/);
    await rejects(file('empty.gz', gzipSync('')), /empty file \(after gunzip\)$/);
    await rejects(file('garbage.bin', Buffer.from([0x00, 0xff, 0x13, 0x37, 0x80, 0x81, 0x7f, 0x01])), /^not a CPU profile: .*garbage\.bin is neither JSON, a V8 log, perf script output, folded stacks nor pprof \(it starts with binary data\)$/);
    await rejects(file('notes.txt', 'hello, world\n'), /^not a CPU profile: .*notes\.txt is neither JSON, a V8 log, perf script output, folded stacks nor pprof \(it starts with other text\)$/);
    await rejects(file('other.json', '{"traceEvents": []}'), /^not a CPU profile: .*other\.json is JSON without "nodes"/);
    await rejects(file('list.json', '[1, 2, 3]'), /^not a CPU profile: .*list\.json is JSON without "nodes"/);
  });

  it('rejects truncated and corrupt gzip data', async () => {
    const gz = gzipSync(readFileSync(join(FIXTURES, 'service.v8.log')));
    await rejects(file('cut.log.gz', gz.subarray(0, gz.length >> 1)), /cut\.log\.gz: truncated gzip data$/);
    const corrupt = Buffer.from(gz);
    corrupt.fill(0x41, 20, 400);
    await rejects(file('corrupt.gz', corrupt), /corrupt\.gz: corrupt gzip data/);
  });

  it('rejects a missing file and a directory', async () => {
    await rejects(join(dir, 'nope.cpuprofile'), /nope\.cpuprofile: no such file$/);
    mkdirSync(join(dir, 'adir'));
    await rejects(join(dir, 'adir'), /adir: is a directory, not a profile file$/);
  });

  it('reads a V8 log with garbage lines, counting them in one warning', async () => {
    const log = readFileSync(join(FIXTURES, 'service.v8.log'), 'utf8').split('\n');
    const damaged = [...log.slice(0, 200), '\u0000\u0001binary junk', 'tick,zz', 'code-creation,JS', '!!TICK', 'SomeNewEvent,1,2', ...log.slice(200, -40), 'tick,0x1,'].join('\n');
    const p = await loadProfile(file('damaged.v8.log', damaged));
    assert.equal(p.format, 'v8log');
    const malformed = p.warnings.filter((w) => /malformed/.test(w));
    assert.equal(malformed.length, 1);
    assert.match(malformed[0], /^5 malformed log line\(s\) were skipped/);
    assert.ok(p.samples > 900);
  });

  it('reads a V8 log with Windows line endings like the original', async () => {
    const log = readFileSync(join(FIXTURES, 'service.v8.log'), 'utf8');
    const crlf = await loadProfile(file('crlf.v8.log', log.replace(/\n/g, '\r\n')));
    const plain = await loadProfile(join(FIXTURES, 'service.v8.log'));
    assert.deepEqual(crlf.warnings, plain.warnings);
    assert.deepEqual(crlf.tree.selfSamples, plain.tree.selfSamples);
    assert.deepEqual(crlf.lineTicks, plain.lineTicks);
    // Lines are read in chunks: a \r at the end of one and its \n at the start of the next, and
    // lines across every boundary after it, read the same (an event type of no meaning first, sized for it).
    const lines = log.split('\n');
    const head = `${lines[0]}\r\n`;
    const filler = `padding,${'x'.repeat(CHUNK_BYTES - head.length - 'padding,'.length - 1)}\r\n`;
    const split = await loadProfile(file('split.v8.log', head + filler + lines.slice(1).join('\r\n')));
    assert.equal(Buffer.byteLength(head + filler) - 1, CHUNK_BYTES);
    assert.deepEqual(split.warnings, plain.warnings);
    assert.deepEqual(split.tree.selfSamples, plain.tree.selfSamples);
    assert.deepEqual(split.lineTicks, plain.lineTicks);
  });

  it('rejects a text file that only looks like a log at first sight', async () => {
    await rejects(file('fake.log', 'v8-version,11,3\nnothing else'), /^not a CPU profile: .*fake\.log has no V8 log events$/);
  });
});
