// Inlined callees, on profiles recorded here from a real Node run (test/fixtures/workloads/
// inlined.js): TurboFan inlines inlinedLib.js's `mix` into `run`'s hot loop. The line ranges
// below are read off the two workload files by hand, not computed by the code under test.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { loadProfile } from '../readers/load';
import { buildReport } from './report';

const WORKLOADS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'test', 'fixtures', 'workloads');
const MAIN = join(WORKLOADS, 'inlined.js');
const LIB = join(WORKLOADS, 'inlinedLib.js');
/** Lines of inlined.js that belong to code which runs: run() (12-18) and the top-level loop (20-22, 6). */
const MAIN_CODE = new Set([6, 12, 13, 14, 15, 16, 17, 18, 20, 21, 22]);
/** mix() in inlinedLib.js. */
const MIX = { start: 9, end: 13 };
/** run()'s call of mix. */
const CALL_LINE = 15;

describe('inlined callees on a recorded profile', function () {
  this.timeout(120_000);
  let dir = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'hotframe-inlined-'));
    execFileSync(process.execPath, ['--cpu-prof', '--cpu-prof-dir', dir, MAIN], { stdio: 'ignore' });
    execFileSync(process.execPath, ['--prof', '--no-logfile-per-isolate', `--logfile=${join(dir, 'inlined.v8.log')}`, MAIN], { stdio: 'ignore' });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('.cpuprofile: no heat on lines outside the function that ran (inlined ticks carry the callee\'s line numbers)', async () => {
    const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
    assert.ok(file !== undefined);
    const profile = await loadProfile(join(dir, file));
    // The recording does hold such ticks: run's positionTicks name a line outside run.
    const runTicksOutside = profile.lineTicks.filter((t) => {
      const fn = profile.functions[profile.tree.func[t.node]];
      return fn.name === 'run' && (t.line < 12 || t.line > 18);
    });
    assert.ok(runTicksOutside.length > 0, 'TurboFan inlined mix into run');
    const { report } = buildReport(profile, { root: WORKLOADS });
    for (const line of report.lines) {
      if (line.file === MAIN) assert.ok(MAIN_CODE.has(line.line), `heat on inlined.js:${line.line}, outside any code that ran`);
      if (line.file === LIB) assert.ok(line.line >= MIX.start && line.line <= MIX.end, `heat on inlinedLib.js:${line.line}`);
    }
    // The ticks went to mix's own lines, or were left off the lines with a warning.
    const onMix = report.lines.filter((l) => l.file === LIB).reduce((sum, l) => sum + l.selfSamples, 0);
    const outside = runTicksOutside.reduce((sum, t) => sum + t.samples, 0);
    assert.ok(onMix >= outside || report.warnings.some((w) => w.includes('inlined code')), `mix lines ${onMix}, outside ticks ${outside}`);
  });

  it('raw --prof log: the inlining table gives mix back as a frame under run, called from line 15, with its own self time', async () => {
    const profile = await loadProfile(join(dir, 'inlined.v8.log'));
    const { tree, functions } = profile;
    let mixSelf = 0;
    let runSelf = 0;
    let fromCallLine = 0;
    for (let n = 1; n < tree.count; n++) {
      const fn = functions[tree.func[n]];
      if (fn.name === 'run' && fn.url === MAIN) runSelf += tree.selfSamples[n];
      if (fn.name !== 'mix' || fn.url !== LIB) continue;
      mixSelf += tree.selfSamples[n];
      if (functions[tree.func[tree.parent[n]]]?.name !== 'run') continue;
      // 0 = a return address in unoptimized run code the log gives no position for.
      assert.ok(tree.callLine[n] === CALL_LINE || tree.callLine[n] === 0, `mix called from run:${tree.callLine[n]}`);
      if (tree.callLine[n] === CALL_LINE) fromCallLine += tree.selfSamples[n];
    }
    assert.ok(fromCallLine > mixSelf / 2, `mix self ${mixSelf}, from run:${CALL_LINE} ${fromCallLine}`);
    // mix's loop is most of the work: far more than run's own (its loop control).
    assert.ok(mixSelf > runSelf, `mix self ${mixSelf}, run self ${runSelf}`);
    const { report } = buildReport(profile, { root: WORKLOADS });
    for (const line of report.lines) {
      if (line.file === MAIN) assert.ok(MAIN_CODE.has(line.line), `heat on inlined.js:${line.line}`);
      if (line.file === LIB) assert.ok(line.line >= MIX.start && line.line <= MIX.end, `heat on inlinedLib.js:${line.line}`);
    }
    // prof-process's view folds mix into run, at the call line.
    const folded = await loadProfile(join(dir, 'inlined.v8.log'), { inlinedFrames: false });
    const foldedMix = folded.functions.findIndex((f) => f.name === 'mix' && f.url === LIB);
    let foldedMixSelf = 0;
    for (let n = 1; n < folded.tree.count; n++) if (folded.tree.func[n] === foldedMix) foldedMixSelf += folded.tree.selfSamples[n];
    assert.ok(foldedMixSelf < mixSelf / 4, `folded mix self ${foldedMixSelf}`);
  });
});

