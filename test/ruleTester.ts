// ESLint-style RuleTester: valid / invalid cases run through the real engine with only the rule
// under test, as mocha `describe` / `it`. Lines and columns are 1-BASED here (as in ESLint and
// the CLI); the engine's Babel columns are 0-based and converted below.
import assert from 'node:assert/strict';
import type { Finding, ProjectView, RuleModule, Severity, TextEdit } from '../rules/api';
import { analyzeSource, type AnalysisResult } from '../server/static/engine';
import { parseSource } from '../server/static/parse';

export interface ValidCase {
  code: string;
  /** Decides the parser dialect; defaults to `test.js`. */
  filename?: string;
  /** Overrides the suite-level `project`. */
  project?: ProjectView;
  /** Optional label for the test title (defaults to the first line of code). */
  name?: string;
}

export interface ExpectedError {
  messageId: string;
  line: number; // 1-based
  column: number; // 1-based
  endLine?: number; // 1-based
  endColumn?: number; // 1-based
  /** Exact message text, or a pattern it must match. */
  message?: string | RegExp;
  /** The finding's severity at the rule's default level (without a profile). */
  severity?: Severity;
}

export interface InvalidCase extends ValidCase {
  errors: ExpectedError[];
  /** The code after applying the first rule fix of every finding; null when no finding has a fix. */
  output: string | null;
}

export interface RuleTests {
  valid: ValidCase[];
  invalid: InvalidCase[];
}

export interface RuleTesterOptions {
  /** Cross-module facts for every case (an in-memory ProjectView). */
  project?: ProjectView;
}

const DEFAULT_FILENAME = 'test.js';

export function analyzeWithRule(rule: RuleModule, testCase: ValidCase, options: RuleTesterOptions = {}): AnalysisResult {
  return analyzeSource({
    filePath: testCase.filename ?? DEFAULT_FILENAME,
    text: testCase.code,
    rules: [rule],
    project: testCase.project ?? options.project,
  });
}

/**
 * Applies the first fix of each finding, in one pass; a fix overlapping an earlier one is
 * left out (ESLint would apply it in a later pass; our rules never produce overlaps).
 */
export function applyFirstFixes(code: string, findings: readonly Finding[]): string | null {
  const edits: TextEdit[][] = findings.filter((f) => f.fixes.length > 0).map((f) => f.fixes[0].edits);
  if (edits.length === 0) return null;
  const accepted: TextEdit[] = [];
  for (const group of edits) {
    const overlaps = group.some((edit) => accepted.some((other) =>
      (edit.start < other.end && other.start < edit.end) || (edit.start === edit.end && edit.start === other.start)));
    if (!overlaps) accepted.push(...group);
  }
  accepted.sort((a, b) => b.start - a.start || b.end - a.end);
  let output = code;
  for (const edit of accepted) output = output.slice(0, edit.start) + edit.text + output.slice(edit.end);
  return output;
}

function titleOf(testCase: ValidCase): string {
  if (testCase.name) return testCase.name;
  const firstLine = testCase.code.split('\n').find((line) => line.trim().length > 0) ?? '';
  return firstLine.trim().slice(0, 80);
}

function assertClean(result: AnalysisResult, testCase: ValidCase): void {
  assert.equal(result.skipped, null, `file was skipped: ${result.skipped?.message}`);
  assert.deepEqual(result.parseErrors, [], `test code does not parse (${testCase.filename ?? DEFAULT_FILENAME})`);
  assert.deepEqual(result.ruleErrors, [], 'the rule threw');
}

function describeFindings(findings: readonly Finding[]): string {
  return findings
    .map((f) => `  ${f.messageId} at ${f.range.loc.start.line}:${f.range.loc.start.column + 1}: ${f.message}`)
    .join('\n');
}

export function runRuleTests(rule: RuleModule, tests: RuleTests, options: RuleTesterOptions = {}): void {
  describe(rule.meta.id, () => {
    describe('valid', () => {
      for (const testCase of tests.valid) {
        it(titleOf(testCase), () => {
          const result = analyzeWithRule(rule, testCase, options);
          assertClean(result, testCase);
          assert.equal(result.findings.length, 0, `expected no findings, got:\n${describeFindings(result.findings)}`);
        });
      }
    });
    describe('invalid', () => {
      for (const testCase of tests.invalid) {
        it(titleOf(testCase), () => {
          assert.ok(testCase.errors.length > 0, 'an invalid case must expect at least one error');
          const result = analyzeWithRule(rule, testCase, options);
          assertClean(result, testCase);
          const { findings } = result;
          assert.equal(findings.length, testCase.errors.length,
            `expected ${testCase.errors.length} finding(s), got ${findings.length}:\n${describeFindings(findings)}`);
          testCase.errors.forEach((expected, index) => {
            const finding = findings[index];
            const actual: ExpectedError = {
              messageId: finding.messageId,
              line: finding.range.loc.start.line,
              column: finding.range.loc.start.column + 1,
            };
            const wanted: ExpectedError = { messageId: expected.messageId, line: expected.line, column: expected.column };
            if (expected.endLine !== undefined) {
              actual.endLine = finding.range.loc.end.line;
              wanted.endLine = expected.endLine;
            }
            if (expected.endColumn !== undefined) {
              actual.endColumn = finding.range.loc.end.column + 1;
              wanted.endColumn = expected.endColumn;
            }
            assert.deepEqual(actual, wanted, `finding #${index + 1}: ${finding.message}`);
            assert.ok(!finding.message.includes('{{'), `unfilled placeholder in message: ${finding.message}`);
            if (expected.severity !== undefined) assert.equal(finding.severity, expected.severity, `finding #${index + 1}: severity`);
            if (typeof expected.message === 'string') assert.equal(finding.message, expected.message);
            else if (expected.message) assert.match(finding.message, expected.message);
          });
          if (!rule.meta.fixable) assert.ok(findings.every((f) => f.fixes.length === 0), 'meta.fixable is false but a finding has a fix');
          const output = applyFirstFixes(testCase.code, findings);
          assert.equal(output, testCase.output, 'fix output');
          if (output !== null) {
            const reparsed = parseSource(testCase.filename ?? DEFAULT_FILENAME, output);
            assert.ok(reparsed.ast, 'fixed output does not parse');
            assert.deepEqual(reparsed.problems, [], 'fixed output has syntax errors');
          }
        });
      }
    });
  });
}
