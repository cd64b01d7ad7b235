// What a user reads is in their words (issue 24): every text Hotframe shows, gathered from where
// it is made (the rules' meta, the findings on the demo service and on every docs example, the
// insights of the demo's recorded profiles, the hover under a finding, package.json's
// contributions), is checked for words that only mean something to us (the incident write-ups'
// numbering, V8's "ticks", a test harness's name). A finding's or an insight's message is one or
// two sentences, and a rule's message never mentions a profile: ESLint shows it, with no profile.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

import type { Diagnostic } from 'vscode-languageserver';

import type { Finding } from '../../rules/api';
import { allRules } from '../../rules/index';
import { findingToDiagnostic } from '../../server/lsp/diagnostics';
import { findingHoverMarkdown } from '../../server/lsp/findingHover';
import { INSIGHT_INCIDENTS } from '../../server/profile/analysis/insights';
import { buildReport } from '../../server/profile/analysis/report';
import { loadProfile } from '../../server/profile/readers/load';
import { collectSourceFiles } from '../../server/shared/sourceFiles';
import { analyzeSource } from '../../server/static/engine';
import { ProjectIndex } from '../../server/static/projectIndex';
import { examplesUnder } from './ruleDocs.test';

const ROOT = resolve(__dirname, '..', '..');
const DEMO = join(ROOT, 'examples', 'demo-app');

/** Words of the write-ups and the tools behind them, never of a user. */
const INTERNAL = /\bseeds?\b|\bticks?\b|TestEnv|Teambition|incident-\d|\bincident 00\d/i;

/** Sentences, as a reader counts them: ends of sentence followed by the next one's first letter. */
function sentences(text: string): number {
  return text.trim().split(/(?<=[.!?])\s+(?=['"(]?[A-Z])/).length;
}

function assertUserWords(where: string, text: string): void {
  const hit = INTERNAL.exec(text);
  assert.equal(hit, null, `${where} says "${hit?.[0]}": ${text}`);
}

function assertShortMessage(where: string, message: string): void {
  assertUserWords(where, message);
  assert.ok(sentences(message) <= 2, `${where} runs to ${sentences(message)} sentences: ${message}`);
  assert.ok(message.split(/\s+/).length <= 60, `${where} runs to ${message.split(/\s+/).length} words: ${message}`);
}

/** Every finding on the demo service and on every example of docs/rules/*.md. */
function findingsToRead(): { where: string; finding: Finding }[] {
  const out: { where: string; finding: Finding }[] = [];
  const project = new ProjectIndex();
  for (const file of collectSourceFiles([DEMO], DEMO)) {
    for (const finding of analyzeSource({ filePath: file, text: readFileSync(file, 'utf8'), project }).findings) out.push({ where: `${file}:${finding.range.loc.start.line}`, finding });
  }
  const docs = join(ROOT, 'docs', 'rules');
  for (const page of readdirSync(docs).filter((name) => name.endsWith('.md'))) {
    for (const example of examplesUnder(readFileSync(join(docs, page), 'utf8'), 'Invalid')) {
      const result = analyzeSource({ filePath: join(DEMO, example.filename), text: example.code, project: new ProjectIndex() });
      for (const finding of result.findings) out.push({ where: `docs/rules/${page}:${example.line}`, finding });
    }
  }
  return out;
}

describe('words a user reads', function () {
  it("rules' meta: descriptions, incidents and message templates; templates never mention a profile", () => {
    for (const { meta } of allRules) {
      assertUserWords(`${meta.id} description`, meta.description);
      assertUserWords(`${meta.id} incident`, meta.incident.summary);
      for (const [id, template] of Object.entries(meta.messages)) {
        assertUserWords(`${meta.id}.${id}`, template);
        assert.doesNotMatch(template, /profile/i, `${meta.id}.${id} mentions a profile, which ESLint and the CLI without --profile do not have`);
      }
    }
  });

  it('every finding on the demo service and the docs examples: one or two sentences, no profile, every rule seen', () => {
    const findings = findingsToRead();
    assert.deepEqual(new Set(findings.map((f) => f.finding.ruleId)), new Set(allRules.map((r) => r.meta.id)));
    for (const { where, finding } of findings) {
      assertShortMessage(`${finding.ruleId} at ${where}`, finding.message);
      assert.doesNotMatch(finding.message, /profile/i, `${finding.ruleId} at ${where}`);
    }
  });

  it("the hover under each finding tells the incident in the user's words and links the rule's page", () => {
    for (const { where, finding } of findingsToRead()) {
      const diagnostic: Diagnostic = findingToDiagnostic(finding, 0, null, 1);
      const hover = findingHoverMarkdown([diagnostic], diagnostic.range.start, () => finding.evidence === 'frequency');
      assert.ok(hover !== null, `no hover at ${where}`);
      assertUserWords(`hover at ${where}`, hover);
      assert.match(hover, /^`[a-z-]+`: In a production incident, /);
      assert.match(hover, /\[Rule documentation\]\(\S+\)$/);
    }
    for (const [id, story] of Object.entries(INSIGHT_INCIDENTS)) assertUserWords(`insight ${id}`, story);
  });

  it("the insights of the demo's recorded profiles: measured figures and the fix, in one or two sentences", async function () {
    this.timeout(60_000);
    const seen = new Set<string>();
    for (const name of ['before.cpuprofile', 'before.v8.log.gz']) {
      const { insights } = buildReport(await loadProfile(join(DEMO, 'profiles', name)), { root: DEMO }).report;
      for (const insight of insights) {
        seen.add(insight.id);
        assertUserWords(`${name} insight ${insight.id} title`, insight.title);
        assertShortMessage(`${name} insight ${insight.id}`, insight.message);
      }
    }
    assert.ok(seen.size >= 4, `insights seen: ${[...seen].join(', ')}`);
  });

  it("package.json's contributions: commands, settings, views and the empty view's text (no raw backticks there)", () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      description: string;
      contributes: {
        commands: { title: string }[];
        configuration: { properties: Record<string, { description?: string; markdownDescription?: string }> };
        viewsWelcome: { contents: string }[];
      };
    };
    assertUserWords('package description', manifest.description);
    for (const command of manifest.contributes.commands) assertUserWords('command title', command.title);
    for (const [key, setting] of Object.entries(manifest.contributes.configuration.properties)) {
      assertUserWords(key, `${setting.description ?? ''} ${setting.markdownDescription ?? ''}`);
    }
    for (const welcome of manifest.contributes.viewsWelcome) {
      assertUserWords('viewsWelcome', welcome.contents);
      // VS Code renders links there, not code spans: a backtick shows as a backtick.
      assert.doesNotMatch(welcome.contents, /`/, welcome.contents);
    }
  });
});
