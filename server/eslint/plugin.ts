// `hotframe/eslint-plugin` (dist/eslint-plugin.js): every Hotframe rule as an ESLint 9 rule, for
// teams whose editors and CI already run ESLint. Each ESLint rule reports what the Hotframe
// engine finds for the file under that rule's id: the same positions, messages and fixes.
//
// The engine runs once per file, not once per rule: the first of our rules to start on a file
// analyzes it with every Hotframe rule and keeps the result on the file's SourceCode, and
// each rule then reports its own share. ESLint's parse is not used: the engine parses with Babel
// (TypeScript and JSX included) as in the editor and the command line.
//
// ESLint sees one file at a time: no profile (so no measured cost, no ranking, no heat). What
// other modules export (mongoose models in models/) is read from disk by the same project index
// as the CLI, cached by path and modification time.
import type { ESLint, Linter, Rule, SourceCode } from 'eslint';

import { ruleDocPath, type Finding, type Fix, type RuleId, type RuleModule, type Severity } from '../../rules/api';
import { docUrl } from '../shared/docs';
import { allRules } from '../../rules/index';
import { analyzeSource } from '../static/engine';
import { ProjectIndex } from '../static/projectIndex';

declare const VERSION: string; // injected by scripts/build.mjs

const PREFIX = 'hotframe';

/** One index for the process: an ESLint run lints many files of one project. */
const project = new ProjectIndex();

/** The findings of one file, by rule id, computed on first use by any of our rules. */
const analyses = new WeakMap<SourceCode, Map<RuleId, Finding[]>>();

/** How many times the engine ran (the test checks: once per linted file). */
export const engineRuns = { count: 0 };

function findingsOf(context: Rule.RuleContext): Map<RuleId, Finding[]> {
  const sourceCode = context.sourceCode;
  let byRule = analyses.get(sourceCode);
  if (byRule !== undefined) return byRule;
  byRule = new Map();
  // Every Hotframe rule runs (ESLint does not tell a rule which others are on); a rule turned off
  // in the ESLint config costs its visitor in the one traversal and reports nothing.
  engineRuns.count++;
  const result = analyzeSource({ filePath: context.physicalFilename, text: sourceCode.text, project });
  for (const finding of result.findings) {
    const list = byRule.get(finding.ruleId) ?? [];
    list.push(finding);
    byRule.set(finding.ruleId, list);
  }
  analyses.set(sourceCode, byRule);
  return byRule;
}

function toFixer(fix: Fix): Rule.ReportFixer {
  return (fixer) => fix.edits.map((edit) => fixer.replaceTextRange([edit.start, edit.end], edit.text));
}

function toEslintRule(rule: RuleModule): Rule.RuleModule {
  const id = rule.meta.id;
  return {
    meta: {
      type: 'problem',
      docs: {
        description: rule.meta.description,
        recommended: true,
        url: docUrl(ruleDocPath(id)),
      },
      fixable: rule.meta.fixable ? 'code' : undefined,
      hasSuggestions: rule.meta.fixable,
      schema: [],
    },
    create(context) {
      return {
        Program() {
          for (const finding of findingsOf(context).get(id) ?? []) {
            // ESLint applies `fix` unasked under --fix: only fixes that cannot change behaviour.
            // The others are suggestions, as the editor's quick fixes are (applied by a person).
            const safe = finding.fixes.find((fix) => fix.safe === true);
            const suggest = finding.fixes.filter((fix) => fix !== safe).map((fix) => ({ desc: fix.title, fix: toFixer(fix) }));
            context.report({
              loc: {
                start: finding.range.loc.start,
                end: finding.range.loc.end,
              },
              message: finding.message,
              ...(safe !== undefined ? { fix: toFixer(safe) } : {}),
              ...(suggest.length > 0 ? { suggest } : {}),
            });
          }
        },
      };
    },
  };
}

/** ESLint has two levels: Hotframe's `information` and `hint` are warnings there. */
function eslintLevel(severity: Severity): Linter.RuleSeverity {
  return severity === 'error' ? 'error' : 'warn';
}

const rules: Record<string, Rule.RuleModule> = Object.fromEntries(allRules.map((rule) => [rule.meta.id, toEslintRule(rule)]));

const plugin = {
  // The npm package's name, as ESLint asks (config caching and --print-config show it).
  meta: { name: 'hotframe', version: typeof VERSION === 'string' ? VERSION : 'dev' },
  rules,
  configs: {} as Record<string, Linter.Config>,
} satisfies ESLint.Plugin;

/**
 * `hotframe.configs.recommended`: every rule at its default severity. No `files`: it applies to
 * what the project's config already lints (adding `**\/*.ts` here would make ESLint lint
 * TypeScript with a parser that cannot read it when the project has none).
 */
plugin.configs.recommended = {
  name: 'hotframe/recommended',
  plugins: { [PREFIX]: plugin },
  rules: Object.fromEntries(allRules.map((rule) => [`${PREFIX}/${rule.meta.id}`, eslintLevel(rule.meta.defaultSeverity)])),
};

export default plugin;
