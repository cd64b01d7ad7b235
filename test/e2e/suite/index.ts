// Entry point of the e2e suite, bundled to dist/test/e2e/index.js and loaded by VS Code as the
// `extensionTestsPath` (by @vscode/test-electron or by code-server via test/e2e/runInCodeServer.mjs).
// The spec files are bundled in; mocha itself stays external and is loaded from node_modules.
import Mocha from 'mocha';

export async function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 60_000, reporter: 'spec' });
  // Expose describe/it before the spec modules run (they are evaluated by the dynamic imports below).
  mocha.suite.emit(Mocha.Suite.constants.EVENT_FILE_PRE_REQUIRE, globalThis, 'hotframe-e2e', mocha);
  await import('./activation.test');
  await import('./diagnostics.test');
  await import('./quickFix.test');
  await import('./profile.test');
  await import('./compare.test');
  await import('./allocation.test');
  await import('./allocationJoin.test');
  await import('./record.test');
  await import('./untrustedNames.test');
  await import('./attach.test');
  await import('./stalls.test');
  await import('./gcTracePerf.test');
  await import('./sandwich.test');
  const grep = process.env.HOTFRAME_E2E_GREP;
  if (grep) mocha.grep(new RegExp(grep));
  const failures = await new Promise<number>((resolve) => mocha.run(resolve));
  if (failures > 0) throw new Error(`${failures} e2e test(s) failed`);
}
