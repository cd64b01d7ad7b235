// Every link Hotframe emits leads somewhere (issue 24). Nothing is published on the web, so a
// rule's link is a page of docs/ inside the package (shipped in the VSIX and the npm package):
// the LSP diagnostic's codeDescription, the hover under a finding, SARIF's helpUri and
// informationUri, ESLint's meta.docs.url. The links between our markdown files must lead to a file
// of the clone, and no file names the unrelated repository our manifest once pointed at.
// (The installed npm package's links are followed by test/unit/npmPackage.test.ts.)
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Finding } from '../../rules/api';
import { allRules } from '../../rules/index';
import type { AnalyzeReport } from '../../server/cli/findingFormats';
import { formatSarif } from '../../server/cli/sarifFormat';
import plugin from '../../server/eslint/plugin';
import { findingToDiagnostic } from '../../server/lsp/diagnostics';
import { findingHoverMarkdown } from '../../server/lsp/findingHover';
import type { Insight } from '../../server/profile/model/types';

const ROOT = resolve(__dirname, '..', '..');

/** Fails unless `url` is a file: URL of a file that exists (a web address would lead nowhere offline). */
export function assertLeadsSomewhere(url: string, where: string): void {
  assert.match(url, /^file:\/\//, `${where}: ${url} is not a file of the package`);
  const path = fileURLToPath(url.replace(/#.*$/, ''));
  assert.ok(existsSync(path) && statSync(path).isFile(), `${where}: ${url} leads nowhere`);
}

/** The targets of markdown links `[text](target)` in a text. */
export function markdownLinks(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]);
}

function aFindingOf(ruleId: Finding['ruleId']): Finding {
  const loc = { start: { line: 1, column: 0 }, end: { line: 1, column: 4 } };
  return { ruleId, messageId: 'm', message: 'm', severity: 'warning', range: { start: 0, end: 4, loc }, fixes: [], enclosingFunction: null };
}

describe('every link the product emits leads somewhere', () => {
  it("LSP diagnostics' codeDescription and the hover under each finding open the rule's page", () => {
    for (const { meta } of allRules) {
      const diagnostic = findingToDiagnostic(aFindingOf(meta.id), 0, null, 1);
      assert.ok(diagnostic.codeDescription, meta.id);
      assertLeadsSomewhere(diagnostic.codeDescription.href, `${meta.id} codeDescription`);
      assert.match(diagnostic.codeDescription.href, new RegExp(`/docs/rules/${meta.id}\\.md$`));
      const hover = findingHoverMarkdown([diagnostic], diagnostic.range.start) ?? '';
      const links = markdownLinks(hover);
      assert.ok(links.length > 0, `${meta.id}: no link in the hover`);
      for (const link of links) assertLeadsSomewhere(link, `${meta.id} hover`);
    }
  });

  it("SARIF: every rule's and insight's helpUri, and the driver's informationUri", () => {
    const insight: Insight = { id: 'gc-pressure', seed: '001', title: 'GC', message: 'GC took 1 ms.', samples: 1, ms: 1, percent: 10, location: { file: 'a.js', line: 1 }, shareBasis: { unit: 'ms' } };
    const report: AnalyzeReport = {
      findings: [],
      filesAnalyzed: 0,
      skipped: [],
      profileGiven: true,
      profile: { file: 'p.cpuprofile', unit: 'ms', shareOf: '% of CPU time, idle excluded', total: 10, insights: [insight] },
    };
    const sarif = JSON.parse(formatSarif(report, allRules.map((r) => r.meta), ROOT, '0.0.0')) as {
      runs: { tool: { driver: { informationUri: string; rules: { id: string; helpUri: string }[] } } }[];
    };
    const driver = sarif.runs[0].tool.driver;
    assertLeadsSomewhere(driver.informationUri, 'SARIF informationUri');
    assert.equal(driver.rules.length, allRules.length + 1);
    for (const rule of driver.rules) assertLeadsSomewhere(rule.helpUri, `SARIF ${rule.id}`);
  });

  it("ESLint: every rule's meta.docs.url", () => {
    for (const [id, rule] of Object.entries(plugin.rules)) assertLeadsSomewhere(rule.meta?.docs?.url ?? '', `hotframe/${id}`);
  });

  it('package.json: no web address of a repository, every command a markdown text links is contributed', () => {
    const text = readFileSync(join(ROOT, 'package.json'), 'utf8');
    const manifest = JSON.parse(text) as { repository?: unknown; contributes: { commands: { command: string }[] } };
    assert.equal(manifest.repository, undefined);
    const commands = new Set(manifest.contributes.commands.map((c) => c.command));
    for (const link of markdownLinks(text)) {
      assert.match(link, /^command:/, `package.json links ${link}`);
      assert.ok(commands.has(link.slice('command:'.length).replace(/\?.*$/, '')), link);
    }
  });

  it('the markdown files link files that exist (README, CONTRIBUTING, docs/, the demo)', () => {
    const pages = execFileSync('git', ['ls-files', '*.md'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter((p) => p !== '' && !p.startsWith('test/precision/'));
    assert.ok(pages.includes('README.md') && pages.includes('docs/rules/spawn-without-env.md'), pages.join(', '));
    const broken: string[] = [];
    for (const page of pages) {
      // Code blocks and code spans show text, not links (docs/security.md shows the shape of a hostile one).
      const markdown = readFileSync(join(ROOT, page), 'utf8').replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
      for (const link of markdownLinks(markdown)) {
        if (/^(https?|mailto):/.test(link) || link.startsWith('#')) continue;
        const target = resolve(dirname(join(ROOT, page)), decodeURIComponent(link.replace(/#.*$/, '')));
        if (!existsSync(target)) broken.push(`${page}: ${link}`);
      }
    }
    assert.deepEqual(broken, []);
  });

  it('no tracked file names the unrelated repository', () => {
    const unrelated = ['hotframe', 'hotframe'].join('/');
    const grep = spawnSync('git', ['grep', '-l', '-F', unrelated, '--', '.', ':!package-lock.json'], { cwd: ROOT, encoding: 'utf8' });
    // git grep: 1 when nothing matches, 0 with the files that do.
    assert.equal(grep.status, 1, grep.stdout + grep.stderr);
  });
});
