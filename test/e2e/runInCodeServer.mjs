// `npm run test:e2e`: runs the e2e suite in a real VS Code (code-server 4.100.3 = VS Code 1.100.3)
// shown by Debian's Chromium through playwright-core, following docs in /work/shared/vscode-e2e.md.
// Exits with the suite's code; non-zero on timeout. Screenshots go to test-results/e2e/.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { format } from 'node:util';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { installCodeServer } from './installCodeServer.mjs';
import { buildExtension, extensionTestsPath, prepareWorkspace, root } from './workspace.mjs';
import { runAction } from './browserActions.mjs';

const CHROMIUM = process.env.HOTFRAME_CHROMIUM ?? '/usr/bin/chromium';
const PORTS = [41600, 41699];
const TIMEOUT_MS = Number(process.env.HOTFRAME_E2E_TIMEOUT_MS ?? 8 * 60_000);
const shotsDir = join(root, 'test-results', 'e2e');

function fail(message) {
  console.error(`e2e: ${message}`);
  process.exit(1);
}

function freePort() {
  const tryPort = (port) =>
    new Promise((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
  return (async () => {
    for (let port = PORTS[0]; port <= PORTS[1]; port++) if (await tryPort(port)) return port;
    throw new Error(`no free port in ${PORTS.join('-')}`);
  })();
}

if (!existsSync(CHROMIUM)) fail(`Chromium not found at ${CHROMIUM}: install it (apt-get install chromium) or set HOTFRAME_CHROMIUM`);
let prepared;
let entry;
try {
  buildExtension();
  entry = installCodeServer();
  prepared = prepareWorkspace();
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
const { tmp, workspace, userData, extensionsDir } = prepared;
const actionsDir = join(tmp, 'actions');
mkdirSync(actionsDir);
// HOTFRAME_E2E_VSIX=<file.vsix>: test the packaged extension instead of the work tree. It is
// installed like a user would, and its installed folder is run as the development path.
let extensionPath = root;
const vsix = process.env.HOTFRAME_E2E_VSIX;
if (vsix) {
  try {
    execFileSync(process.execPath, [entry, '--user-data-dir', userData, '--extensions-dir', extensionsDir, '--install-extension', resolve(vsix)], { stdio: 'inherit' });
  } catch {
    prepared.remove();
    fail(`could not install ${vsix}`);
  }
  const installed = readdirSync(extensionsDir).find((d) => d.startsWith('hotframe.hotframe-'));
  if (!installed) {
    prepared.remove();
    fail(`${vsix} did not install as hotframe.hotframe`);
  }
  extensionPath = join(extensionsDir, installed);
  console.log(`e2e: testing the packaged extension in ${extensionPath}`);
}
rmSync(shotsDir, { recursive: true, force: true });
mkdirSync(shotsDir, { recursive: true });

const port = await freePort();
const server = spawn(
  process.execPath,
  [entry, '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`, '--user-data-dir', userData, '--extensions-dir', extensionsDir,
    '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', workspace],
  { env: { ...process.env, HOTFRAME_E2E_ACTIONS: actionsDir }, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
);
let browser = null;
let finished = false;
async function cleanup() {
  if (finished) return;
  finished = true;
  await browser?.close().catch(() => undefined);
  // code-server starts the extension host, file watcher and language server as children: end its
  // whole process group (it was spawned detached, so the group is ours alone), forcefully if slow.
  const signalGroup = (signal) => {
    try {
      process.kill(-server.pid, signal);
      return true;
    } catch {
      return false; // the group is gone
    }
  };
  if (signalGroup('SIGTERM')) {
    for (let waited = 0; waited < 5_000 && signalGroup(0); waited += 100) await new Promise((r) => setTimeout(r, 100));
    signalGroup('SIGKILL');
  }
  prepared.remove();
}
process.on('SIGINT', () => void cleanup().then(() => process.exit(130)));

const serverLog = [];
const listening = new Promise((resolve, reject) => {
  const onData = (chunk) => {
    const text = chunk.toString();
    serverLog.push(text);
    if (text.includes('HTTP server listening')) resolve();
  };
  server.stdout.on('data', onData);
  server.stderr.on('data', onData);
  server.once('exit', (code) => reject(new Error(`code-server exited early with ${code}:\n${serverLog.join('')}`)));
  setTimeout(() => reject(new Error(`code-server did not start in 60 s:\n${serverLog.join('')}`)), 60_000).unref();
});

let exitCode = 1;
try {
  await listening;
  console.log(`e2e: code-server on http://127.0.0.1:${port}, workspace ${workspace}`);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  let resolveExit;
  const suiteExit = new Promise((resolve) => (resolveExit = resolve));
  const shots = [];
  // The suite asks for things only the browser can do (screenshots, reading or clicking inside
  // the flame graph webview) by logging `HOTFRAME_ACTION {json}`; the answer is written to
  // <actionsDir>/<id>.json, which the suite waits for. Actions run one at a time, in order.
  let acting = Promise.resolve();
  const act = (request) => {
    acting = acting.then(async () => {
      let result;
      try {
        result = await runAction(page, request, shots, shotsDir);
      } catch (error) {
        // Playwright colours its call log; the CI log is plain text.
        const message = (error instanceof Error ? error.message : String(error)).replace(/\x1b\[[0-9;]*m/g, '');
        // The suite's assertion carries the first line; the whole text (Playwright's call log:
        // what it waited for, what it saw) goes to this log for whoever reads a failed CI run.
        console.error(`e2e: ${request.kind} failed:\n${message}`);
        result = { error: `${request.kind}: ${message.split('\n')[0]}` };
      }
      const file = join(actionsDir, `${request.id}.json`);
      writeFileSync(`${file}.tmp`, JSON.stringify(result));
      renameSync(`${file}.tmp`, file);
    });
  };
  await page.exposeFunction('codeAutomationLog', (type, args) => {
    // The extension host forwards console arguments unformatted (mocha's reporter uses %s / %d).
    const text = Array.isArray(args) ? format(...args) : String(args);
    const marker = /HOTFRAME_ACTION (\{.*\})/.exec(text);
    if (marker) {
      try {
        act(JSON.parse(marker[1]));
      } catch {
        console.error(`e2e: unreadable action ${marker[1]}`);
      }
    }
    process.stdout.write(`[exthost ${type}] ${text}\n`);
  });
  await page.exposeFunction('codeAutomationExit', (code) => resolveExit(Number(code)));
  const remote = (p) => `vscode-remote://127.0.0.1:${port}${p}`;
  const payload = [['extensionDevelopmentPath', remote(extensionPath)], ['extensionTestsPath', remote(extensionTestsPath)]];
  await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`);
  let timer;
  const timeout = new Promise((resolve) => (timer = setTimeout(() => resolve('timeout'), TIMEOUT_MS)));
  const result = await Promise.race([suiteExit, timeout]);
  clearTimeout(timer);
  if (result === 'timeout') {
    await page.screenshot({ path: join(shotsDir, 'timeout.png') }).catch(() => undefined);
    shots.push(join(shotsDir, 'timeout.png'));
    console.error(`e2e: the suite did not finish within ${TIMEOUT_MS / 1000} s`);
    exitCode = 1;
  } else {
    await acting;
    exitCode = result;
    console.log(`e2e: suite exited with ${result}`);
  }
  if (shots.length) console.log(`e2e: screenshots in ${shotsDir}:\n${shots.map((s) => `  ${s}`).join('\n')}`);
} catch (error) {
  console.error(`e2e: ${error instanceof Error ? error.message : String(error)}`);
  exitCode = 1;
} finally {
  await cleanup();
}
process.exit(exitCode);
