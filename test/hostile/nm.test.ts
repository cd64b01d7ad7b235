// A V8 log names shared libraries, and Hotframe reads Node's binary's symbol table to name C++
// frames: an ELF file directly (then c++filt demangles the names ticked, given on its stdin), any
// other binary (Mach-O) through nm.
// A canary shared object, compiled here with the system compiler, writes a marker file from its
// constructor when anything loads it: given to nm as `--plugin=` (or through an `@file` response
// file) it would run. The control proves the canary fires; the probes prove the log's path never
// reaches nm as an option. A stand-in `nm` first on PATH must never run; one given as the only
// tool folder records how nm is called.
import { strict as assert } from 'node:assert';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { findSystemTool, nameNativeCode, SYSTEM_TOOL_FOLDERS } from '../../server/profile/readers/nativeSymbols';
import { assertBounded, nativeLog, runCli, tempDir } from './probe';

describe('hostile input: nm never gets an option from a profile', function () {
  this.timeout(120_000);
  const dir = tempDir('nm');
  const marker = join(dir, 'canary-ran');
  const canary = join(dir, 'canary.so');

  before(() => {
    writeFileSync(
      join(dir, 'canary.c'),
      `#include <stdio.h>\n__attribute__((constructor)) static void canary(void) {\n  FILE *f = fopen(${JSON.stringify(marker)}, "w");\n  if (f) { fputs("ran", f); fclose(f); }\n}\n`,
    );
    execFileSync('cc', ['-shared', '-fPIC', '-o', canary, join(dir, 'canary.c')]);
    writeFileSync(join(dir, 'options.rsp'), `--plugin=${canary}\n`);
    // Without an operand nm reads ./a.out: a cloned repository can ship one, and the plugin then loads.
    copyFileSync(canary, join(dir, 'a.out'));
  });

  beforeEach(() => rmSync(marker, { force: true }));

  it('control: the canary runs when the library path reaches nm as an option (how nm was called before)', () => {
    for (const option of ['--plugin=./canary.so', '@options.rsp']) {
      rmSync(marker, { force: true });
      spawnSync('nm', ['-C', '-n', '-S', '--defined-only', option], { cwd: dir, stdio: 'ignore' });
      assert.ok(existsSync(marker), `nm ${option} loaded the canary: the probes below can detect it`);
    }
  });

  for (const library of ['--plugin=./canary.so', `--plugin=${'${DIR}'}/canary.so`, '@options.rsp', '@${DIR}/options.rsp']) {
    it(`a log naming the library ${library} loads, nm never runs the canary, and the report says why names are missing`, async () => {
      const path = library.replace('${DIR}', dir);
      writeFileSync(join(dir, 'attack.v8.log'), nativeLog(path));
      const run = await runCli(['profile', 'attack.v8.log', '--format', 'json'], dir);
      assert.equal(run.code, 0, run.stderr);
      assertBounded(run);
      assert.equal(existsSync(marker), false, 'the canary did not run');
      const report = JSON.parse(run.stdout) as { warnings: string[] };
      assert.ok(
        report.warnings.some((w) => w.includes('are not named') && /not an absolute path|not a regular file|no such file|not an ELF/.test(w)),
        report.warnings.join('\n'),
      );
    });
  }

  describe('which nm runs: never one from PATH, the working folder or the log\'s folders', () => {
    it('a stand-in nm first on PATH, in the working folder (an empty PATH entry) and beside the library never runs', async () => {
      const trap = join(dir, 'trap');
      const ran = join(dir, 'stand-in-ran');
      mkdirSync(join(trap, 'bin'), { recursive: true });
      for (const folder of [trap, join(trap, 'bin')]) {
        writeFileSync(join(folder, 'nm'), `#!/bin/sh\necho "$PWD" >> ${JSON.stringify(ran)}\n`);
        chmodSync(join(folder, 'nm'), 0o755);
      }
      copyFileSync(canary, join(trap, 'libnode.so'));
      writeFileSync(join(trap, 'real.v8.log'), nativeLog(join(trap, 'libnode.so')));
      const result = await runCli(['profile', 'real.v8.log', '--format', 'json'], trap, { PATH: `${join(trap, 'bin')}::${process.env.PATH}` });
      assert.equal(result.code, 0, result.stderr);
      assertBounded(result);
      assert.equal(existsSync(ran), false, `a stand-in nm ran in ${existsSync(ran) ? readFileSync(ran, 'utf8').trim() : ''}`);
    });

    it('nm is found in the system folders only', () => {
      assert.equal(findSystemTool('nm'), SYSTEM_TOOL_FOLDERS.map((f) => join(f, 'nm')).find((f) => existsSync(f)) ?? null);
      assert.equal(findSystemTool('nm', ['bin', '']), null, 'relative folders are never searched');
    });
  });

  describe('how nm is run (a stand-in nm as the only tool folder)', () => {
    const bin = join(dir, 'bin');
    const calls = join(dir, 'nm-calls');

    before(() => {
      mkdirSync(bin, { recursive: true });
      // Records its arguments, one per line, its working folder and environment; prints nothing (no symbols).
      writeFileSync(join(bin, 'nm'), `#!/bin/sh\nfor a in "$@"; do echo "arg:$a"; done >> ${JSON.stringify(calls)}\necho "cwd:$PWD" >> ${JSON.stringify(calls)}\n/usr/bin/env | /bin/sed 's/^/env:/' >> ${JSON.stringify(calls)}\n`);
      chmodSync(join(bin, 'nm'), 0o755);
    });

    beforeEach(() => rmSync(calls, { force: true }));

    // What the V8 log reader asks: name one address of the library, whose builtin must match.
    const run = async (library: string) => {
      process.env.HOTFRAME_SECRET = 'do-not-pass';
      try {
        return await nameNativeCode(library, 0x400000, Float64Array.of(0x500010), new Map([['ArrayPrototypePush', 0x500000]]), [bin]);
      } finally {
        delete process.env.HOTFRAME_SECRET;
      }
    };

    it('an absolute path to a Mach-O file: nm by its path, fixed options, then --, then the path; in /; only PATH and the locale in the environment', async () => {
      // A Mach-O header (64-bit, little-endian) on the canary's bytes: a binary nm is asked about.
      const machO = join(dir, 'lib.dylib');
      writeFileSync(machO, Buffer.concat([Buffer.from([0xcf, 0xfa, 0xed, 0xfe]), readFileSync(canary)]));
      await run(machO);
      const lines = readFileSync(calls, 'utf8').split('\n');
      const args = lines.filter((l) => l.startsWith('arg:')).map((l) => l.slice(4));
      assert.deepEqual(args, ['-C', '-n', '-S', '--defined-only', '--', machO]);
      assert.deepEqual(lines.filter((l) => l.startsWith('cwd:')), ['cwd:/'], 'nm runs in the root folder, not the library\'s');
      const env = lines.filter((l) => l.startsWith('env:')).map((l) => l.slice(4).split('=')[0]);
      assert.ok(env.includes('PATH') && env.includes('LC_ALL'), env.join(' '));
      assert.equal(env.includes('HOTFRAME_SECRET'), false, 'the parent environment is not passed on');
    });

    it('an ELF file: its table read without nm; c++filt gets no argument, only the ticked names on its stdin, in /, with PATH and the locale only', async () => {
      // A library whose symbols are a builtin (to check the table against) and a C++-mangled name (a C function may carry one).
      const source = join(dir, 'symbols.c');
      const library = join(dir, 'symbols.so');
      writeFileSync(source, 'void Builtins_ArrayPrototypePush(void) {}\nint _ZN4node9EnvGetterEv(int x) { return x * 3 + 1; }\n');
      execFileSync('cc', ['-shared', '-fPIC', '-O0', '-o', library, source]);
      const listed = execFileSync('nm', ['-n', '--defined-only', library], { encoding: 'utf8' });
      const at = (name: string): number => parseInt(new RegExp(`^([0-9a-f]+) T ${name}$`, 'm').exec(listed)![1], 16);
      const filt = join(bin, 'c++filt');
      writeFileSync(filt, `#!/bin/sh\nfor a in "$@"; do echo "arg:$a"; done >> ${JSON.stringify(calls)}\necho "cwd:$PWD" >> ${JSON.stringify(calls)}\n/usr/bin/env | /bin/sed 's/^/env:/' >> ${JSON.stringify(calls)}\nwhile read -r line; do echo "stdin:$line" >> ${JSON.stringify(calls)}; echo "node::EnvGetter()"; done\n`);
      chmodSync(filt, 0o755);
      process.env.HOTFRAME_SECRET = 'do-not-pass';
      let result;
      try {
        result = await nameNativeCode(library, 0, Float64Array.of(at('_ZN4node9EnvGetterEv') + 1), new Map([['ArrayPrototypePush', at('Builtins_ArrayPrototypePush')]]), [bin]);
      } finally {
        delete process.env.HOTFRAME_SECRET;
        rmSync(filt);
      }
      assert.deepEqual(result.names, ['node::EnvGetter']);
      const lines = readFileSync(calls, 'utf8').split('\n');
      assert.deepEqual(lines.filter((l) => l.startsWith('arg:')), [], 'c++filt gets no argument');
      assert.deepEqual(lines.filter((l) => l.startsWith('stdin:')), ['stdin:_ZN4node9EnvGetterEv'], 'only the ticked name');
      assert.deepEqual(lines.filter((l) => l.startsWith('cwd:')), ['cwd:/']);
      const env = lines.filter((l) => l.startsWith('env:')).map((l) => l.slice(4).split('=')[0]);
      assert.equal(env.includes('HOTFRAME_SECRET'), false, 'the parent environment is not passed on');
    });

    it('a malformed ELF file (its header cut, its section table pointing past its end) leaves the frames named by the library, with one warning', async () => {
      const elf = readFileSync(canary);
      for (const [name, bytes] of [
        ['cut.so', elf.subarray(0, 40)],
        ['past-end.so', (() => { const b = Buffer.from(elf); b.writeUInt32LE(0xfffffff0, 0x28); b.writeUInt32LE(0x7fff, 0x2c); return b; })()],
        ['no-sections.so', (() => { const b = Buffer.from(elf); b.writeUInt16LE(0, 0x3c); return b; })()],
      ] as const) {
        writeFileSync(join(dir, name), bytes);
        const result = await run(join(dir, name));
        assert.equal(result.names, null);
        assert.match(result.warning ?? '', /are not named: its symbol table cannot be read/, name);
      }
    });

    it('a file that is not a binary (the canary source) is never given to nm', async () => {
      const result = await run(join(dir, 'canary.c'));
      assert.equal(existsSync(calls), false, 'nm did not run');
      assert.match(result.names === null ? result.warning ?? '' : '', /not an ELF or Mach-O binary/);
    });

    it('a FIFO or /dev/zero is never given to nm', async () => {
      execFileSync('mkfifo', [join(dir, 'lib.fifo')]);
      for (const library of [join(dir, 'lib.fifo'), '/dev/zero']) {
        const result = await run(library);
        assert.equal(existsSync(calls), false, `nm did not run on ${library}`);
        assert.match(result.names === null ? result.warning ?? '' : '', /not a regular file/);
      }
    });
  });
});
