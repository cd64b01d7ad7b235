// What the project-wide analysis tests share (server/static/project/*.test.ts): a small
// multi-file project written to a temp folder, and its findings as the editor (one project index,
// every file analyzed twice) or the command line (analyzeFileList) computes them.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { analyzeFileList } from '../../server/cli/fileAnalysis';
import { analyzeSource } from '../../server/static/engine';
import { ProjectIndex } from '../../server/static/projectIndex';

const written: string[] = [];

/** A project on disk: relative path (folders made as needed) -> text; returns the directory. */
export function projectOf(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hotframe-project-'));
  written.push(dir);
  for (const [relative, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, relative)), { recursive: true });
    fs.writeFileSync(path.join(dir, relative), text);
  }
  return dir;
}

/** Removes every project projectOf wrote (call it from an `after` hook). */
export function removeProjects(): void {
  for (const dir of written.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/**
 * Every file analyzed once in the order given, then each again (as the command line does when a
 * later file changed what the project says of it); findings as `rule:line:severity`.
 */
export function findingsOf(dir: string, order: string[]): Record<string, string[]> {
  const project = new ProjectIndex();
  const read = (relative: string): string => fs.readFileSync(path.join(dir, relative), 'utf8');
  for (const relative of order) analyzeSource({ filePath: path.join(dir, relative), text: read(relative), project });
  const out: Record<string, string[]> = {};
  for (const relative of order) {
    out[relative] = analyzeSource({ filePath: path.join(dir, relative), text: read(relative), project }).findings
      .map((f) => `${f.ruleId}:${f.range.loc.start.line}:${f.severity}`);
  }
  return out;
}

/** Each file's findings shown at information or above (the command line's run), as `rule:line`, and their messages. */
export function shownIn(dir: string, files: string[]): { shown: Record<string, string[]>; messages: string[] } {
  const outcomes = analyzeFileList(files.map((f) => path.join(dir, f)), dir, {});
  const shown: Record<string, string[]> = {};
  const messages: string[] = [];
  files.forEach((file, i) => {
    const findings = outcomes[i].findings.map(({ finding }) => finding).filter((finding) => finding.severity !== 'hint');
    shown[file] = findings.map((finding) => `${finding.ruleId}:${finding.range.loc.start.line}`);
    messages.push(...findings.map((finding) => finding.message));
  });
  return { shown, messages };
}
