// `npm test` runs this first (the `pretest` script), and so does `.ci/run`: it makes sure the
// machine has what the tests need beyond npm, before any test starts.
//
// - Node 20 or newer.
// - Debian/Ubuntu packages: chromium (the webview tests and the VS Code window of the e2e suite),
//   libkrb5-dev and build-essential/python3 (native modules of code-server, built from source; cc and
//   nm for the hostile-input suite's nm canary),
//   ripgrep (VS Code's search; its npm package would download a binary), redis-server (the demo
//   service that the e2e suite records a profile from), ca-certificates (npm over https).
//
// When something is missing: as root with apt-get, it installs it (non-interactively, as CI runs);
// otherwise it stops at once with the one command to run. Nothing is installed or asked twice:
// a machine that has everything costs one `dpkg-query`.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Debian package -> a file it installs, to check without dpkg where there is none. */
const PACKAGES = {
  chromium: '/usr/bin/chromium',
  'libkrb5-dev': '/usr/include/krb5.h',
  ripgrep: '/usr/bin/rg',
  'build-essential': '/usr/bin/make',
  python3: '/usr/bin/python3',
  'redis-server': '/usr/bin/redis-server',
  'ca-certificates': '/etc/ssl/certs/ca-certificates.crt',
};

function fail(message) {
  process.stderr.write(`setup-machine: ${message}\n`);
  process.exit(1);
}

const major = Number(process.versions.node.split('.')[0]);
if (major < 20) fail(`Node ${process.versions.node} is too old: the tests need Node 20 or newer`);

function has(command) {
  return spawnSync('sh', ['-c', 'command -v "$1"', 'sh', command], { stdio: 'ignore' }).status === 0;
}

/** Packages not installed: dpkg's answer where dpkg exists, else the file each one provides. */
function missingPackages() {
  const names = Object.keys(PACKAGES);
  if (!has('dpkg-query')) return names.filter((name) => !existsSync(PACKAGES[name]));
  const result = spawnSync('dpkg-query', ['-W', '-f=${Package} ${db:Status-Status}\\n', ...names], { encoding: 'utf8' });
  const installed = new Set(
    result.stdout
      .split('\n')
      .map((line) => line.trim().split(' '))
      .filter(([, status]) => status === 'installed')
      .map(([name]) => name),
  );
  return names.filter((name) => !installed.has(name));
}

const missing = missingPackages();
if (missing.length === 0) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const install = `apt-get install -y --no-install-recommends ${missing.join(' ')}`;
if (!has('apt-get')) {
  fail(`missing ${missing.join(', ')}; the browser and editor tests run on Debian/Ubuntu (with apt-get), or install the equivalents and put Chromium at /usr/bin/chromium`);
}
if (!isRoot) fail(`missing system packages; run: sudo apt-get update && sudo ${install}`);

process.stderr.write(`setup-machine: installing ${missing.join(' ')} (apt-get, as root)\n`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
try {
  execFileSync('apt-get', ['update', '-qq'], { stdio: ['ignore', 'inherit', 'inherit'], env });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], { stdio: ['ignore', 'inherit', 'inherit'], env });
} catch {
  fail(`apt-get could not install ${missing.join(' ')} (see above)`);
}
const still = missingPackages();
if (still.length > 0) fail(`still missing after apt-get: ${still.join(', ')}`);
