// The hover's paragraph under a finding: the editor shows the diagnostic's short message first
// (what runs how often, what it costs, the fix); this paragraph tells the incident behind the rule
// or the insight, with its figures, and links the rule's page. Messages never tell the story.
import type { Diagnostic, Position } from 'vscode-languageserver';

import { ruleDocPath, type RuleId, type RuleMeta } from '../../rules/api';
import { allRules } from '../../rules/index';
import { INSIGHT_INCIDENTS } from '../profile/analysis/insights';
import type { InsightId } from '../protocol/wire';
import { docUrl } from '../shared/docs';
import { DIAGNOSTIC_SOURCE, PROFILE_INSIGHT_CODE } from './diagnostics';

const META = new Map<string, RuleMeta>(allRules.map((rule) => [rule.meta.id, rule.meta]));

/** Said of a finding that needs its code to run often to matter (evidence 'frequency'). */
export const FREQUENCY_NOTE = 'Shown one level below the rule’s until a loaded profile shows this code hot.';

function contains(diagnostic: Diagnostic, position: Position): boolean {
  const { start, end } = diagnostic.range;
  const after = position.line > start.line || (position.line === start.line && position.character >= start.character);
  const before = position.line < end.line || (position.line === end.line && position.character <= end.character);
  return after && before;
}

function isInsightId(value: unknown): value is InsightId {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(INSIGHT_INCIDENTS, value);
}

/**
 * Markdown for the findings and insights under `position`, one paragraph per rule or insight
 * (each said once however many findings it has there), or null when there are none.
 * `needsFrequency` tells a finding that matters only when its code runs often (evidence 'frequency').
 */
export function findingHoverMarkdown(diagnostics: readonly Diagnostic[], position: Position, needsFrequency: (diagnostic: Diagnostic) => boolean = () => false): string | null {
  const paragraphs: string[] = [];
  const said = new Set<string>();
  for (const diagnostic of diagnostics) {
    if (diagnostic.source !== DIAGNOSTIC_SOURCE || !contains(diagnostic, position)) continue;
    const code = typeof diagnostic.code === 'string' ? diagnostic.code : '';
    const meta = META.get(code);
    if (meta !== undefined && !said.has(code)) {
      said.add(code);
      const frequency = needsFrequency(diagnostic) ? ` ${FREQUENCY_NOTE}` : '';
      // Our own text: no markdown syntax to escape, the id is shown as code.
      paragraphs.push(`\`${meta.id}\`: ${meta.incident.summary}${frequency} [Rule documentation](${docUrl(ruleDocPath(meta.id as RuleId))})`);
      continue;
    }
    const insightId = (diagnostic.data as { insightId?: unknown } | undefined)?.insightId;
    if (code === PROFILE_INSIGHT_CODE && isInsightId(insightId) && !said.has(insightId)) {
      said.add(insightId);
      paragraphs.push(INSIGHT_INCIDENTS[insightId]);
    }
  }
  return paragraphs.length === 0 ? null : paragraphs.join('\n\n');
}
