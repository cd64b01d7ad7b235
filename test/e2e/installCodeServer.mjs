// Installs code-server 4.100.3 (VS Code 1.100.3) into .vscode-test/code-server without any download
// outside the npm registry, following the recipe in /work/shared/vscode-e2e.md. Idempotent: a marker file
// records a finished install so later runs skip straight to starting it.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync, symlinkSync, rmSync, lstatSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const CODE_SERVER_VERSION = '4.100.3';
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const cacheDir = join(root, '.vscode-test', 'code-server');
const marker = join(cacheDir, `.installed-${CODE_SERVER_VERSION}`);
export const codeServerEntry = join(cacheDir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');

function run(cmd, args, cwd) {
  console.log(`[install] (${cwd.replace(root, '.')}) ${cmd} ${args.join(' ')}`);
  execFileSync(cmd, args, {
    cwd,
    stdio: 'inherit',
    env: { ...process.env, npm_config_yes: 'true', npm_config_audit: 'false', npm_config_fund: 'false' },
  });
}

function link(target, path) {
  try {
    lstatSync(path);
    rmSync(path, { force: true, recursive: false });
  } catch {
    /* absent: nothing to replace */
  }
  mkdirSync(dirname(path), { recursive: true });
  symlinkSync(target, path);
}

export function installCodeServer() {
  if (existsSync(marker) && existsSync(codeServerEntry)) return codeServerEntry;
  const rg = '/usr/bin/rg';
  if (!existsSync(rg)) throw new Error('ripgrep is missing: install it with `apt-get install ripgrep` (VS Code search needs /usr/bin/rg)');
  mkdirSync(cacheDir, { recursive: true });
  // A package.json of its own keeps npm from walking up into the project's.
  if (!existsSync(join(cacheDir, 'package.json'))) writeFileSync(join(cacheDir, 'package.json'), '{"name":"hotframe-code-server-cache","private":true}\n');
  run('npm', ['install', '--no-save', '--ignore-scripts', `code-server@${CODE_SERVER_VERSION}`], cacheDir);
  run('npm', ['rebuild', 'argon2'], cacheDir);
  const vscodeDir = join(cacheDir, 'node_modules', 'code-server', 'lib', 'vscode');
  run('npm', ['install', '--omit=dev', '--ignore-scripts'], vscodeDir);
  run('npm', ['rebuild', '@parcel/watcher', '@vscode/spdlog', 'native-watchdog', 'kerberos', 'node-pty', '@vscode/deviceid'], vscodeDir);
  link(rg, join(vscodeDir, 'node_modules', '@vscode', 'ripgrep', 'bin', 'rg'));
  link('node_modules', join(vscodeDir, 'node_modules.asar'));
  link('code-server', join(vscodeDir, 'bin', 'remote-cli', 'code-linux.sh'));
  link('browser.sh', join(vscodeDir, 'bin', 'helpers', 'browser-linux.sh'));
  run('npm', ['install', '--omit=dev', '--ignore-scripts'], join(vscodeDir, 'extensions'));
  writeFileSync(marker, new Date().toISOString() + '\n');
  return codeServerEntry;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) installCodeServer();
