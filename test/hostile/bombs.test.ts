// Inputs built to exhaust memory or time: a gzip bomb, a line without end, an oversized file,
// and V8 logs whose events made the reader quadratic. Each probe is the CLI as a process,
// bounded by PROBE_TIMEOUT_MS and MAX_PEAK_MB (probe.ts); sizes are chosen so that the old
// behaviour (no cap, a sorted array merged on lookups) ran minutes or past the memory bound.
import { strict as assert } from 'node:assert';
import { closeSync, openSync, writeFileSync, writeSync, ftruncateSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { assertBounded, assertRefused, runCli, tempDir } from './probe';
import { MAX_PROFILE_FILE_BYTES } from '../../server/profile/readers/byteCaps';

/** Concatenated gzip members: `head`, then `repeat` times `filler` (compressed once). */
function gzipBomb(head: string, filler: Buffer, repeat: number): Buffer {
  const member = gzipSync(filler, { level: 9 });
  return Buffer.concat([gzipSync(head), ...new Array<Buffer>(repeat).fill(member)]);
}

const hex = (n: number): string => `0x${n.toString(16)}`;

describe('hostile input: bombs and floods', function () {
  this.timeout(180_000);
  const dir = tempDir('bombs');

  it('a gzip bomb of JSON (1.6 GB inflated) stops at the cap', async () => {
    writeFileSync(join(dir, 'bomb.cpuprofile.gz'), gzipBomb('{"nodes":[', Buffer.alloc(16 * 1024 * 1024, 0x20), 100));
    assertRefused(await runCli(['profile', 'bomb.cpuprofile.gz'], dir), /larger than 256 MiB after gunzip; not read/);
  });

  it('a gzip bomb of log lines (1.6 GB inflated) stops at the cap', async () => {
    const line = `timer-event,${'a'.repeat(1011)}\n`; // 1 KB, an event the reader skips
    writeFileSync(join(dir, 'bomb.v8.log.gz'), gzipBomb('v8-version,11,3,244,8,0,0\n', Buffer.from(line.repeat(16 * 1024)), 100));
    assertRefused(await runCli(['profile', 'bomb.v8.log.gz'], dir), /larger than 512 MiB after gunzip; not read/);
  });

  it('a log line without end stops at the line cap', async () => {
    writeFileSync(join(dir, 'line.v8.log.gz'), gzipBomb('v8-version,11,3,244,8,0,0\nx', Buffer.alloc(16 * 1024 * 1024, 0x61), 10));
    assertRefused(await runCli(['profile', 'line.v8.log.gz'], dir), /a line longer than 64 MiB; not a V8 log/);
  });

  it('a file past the largest byte cap (sparse, 3 GiB) is refused before it is read', async () => {
    const fd = openSync(join(dir, 'huge.cpuprofile'), 'w');
    writeSync(fd, '{"nodes":[');
    ftruncateSync(fd, MAX_PROFILE_FILE_BYTES + 1);
    closeSync(fd);
    assertRefused(await runCli(['profile', 'huge.cpuprofile'], dir), /larger than 3072 MiB; not read/);
  });

  it('200,000 code-move events between ticks load in bounded time', async () => {
    const lines = ['v8-version,11,3,244,8,0,0'];
    const n = 200_000;
    for (let i = 0; i < n; i++) lines.push(`code-creation,JS,0,${i},${hex(0x10000000 + i * 0x100)},0x80,f${i} /app/x.js:1:1,0x1,*`);
    for (let i = 0; i < n; i++) {
      // Each function moves to a fresh place; a tick lands in it there.
      lines.push(`code-move,${hex(0x10000000 + i * 0x100)},${hex(0x40000000 + i * 0x100)}`);
      lines.push(`tick,${hex(0x40000000 + i * 0x100 + 8)},${1000 + i},0,0x0,0`);
    }
    writeFileSync(join(dir, 'moves.v8.log'), lines.join('\n') + '\n');
    const run = await runCli(['profile', 'moves.v8.log', '--format', 'json', '--top', '1'], dir);
    assert.equal(run.code, 0, run.stderr);
    assertBounded(run);
    assert.equal((JSON.parse(run.stdout) as { samples: number }).samples, n, 'every tick resolved');
  });

  it('200,000 code events between ticks, each over a wide range or in a page of ticked addresses, after 80,000 addresses were ticked, load in bounded time', async () => {
    // The tick memo forgets what a code event covers: neither a table of many addresses nor a page
    // full of them may make each event cost their number (a pass per event would take minutes).
    const lines = ['v8-version,11,3,244,8,0,0', 'code-creation,JS,0,1,0x10000000,0x100,f /app/x.js:1:1,0x1,*'];
    const frames = (from: number): string => Array.from({ length: 40 }, (_, k) => hex(0x10000000 + from + k * 16)).join(',');
    for (let i = 0; i < 2000; i++) lines.push(`tick,0x10000008,${i},0,0x0,0,${frames(i * 40 * 16)}`);
    const n = 200_000;
    for (let i = 0; i < n; i++) {
      // Alternately a huge code object far from the ticked code, and a tiny one in a page of ticked addresses (outside f).
      lines.push(i % 2 === 0 ? `code-creation,Stub,0,${i},0x7f0000000000,0x40000000,s${i}` : `code-creation,Stub,0,${i},${hex(0x10001008 + (i % 200) * 0x1000)},1,t${i}`);
      lines.push(`tick,0x10000008,${2000 + i},0,0x0,0,${hex(0x10000000 + (i % 40) * 16)}`);
    }
    writeFileSync(join(dir, 'events.v8.log'), lines.join('\n') + '\n');
    const run = await runCli(['profile', 'events.v8.log', '--format', 'json', '--top', '1'], dir);
    assert.equal(run.code, 0, run.stderr);
    assertBounded(run);
    assert.equal((JSON.parse(run.stdout) as { samples: number }).samples, 2000 + n, 'every tick resolved');
  });

  it('100,000 shared-library events between ticks load in bounded time', async () => {
    const lines = ['v8-version,11,3,244,8,0,0'];
    for (let i = 0; i < 100_000; i++) {
      lines.push(`shared-library,/lib/l${i}.so,${hex(0x7f0000000000 + i * 0x10000)},${hex(0x7f0000000000 + i * 0x10000 + 0x8000)},0`);
      lines.push(`tick,${hex(0x7f0000000000 + i * 0x10000 + 0x10)},${1000 + i},0,0x0,0`);
    }
    writeFileSync(join(dir, 'libs.v8.log'), lines.join('\n') + '\n');
    const run = await runCli(['profile', 'libs.v8.log', '--format', 'json', '--top', '1'], dir);
    assert.equal(run.code, 0, run.stderr);
    assertBounded(run);
    const report = JSON.parse(run.stdout) as { samples: number; functions: { name: string }[] };
    assert.equal(report.samples, 100_000);
    assert.match(report.functions[0].name, /^\/lib\/l\d+\.so$/, 'ticks are charged to their library');
  });
});
