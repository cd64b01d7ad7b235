// Help is held to the parser (issue 24): both come from COMMANDS, and this checks the result as a
// user meets it, `node cli.js --help` and `<command> --help` as processes: every option the parser
// takes is listed with its meaning, every option listed is taken, an option outside the table is
// refused, every example parses, and the README's list of commands is the same lines.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { REPO_ROOT, bundles } from '../../test/unit/bundles';
import { parseCommandArgs } from './args';
import { COMMAND_NAMES, COMMANDS, optionNames, switchNames, synopsis } from './commandSpecs';

function cli(path: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [path, ...args], { encoding: 'utf8', timeout: 20_000 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('hotframe --help and <command> --help, held to the parser', function () {
  this.timeout(120_000);
  let path: string;
  before(async () => {
    path = (await bundles()).cli;
  });

  it('--help lists every option of every command, with an example of each', () => {
    const run = cli(path, '--help');
    assert.equal(run.status, 0, run.stderr);
    for (const name of COMMAND_NAMES) {
      const line = run.stdout.split('\n').find((l) => l.startsWith(`  ${name} `));
      assert.ok(line, `${name} missing from --help`);
      for (const option of optionNames(name)) assert.ok(line.includes(`[--${option} `), `--help omits ${name} --${option}`);
      for (const option of switchNames(name)) assert.ok(line.includes(`[--${option}]`), `--help omits ${name} --${option}`);
      assert.ok(run.stdout.includes(`e.g. hotframe ${name}`), `no example of ${name}`);
    }
  });

  for (const name of COMMAND_NAMES) {
    it(`${name} --help: every option the parser takes, with its meaning; nothing it refuses`, () => {
      const run = cli(path, name, '--help');
      assert.equal(run.status, 0, run.stderr);
      const [, options = ''] = /\noptions:\n([^]*?)\n\n/.exec(run.stdout) ?? [];
      const listed = [...options.matchAll(/^ {2}--([a-z-]+) +\S/gm)].map((m) => m[1]);
      assert.deepEqual(listed, COMMANDS[name].options.map((o) => o.name));
      // Every option the help names anywhere is one the parser takes.
      for (const [, option] of run.stdout.matchAll(/--([a-z][a-z-]*)/g)) {
        assert.doesNotThrow(() => parseCommandArgs([`--${option}`, 'x'], optionNames(name), switchNames(name)), `${name} --help names --${option}, which the parser refuses`);
      }
      assert.match(run.stdout, new RegExp(`\\nexamples:\\n {2}hotframe ${name} `));
      const refused = cli(path, name, '--no-such-option', 'x');
      assert.equal(refused.status, 2);
      assert.equal(refused.stderr, 'hotframe: unknown option --no-such-option\n');
    });
  }

  it('every example parses with its command\'s options', () => {
    for (const name of COMMAND_NAMES) {
      for (const example of COMMANDS[name].examples) {
        const words = example.split(/\s+/).slice(2);
        const end = words.indexOf('>');
        assert.doesNotThrow(() => parseCommandArgs(end < 0 ? words : words.slice(0, end), optionNames(name), switchNames(name)), example);
      }
    }
  });

  it("the README's list of commands is the help's", () => {
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8').split('\n');
    for (const name of COMMAND_NAMES) assert.ok(readme.includes(synopsis(name)), `README.md lacks: ${synopsis(name)}`);
  });
});
