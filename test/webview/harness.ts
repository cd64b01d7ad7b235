// Loads the real webview bundle (dist/webview.js + its css) in headless Chromium under the same
// HTML and Content-Security-Policy the panel uses (client/flameHtml.ts), with a fake VS Code
// host: `acquireVsCodeApi()` records what the page posts, and `render` / `error` messages are
// delivered with window.postMessage, as the real host does. Used by the tests and the bench.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { flameHtml } from '../../client/flameHtml';
import type { FromWebview, ToWebview } from '../../server/protocol/webview';

/** A made-up origin served by request interception: no port, no network. */
export const ORIGIN = 'https://hotframe-webview.test';
// require.resolve, not __dirname: the bench loads this file through tsx's tsImport, where __dirname is not the file's folder.
const root = dirname(require.resolve('../../package.json'));
const dist = join(root, 'dist');
const DIST_FILES = ['webview.js', 'flame.css', 'd3-flamegraph.css'];

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

/** The bundle must be built from the current sources (`node scripts/build.mjs`). */
export function assertBuilt(): void {
  const missing = DIST_FILES.filter((f) => !existsSync(join(dist, f)));
  if (missing.length > 0) throw new Error(`dist/${missing.join(', dist/')} missing: run \`node scripts/build.mjs\` first`);
  const built = statSync(join(dist, 'webview.js')).mtimeMs;
  const stale = ['main.ts', 'flameView.ts', 'flame.css'].filter((f) => statSync(join(root, 'webview', f)).mtimeMs > built + 1000);
  if (stale.length > 0) throw new Error(`dist/webview.js is older than webview/${stale[0]}: run \`node scripts/build.mjs\``);
}

/**
 * Polls `predicate` in the page. (page.waitForFunction compiles the predicate with eval in
 * the page, which the panel's CSP forbids; page.evaluate goes through the debugger instead.)
 */
export async function waitFor(page: Page, predicate: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await page.evaluate(predicate))) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export interface Harness {
  page: Page;
  /** Console errors, page errors and CSP violations seen so far. */
  problems: string[];
  posted(): Promise<FromWebview[]>;
  send(message: ToWebview | Record<string, unknown>): Promise<void>;
  /** Waits until d3's zero-length transitions have run and the frame is painted. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  width?: number;
  height?: number;
  /** Reduced motion switches the chart's transitions off, so a settle() is enough. */
  reducedMotion?: boolean;
}

// A string, not a function: tsx's transform would add helper calls (__name) that do not exist in the page.
const fakeHost = `
  window.__posted = [];
  window.__cspViolations = [];
  document.addEventListener('securitypolicyviolation', function (e) {
    window.__cspViolations.push(e.violatedDirective + ' blocked ' + e.blockedURI);
  });
  window.acquireVsCodeApi = function () {
    return {
      postMessage: function (m) { window.__posted.push(JSON.parse(JSON.stringify(m))); },
      getState: function () { return undefined; },
      setState: function () {},
    };
  };
`;

export async function openHarness(browser: Browser, options: HarnessOptions = {}): Promise<Harness> {
  assertBuilt();
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1100, height: options.height ?? 700 },
    reducedMotion: options.reducedMotion === false ? 'no-preference' : 'reduce',
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
  const html = flameHtml({
    cspSource: ORIGIN,
    nonce,
    scriptUri: `${ORIGIN}/dist/webview.js`,
    styleUris: [`${ORIGIN}/dist/d3-flamegraph.css`, `${ORIGIN}/dist/flame.css`],
  });
  await page.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.origin !== ORIGIN) return route.abort();
    if (url.pathname === '/' || url.pathname === '/index.html') return route.fulfill({ contentType: 'text/html', body: html });
    const name = url.pathname.replace(/^\/dist\//, '');
    if (!DIST_FILES.includes(name)) return route.fulfill({ status: 404, body: 'not found' });
    const type = name.endsWith('.js') ? 'text/javascript' : 'text/css';
    return route.fulfill({ contentType: type, body: readFileSync(join(dist, name)) });
  });
  await page.addInitScript(fakeHost);
  await page.goto(`${ORIGIN}/index.html`);
  await waitFor(page, () => ((window as unknown as { __posted?: unknown[] }).__posted ?? []).length > 0, 'the webview to post ready');

  const harness: Harness = {
    page,
    problems,
    posted: () => page.evaluate(() => (window as unknown as { __posted: FromWebview[] }).__posted),
    async send(message) {
      await page.evaluate((m) => window.postMessage(m, '*'), message);
      await harness.settle();
    },
    async settle() {
      await page.evaluate(
        () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0)))),
      );
      const violations = await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations.splice(0));
      problems.push(...violations.map((v) => `csp: ${v}`));
    },
    close: () => context.close(),
  };
  return harness;
}
