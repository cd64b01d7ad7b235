// Inputs whose bytes are within every cap but whose contents become far more: each reader
// bounds what it builds (server/profile/readers/budgets.ts) and refuses past the budget in one
// line, with the peak memory of the process asserted. Each input is the smallest that ran away
// before (the budget plus one).
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { frameWalkBudget, jsonContainerBudget, jsonValueBudget, MAX_PPROF_SAMPLE_TYPES, PPROF_BYTES_PER_DECODED_MESSAGE, pprofDecodeBudget, treeNodeBudget } from '../../server/profile/readers/budgets';
import { MAX_JSON_BYTES, MAX_PPROF_BYTES } from '../../server/profile/readers/byteCaps';
import { pprofHead, pprofSample, message, repeat, scalar } from './pprofBytes';
import { assertRefused, runCli, tempDir, traceOfSamples } from './probe';

/**
 * A third of MAX_PEAK_MB: what a refused input may cost, its bytes and the process included. The
 * plain trace below (the budget plus one value, read as text) peaked at 347 MB on a quiet run and
 * at 453 and 467 MB on others (when V8 collects the text it scanned): a runaway was 4.7 GB.
 */
const REFUSED_PEAK_MB = 512;

describe('hostile input: budgets on what inputs become', function () {
  this.timeout(180_000);
  const dir = tempDir('budgets');

  it('a trace of empty events [{},{},…] one object over the JSON budget (30 KB gzipped) is refused before it is parsed', async () => {
    const objects = jsonContainerBudget(MAX_JSON_BYTES) + 1;
    // The array itself is one container: objects - 1 events.
    writeFileSync(join(dir, 'events.json.gz'), gzipSync(`[${'{},'.repeat(objects - 2)}{}]`));
    const run = await runCli(['profile', 'events.json.gz'], dir);
    assertRefused(run, /more than [\d,]+ JSON objects and arrays \(after gunzip\); not read/);
    // It was 963 MB for 9 M events before (a plain file, /usr/bin/time).
    assert.ok(run.peakMb < REFUSED_PEAK_MB, `peak ${Math.round(run.peakMb)} MB`);
  });

  it('pprof of empty samples (2 bytes each) that would decode past the budget is refused before decoding', async () => {
    const samples = Math.ceil(pprofDecodeBudget(MAX_PPROF_BYTES) / PPROF_BYTES_PER_DECODED_MESSAGE) + 1;
    writeFileSync(join(dir, 'empty-samples.pb.gz'), gzipSync(Buffer.concat([pprofHead(), repeat(Buffer.from([0x12, 0x00]), samples)])));
    const run = await runCli(['profile', 'empty-samples.pb.gz'], dir);
    assertRefused(run, /pprof that decodes to more than 512 MiB \([\d,]+ samples, locations, lines and other messages, [\d,]+ numbers in lists\); not read/);
    assert.ok(run.peakMb < REFUSED_PEAK_MB, `peak ${Math.round(run.peakMb)} MB`);
  });

  it('pprof with one stack deeper than the tree node budget (4 MB) is refused before its tree is built', async () => {
    const depth = treeNodeBudget(MAX_PPROF_BYTES) + 1;
    writeFileSync(join(dir, 'deep.pb.gz'), gzipSync(Buffer.concat([pprofHead(), pprofSample(Buffer.alloc(depth, 1))])));
    const run = await runCli(['profile', 'deep.pb.gz'], dir);
    assertRefused(run, /pprof with a stack of [\d,]+ frames, deeper than [\d,]+; not read/);
    assert.ok(run.peakMb < REFUSED_PEAK_MB, `peak ${Math.round(run.peakMb)} MB`);
  });

  it('pprof whose inlined lines make its samples walk past the frame budget (40 KB) is refused before the walk', async () => {
    // Location 2 holds 1,024 inlined lines; each sample names it 1,024 times: 1 Mi frames a sample.
    const lines = 1024;
    const inlined = message(4, Buffer.concat([Buffer.from(scalar(1, 2)), repeat(message(4, [...scalar(1, 1), ...scalar(2, 2)]), lines)]));
    const samples = Math.floor(frameWalkBudget(MAX_PPROF_BYTES) / (lines * lines)) + 1;
    writeFileSync(join(dir, 'inlined.pb'), Buffer.concat([pprofHead(), inlined, repeat(pprofSample(Buffer.alloc(lines, 2)), samples)]));
    const run = await runCli(['profile', 'inlined.pb'], dir);
    assertRefused(run, /pprof whose samples walk more than [\d,]+ stack frames \(inlined lines included\); not read/);
    assert.ok(run.peakMb < REFUSED_PEAK_MB, `peak ${Math.round(run.peakMb)} MB`);
  });

  it('pprof with more sample types than a person picks from is refused', async () => {
    writeFileSync(join(dir, 'types.pb'), Buffer.concat([pprofHead(MAX_PPROF_SAMPLE_TYPES + 1), pprofSample(Buffer.from([1]))]));
    const run = await runCli(['profile', 'types.pb'], dir);
    assertRefused(run, new RegExp(`pprof with ${MAX_PPROF_SAMPLE_TYPES + 1} sample types, more than ${MAX_PPROF_SAMPLE_TYPES}; not read`));
  });

  it('a trace whose one ProfileChunk holds samples [2,2,…] past the JSON value budget (90 KB gzipped) is refused before it is parsed', async () => {
    // A 195 KB gzipped trace of 100 M samples peaked at 4.7 GB and answered after 46 s (CLI, /usr/bin/time).
    writeFileSync(join(dir, 'samples.json.gz'), gzipSync(traceOfSamples(jsonValueBudget(MAX_JSON_BYTES) + 1)));
    const run = await runCli(['profile', 'samples.json.gz'], dir);
    assertRefused(run, /more than [\d,]+ JSON values \(after gunzip\); not read/);
    assert.ok(run.peakMb < REFUSED_PEAK_MB, `peak ${Math.round(run.peakMb)} MB`);
  });

  it('a plain trace whose one event holds samples past the JSON value budget is refused before that event is parsed', async () => {
    writeFileSync(join(dir, 'samples.json'), traceOfSamples(jsonValueBudget(MAX_JSON_BYTES) + 1));
    const run = await runCli(['profile', 'samples.json'], dir);
    assertRefused(run, /a trace event of more than [\d,]+ JSON values; not read/);
    assert.ok(run.peakMb < REFUSED_PEAK_MB, `peak ${Math.round(run.peakMb)} MB`);
  });

  it('a --preprocess file with one tick wider than the tree node budget (gzipped) is refused before its tree is built', async () => {
    const depth = treeNodeBudget(MAX_JSON_BYTES) + 1;
    const code = '{"type":"JS","kind":"Opt","name":"f /app.js:1:1"}';
    const text = Buffer.concat([Buffer.from(`{"code":[${code}],"ticks":[{"tm":1,"vm":0,"s":[`), Buffer.alloc(depth * 4 - 1, '0,0,'), Buffer.from(']}]}')]);
    writeFileSync(join(dir, 'wide.json.gz'), gzipSync(text));
    const run = await runCli(['profile', 'wide.json.gz'], dir);
    assertRefused(run, /a tick with a stack deeper than [\d,]+ frames; not read/);
    assert.ok(run.peakMb < REFUSED_PEAK_MB, `peak ${Math.round(run.peakMb)} MB`);
  });
});

