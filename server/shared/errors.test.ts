import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { errnoCode, errnoReason } from './errors';

function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('did not throw');
}

describe('errors: one wording for what the system refused', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'hotframe-errors-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('names real failures in words', () => {
    assert.equal(errnoReason(thrownBy(() => readFileSync(join(dir, 'missing')))), 'no such file');
    assert.equal(errnoReason(thrownBy(() => readFileSync(dir))), 'is a directory');
  });

  it('gives the code of others, or the first line of a message without one', () => {
    assert.equal(errnoReason(Object.assign(new Error('too many'), { code: 'EMFILE' })), 'cannot read (EMFILE)');
    assert.equal(errnoReason(new Error('first\nsecond')), 'cannot read (first)');
    assert.equal(errnoReason(Object.assign(new Error('x'), { code: 'toString' })), 'cannot read (toString)');
  });

  it('tells a system error from Node own ERR_ codes', () => {
    assert.equal(errnoCode(thrownBy(() => readFileSync(join(dir, 'missing')))), 'ENOENT');
    assert.equal(errnoCode(thrownBy(() => readFileSync(123.5 as unknown as string))), undefined);
    assert.equal(errnoCode('ENOENT'), undefined);
  });
});
