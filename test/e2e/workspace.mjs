// What both launchers prepare before VS Code starts: a fresh build, a throwaway copy of the demo
// workspace (tests apply quick fixes and must not dirty the repository) and a user-data folder
// with settings that keep the window quiet (no welcome page, no update checks).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// HOTFRAME_E2E_TESTS: another compiled entry with the same run() contract (bench/editor.bench.mjs
// runs its measurements in the editor this way).
export const extensionTestsPath = process.env.HOTFRAME_E2E_TESTS ? resolve(process.env.HOTFRAME_E2E_TESTS) : join(root, 'dist', 'test', 'e2e', 'index.js');

export class LaunchError extends Error {}

const USER_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'security.workspace.trust.enabled': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'files.autoSave': 'off',
  'editor.minimap.enabled': false,
};

/** Builds (unless HOTFRAME_E2E_SKIP_BUILD=1, e.g. right after `npm run build`) and checks the bundles. */
export function buildExtension() {
  if (process.env.HOTFRAME_E2E_SKIP_BUILD !== '1') execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
  for (const f of [join(root, 'dist/extension.js'), join(root, 'dist/server.js'), extensionTestsPath]) {
    if (!existsSync(f)) throw new LaunchError(`${f} was not built`);
  }
}

export function prepareWorkspace() {
  const source = process.env.HOTFRAME_E2E_WORKSPACE ?? join(root, 'examples', 'demo-app');
  if (!existsSync(source)) throw new LaunchError(`${source} is missing`);
  const tmp = mkdtempSync(join(tmpdir(), 'hotframe-e2e-'));
  const workspace = join(tmp, 'demo-app');
  cpSync(source, workspace, { recursive: true, filter: (src) => !src.split(sep).includes('node_modules') });
  const userData = join(tmp, 'user-data');
  mkdirSync(join(userData, 'User'), { recursive: true });
  writeFileSync(join(userData, 'User', 'settings.json'), JSON.stringify(USER_SETTINGS, null, 2));
  const extensionsDir = join(tmp, 'extensions');
  mkdirSync(extensionsDir);
  return { tmp, workspace, userData, extensionsDir, remove: () => rmSync(tmp, { recursive: true, force: true }) };
}
