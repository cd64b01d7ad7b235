// The streamed trace reader must read a trace exactly like JSON.parse + readTraceProfile, with
// its bytes cut anywhere (windows of a few bytes fed 1-7 bytes per read), and hand anything it
// does not read back (null) instead of guessing.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { TRACE_BYTES_PER_EVENT } from './budgets';
import { readTraceProfile } from './readTrace';
import { scanTrace } from './scanTrace';
import { dribble } from '../../../test/dribble';

const PEERS = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'peers');

function same(text: string, thread?: string): void {
  const expected = readTraceProfile(JSON.parse(text), 't.json', thread);
  assert.ok(expected !== undefined);
  for (const [input, window] of [[Buffer.from(text), 16], [dribble(Buffer.from(text)), 16], [dribble(Buffer.from(text)), 100], [dribble(Buffer.from(text)), 4096]] as const) {
    const profiles = scanTrace(input, window);
    assert.ok(profiles !== null, 'the scanner read it');
    assert.deepEqual(profiles.finish('t.json', thread), expected);
  }
}

const frame = (name: string, line: number) => ({ functionName: name, url: name === '(root)' ? '' : '/app/x.js', lineNumber: line, columnNumber: 4, scriptId: '1' });
const events = [
  { name: 'thread_name', pid: 1, tid: 7, args: { name: 'CrRendererMain' } },
  { name: 'RunTask', pid: 1, tid: 7, args: { note: 'a "ProfileChunk" named in a string, and {[brackets]}' } },
  { name: 'Profile', id: '0x2', pid: 1, tid: 7, args: { data: { startTime: 1000 } } },
  { name: 'ProfileChunk', id: '0x2', pid: 1, tid: 8, args: { data: { cpuProfile: { nodes: [{ id: 1, callFrame: frame('(root)', -1) }, { id: 2, parent: 1, callFrame: frame('main', 9) }], samples: [2, 2] }, timeDeltas: [100, 1000] } } },
  { name: 'FunctionCall', pid: 1, tid: 7, args: { data: { url: 'x' } } },
  { name: 'ProfileChunk', id: '0x2', pid: 1, tid: 8, args: { data: { cpuProfile: { nodes: [{ id: 3, parent: 2, callFrame: frame('h\u00e9 "q"', 19) }], samples: [3, 99, 3.5] }, timeDeltas: [2000, -5, 7] } } },
  { name: 'Profile', id: '0x9', pid: 1, tid: 9, args: { data: { startTime: 0 } } },
  { name: 'ProfileChunk', id: '0x9', pid: 1, tid: 10, args: { data: { cpuProfile: { nodes: [{ id: 1, callFrame: frame('other', 1) }], samples: [1] }, timeDeltas: [1] } } },
];

describe('scanTrace (traces read streamed)', () => {
  it('reads { traceEvents } and a bare array of events like JSON.parse + readTraceProfile, cut anywhere', () => {
    same(JSON.stringify({ metadata: { a: [1, { b: '}' }] }, traceEvents: events, more: 'x' }));
    same(JSON.stringify(events, null, 2));
    same(JSON.stringify({ traceEvents: events }), '9');
  });

  it('reads a trace Chrome recorded (a peer sample) like JSON.parse + readTraceProfile', () => {
    same(gunzipSync(readFileSync(join(PEERS, 'speedscope-chrome-66-worker.cpuprofile-events.json.gz'))).toString('utf8'));
  });

  it('hands back what it does not read: no events array, an event that is not an object, bad JSON in an event it reads', () => {
    for (const text of ['{"nodes":[]}', '{"traceEvents":{}}', '[1]', '[{"name":"Profile"', '[{"name":"Profile",}]', '{"traceEvents":[]} x', '"s"']) {
      assert.equal(scanTrace(Buffer.from(text), 16), null, text);
      assert.equal(scanTrace(dribble(Buffer.from(text)), 16), null, text);
    }
    // No profile event: read, holding nothing.
    assert.equal(scanTrace(Buffer.from('{"traceEvents":[{"name":"X","args":{}}]}'))?.finish('t.json'), undefined);
  });

  it('counts every event, read or skipped, against the event budget of its cap (a reduced cap here)', () => {
    const cap = 64 * TRACE_BYTES_PER_EVENT; // a budget of 64 events
    const events = (n: number): Buffer => Buffer.from(`[${Array.from({ length: n }, () => '{}').join(',')}]`);
    assert.equal(scanTrace(events(64), undefined, { label: 't.json', capBytes: cap })?.finish('t.json'), undefined);
    assert.throws(() => scanTrace(events(65), undefined, { label: 't.json', capBytes: cap }), /^ProfileInputError: t\.json: a trace of more than 64 events; not read/);
    assert.throws(() => readTraceProfile(JSON.parse(events(65).toString()), 't.json', undefined, cap), /a trace of more than 64 events/);
  });
});
