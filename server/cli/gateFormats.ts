// What `hotframe gate` prints: text for a terminal, JSON for scripts and agents, Markdown for a
// pull-request comment, SARIF for code scanning (one result on each line that got slower).
import { createHash } from 'node:crypto';
import { isAbsolute, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

import type { Finding } from '../../rules/api';
import type { GateChange, GateResult } from '../profile/gate/gate';
import { formatNumber, formatSignedNumber } from '../shared/format';
import { printable } from './printable';
import { round } from './profileCommand';
import { where } from './profileText';
import { relativeUri, SARIF_SCHEMA } from './sarifFormat';

export interface GateReport {
  result: GateResult;
  /** The profiles of each side, relative to cwd. */
  before: string[];
  after: string[];
  /** The static findings on each changed line (or in each changed function). */
  findings: Map<GateChange, Finding[]>;
  root: string;
  cwd: string;
  top: number;
}

const percent = (fraction: number): string => `${formatNumber(fraction * 100)}%`;

/** A file as the other outputs show it: relative to cwd when it is a local path, as recorded otherwise. */
function shownFile(report: GateReport, file: string): string {
  return isAbsolute(file) ? relative(report.cwd, file).split(sep).join('/') : file;
}

function subject(change: GateChange, report: GateReport): string {
  const place = where(change.file, change.line, report.root, change.category);
  return change.kind === 'function' ? `${printable(change.name || '(anonymous)')} (${place}, self time)` : place;
}

/** "+38.1 ms/s (+21%: 181 → 219 ms/s), 95% interval +33.0 to +43.2" */
function changeText(change: GateChange): string {
  const relativeText = change.relative === null ? 'new' : `${formatSignedNumber(change.relative * 100)}%`;
  return (
    `${formatSignedNumber(change.delta)} ms/s (${relativeText}: ${formatNumber(change.before)} → ${formatNumber(change.after)} ms/s), ` +
    `${percent(change.confidence)} interval ${formatSignedNumber(change.interval.low)} to ${formatSignedNumber(change.interval.high)}, rank-sum p ${change.p.toPrecision(2)}`
  );
}

function findingsText(findings: readonly Finding[] | undefined): string | null {
  if (findings === undefined || findings.length === 0) return null;
  return findings.map((f) => `${f.ruleId} (${printable(f.message.split('\n')[0])})`).join('; ');
}

function header(report: GateReport): string[] {
  const { result } = report;
  const { options } = result;
  return [
    `hotframe gate: ${result.runs.before} profiles before, ${result.runs.after} after; ms of CPU per second (ms/s) at the baseline's pace: each run's samples over the rest of its run (its CPU less the function and what changed)`,
    `a change counts when it is at least ${percent(options.threshold)} and ${formatNumber(options.minMs)} ms/s, and its interval (bootstrap over runs, ` +
      `${options.resamples} resamples, ${percent(options.confidence)} over the ${result.candidates} function${result.candidates === 1 ? '' : 's'} tested: ${percent(result.adjustedConfidence)} each) excludes 0 and the exact rank-sum test over the runs rejects "no change" at that level` +
      (result.lineCandidates === 0 ? '' : `; then the lines of the functions found changed, ${percent(options.confidence)} over those ${result.lineCandidates} line${result.lineCandidates === 1 ? '' : 's'} (${percent(1 - (1 - options.confidence) / result.lineCandidates)} each)`),
  ];
}

export function gateText(report: GateReport): string {
  const { result } = report;
  const out = header(report);
  out.push('', result.failed ? `FAIL: ${result.regressions.length} regression${result.regressions.length === 1 ? '' : 's'}` : 'PASS: no significant regression');
  const list = (title: string, changes: readonly GateChange[]): void => {
    if (changes.length === 0) return;
    out.push('', title);
    for (const change of changes.slice(0, report.top)) {
      out.push(`  ${subject(change, report)}: ${changeText(change)}`);
      const findings = findingsText(report.findings.get(change));
      if (findings !== null) out.push(`    finding there: ${findings}`);
    }
    if (changes.length > report.top) out.push(`  … and ${changes.length - report.top} more`);
  };
  list('Slower:', result.regressions);
  list('Faster:', result.improvements);
  return out.join('\n') + '\n';
}

/** Markdown cells: no pipes or newlines from a profile's names, code spans for names and places. */
function cell(text: string): string {
  return printable(text).replace(/\|/g, '\\|').replace(/`/g, "'");
}

export function gateMarkdown(report: GateReport): string {
  const { result } = report;
  const out = [`### Hotframe gate: ${result.failed ? `❌ ${result.regressions.length} regression${result.regressions.length === 1 ? '' : 's'}` : '✅ no significant regression'}`, '', ...header(report).map((l) => `${l}  `)];
  const table = (title: string, changes: readonly GateChange[]): void => {
    if (changes.length === 0) return;
    out.push('', `**${title}**`, '', '| where | change (ms/s) | before → after | interval | finding there |', '|---|---|---|---|---|');
    for (const change of changes.slice(0, report.top)) {
      const findings = report.findings.get(change) ?? [];
      out.push(
        `| \`${cell(subject(change, report))}\` | ${formatSignedNumber(change.delta)} (${change.relative === null ? 'new' : `${formatSignedNumber(change.relative * 100)}%`}) | ` +
          `${formatNumber(change.before)} → ${formatNumber(change.after)} | ${formatSignedNumber(change.interval.low)} to ${formatSignedNumber(change.interval.high)} | ` +
          `${findings.length === 0 ? '' : findings.map((f) => `\`${f.ruleId}\``).join(', ')} |`,
      );
    }
  };
  table('Slower', result.regressions);
  table('Faster', result.improvements);
  return out.join('\n') + '\n';
}

function changeJson(change: GateChange, report: GateReport) {
  return {
    kind: change.kind,
    ...(change.name !== undefined ? { name: change.name } : {}),
    ...(change.category !== undefined ? { category: change.category } : {}),
    file: shownFile(report, change.file),
    line: change.line,
    before: round(change.before),
    after: round(change.after),
    delta: round(change.delta),
    relative: change.relative === null ? null : Math.round(change.relative * 1e6) / 1e6,
    interval: { low: round(change.interval.low), high: round(change.interval.high) },
    confidence: Math.round(change.confidence * 1e6) / 1e6,
    p: Number(change.p.toPrecision(3)),
    paced: change.paced,
    findings: (report.findings.get(change) ?? []).map((f) => ({ ruleId: f.ruleId, message: f.message, line: f.range.loc.start.line })),
  };
}

export function gateJson(report: GateReport): string {
  const { result } = report;
  return JSON.stringify(
    {
      failed: result.failed,
      unit: result.unit,
      runs: result.runs,
      before: report.before,
      after: report.after,
      options: result.options,
      candidates: result.candidates,
      adjustedConfidence: Math.round(result.adjustedConfidence * 1e6) / 1e6,
      lineCandidates: result.lineCandidates,
      regressions: result.regressions.map((c) => changeJson(c, report)),
      improvements: result.improvements.map((c) => changeJson(c, report)),
    },
    null,
    2,
  );
}

/** One SARIF result per regression located in the workspace (a slower library function has no line of ours to put it on). */
export function gateSarif(report: GateReport): string {
  const { result } = report;
  const results = result.regressions.flatMap((change) => {
    if (!isAbsolute(change.file) || relative(report.cwd, change.file).startsWith('..')) return [];
    const file = shownFile(report, change.file);
    const findings = report.findings.get(change) ?? [];
    const named = findings.length === 0 ? '' : ` Finding there: ${findings.map((f) => `${f.ruleId}: ${f.message.split('\n')[0]}`).join(' ')}`;
    const text = `${change.kind === 'function' ? `${change.name || '(anonymous)'} (self time)` : `Line ${change.line}`} got slower: ${changeText(change)}.${named}`;
    const hash = createHash('sha256').update(`${change.kind}\0${file}\0${change.name ?? ''}`).digest('hex').slice(0, 32);
    return [
      {
        ruleId: 'cpu-regression',
        ruleIndex: 0,
        level: 'error',
        message: { text },
        locations: [{ physicalLocation: { artifactLocation: { uri: relativeUri(file), uriBaseId: '%SRCROOT%' }, region: { startLine: Math.max(1, change.line) } } }],
        partialFingerprints: { primaryLocationLineHash: `${hash}:${change.line}` },
        properties: { unit: result.unit, delta: round(change.delta), before: round(change.before), after: round(change.after), interval: { low: round(change.interval.low), high: round(change.interval.high) }, confidence: change.confidence, findings: findings.map((f) => f.ruleId) },
      },
    ];
  });
  const root = pathToFileURL(report.cwd).href;
  return JSON.stringify(
    {
      $schema: SARIF_SCHEMA,
      version: '2.1.0',
      runs: [
        {
          tool: {
            driver: {
              name: 'hotframe-gate',
              rules: [
                {
                  id: 'cpu-regression',
                  name: 'CpuRegression',
                  shortDescription: { text: 'A function or line uses more CPU per second than before, beyond the noise between runs and the threshold.' },
                  defaultConfiguration: { level: 'error' },
                  properties: { tags: ['performance', 'profile'] },
                },
              ],
            },
          },
          originalUriBaseIds: { '%SRCROOT%': { uri: root.endsWith('/') ? root : root + '/' } },
          columnKind: 'utf16CodeUnits',
          results,
          properties: { before: report.before, after: report.after, candidates: result.candidates, options: result.options },
        },
      ],
    },
    null,
    2,
  );
}
