// The incremental parser must give exactly the AST a whole parse gives: every node, position
// (index, line, column), `extra` field and comment. Checked on real files (this repository's
// examples and fixtures, express and mongoose from node_modules, our own TypeScript) under
// sequences of edits like typing: renames, spaces and line breaks before tokens, comments,
// statements inserted, duplicated (a redeclaration) and deleted, and random damage.
import assert from 'node:assert/strict';
import type * as t from '@babel/types';
import { readFileSync } from 'node:fs';
import { editCorpus, firstDifference, randomFrom, typedEdit } from '../../test/editSessions';
import { analyzeSource } from './engine';
import { revisionOf } from './statementRevisions';
import { IncrementalParser } from './incrementalParse';
import { StaticDocument } from './staticDocument';
import { parseSlice, parseSource, type ParsedSource } from './parse';
import { forEachChild } from './walk';

const comparable = (parsed: ParsedSource) => ({ ast: parsed.ast, problems: parsed.problems });
/** Which top-level statements are holes: the parser that made the tree knows (a whole parse makes none). */
type HoleTest = (statement: t.Node) => boolean;

/** The tree without its holes (problems differ: a hole carries its own error). */
const comparableTree = (parsed: ParsedSource, isHole: HoleTest) => {
  const ast = parsed.ast;
  if (ast === null) return null;
  return { ...ast, program: { ...ast.program, body: ast.program.body.filter((statement) => !isHole(statement)) }, errors: undefined };
};

/** Where a tree kept around holes differs from its text: each statement parsed alone, in order. */
function keptStatementsDifference(text: string, parsed: ParsedSource, isHole: HoleTest): string | null {
  const ast = parsed.ast!;
  let end = ast.program.directives.at(-1)?.end ?? 0;
  for (const [i, statement] of ast.program.body.entries()) {
    if ((statement.start ?? 0) < end) return `statement ${i} starts at ${statement.start}, before ${end}`;
    end = statement.end ?? 0;
    if (isHole(statement)) continue;
    // A string statement alone would read as a directive.
    if (statement.type === 'ExpressionStatement' && statement.expression.type === 'StringLiteral') continue;
    const start = statement.loc!.start;
    const alone = parseSlice(text.slice(statement.start ?? 0, end), { index: start.index, line: start.line, column: start.column }, parsed.plugins);
    if (alone.ast?.program.body.length !== 1) return `statement ${i} (${text.slice(statement.start ?? 0, end).slice(0, 40)}) does not parse alone as one`;
    const difference = firstDifference(alone.ast.program.body[0], statement, `.program.body.${i}`);
    if (difference !== null) return difference;
  }
  if (ast.program.end !== text.length || ast.end !== text.length) return `the tree ends at ${ast.program.end}, the text at ${text.length}`;
  for (const comment of ast.comments ?? []) {
    const written = text.slice(comment.start ?? 0, comment.end ?? 0);
    if (written !== (comment.type === 'CommentLine' ? `//${comment.value}` : `/*${comment.value}*/`)) return `comment at ${comment.start} is not ${JSON.stringify(written)}`;
  }
  return null;
}

/**
 * `text` with the text of the tree's holes replaced by spaces (line breaks kept); of a hole that is
 * a statement parsed without its broken line, only that line.
 */
function blankHoles(text: string, ast: NonNullable<ParsedSource['ast']>, isHole: HoleTest, blankedLineOf: (statement: t.Node) => { start: number; end: number } | null = () => null): string {
  let out = '';
  let from = 0;
  for (const statement of ast.program.body) {
    if (!isHole(statement)) continue;
    const line = blankedLineOf(statement);
    // Statements kept around one line share it: blanked once.
    if (line !== null && line.start < from) continue;
    const start = line?.start ?? statement.start ?? 0;
    const end = line?.end ?? statement.end ?? 0;
    out += text.slice(from, start) + text.slice(start, end).replace(/[^\r\n\u2028\u2029]/g, ' ');
    from = end;
  }
  return out + text.slice(from);
}

