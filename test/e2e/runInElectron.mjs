// `npm run test:e2e:electron`: the same e2e suite in desktop VS Code, downloaded by
// @vscode/test-electron (needs access to update.code.visualstudio.com; on machines without it use
// `npm run test:e2e`, which runs code-server instead). No browser here, so the suite's
// browser-only steps (screenshots, clicking inside the flame graph webview) are skipped.
import { runTests } from '@vscode/test-electron';
import { buildExtension, extensionTestsPath, prepareWorkspace, root } from './workspace.mjs';

// The VS Code that code-server 4.100.3 embeds, so both launchers test the same workbench.
const version = process.env.HOTFRAME_VSCODE_VERSION ?? '1.100.3';

let prepared = null;
let code = 1;
try {
  buildExtension();
  prepared = prepareWorkspace();
  code = await runTests({
    version,
    extensionDevelopmentPath: root,
    extensionTestsPath,
    extensionTestsEnv: { HOTFRAME_E2E_GREP: process.env.HOTFRAME_E2E_GREP },
    launchArgs: [
      prepared.workspace,
      '--user-data-dir', prepared.userData,
      '--extensions-dir', prepared.extensionsDir,
      '--disable-extensions', // only the extension under development
      '--disable-telemetry',
      // runTests itself adds --disable-workspace-trust, --skip-welcome, --disable-updates.
    ],
  });
} catch (error) {
  // runTests rejects when VS Code exits non-zero (a failing suite) or cannot be downloaded.
  console.error(`e2e (electron): ${error instanceof Error ? error.message : String(error)}`);
  code = 1;
} finally {
  prepared?.remove();
}
process.exit(code);
