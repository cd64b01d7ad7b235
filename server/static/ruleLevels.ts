// Rule levels as users write them (`--rule <id>=<level>`, `hotframe.rules.<id>`), checked in one
// place for the CLI and the language server. Kept free of vscode-languageserver so the CLI stays small.
import type { RuleId, RuleLevel } from '../../rules/api';
import { ruleIds } from '../../rules/index';
import { InputError } from '../shared/errors';

export const RULE_LEVELS: readonly RuleLevel[] = ['off', 'hint', 'information', 'warning', 'error'];

export function isRuleLevel(value: unknown): value is RuleLevel {
  return typeof value === 'string' && (RULE_LEVELS as readonly string[]).includes(value);
}

export function isRuleId(value: string): value is RuleId {
  return (ruleIds as readonly string[]).includes(value);
}

/** `<id>=<level>` values of --rule; an unknown id or level is a usage error. */
export function parseRuleLevels(values: readonly string[]): Partial<Record<RuleId, RuleLevel>> {
  const levels: Partial<Record<RuleId, RuleLevel>> = {};
  for (const value of values) {
    const eq = value.indexOf('=');
    if (eq <= 0) throw new InputError(`--rule expects <id>=<level>, got '${value}'`);
    const id = value.slice(0, eq);
    const level = value.slice(eq + 1);
    if (!isRuleId(id)) throw new InputError(`--rule: unknown rule '${id}' (rules: ${ruleIds.join(', ')})`);
    if (!isRuleLevel(level)) throw new InputError(`--rule ${id}: unknown level '${level}' (${RULE_LEVELS.join('|')})`);
    levels[id] = level;
  }
  return levels;
}
