import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { FunctionRanges } from './functionRanges';

describe('function ranges at 1:1 (server/profile/analysis/functionRanges.ts)', () => {
  const root = mkdtempSync(join(tmpdir(), 'hotframe-ranges-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  // A function opening the file: a source map can place its frame at 1:1, where V8 also places
  // the CommonJS module's own code (named '', which the readers show as '(anonymous)').
  const file = join(root, 'first.js');
  writeFileSync(file, ['function handler(req) {', '  parse(req);', '  reply(req);', '}', 'setup();', 'module.exports = handler;', ''].join('\n'));

  it("takes a named frame at 1:1 for the function of that name starting there, with its own range and calls", () => {
    const ranges = new FunctionRanges();
    assert.deepEqual(ranges.rangeAt(file, 1, 1, 'handler'), { start: 1, end: 4 });
    assert.deepEqual(ranges.callsOf(file, 1, 1, 'handler').map((c) => c.name).sort(), ['parse', 'reply']);
    // No column (pprof): the same.
    assert.deepEqual(ranges.rangeAt(file, 1, 0, 'handler'), { start: 1, end: 4 });
  });

  it("keeps the module's own code at 1:1 for an unnamed frame, or a name no function there has", () => {
    const ranges = new FunctionRanges();
    for (const name of ['', '(anonymous)', 'other']) {
      assert.deepEqual(ranges.rangeAt(file, 1, 1, name), { start: 1, end: 7 }, name);
      assert.deepEqual(ranges.callsOf(file, 1, 1, name).map((c) => c.name), ['setup'], name);
    }
  });

  it('places a frame by its header elsewhere, whatever its name', () => {
    const ranges = new FunctionRanges();
    // V8 points at the parameter list: line 1, column 17 (1-based).
    assert.deepEqual(ranges.rangeAt(file, 1, 17), { start: 1, end: 4 });
  });
});
