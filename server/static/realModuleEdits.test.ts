// Editing real modules the bench did not generate (bench/inputs/: iobroker.js-controller's main.js,
// top-level functions with dynamic import(); apostrophe's page module, one object of handlers):
// after every edit of a session the editor's analysis (incremental parse, kept nodes, reused
// statement records) must equal a fresh analysis of the new text: findings with their messages,
// fix offsets and functions, the parse problems and the tree. And the incremental path must have
// been taken, told by the parser's and the records' counters, not by a timing (issue 26).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as t from '@babel/types';
import { firstDifference, randomFrom, typedEdit } from '../../test/editSessions';
import { analyzeSource, type AnalysisResult } from './engine';
import { parseSource } from './parse';
import { StaticDocument } from './staticDocument';

const inputs = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bench', 'inputs');
const realModules = ['iobroker-js-controller-main.js', 'apostrophe-page-index.js'];

/** Findings as one line each: line, rule, message, fixes (offsets included), function. */
function findingLines(result: AnalysisResult): string[] {
  return result.findings.map((finding) =>
    `${finding.range.loc.start.line}:${finding.range.loc.start.column} ${finding.ruleId} ${finding.severity} ${finding.message}\t${JSON.stringify(finding.fixes)} ${finding.enclosingFunction?.name ?? '-'}`);
}

/** Code with the seeds' patterns (a clock read per request, a connection per request, execSync), so that edits move and make findings. */
function pastedHandler(n: number): string {
  return `
app.get('/pasted${n}', async (req, res) => {
  const rows = [];
  for (const id of req.query.ids) rows.push({ id, at: Date.now() });
  const redis = new Redis();
  res.json({ rows, disk: String(require('child_process').execSync('df -k')), n: ${n} });
});
`;
}

/** An edit of `text`: mostly typing (test/editSessions.ts), sometimes (and first) a handler pasted between two top-level statements. */
function nextEdit(text: string, ast: t.File, random: () => number, step: number): string {
  if (step === 0 || random() < 0.2) {
    const ends = ast.program.body.map((statement) => statement.end ?? 0);
    const at = ends[Math.floor(random() * ends.length)] ?? text.length;
    return text.slice(0, at) + pastedHandler(step) + text.slice(at);
  }
  return typedEdit(text, ast, random);
}

describe('editing real modules (bench/inputs): incremental analysis equals a fresh one', () => {
  for (const [index, name] of realModules.entries()) {
    it(`${name}: every edit of a session, findings and tree as a fresh analysis finds them, most statements reused`, function () {
      this.timeout(300_000);
      const filePath = `/virtual/${name}`;
      const original = readFileSync(join(inputs, name), 'utf8');
      const random = randomFrom(20261128 + index);
      const document = new StaticDocument();
      let text = original;
      analyzeSource({ filePath, text, document });
      let tree = parseSource(filePath, text).ast;
      let compared = 0;
      let incremental = 0;
      let reusedSome = 0;
      let withFindings = 0;
      const steps = 18;
      for (let step = 0; step < steps; step++) {
        // A broken version is put right the way people do (undo): back to the last version that parsed.
        text = tree === null ? original : nextEdit(text, tree, random, step);
        const got = analyzeSource({ filePath, text, document });
        if (document.parser.lastKind === 'incremental') incremental++;
        if (document.records.lastReused > 0) reusedSome++;
        const fresh = parseSource(filePath, text);
        tree = fresh.ast;
        // A text that does not parse has nothing fresh to compare with (the editor keeps what parses around it).
        if (fresh.ast === null) continue;
        const want = analyzeSource({ filePath, text });
        const where = `${name}, edit ${step + 1} (${document.parser.lastKind}, walked ${document.records.lastWalked}, reused ${document.records.lastReused})`;
        assert.deepEqual(findingLines(got), findingLines(want), where);
        assert.deepEqual(got.parseErrors, want.parseErrors, where);
        const kept = document.parser.parse(filePath, text);
        assert.equal(firstDifference({ ast: fresh.ast, problems: fresh.problems }, { ast: kept.ast, problems: kept.problems }), null, where);
        compared++;
        if (want.findings.length > 0) withFindings++;
      }
      assert.ok(compared >= steps * 0.75, `only ${compared} of ${steps} versions compared`);
      assert.ok(withFindings >= compared / 2, `only ${withFindings} of ${compared} versions had findings: too few to prove they are kept right`);
      assert.ok(incremental >= steps / 2, `only ${incremental} of ${steps} edits parsed incrementally`);
      assert.ok(reusedSome >= steps / 2, `only ${reusedSome} of ${steps} edits reused any statement's record`);
    });
  }

  it('an Enter before each statement holding a dynamic import() re-walks no statement (iobroker main.js)', () => {
    const filePath = '/virtual/iobroker-main.js';
    const text = readFileSync(join(inputs, realModules[0]), 'utf8');
    const document = new StaticDocument();
    const opened = analyzeSource({ filePath, text, document });
    const body = parseSource(filePath, text).ast?.program.body ?? [];
    const withImport = body.filter((statement) => /\bimport\s*\(/.test(text.slice(statement.start ?? 0, statement.end ?? 0)));
    assert.ok(withImport.length >= 3, `expected the module's dynamic imports, found ${withImport.length} statements`);
    for (const statement of withImport) {
      const at = statement.start ?? 0;
      const edited = `${text.slice(0, at)}\n${text.slice(at)}`;
      const got = analyzeSource({ filePath, text: edited, document });
      const where = `Enter before line ${statement.loc?.start.line}`;
      assert.equal(document.parser.lastKind, 'incremental', where);
      assert.equal(document.records.lastWalked, 0, where);
      assert.equal(document.records.lastReused, body.length, where);
      assert.deepEqual(findingLines(got), findingLines(analyzeSource({ filePath, text: edited })), where);
      analyzeSource({ filePath, text, document });
    }
    assert.ok(opened.findings.length > 0);
  });
});
