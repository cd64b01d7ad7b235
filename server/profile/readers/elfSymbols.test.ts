// The ELF symbol table read directly against nm's listing of the same binary (Node's own, as V8
// logs name it): the same code symbols, at the same addresses, with the same sizes and names.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { closeSync, readFileSync, realpathSync } from 'node:fs';

import { openRegularFile } from '../../shared/guardedRead';
import { readElfCodeSymbols } from './elfSymbols';

describe('readElfCodeSymbols', function () {
  this.timeout(60_000);

  it("lists the code symbols nm lists (t/T/w/W) for Node's binary: addresses, sizes and names", function () {
    const binary = realpathSync(process.execPath);
    if (readFileSync(binary).subarray(0, 4).toString('latin1') !== '\x7fELF') this.skip();
    let listing: string;
    try {
      listing = execFileSync('nm', ['-n', '-S', '--defined-only', '--', binary], { encoding: 'latin1', maxBuffer: 1 << 29 });
    } catch {
      this.skip();
    }
    const fromNm = new Set<string>();
    for (const line of listing.split('\n')) {
      const m = /^([0-9a-f]+) ([0-9a-f]+) ([tTwW]) (.+)$/.exec(line);
      if (m) fromNm.add(`${parseInt(m[1], 16)} ${parseInt(m[2], 16)} ${m[4]}`);
    }
    if (fromNm.size === 0) this.skip();
    const file = openRegularFile(binary);
    let read: Set<string>;
    try {
      const table = readElfCodeSymbols(file);
      read = new Set<string>();
      // nm -S lists only symbols with a size; those without are kept by the reader but name nothing.
      for (let i = 0; i < table.count; i++) if (table.size[i] > 0) read.add(`${table.address[i]} ${table.size[i]} ${table.name(i)}`);
    } finally {
      closeSync(file.fd);
    }
    const missing = [...fromNm].filter((s) => !read.has(s));
    const extra = [...read].filter((s) => !fromNm.has(s));
    assert.deepEqual({ missing: missing.slice(0, 5), extra: extra.slice(0, 5) }, { missing: [], extra: [] }, `${fromNm.size} symbols from nm, ${read.size} read`);
    assert.ok(read.size > 1000, `${read.size} symbols`);
  });
});
