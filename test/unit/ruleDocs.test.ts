// Rule docs are test cases, so they cannot drift from behaviour (as Biome / oxlint do).
//
// Format of docs/rules/<id>.md, read by this test:
//   - a `## Invalid` section: every fenced code block in it tagged js, javascript, jsx, ts,
//     typescript or tsx must produce at least one finding of that rule;
//   - a `## Valid` section: every such block must produce no finding of that rule;
//   - each of the two sections needs at least one block. A section runs until the next `## `
//     heading. Blocks tagged anything else (```text for disable comments) are not run.
//   - ts/typescript blocks are analyzed as `example.ts`, tsx as `example.tsx`, others as `example.js`.
//   - the page starts with `# <id>` and shows `hotframe-disable-next-line <id>` (when to disable).
// Every rule registered in rules/index.ts must have its page.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { allRules } from '../../rules/index';
import { analyzeSource } from '../../server/static/engine';

const DOCS_DIR = join(__dirname, '..', '..', 'docs', 'rules');
const FILENAME_BY_LANG: Record<string, string> = {
  js: 'example.js', javascript: 'example.js', jsx: 'example.jsx',
  ts: 'example.ts', typescript: 'example.ts', tsx: 'example.tsx',
};

interface DocExample {
  code: string;
  filename: string;
  line: number; // 1-based line of the opening fence in the .md file
}

/** Code blocks of one `## <title>` section. */
export function examplesUnder(markdown: string, title: string): DocExample[] {
  const lines = markdown.split(/\r?\n/);
  const examples: DocExample[] = [];
  let inSection = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^##\s/.test(line)) {
      inSection = line.replace(/^##\s+/, '').trim().toLowerCase() === title.toLowerCase();
      continue;
    }
    const fence = /^(`{3,})\s*([A-Za-z]*)\s*$/.exec(line);
    if (!fence) continue;
    const closing = lines.findIndex((candidate, j) => j > i && candidate.startsWith(fence[1]) && candidate.trim() === fence[1]);
    const end = closing === -1 ? lines.length : closing;
    const filename = FILENAME_BY_LANG[fence[2].toLowerCase()];
    if (inSection && filename) examples.push({ code: lines.slice(i + 1, end).join('\n'), filename, line: i + 1 });
    i = end;
  }
  return examples;
}

describe('rule docs (docs/rules/<id>.md examples)', () => {
  it('parses sections and skips untagged-language blocks', () => {
    const sample = '# x\n## Invalid\n```js\na();\n```\n```text\nno\n```\n## Valid\n```ts\nb();\n```\n## Fix\n```js\nc();\n```\n';
    assert.deepEqual(examplesUnder(sample, 'Invalid'), [{ code: 'a();', filename: 'example.js', line: 3 }]);
    assert.deepEqual(examplesUnder(sample, 'Valid'), [{ code: 'b();', filename: 'example.ts', line: 10 }]);
  });

  for (const rule of allRules) {
    const id = rule.meta.id;
    describe(id, () => {
      const path = join(DOCS_DIR, `${id}.md`);
      let markdown = '';
      try {
        markdown = readFileSync(path, 'utf8');
      } catch {
        // reported by the test below
      }
      it('has a documentation page with Invalid and Valid examples', () => {
        assert.ok(markdown.length > 0, `missing ${path}`);
        assert.equal(markdown.split('\n')[0].trim(), `# ${id}`, 'the page starts with "# <id>"');
        assert.ok(markdown.includes(`hotframe-disable-next-line ${id}`), 'the page shows how to disable the rule');
        assert.ok(examplesUnder(markdown, 'Invalid').length > 0, 'no code block under "## Invalid"');
        assert.ok(examplesUnder(markdown, 'Valid').length > 0, 'no code block under "## Valid"');
      });
      for (const [section, wantFindings] of [['Invalid', true], ['Valid', false]] as const) {
        for (const example of examplesUnder(markdown, section)) {
          it(`${section} example at ${id}.md:${example.line} ${wantFindings ? 'is flagged' : 'is not flagged'}`, () => {
            const result = analyzeSource({ filePath: example.filename, text: example.code, rules: [rule] });
            assert.deepEqual(result.parseErrors, [], 'the example does not parse');
            assert.deepEqual(result.ruleErrors, [], 'the rule threw');
            const own = result.findings.filter((finding) => finding.ruleId === id);
            if (wantFindings) assert.ok(own.length > 0, 'expected at least one finding');
            else assert.deepEqual(own.map((f) => `${f.range.loc.start.line}: ${f.message}`), [], 'expected no finding');
          });
        }
      }
    });
  }
});