describe('inlined callees without a frame of their own', () => {
  // What a recording gives when TurboFan inlined mix on every call (seen on a loaded machine):
  // no mix frame anywhere, run's ticks on mix's line 11, and the module's top level (which
  // spans every line of inlined.js) the only other function of the file. Built here, not recorded,
  // so that the case is tested every run.
  /** run (inlined.js:12) with ticks on `line` (outside run) and 10 on its own line 14. */
  async function reportWithRunTicksOn(line: number) {
    const dir = mkdtempSync(join(tmpdir(), 'hotframe-inlined-'));
    try {
      const url = pathToFileURL(MAIN).href;
      const frame = (functionName: string, lineNumber: number, columnNumber: number, file = url) => ({ functionName, scriptId: '81', url: file, lineNumber, columnNumber });
      const profile = {
        nodes: [
          { id: 1, callFrame: frame('(root)', -1, -1, ''), children: [2] },
          { id: 2, callFrame: frame('', 0, 0), children: [3] },
          { id: 3, callFrame: frame('run', 11, 12), positionTicks: [{ line, ticks: 90 }, { line: 14, ticks: 10 }] },
        ],
        startTime: 0,
        endTime: 100_000,
        samples: [...Array(90).fill(3), ...Array(10).fill(3)],
        timeDeltas: Array(100).fill(1000),
      };
      const file = join(dir, 'inlined.cpuprofile');
      writeFileSync(file, JSON.stringify(profile));
      return buildReport(await loadProfile(file), { root: WORKLOADS }).report;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('does not move such ticks to the module top level around the function (it holds line 11 but is no callee)', async () => {
    const report = await reportWithRunTicksOn(11);
    for (const line of report.lines) if (line.file === MAIN) assert.ok(MAIN_CODE.has(line.line), `heat on inlined.js:${line.line}, outside any code that ran`);
    assert.equal(report.lines.find((l) => l.file === MAIN && l.line === 14)?.selfSamples, 10);
  });

  it("charges them to the callee of the other file that run's call reaches (mix, through require('./inlinedLib')) and to the call's line", async () => {
    const report = await reportWithRunTicksOn(11);
    // mix holds inlinedLib.js:11; run calls mix once, on line 15.
    assert.equal(report.lines.find((l) => l.file === LIB && l.line === 11)?.selfSamples, 90);
    const call = report.callLines.find((c) => c.file === MAIN && c.line === CALL_LINE);
    assert.deepEqual([call?.function, call?.callee, call?.found, call?.samples], ['run', 'mix', 'fromSource', 90]);
    assert.ok(!report.warnings.some((w) => /line tick\(s\) of inlined code/.test(w)), report.warnings.join('\n'));
  });

  it('leaves ticks off the lines, with a warning, when no callee of any file holds their line', async () => {
    // inlinedLib.js has 15 lines: nothing run calls holds line 40.
    const report = await reportWithRunTicksOn(40);
    assert.ok(!report.lines.some((l) => l.line === 40), JSON.stringify(report.lines));
    assert.equal(report.lines.find((l) => l.file === MAIN && l.line === 14)?.selfSamples, 10);
    assert.ok(report.warnings.some((w) => /line tick\(s\) of inlined code/.test(w)), report.warnings.join('\n'));
  });
});

// A handler whose two library callees TurboFan inlined (test/fixtures/workloads/inlinedHandler.js
// calls fake-inline-lib's scramble on line 9 and fold on line 10), recorded here in both formats.
// The raw log's inlining table charges the callees' time to those two call lines; a .cpuprofile
// records it as the handler's own samples on the library's line numbers, and must charge it to
// the same call lines, so that heat agrees between the two formats of one run.
describe('inlined library callees: call lines agree between a .cpuprofile and a raw log of the same code', function () {
  this.timeout(180_000);
  const HANDLER = join(WORKLOADS, 'inlinedHandler.js');
  const LIB_FILE = join(WORKLOADS, 'node_modules', 'fake-inline-lib', 'index.js');
  /** The loop lines of scramble (11-15) and fold (17-21) in the library: outside handle (8-12). */
  const SCRAMBLE_LOOP = 13;
  const FOLD_LOOP = 19;
  let dir = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'hotframe-inlined-lib-'));
    execFileSync(process.execPath, ['--cpu-prof', '--cpu-prof-dir', dir, HANDLER], { stdio: 'ignore' });
    execFileSync(process.execPath, ['--prof', '--no-logfile-per-isolate', `--logfile=${join(dir, 'handler.v8.log')}`, HANDLER], { stdio: 'ignore' });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** ms on handle's two call lines, and handle's total (its frames' samples, as the function table counts them). */
  async function callLineFigures(file: string) {
    const { report } = buildReport(await loadProfile(file), { root: WORKLOADS });
    const onLine = (line: number) => report.callLines.find((c) => c.file === HANDLER && c.line === line && c.function === 'handle');
    const handle = report.functions.find((f) => f.name === 'handle' && f.file === HANDLER);
    return { scramble: onLine(9), fold: onLine(10), handleMs: handle?.totalMs ?? 0, report };
  }

  it('the .cpuprofile holds inlined ticks: handle samples on the library\'s lines', async () => {
    const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
    assert.ok(file !== undefined);
    const profile = await loadProfile(join(dir, file));
    const onLib = profile.lineTicks.filter((t) => profile.functions[profile.tree.func[t.node]].name === 'handle' && (t.line === SCRAMBLE_LOOP || t.line === FOLD_LOOP));
    assert.ok(onLib.reduce((s, t) => s + t.samples, 0) > 100, 'TurboFan inlined scramble and fold into handle');
  });

  it('charges the inlined time to the two call lines, each callee on its own line, in the shares the raw log gives', async () => {
    const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile')) as string;
    const cpu = await callLineFigures(join(dir, file));
    const log = await callLineFigures(join(dir, 'handler.v8.log'));
    for (const [name, figures] of [['cpuprofile', cpu], ['v8 log', log]] as const) {
      assert.equal(figures.scramble?.calls?.[0]?.callee, 'scramble', `${name}: ${JSON.stringify(figures.scramble)}`);
      assert.equal(figures.fold?.calls?.[0]?.callee, 'fold', `${name}: ${JSON.stringify(figures.fold)}`);
      // The two callees are most of the handler's time, in either format.
      const both = (figures.scramble?.ms ?? 0) + (figures.fold?.ms ?? 0);
      assert.ok(both > figures.handleMs * 0.6, `${name}: call lines ${both} ms of handle's ${figures.handleMs} ms`);
    }
    // The same split between the two calls (two runs, so a tolerance): scramble's share of the pair.
    const share = (f: typeof cpu) => (f.scramble?.ms ?? 0) / ((f.scramble?.ms ?? 0) + (f.fold?.ms ?? 0));
    assert.ok(Math.abs(share(cpu) - share(log)) < 0.15, `scramble's share: cpuprofile ${share(cpu)}, log ${share(log)}`);
    // And the heat: the callees' loop lines hold it in both formats, not the handler's lines.
    for (const figures of [cpu, log]) {
      const libHeat = figures.report.lines.filter((l) => l.file === LIB_FILE && (l.line === SCRAMBLE_LOOP || l.line === FOLD_LOOP)).reduce((s, l) => s + l.selfMs, 0);
      assert.ok(libHeat > figures.handleMs * 0.6, `library loop heat ${libHeat} of ${figures.handleMs}`);
    }
  });

  it('charges them to the call lines when the callees have no frame at all (inlined on every call), through the package require', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'hotframe-inlined-lib-'));
    try {
      const url = pathToFileURL(HANDLER).href;
      const frame = (functionName: string, lineNumber: number, columnNumber: number, file = url) => ({ functionName, scriptId: '81', url: file, lineNumber, columnNumber });
      const profile = {
        nodes: [
          { id: 1, callFrame: frame('(root)', -1, -1, ''), children: [2] },
          { id: 2, callFrame: frame('', 0, 0), children: [3] },
          { id: 3, callFrame: frame('handle', 7, 15), positionTicks: [{ line: SCRAMBLE_LOOP, ticks: 60 }, { line: FOLD_LOOP, ticks: 30 }, { line: 11, ticks: 10 }] },
        ],
        startTime: 0,
        endTime: 100_000,
        samples: Array(100).fill(3),
        timeDeltas: Array(100).fill(1000),
      };
      const file = join(tmp, 'handler.cpuprofile');
      writeFileSync(file, JSON.stringify(profile));
      const { report } = buildReport(await loadProfile(file), { root: WORKLOADS });
      const at = (line: number) => report.callLines.find((c) => c.file === HANDLER && c.line === line);
      assert.deepEqual([at(9)?.callee, at(9)?.samples, at(10)?.callee, at(10)?.samples], ['scramble', 60, 'fold', 30]);
      assert.equal(report.lines.find((l) => l.file === LIB_FILE && l.line === SCRAMBLE_LOOP)?.selfSamples, 60);
      assert.ok(!report.warnings.some((w) => /line tick\(s\) of inlined code/.test(w)), report.warnings.join('\n'));
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