describe('IncrementalParser', () => {
  it('gives the same AST as a whole parse after every edit of a session, reusing most of it', function () {
    this.timeout(240_000);
    const files = editCorpus();
    assert.ok(files.length > 100, `expected a real corpus, found ${files.length} files`);
    const random = randomFrom(20261121);
    const kinds = { full: 0, incremental: 0, partial: 0, unchanged: 0 };
    let recoveredEdits = 0;
    let editsWhileBroken = 0;
    for (const file of files) {
      let text = readFileSync(file, 'utf8');
      const parser = new IncrementalParser();
      const isHole: HoleTest = (statement) => parser.isHole(statement);
      let current = parser.parse(file, text).ast;
      let clean = text;
      for (let step = 0; step < 12; step++) {
        // A broken file is put right the way people do (undo), or edited elsewhere first.
        text = current === null ? clean : typedEdit(text, current, random);
        const got = parser.parse(file, text);
        kinds[parser.lastKind]++;
        const want = parseSource(file, text);
        if (want.ast === null) {
          // Nothing to compare with: every statement kept around a hole must be what its own text
          // parses to at its place, and the holes and statements must follow each other in order.
          current = null;
          if (got.ast === null) continue;
          const difference = keptStatementsDifference(text, got, isHole);
          assert.equal(difference, null, `${file}, edit ${step + 1} (${parser.lastKind}, broken): ${difference}`);
          assert.ok(got.problems.length > 0, `${file}, edit ${step + 1}: a broken text parsed without a problem`);
          editsWhileBroken++;
          // Half the time the next edit goes elsewhere while the hole stays (placed on the kept statements).
          if (random() < 0.5) current = got.ast.program.body.some((statement) => !isHole(statement)) ? parseSource(file, blankHoles(text, got.ast, isHole)).ast : null;
          continue;
        }
        const difference = firstDifference(comparable(want), comparable(got));
        assert.equal(difference, null, `${file}, edit ${step + 1} (${parser.lastKind}): ${difference}`);
        if (want.problems.length > 0 && parser.lastKind === 'incremental') recoveredEdits++;
        // The next edit is placed on the tree the editor would have (a fresh one when `got` is reused).
        current = want.ast;
        if (want.problems.length === 0) clean = text;
      }
    }
    const edits = kinds.full + kinds.incremental + kinds.partial + kinds.unchanged;
    assert.ok(kinds.incremental > edits / 2, `only ${kinds.incremental} of ${edits} parses were incremental`);
    assert.ok(kinds.full > edits / 40, `only ${kinds.full} of ${edits} parses were whole: the fallbacks went untested`);
    assert.ok(kinds.partial > edits / 40, `only ${kinds.partial} of ${edits} parses kept a tree around a syntax error`);
    assert.ok(recoveredEdits > 20, `only ${recoveredEdits} incremental parses of texts with recovered errors`);
    assert.ok(editsWhileBroken > 20, `only ${editsWhileBroken} broken versions compared`);
  });

  // Found by the session above (mongoose's isExclusive.js): parsed apart, the slice's comment
  // stopped at the slice's end, and the statement it swallows in the file was kept.
  it('a line break deleted after a line comment: the comment swallows what follows it, as in a whole parse', () => {
    const filePath = '/virtual/comment.js';
    const cases: [string, string][] = [
      ['between top-level statements', 'a();\n// note\nb();\nc();\n'],
      ['between the statements of a function body', 'function f(keys) {\n  a();\n  // note\n  const key = keys[0];\n  return key;\n}\n'],
    ];
    for (const [where, before] of cases) {
      const at = before.indexOf('note') + 4;
      const text = before.slice(0, at) + before.slice(at + 1);
      const parser = new IncrementalParser();
      parser.parse(filePath, before);
      const got = parser.parse(filePath, text);
      const want = parseSource(filePath, text);
      assert.equal(firstDifference(comparable(want), comparable(got)), null, where);
    }
  });

  it('the statements before a string statement deleted: it is a directive now, as in a whole parse', () => {
    const filePath = '/virtual/directive.js';
    const cases: [string, string][] = [
      ['first in the file', "note;\n'use strict';\nrun();\n"],
      ['first in the file, behind a comment that a line separator ends', "//\u2028 note\n'use strict';;\n"],
      ['joining the file\'s prologue', "'use strict';\nnote;\n'use asm';\nrun();\n"],
      ['first in a function body', "function f(keys) {\n  note;\n  'use strict';\n  return keys[0];\n}\n"],
      // A method of a long statement: only a run of its body's statements is parsed again (blockReparse.ts).
      ['first in a method of a long object', `module.exports = {\n${Array.from({ length: 30 }, (_, i) => `  m${i}(keys) {\n    return keys[${i}];\n  },\n`).join('')}`
        + `  go(keys) {\n    note;\n    'use strict';\n${Array.from({ length: 40 }, (_, i) => `    const v${i} = keys[${i}] * 2;\n`).join('')}    return keys[0];\n  },\n};\n`],
    ];
    for (const [where, before] of cases) {
      const text = before.replace('note;', '').replace('note', '');
      const parser = new IncrementalParser();
      parser.parse(filePath, before);
      const got = parser.parse(filePath, text);
      const want = parseSource(filePath, text);
      assert.equal(firstDifference(comparable(want), comparable(got)), null, where);
    }
  });

  it('keeps the problem of a hole after a statement whose function body an edit made longer', () => {
    // The edit-session test met this in mongoose's pushNestedArrayPaths.js: `.b` typed after the
    // last statement made a hole; text typed inside the function before it then dropped the hole's
    // error (the statement's node, already moved to its new end, was taken for its old extent).
    const clean = "'use strict';\nmodule.exports = function f(path) {\n  g(path + '.');\n};\n";
    const broken = `${clean}.b`;
    const edited = broken.replace("path + '.'", "path + 1 + '.'");
    const parser = new IncrementalParser();
    parser.parse('/virtual/hole.js', clean);
    const first = parser.parse('/virtual/hole.js', broken);
    assert.equal(parser.lastKind, 'partial');
    assert.deepEqual(first.problems.map((p) => p.message), ['Unexpected token (5:0)']);
    const got = parser.parse('/virtual/hole.js', edited);
    assert.equal(parser.lastKind, 'partial');
    assert.deepEqual(got.problems.map((p) => p.message), parseSource('/virtual/hole.js', edited).problems.map((p) => p.message));
    assert.deepEqual(got.problems.map((p) => p.message), ['Unexpected token (5:0)']);
  });

  it('moves a kept problem of the statement after an edit by that statement\'s start, not its end', () => {
    // The statement after the edit spans two lines; its error is on its first line, which the
    // comment typed before it pushes sideways (the edit-session test met this in mongoose's timers.js).
    const before = "'use strict';\nfoo();\nexports.a\n(y) = 1;\n";
    const after = before.replace('exports.a', '/* c */ exports.a');
    const parser = new IncrementalParser();
    parser.parse('/virtual/shift.js', before);
    const got = parser.parse('/virtual/shift.js', after);
    assert.equal(parser.lastKind, 'incremental');
    assert.deepEqual(got.problems.map((p) => p.message), parseSource('/virtual/shift.js', after).problems.map((p) => p.message));
    assert.deepEqual(got.problems.map((p) => p.message), ['Invalid left-hand side in assignment expression. (3:8)']);
  });

  it('parses only the statements around a change in a 5,000-line file', () => {
    const block = (i: number) => `// block ${i}\nfunction stamp${i}() {\n  return Date.now();\n}\napp.get('/a${i}', (req, res) => res.json({ at: stamp${i}() }));\n`;
    let text = "'use strict';\n" + Array.from({ length: 1000 }, (_, i) => block(i)).join('');
    const parser = new IncrementalParser();
    parser.parse('/virtual/big.js', text);
    const at = text.indexOf('// block 500') + 3;
    text = `${text.slice(0, at)}x${text.slice(at)}`;
    const got = parser.parse('/virtual/big.js', text);
    assert.equal(parser.lastKind, 'incremental');
    assert.equal(firstDifference(comparable(parseSource('/virtual/big.js', text)), comparable(got)), null);
    const last = got.ast?.program.body.at(-1);
    const start = last?.loc?.start;
    assert.deepEqual([start?.line, start?.column, start?.index], [5001, 0, text.lastIndexOf('app.get')]);
  });

  it('lists every statement\'s nodes when it parses a whole file, so that the first edit, moving all after it, lists none', () => {
    let text = serviceWithBlocks(40);
    const parser = new IncrementalParser();
    const opened = parser.parse('/virtual/listed.js', text);
    assert.equal(parser.lastKind, 'full');
    let nodes = 0;
    const count = (node: t.Node): void => {
      nodes++;
      forEachChild(node, count);
    };
    for (const statement of opened.ast?.program.body ?? []) count(statement);
    assert.equal(parser.lastListedNodes, nodes);
    // A line break inside the first handler moves every statement after it.
    const at = text.indexOf("const items = await Item.find({ group: 0 })");
    text = `${text.slice(0, at)}\n${text.slice(at)}`;
    const got = parser.parse('/virtual/listed.js', text);
    assert.equal(parser.lastKind, 'incremental');
    assert.equal(parser.lastListedNodes, 0);
    assert.equal(firstDifference(comparable(parseSource('/virtual/listed.js', text)), comparable(got)), null);
  });

  it('parses only the statements around a change next to a dynamic import() or import.meta-free code (a call, not module syntax)', () => {
    // esbuild's CommonJS output and many services load modules with `await import(...)`: the text
    // test for module syntax took it for an import declaration and parsed the whole file (issue 26).
    const base = "'use strict';\nasync function load(name) {\n  const mod = await import(`./${name}.js`);\n  return mod.default;\n}\nfoo();\nconst lazy = () => import ('./x.js');\nbar();\n";
    for (const changed of [base.replace('return mod', 'return  mod'), base.replace('foo();', 'foo(1);'), base.replace('bar();', 'bar(2);')]) {
      const parser = new IncrementalParser();
      parser.parse('/virtual/load.js', base);
      const got = parser.parse('/virtual/load.js', changed);
      assert.equal(parser.lastKind, 'incremental', changed);
      assert.equal(firstDifference(comparable(parseSource('/virtual/load.js', changed)), comparable(got)), null, changed);
    }
    // import.meta and declarations still decide the source type: a whole parse.
    for (const changed of [base.replace('foo();', 'foo(import.meta.url);'), base.replace('foo();', "import x from 'x';")]) {
      const parser = new IncrementalParser();
      parser.parse('/virtual/load.js', base);
      const got = parser.parse('/virtual/load.js', changed);
      assert.equal(parser.lastKind, 'full', changed);
      assert.equal(firstDifference(comparable(parseSource('/virtual/load.js', changed)), comparable(got)), null, changed);
    }
  });

  it('keeps the nodes of the statements around a change, which it parses again only to check the edges (moved, not remade)', () => {
    const base = "'use strict';\nfunction a() {\n  return 1;\n}\nfunction b() {\n  return 2;\n}\nfunction c() { return 3; } c();\nd();\n";
    const edits: [string, string][] = [
      ['a line added in the middle one', base.replace('return 2;', 'return 2;\n  // more\n')],
      ['a character on the line the next one starts on', base.replace('return 2;\n}', 'return 22;\n}')],
      ['same length, other text', base.replace('return 2', 'return 7')],
    ];
    for (const [why, changed] of edits) {
      const parser = new IncrementalParser();
      const before = [...(parser.parse('/virtual/keep.js', base).ast?.program.body ?? [])];
      const revisions = before.map(revisionOf);
      const got = parser.parse('/virtual/keep.js', changed);
      assert.equal(parser.lastKind, 'incremental', why);
      const after = got.ast?.program.body ?? [];
      assert.equal(after.length, before.length, why);
      // Every statement keeps its node; function b, edited inside, is revised (statementRevisions.ts):
      // what is kept for it is made again. a and c (around it) are neither remade nor revised.
      assert.deepEqual(after.map((statement, i) => statement === before[i]), [true, true, true, true, true], why);
      assert.deepEqual(after.map((statement, i) => revisionOf(statement) - revisions[i]), [0, 1, 0, 0, 0], why);
      assert.equal(firstDifference(comparable(parseSource('/virtual/keep.js', changed)), comparable(got)), null, why);
    }
  });

  it('parses again only the edited statement when its neighbours end closed (a `;`, a declaration), both of them when they do not', () => {
    const long = (name: string) => `function ${name}() {\n${'  work();\n'.repeat(200)}}\n`;
    const base = `'use strict';\n${long('before')}function small() {\n  return 1;\n}\n${long('after')}const tail = 1;\n`;
    const parser = new IncrementalParser();
    parser.parse('/virtual/closed.js', base);
    // In its parameters, not its body (whose statements blockReparse.ts parses alone): the top-level statement is parsed again.
    const edited = base.replace('function small()', 'function small(x)');
    const got = parser.parse('/virtual/closed.js', edited);
    assert.equal(parser.lastKind, 'incremental');
    assert.equal(parser.lastInFunction, false);
    assert.equal(firstDifference(comparable(parseSource('/virtual/closed.js', edited)), comparable(got)), null);
    const small = 'function small(x) {\n  return 1;\n}\n';
    assert.equal(parser.lastParsedLength, `\n${small}`.length); // from the end of the statement before to the start of the next
    // Neighbours that an edit could join (no `;` of their own): parsed with the edited statement.
    const open = base.replace('function small() {\n  return 1;\n}', 'small = () => 1').replace(/ {2}work\(\);/g, '  work()');
    const openParser = new IncrementalParser();
    openParser.parse('/virtual/open.js', open.replace('function before', 'before = function').replace('function after', 'after = function'));
    const text = open.replace('function before', 'before = function').replace('function after', 'after = function');
    const openEdited = text.replace('small = () => 1', 'small = () => 12');
    const openGot = openParser.parse('/virtual/open.js', openEdited);
    assert.equal(openParser.lastKind, 'incremental');
    assert.equal(firstDifference(comparable(parseSource('/virtual/open.js', openEdited)), comparable(openGot)), null);
    assert.ok(openParser.lastParsedLength > 400 * 'work()'.length, `${openParser.lastParsedLength} characters parsed`);
  });

  it('parses the whole file again when a change joins two statements, declares a name twice or adds module syntax', () => {
    const base = 'const a = 1;\nfoo()\nbar();\nfunction f() {}\nbaz();\n';
    const cases: [string, string][] = [
      ['joins statements (ASI)', base.replace('bar();', '(bar)();')],
      ['declares a name twice', base.replace('baz();', 'const a = 2;')],
      ['adds module syntax', base.replace('baz();', 'export const b = 1;')],
    ];
    for (const [why, changed] of cases) {
      const parser = new IncrementalParser();
      parser.parse('/virtual/a.js', base);
      const got = parser.parse('/virtual/a.js', changed);
      assert.equal(parser.lastKind, 'full', why);
      assert.equal(firstDifference(comparable(parseSource('/virtual/a.js', changed)), comparable(got)), null, why);
    }
  });

  it('keeps the statements around a syntax error, reports it once in its statement, and mends the hole', () => {
    const base = "const a = require('a');\nfoo(1);\nbar(2);\nfunction f() {}\nbaz(3);\n";
    const parser = new IncrementalParser();
    parser.parse('/virtual/a.js', base);
    const broken = base.replace('bar(2);', 'bar(2;');
    const got = parser.parse('/virtual/a.js', broken);
    assert.equal(parser.lastKind, 'partial');
    assert.equal(parseSource('/virtual/a.js', broken).ast, null);
    const body = got.ast?.program.body ?? [];
    assert.deepEqual(body.map((statement) => (parser.isHole(statement) ? 'hole' : broken.slice(statement.start ?? 0, statement.end ?? 0))),
      ["const a = require('a');", 'foo(1);', 'hole', 'function f() {}', 'baz(3);']);
    assert.equal(got.problems.length, 1);
    assert.equal(got.problems[0].line, 3);
    // Typing elsewhere keeps the hole and its one error.
    const elsewhere = broken.replace('baz(3)', 'baz(33)');
    const typed = parser.parse('/virtual/a.js', elsewhere);
    assert.equal(parser.lastKind, 'partial');
    assert.equal(typed.ast?.program.body.filter((statement) => parser.isHole(statement)).length, 1);
    assert.deepEqual(typed.problems.map((problem) => problem.line), [3]);
    // Closing the call mends it: the tree is a whole parse's again.
    const mended = elsewhere.replace('bar(2;', 'bar(2);');
    const fixed = parser.parse('/virtual/a.js', mended);
    assert.equal(parser.lastKind, 'incremental');
    assert.equal(firstDifference(comparable(parseSource('/virtual/a.js', mended)), comparable(fixed)), null);
  });

  it('stays incremental in a file with recovered errors, moving them with the edit', () => {
    const base = "let a = 1;\nlet a = 2;\nfoo(1);\n'use strict'; function g(eval) {}\n";
    const parser = new IncrementalParser();
    const first = parser.parse('/virtual/a.js', base);
    assert.ok(first.problems.length >= 1);
    const changed = base.replace('foo(1);', 'foo(1);\nbar(\n  2);');
    const got = parser.parse('/virtual/a.js', changed);
    assert.equal(parser.lastKind, 'incremental');
    assert.equal(firstDifference(comparable(parseSource('/virtual/a.js', changed)), comparable(got)), null);
  });

  it('stays incremental on an edit inside a statement whose names are declared again elsewhere', () => {
    const block = (i: number) => `// items ${i}\nfunction stamp${i}() {\n  return Date.now(); // a clock read\n}\nlet total${i} = 0;\nvar count${i} = 1;\n`;
    // Each block three times: strict mode makes every copy of a function a redeclaration error.
    const base = "'use strict';\n" + Array.from({ length: 30 }, (_, i) => block(i % 10)).join('');
    const whole = parseSource('/virtual/r.js', base);
    assert.ok(whole.problems.length >= 40, `expected many redeclaration errors, found ${whole.problems.length}`);
    const copies = [...base.matchAll(/ {2}return Date\.now\(\);/g)].map((match) => match.index);
    const cases: [string, string, string][] = [
      // The first copy (its names' errors are in kept statements), a middle one and the last (errors in the edited statement).
      ['Enter in the first copy of a name', `${base.slice(0, copies[1])}\n${base.slice(copies[1])}`, 'incremental'],
      ['Enter in a middle copy', `${base.slice(0, copies[14])}\n${base.slice(copies[14])}`, 'incremental'],
      ['a comment typed in the last copy', base.replace(/a clock read\n\}\nlet total9 = 0;\nvar count9 = 1;\n$/, 'a clock readx\n}\nlet total9 = 0;\nvar count9 = 1;\n'), 'incremental'],
      ['a redeclared let renamed', base.replace('let total5 = 0;', 'let total55 = 0;'), 'full'],
      ['a function made async', base.replace('function stamp3()', 'async function stamp3()'), 'full'],
    ];
    for (const [why, changed, kind] of cases) {
      assert.notEqual(changed, base, why);
      const parser = new IncrementalParser();
      parser.parse('/virtual/r.js', base);
      const got = parser.parse('/virtual/r.js', changed);
      assert.equal(parser.lastKind, kind, why);
      assert.equal(firstDifference(comparable(parseSource('/virtual/r.js', changed)), comparable(got)), null, why);
    }
  });

  it('gives a whole parse\'s tree, problems and findings over a typing session on a file that redeclares names', function () {
    this.timeout(240_000);
    const file = '/virtual/redeclared.js';
    // Strict mode (function copies are errors) and sloppy (only let/const/class copies are).
    for (const directive of ["'use strict';\n", '']) {
      let text = directive + serviceWithBlocks(8) + serviceWithBlocks(8).replace(/^'use strict';\n/, '');
      const state = new StaticDocument();
      analyzeSource({ filePath: file, text, document: state });
      const random = randomFrom(directive === '' ? 11 : 12);
      let current = parseSource(file, text).ast;
      let clean = text;
      let incrementalWithErrors = 0;
      for (let step = 0; step < 150; step++) {
        text = current === null ? clean : typedEdit(text, current, random);
        const got = analyzeSource({ filePath: file, text, document: state });
        const kind = state.parser.lastKind;
        const fresh = parseSource(file, text);
        if (fresh.ast === null) {
          current = null;
          continue;
        }
        const want = analyzeSource({ filePath: file, text });
        const difference = firstDifference(want, got);
        assert.equal(difference, null, `${directive ? 'strict' : 'sloppy'}, edit ${step + 1} (${kind}): ${difference}`);
        if (kind === 'incremental' && fresh.problems.length > 0) incrementalWithErrors++;
        current = fresh.ast;
        clean = text;
      }
      assert.ok(incrementalWithErrors > 75, `only ${incrementalWithErrors} of 150 edits parsed incrementally with the redeclarations present`);
    }
  });
});

