// A file or folder name is text from anywhere. Named like a markdown command link, it reaches
// the error notification of a failed load (VS Code renders `[text](command:…)` there as a live
// link); a click on it once ran the recorder with a command line taken from the link. Here a
// person's click is made in the real workbench, and what must hold is that nothing ran.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { browserAction, debugState, demoRoot, screenshot } from './workbench';

const MARKER = 'PWNED-by-a-file-name';

/** A `command:` link with its arguments, as VS Code parses them (URI-encoded JSON, no `(` `)` left bare). */
function commandLink(command: string, args: unknown[]): string {
  const encoded = encodeURIComponent(JSON.stringify(args)).replace(/[()'!*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `command:${command}?${encoded}`;
}

/** A recording of `touch <marker>` in the workspace folder: what the old recorder accepted from an argument. */
const RUN = commandLink('hotframe.recordProfile', [{ command: ['touch', MARKER] }]);

interface Seen {
  message: string;
  links: string[];
  clicked: boolean;
}

/** Waits `ms` and fails as soon as the marker appears or a recording starts. */
async function nothingRunsFor(ms: number, marker: string): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    assert.equal(fs.existsSync(marker), false, `${marker} was written: the link ran a command`);
    assert.equal((await debugState()).recording.active, false, 'a recording started');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('file and folder names in notifications', () => {
  let root = '';
  let marker = '';

  before(() => {
    root = path.join(demoRoot(), 'untrusted-names');
    marker = path.join(demoRoot(), MARKER);
    fs.mkdirSync(root, { recursive: true });
  });

  beforeEach(() => fs.rmSync(marker, { force: true }));

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  after(() => {
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(marker, { force: true });
  });

  for (const [what, text, place] of [
    ['a profile whose file name', 'Recorded on Node 18', (dir: string) => path.join(dir, `Recorded on Node 18, [click here to convert it](${RUN}).cpuprofile`)],
    ['a profile whose folder name', 'From a bug report', (dir: string) => path.join(dir, `From a bug report, [click here to convert it](${RUN})`, 'profile.cpuprofile')],
  ] as const) {
    it(`${what} is a command link: the error shows the name without a link, and a click runs nothing`, async function () {
      this.timeout(60_000);
      const file = place(root);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, 'not a profile\n');
      const loaded = await vscode.commands.executeCommand('hotframe.openProfile', file);
      assert.equal(loaded, null, 'the file is not a profile');
      const lastError = (await debugState()).lastError ?? '';
      assert.ok(lastError.includes(text), `the error names the file: ${lastError}`);
      // A person clicks the link if one rendered (only the code-server launcher has a browser).
      const seen = await browserAction<Seen>('notificationLinks', { text, click: true });
      await screenshot(`untrusted-name-${what.split(' ').pop()}`);
      await nothingRunsFor(4_000, marker);
      if (seen === null) return;
      assert.match(seen.message, new RegExp(`${text}.*click here to convert it`), 'the name is shown');
      assert.deepEqual(seen.links, [], `no link renders in: ${seen.message}`);
    });
  }

  it('hotframe.recordProfile takes no command line from its arguments: it asks', async function () {
    this.timeout(60_000);
    // As a link, a keybinding or another extension would call it.
    const asked = vscode.commands.executeCommand('hotframe.recordProfile', { command: ['touch', MARKER] });
    const shown = await browserAction<{ title: string }>('answerQuickInput', { value: 'Type a command' });
    if (shown !== null) {
      assert.match(shown.title, /Record CPU Profile/, 'the recorder asked what to run');
      // Escape on the input box that follows: the person ran nothing.
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    }
    await nothingRunsFor(2_000, marker);
    if (shown !== null) assert.equal(await asked, null);
  });
});
