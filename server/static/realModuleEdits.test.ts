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
import { randomFrom, typedEdit } from '../../test/editSessions';
import { checkVersion, findingLines } from '../../test/editedDocuments';
import { analyzeSource } from './engine';
import { parseSource } from './parse';
import { StaticDocument } from './staticDocument';
import { forEachChild } from './walk';

const inputs = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bench', 'inputs');
const realModules = ['iobroker-js-controller-main.js', 'apostrophe-page-index.js'];

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
        // A text that does not parse has nothing fresh to compare with (the editor keeps what parses around it).
        const version = checkVersion(document, filePath, text, `${name}, edit ${step + 1}`);
        if (version.kind === 'incremental') incremental++;
        if (version.reused > 0) reusedSome++;
        tree = parseSource(filePath, text).ast;
        if (!version.parses) continue;
        compared++;
        if (version.findings > 0) withFindings++;
      }
      assert.ok(compared >= steps * 0.75, `only ${compared} of ${steps} versions compared`);
      assert.ok(withFindings >= compared / 2, `only ${withFindings} of ${compared} versions had findings: too few to prove they are kept right`);
      assert.ok(incremental >= steps / 2, `only ${incremental} of ${steps} edits parsed incrementally`);
      assert.ok(reusedSome >= steps / 2, `only ${reusedSome} of ${steps} edits reused any statement's record`);
    });
  }

  // Issue 26: most of a real module can sit in one top-level statement (apostrophe's object of
  // handlers; iobroker's 39 KB functions). Edits inside nested functions of the biggest statement:
  // a seed's pattern typed into a nested body (then taken out), a line deleted, a name read by
  // nested code changed, and a syntax error typed there and mended; each version as a fresh analysis has it.
  for (const name of realModules) {
    it(`${name}: edits inside nested functions of the biggest top-level statement equal a fresh analysis`, function () {
      this.timeout(300_000);
      const filePath = `/virtual/${name}`;
      const original = readFileSync(join(inputs, name), 'utf8');
      const body = parseSource(filePath, original).ast?.program.body ?? [];
      const biggest = body.reduce((a, b) => ((b.end ?? 0) - (b.start ?? 0) > (a.end ?? 0) - (a.start ?? 0) ? b : a));
      // Nested function bodies of the biggest statement, spread over it.
      const bodies: t.BlockStatement[] = [];
      const visit = (node: t.Node, depth: number): void => {
        if ((node.type === 'FunctionExpression' || node.type === 'ArrowFunctionExpression' || node.type === 'ObjectMethod' || node.type === 'FunctionDeclaration')
          && node.body.type === 'BlockStatement' && node.body.body.length > 1) bodies.push(node.body);
        forEachChild(node, (child) => visit(child, depth + 1));
      };
      visit(biggest, 0);
      assert.ok(bodies.length >= 5, `${bodies.length} nested function bodies in the biggest statement`);
      const picked = Array.from({ length: 5 }, (_, i) => bodies[Math.floor(((i + 0.5) * bodies.length) / 5)]);
      const document = new StaticDocument();
      analyzeSource({ filePath, text: original, document });
      let versions = 0;
      const check = (text: string, where: string): void => {
        const version = checkVersion(document, filePath, text, `${name}, ${where}`);
        // Typing a syntax error there: the other statements keep their findings, the error is reported.
        if (!version.parses) return;
        // The others are reused but for those that read a name the edit touched.
        assert.ok(version.reused >= (body.length - 1) * 0.9, `${version.label}: most other statements reused`);
        versions++;
      };
      for (const [i, block] of picked.entries()) {
        const first = block.body[0];
        const at = first.start ?? 0;
        const line = `const redis${i} = new Redis(); const at${i} = Date.now(); redis${i}.get(String(at${i}));\n`;
        const typed = original.slice(0, at) + line + original.slice(at);
        check(typed, `a seed's pattern typed in the body at line ${first.loc?.start.line}`);
        check(original, 'taken out again');
        const deleted = original.slice(0, at) + original.slice(block.body[1].start ?? 0);
        check(deleted, `its first statement deleted (line ${first.loc?.start.line})`);
        const broken = original.slice(0, at) + 'foo(' + original.slice(at);
        check(broken, `a call left unclosed at line ${first.loc?.start.line}`);
        check(original, 'the call removed again');
      }
      assert.ok(versions >= 15, `only ${versions} versions compared`);
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
