import assert from 'node:assert/strict';

import { InputError } from '../shared/errors';
import { asksForHelp, flagValue, parseCommandArgs } from './args';

const KNOWN = ['format', 'rule', 'root'];

describe('cli args', () => {
  it('reads --name value, --name=value, repeats in order, and positionals around them', () => {
    const args = parseCommandArgs(['a', '--format', 'json', 'b', '--rule=x=off', '--rule', 'y=error', '--format=text'], KNOWN);
    assert.deepEqual(args.positionals, ['a', 'b']);
    assert.deepEqual(args.flags.get('rule'), ['x=off', 'y=error']);
    assert.equal(flagValue(args, 'format'), 'text', 'the last one wins');
    assert.equal(flagValue(args, 'root'), undefined);
    assert.equal(args.afterDashes, null);
  });

  it('takes everything after -- as positionals, untouched, and keeps them apart', () => {
    const args = parseCommandArgs(['x', '--format', 'json', '--', '--format', '-h', 'node'], KNOWN);
    assert.deepEqual(args.positionals, ['x', '--format', '-h', 'node']);
    assert.deepEqual(args.afterDashes, ['--format', '-h', 'node']);
    assert.deepEqual(args.flags.get('format'), ['json']);
    assert.deepEqual(parseCommandArgs(['--'], KNOWN).afterDashes, []);
  });

  it('takes a value that starts with one dash, or any value after =', () => {
    assert.equal(flagValue(parseCommandArgs(['--root', '-5'], KNOWN), 'root'), '-5');
    assert.equal(flagValue(parseCommandArgs(['--root=--x'], KNOWN), 'root'), '--x');
    assert.equal(flagValue(parseCommandArgs(['--root='], KNOWN), 'root'), '');
  });

  const mistakes: [string[], string][] = [
    [['--fix'], 'unknown option --fix'],
    [['--fix=yes'], 'unknown option --fix'],
    [['-x'], 'unknown option -x'],
    [['--format'], 'option --format needs a value'],
    [['--root', '--format', 'json'], 'option --root needs a value'],
    [['--root', '--', 'a'], 'option --root needs a value'],
  ];
  for (const [argv, message] of mistakes) {
    it(`refuses ${argv.join(' ')} with one line: ${message}`, () => {
      assert.throws(() => parseCommandArgs(argv, KNOWN), (error: unknown) => error instanceof InputError && error.message === message);
    });
  }

  it('sees --help and -h among the options only', () => {
    assert.equal(asksForHelp(['file', '--help']), true);
    assert.equal(asksForHelp(['--root', 'x', '-h']), true);
    assert.equal(asksForHelp(['--', 'node', '--help']), false);
    assert.equal(asksForHelp(['--helpful']), false);
  });
});
