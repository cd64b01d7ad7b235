// package.json's `hotframe.rules.<id>` settings, generated from each rule's `meta` (rules/*.ts),
// so the editor's settings UI never tells another story than the rule: its id, default level and
// description come from one place. test/unit/settingsSchema.test.ts fails when package.json
// drifts; `npm run settings:rules` (this file run directly) writes the entries back.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { RuleMeta } from '../rules/api';
import { allRules } from '../rules/index';
import { RULE_LEVELS } from '../server/static/ruleLevels';

export interface RuleSettingEntry {
  type: 'string';
  enum: string[];
  default: string;
  markdownDescription: string;
  scope: 'resource';
}

export const RULE_SETTING_PREFIX = 'hotframe.rules.';

/** The one `contributes.configuration.properties` entry of a rule. */
export function ruleSettingEntry(meta: RuleMeta): RuleSettingEntry {
  return {
    type: 'string',
    enum: [...RULE_LEVELS],
    default: meta.defaultSeverity,
    markdownDescription:
      `Severity of \`${meta.id}\` (default \`${meta.defaultSeverity}\`). ${meta.description} ` +
      `${meta.incident.summary} ` +
      'Findings that need frequency to matter are shown one step lower until a loaded profile shows their code hot. ' +
      `Each finding links the rule's page (\`${meta.id}.md\`, shipped with the extension).`,
    scope: 'resource',
  };
}

/** Every rule's entry, keyed by setting name, in the registry's order (rules/index.ts). */
export function ruleSettingEntries(metas: readonly RuleMeta[] = allRules.map((rule) => rule.meta)): Record<string, RuleSettingEntry> {
  return Object.fromEntries(metas.map((meta) => [`${RULE_SETTING_PREFIX}${meta.id}`, ruleSettingEntry(meta)]));
}

/**
 * The properties with the rule entries replaced by the generated ones: the rules first (registry
 * order), then every other setting in its current order.
 */
export function withRuleSettings(properties: Record<string, unknown>): Record<string, unknown> {
  const others = Object.entries(properties).filter(([key]) => !key.startsWith(RULE_SETTING_PREFIX));
  return { ...ruleSettingEntries(), ...Object.fromEntries(others) };
}

// `node --import tsx scripts/ruleSettings.ts`: rewrites package.json in place (2-space JSON, as npm writes it).
if (process.argv[1] !== undefined && /ruleSettings\.ts$/.test(process.argv[1])) {
  const file = join(__dirname, '..', 'package.json');
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as { contributes: { configuration: { properties: Record<string, unknown> } } };
  manifest.contributes.configuration.properties = withRuleSettings(manifest.contributes.configuration.properties);
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(`package.json: ${Object.keys(ruleSettingEntries()).length} hotframe.rules.* settings written from the rules' meta`);
}