describe('analysis of incrementally parsed documents', () => {
  it('finds what a fresh analysis finds after every edit, although nodes, paths, scopes and the findings of unchanged statements live on', function () {
    this.timeout(240_000);
    // The files with findings: the demo service and the fixtures hold every rule's patterns; the
    // service below holds many of them, in one file, with the shapes of seeds 000-004.
    const documents = editCorpus().filter((file) => /examples|fixtures/.test(file)).map((file) => ({ file, text: readFileSync(file, 'utf8') }));
    documents.push({ file: '/virtual/routes.js', text: serviceWithBlocks(40) });
    const random = randomFrom(7);
    let incremental = 0;
    let findings = 0;
    let findingsKeptWhileBroken = 0;
    let reused = 0;
    let walked = 0;
    for (const document of documents) {
      const file = document.file;
      let text = document.text;
      const state = new StaticDocument();
      const parser = state.parser;
      const isHole: HoleTest = (statement) => parser.isHole(statement);
      analyzeSource({ filePath: file, text, document: state });
      let clean = text;
      let current = parseSource(file, text).ast;
      for (let step = 0; step < 12; step++) {
        text = current === null ? clean : typedEdit(text, current, random);
        const got = analyzeSource({ filePath: file, text, document: state });
        const kind = parser.lastKind;
        if (kind === 'incremental') incremental++;
        if (kind === 'incremental') {
          reused += state.records.lastReused;
          walked += state.records.lastWalked;
        }
        const fresh = parseSource(file, text);
        if (fresh.ast === null && kind === 'partial' && got.skipped === null) {
          // A syntax error: the findings kept are those of the file with the hole's text blanked out.
          const kept = parser.parse(file, text);
          assert.equal(parser.lastKind, 'unchanged', 'the analysis parsed this text');
          // A statement kept without its broken line (recoverParse.ts) is compared with its text so blanked.
          const blankedLineOf = (statement: t.Node) => parser.blankedLineOf(statement);
          const isEmptyHole: HoleTest = (statement) => isHole(statement) && blankedLineOf(statement) === null;
          const blanked = blankHoles(text, kept.ast!, isHole, blankedLineOf);
          // Only where the kept statements are the blanked text's (a statement before a hole may join the one after it).
          if (firstDifference(comparableTree(parseSource(file, blanked), isEmptyHole), comparableTree(kept, isEmptyHole)) !== null) {
            current = null;
            continue;
          }
          const want = analyzeSource({ filePath: file, text: blanked });
          const difference = firstDifference(want.findings, got.findings);
          assert.equal(difference, null, `${file}, edit ${step + 1} (${kind}, broken): ${difference}`);
          findingsKeptWhileBroken += got.findings.length;
          findings += want.findings.length;
          current = random() < 0.5 ? parseSource(file, blanked).ast : null;
          continue;
        }
        const want = analyzeSource({ filePath: file, text });
        findings += want.findings.length;
        const difference = firstDifference(want, got);
        assert.equal(difference, null, `${file}, edit ${step + 1} (${kind}): ${difference}`);
        current = fresh.ast;
        if (current !== null && fresh.problems.length === 0) clean = text;
      }
    }
    assert.ok(findingsKeptWhileBroken > 100, `only ${findingsKeptWhileBroken} findings kept around syntax errors`);
    assert.ok(incremental > 100, `only ${incremental} analyses ran on an incremental parse`);
    // The findings of statements an edit did not touch are reused, not found again (after an
    // incremental parse: a whole parse makes every statement anew).
    assert.ok(reused > 2 * walked, `${reused} statements reused, ${walked} walked`);
    // 1,878 after issue 11 made single clock reads per request and start-up spawns quiet (2,000+ before).
    assert.ok(findings > 1500, `only ${findings} findings compared: the corpus lost its patterns`);
  });
});

/** An express + mongoose + ioredis router with a block of incident patterns per group of routes. */
function serviceWithBlocks(count: number): string {
  let text = `'use strict';
const { execSync } = require('child_process');
const express = require('express');
const mongoose = require('mongoose');
const Redis = require('ioredis');
const Item = mongoose.model('Item', new mongoose.Schema({ group: Number }));
const router = express.Router();
`;
  for (let i = 0; i < count; i++) {
    text += `// items ${i}
function stamp${i}() {
  return Date.now();
}
router.get('/items${i}', async (req, res) => {
  const items = await Item.find({ group: ${i} });
  res.json({ items, at: stamp${i}() });
});
router.get('/items${i}/count', async (req, res) => {
  const all = await Item.find({ group: ${i} });
  const redis = new Redis();
  res.json({ count: all.length, free: String(execSync('free -m')) });
});
`;
  }
  return text;
}
