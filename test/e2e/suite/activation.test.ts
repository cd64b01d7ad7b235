import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID, hotframeApi } from './workbench';

describe('activation', () => {
  it('activates and registers its commands', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not installed in this window`);
    await extension.activate();
    console.log(`HOTFRAME_EXTENSION_PATH ${extension.extensionPath}`);
    const commands = await vscode.commands.getCommands(true);
    for (const id of ['hotframe.openProfile', 'hotframe.compareProfile', 'hotframe.clearProfile', 'hotframe.showFlameGraph', 'hotframe.openWithHotframe']) {
      assert.ok(commands.includes(id), `command ${id} is not registered`);
    }
  });

  it('activates within 100 ms', async () => {
    const ms = (await hotframeApi()).activationMs;
    console.log(`HOTFRAME_ACTIVATION_MS ${ms}`);
    assert.equal(typeof ms, 'number');
    assert.ok(ms >= 0 && ms <= 100, `activation took ${ms} ms`);
  });
});
