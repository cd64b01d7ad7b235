// SARIF 2.1.0 for GitHub code scanning (`github/codeql-action/upload-sarif`): one run, the
// hotframe driver with every rule, results located relative to %SRCROOT% (the analyze cwd).
import { createHash } from 'node:crypto';
import { pathToFileURL } from 'node:url';

import { ruleDocPath } from '../../rules/api';
import type { RuleMeta, Severity } from '../../rules/api';
import type { AnalyzeReport, FileFinding } from './findingFormats';
import type { Insight } from '../profile/model/types';
import { jsonCost, sortFindings } from './findingFormats';
import { docUrl } from '../shared/docs';

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

type SarifLevel = 'error' | 'warning' | 'note';
const LEVEL: Record<Severity, SarifLevel> = { error: 'error', warning: 'warning', information: 'note', hint: 'note' };

const SEED_TOPIC: Record<RuleMeta['incident']['seed'], string> = {
  '000': 'cpu',
  '001': 'gc',
  '002': 'network',
  '003': 'child-process',
  '004': 'database',
};

/** A relative path as a URI reference: each segment percent-encoded ('#', '?', spaces...), slashes kept. */
function relativeUri(file: string): string {
  return file.split('/').map(encodeURIComponent).join('/');
}

function sarifRule(meta: RuleMeta) {
  return {
    id: meta.id,
    name: meta.id
      .split('-')
      .map((word) => word[0].toUpperCase() + word.slice(1))
      .join(''),
    shortDescription: { text: meta.description },
    fullDescription: { text: `${meta.description} ${meta.incident.summary}` },
    // The page in the installed package (no web page exists); the help text stands on its own in
    // viewers that cannot open a file of the machine that ran the analysis.
    helpUri: docUrl(ruleDocPath(meta.id)),
    help: { text: `${meta.description} ${meta.incident.summary} See ${ruleDocPath(meta.id)} in the hotframe package.` },
    defaultConfiguration: { level: LEVEL[meta.defaultSeverity] },
    properties: { tags: ['performance', SEED_TOPIC[meta.incident.seed]], precision: 'medium' },
  };
}

/**
 * A stable identity for a result across commits: rule + file + the trimmed text of its line,
 * plus the occurrence number among identical lines. Moving code up or down keeps it.
 */
function fingerprints(findings: readonly FileFinding[]): string[] {
  const seen = new Map<string, number>();
  return findings.map(({ finding, file, lineText }) => {
    const hash = createHash('sha256').update(`${finding.ruleId}\0${file}\0${lineText.trim()}`).digest('hex').slice(0, 32);
    const occurrence = (seen.get(hash) ?? 0) + 1;
    seen.set(hash, occurrence);
    return `${hash}:${occurrence}`;
  });
}

/** The rule an insight's results point to: `insight/<id>`, described by its title. */
function insightRule(insight: Insight) {
  return {
    id: `insight/${insight.id}`,
    name: insight.id
      .split('-')
      .map((word) => word[0].toUpperCase() + word.slice(1))
      .join(''),
    shortDescription: { text: insight.title },
    helpUri: docUrl('docs/profiles.md'),
    defaultConfiguration: { level: 'warning' },
    properties: { tags: ['performance', 'profile'], precision: 'high' },
  };
}

/**
 * With --profile, the profile's insights placed at a line are results of their own (`insight/<id>`,
 * level warning: measured, not inferred), their figures in `properties` as `analyze --format json`
 * gives them; insights without a place (the GC share) are in the run's `properties.insights`.
 */
function insightResults(report: AnalyzeReport, ruleIndex: Map<string, number>) {
  const insights = report.profile?.insights ?? [];
  return insights.flatMap((insight) => {
    const { location } = insight;
    // Only files under %SRCROOT% can be results (not node:fs, nor paths outside the analyzed tree).
    if (location === null || location.file.startsWith('node:') || location.file.startsWith('/') || location.file.startsWith('../')) return [];
    const hash = createHash('sha256').update(`insight/${insight.id}\0${location.file}\0${insight.title}`).digest('hex').slice(0, 32);
    return [
      {
        ruleId: `insight/${insight.id}`,
        ruleIndex: ruleIndex.get(`insight/${insight.id}`) ?? -1,
        level: 'warning' as SarifLevel,
        message: { text: insight.message },
        locations: [{ physicalLocation: { artifactLocation: { uri: relativeUri(location.file), uriBaseId: '%SRCROOT%' }, region: { startLine: location.line } } }],
        partialFingerprints: { primaryLocationLineHash: `${hash}:1` },
        properties: { ms: insight.ms, percent: insight.percent, shareOf: report.profile?.shareOf },
      },
    ];
  });
}

export function formatSarif(report: AnalyzeReport, rules: readonly RuleMeta[], cwd: string, version: string): string {
  const insightRules = [...new Map((report.profile?.insights ?? []).map((i) => [i.id, insightRule(i)])).values()];
  const ruleIndex = new Map([...rules.map((meta) => meta.id as string), ...insightRules.map((r) => r.id)].map((id, index) => [id, index]));
  const findings = sortFindings(report.findings, report.profileGiven);
  const prints = fingerprints(findings);
  const results = findings.map((entry, i) => {
    const { finding } = entry;
    const { start, end } = finding.range.loc;
    return {
      ruleId: finding.ruleId,
      ruleIndex: ruleIndex.get(finding.ruleId) ?? -1,
      level: LEVEL[finding.severity],
      message: { text: finding.message },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: relativeUri(entry.file), uriBaseId: '%SRCROOT%' },
            region: { startLine: start.line, startColumn: start.column + 1, endLine: end.line, endColumn: end.column + 1 },
          },
        },
      ],
      partialFingerprints: { primaryLocationLineHash: prints[i] },
      ...(entry.cost ? { properties: { cost: jsonCost(entry.cost) } } : {}),
    };
  });
  const all = [...results, ...insightResults(report, ruleIndex)];
  const notifications = report.skipped.map((problem) => ({
    level: problem.parseError === null ? 'note' : 'error',
    message: { text: problem.parseError === null ? `Skipped: ${problem.reason}` : problem.reason },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: relativeUri(problem.file), uriBaseId: '%SRCROOT%' },
          ...(problem.parseError === null ? {} : { region: { startLine: problem.parseError.line, startColumn: problem.parseError.column } }),
        },
      },
    ],
  }));
  const root = pathToFileURL(cwd).href;
  const sarif = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'hotframe', informationUri: docUrl('README.md'), version, semanticVersion: version, rules: [...rules.map(sarifRule), ...insightRules] } },
        originalUriBaseIds: { '%SRCROOT%': { uri: root.endsWith('/') ? root : root + '/' } },
        invocations: [{ executionSuccessful: true, toolExecutionNotifications: notifications }],
        columnKind: 'utf16CodeUnits',
        results: all,
        ...(report.profile !== undefined ? { properties: { profile: report.profile.file, shareOf: report.profile.shareOf, insights: report.profile.insights } } : {}),
      },
    ],
  };
  return JSON.stringify(sarif, null, 2);
}
