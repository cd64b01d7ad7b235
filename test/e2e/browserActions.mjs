// What the code-server launcher does in the browser when the suite asks (see runInCodeServer.mjs):
// screenshots, reading or double-clicking frames inside the flame graph webview, and clicking
// notification buttons (Cancel on a progress notification) and links, answering quick inputs, which the
// VS Code API cannot reach. Webviews are nested iframes; playwright sees them in page.frames().
import { join } from 'node:path';

const FLAME_FRAME = 'svg g.frame';
const POLL_MS = 200;

async function untilFound(timeoutMs, probe) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) return null;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** The webview frame that shows the flame graph with the most frames drawn, or null. */
async function flameFrame(page) {
  let best = null;
  for (const frame of page.frames()) {
    const count = await frame.locator(FLAME_FRAME).count().catch(() => 0);
    if (count > 0 && (!best || count > best.count)) best = { frame, count };
  }
  return best;
}

async function screenshot(page, { name }, shots, shotsDir) {
  const file = join(shotsDir, `${String(name).replace(/[^\w.-]/g, '_')}.png`);
  // The extension host has just acted; give the renderer a moment to paint it.
  await page.waitForTimeout(700);
  await page.screenshot({ path: file });
  shots.push(file);
  console.log(`e2e: screenshot ${file}`);
  return { file };
}

async function flameFrames(page, { timeoutMs = 15_000 }) {
  const found = await untilFound(timeoutMs, () => flameFrame(page));
  if (!found) return { frames: 0, names: [] };
  const names = await found.frame.locator(FLAME_FRAME).evaluateAll((gs) => gs.slice(0, 400).map((g) => g.getAttribute('name') ?? ''));
  return { frames: found.count, names };
}

/** The flame panel's callers/callees split as drawn: its heading and the frames of each chart; throws when it is not drawn in time. */
async function sandwichSplit(page, { timeoutMs = 30_000 }) {
  const drawn = await untilFound(timeoutMs, async () => {
    for (const frame of page.frames()) {
      const drawn = await frame
        .evaluate((selector) => {
          const split = document.querySelector('section.sandwich');
          if (!split || split.hidden) return null;
          const callers = split.querySelectorAll(`.sandwich-callers ${selector}`).length;
          const callees = split.querySelectorAll(`.sandwich-callees ${selector}`).length;
          return callers > 0 ? { heading: split.querySelector('.sandwich-heading')?.textContent ?? '', callers, callees } : null;
        }, FLAME_FRAME)
        .catch(() => null);
      if (drawn) return drawn;
    }
    return null;
  });
  if (!drawn) throw new Error('the flame panel drew no callers/callees split');
  return drawn;
}

async function dblclickFrame(page, { name, timeoutMs = 15_000 }) {
  const found = await untilFound(timeoutMs, async () => {
    const flame = await flameFrame(page);
    if (!flame) return null;
    // The widest frame whose name mentions the function: the one a person would aim at.
    const index = await flame.frame.locator(FLAME_FRAME).evaluateAll((gs, wanted) => {
      let best = -1;
      let width = 0;
      gs.forEach((g, i) => {
        const w = g.getBoundingClientRect().width;
        if ((g.getAttribute('name') ?? '').includes(wanted) && w > width) {
          best = i;
          width = w;
        }
      });
      return best;
    }, String(name));
    return index >= 0 ? { flame, index } : null;
  });
  if (!found) throw new Error(`no flame graph frame named like ${JSON.stringify(name)}`);
  const frame = found.flame.frame.locator(FLAME_FRAME).nth(found.index);
  const clicked = await frame.getAttribute('name');
  // A real double-click at the frame's left end, in page coordinates (the label on top of the
  // rect takes the pointer events, which is what a person's click hits too). The graph may still be
  // moving (a redraw's transition after the mode changed): the click waits until the frame's box
  // is the same in two reads 150 ms apart (at most 5 s), or it lands on the frame that moved under it.
  let box = await frame.boundingBox({ timeout: 5_000 });
  for (const until = Date.now() + 5_000; box && Date.now() < until; ) {
    await new Promise((resolve) => setTimeout(resolve, 150));
    const again = await frame.boundingBox({ timeout: 5_000 });
    const same = again !== null && ['x', 'y', 'width', 'height'].every((k) => Math.abs(again[k] - box[k]) < 0.5);
    box = again;
    if (same) break;
  }
  if (!box) throw new Error(`frame ${JSON.stringify(clicked)} is not visible`);
  await page.mouse.dblclick(box.x + Math.min(box.width / 2, 12), box.y + box.height / 2);
  return { clicked };
}

/**
 * Hovers the topmost frame named exactly `name` (in the inverted graph: the function's own row
 * under the root) with the pointer, and returns the lines of the tooltip the page shows.
 */
async function frameTooltip(page, { name, timeoutMs = 15_000 }) {
  const found = await untilFound(timeoutMs, async () => {
    const flame = await flameFrame(page);
    if (!flame) return null;
    const index = await flame.frame.locator(FLAME_FRAME).evaluateAll((gs, wanted) => {
      let best = -1;
      let top = Infinity;
      gs.forEach((g, i) => {
        const box = g.getBoundingClientRect();
        if (g.getAttribute('name') === wanted && box.width > 0 && box.top < top) {
          best = i;
          top = box.top;
        }
      });
      return best;
    }, String(name));
    return index >= 0 ? { flame, index } : null;
  });
  if (!found) throw new Error(`no flame graph frame named ${JSON.stringify(name)}`);
  const frame = found.flame.frame.locator(FLAME_FRAME).nth(found.index);
  const box = await frame.boundingBox({ timeout: 5_000 });
  if (!box) throw new Error(`frame ${JSON.stringify(name)} is not visible`);
  await page.mouse.move(box.x + Math.min(box.width / 2, 12), box.y + box.height / 2);
  const tooltip = found.flame.frame.locator('.tooltip');
  await tooltip.waitFor({ state: 'visible', timeout: timeoutMs });
  const lines = await tooltip.locator(':scope > div').allTextContents();
  return { lines };
}

/** The label and description of the tree row whose label is exactly `label` in the view titled `view`. */
async function treeItemText(page, { view, label, timeoutMs = 15_000 }) {
  const escape = (text) => String(text).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pane = page.locator('.pane', { has: page.locator('.pane-header', { hasText: String(view) }) }).first();
  const row = pane.locator('.monaco-list-row', { has: page.locator('.label-name', { hasText: new RegExp(`^${escape(label)}$`) }) }).first();
  await row.waitFor({ state: 'visible', timeout: timeoutMs });
  return { label: (await row.locator('.label-name').first().textContent()) ?? '', description: (await row.locator('.label-description').first().textContent()) ?? '' };
}

/** Clicks a button (e.g. Cancel) on the notification toast whose text contains `text`. */
async function clickNotificationButton(page, { text, button, timeoutMs = 15_000 }) {
  const toast = page.locator('.notification-toast', { hasText: String(text) }).first();
  await toast.waitFor({ state: 'visible', timeout: timeoutMs });
  const message = (await toast.locator('.notification-list-item-message').first().textContent()) ?? '';
  await toast.locator('.monaco-button', { hasText: String(button) }).first().click({ timeout: timeoutMs });
  return { message };
}

/**
 * The links VS Code rendered in the notification toast whose text contains `text`; with `click`,
 * clicks the first one as a person would (a file name must never make one).
 */
async function notificationLinks(page, { text, click = false, timeoutMs = 15_000 }) {
  const toast = page.locator('.notification-toast', { hasText: String(text) }).first();
  await toast.waitFor({ state: 'visible', timeout: timeoutMs });
  const body = toast.locator('.notification-list-item-message').first();
  const message = (await body.textContent()) ?? '';
  const anchors = body.locator('a');
  const links = await anchors.evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? a.getAttribute('data-href') ?? a.textContent ?? ''));
  if (click && links.length > 0) {
    // A long message is drawn on one line, cut off: expand the toast as a person would, then click.
    const expand = toast.locator('.codicon-notifications-expand').first();
    if (await expand.isVisible().catch(() => false)) await expand.click({ timeout: timeoutMs });
    await anchors.first().click({ timeout: 5_000 }).catch(() => anchors.first().evaluate((a) => a.click()));
  }
  return { message, links, clicked: click && links.length > 0 };
}

/**
 * Answers the quick input on screen as a person would: types `value` into its box (the filter
 * of a quick pick, or an input box's text, replacing what is there) and presses Enter.
 */
async function answerQuickInput(page, { value, timeoutMs = 15_000 }) {
  const widget = page.locator('.quick-input-widget');
  await widget.waitFor({ state: 'visible', timeout: timeoutMs });
  const input = widget.locator('.quick-input-box input').first();
  // The list filters as it is typed; give it a frame before accepting the first match. The open
  // dialog (code-server's own file dialog) sets its folder's path into the box once it has read
  // the folder, which can land after the fill: fill again until the box keeps what was typed.
  for (let tries = 0; tries < 10; tries++) {
    await input.fill(String(value), { timeout: timeoutMs });
    await page.waitForTimeout(300);
    if ((await input.inputValue({ timeout: timeoutMs })) === String(value)) break;
  }
  const title = (await widget.locator('.quick-input-title').first().textContent().catch(() => '')) ?? '';
  await input.press('Enter', { timeout: timeoutMs });
  return { title };
}

/** What the open quick pick shows: its title and the text of each rendered row (label, description, detail). */
async function quickPickRows(page, { timeoutMs = 15_000 }) {
  const widget = page.locator('.quick-input-widget');
  await widget.waitFor({ state: 'visible', timeout: timeoutMs });
  await widget.locator('.monaco-list-row').first().waitFor({ state: 'visible', timeout: timeoutMs });
  const title = (await widget.locator('.quick-input-title').first().textContent().catch(() => '')) ?? '';
  const rows = await widget.locator('.monaco-list-row').evaluateAll((list) => list.map((row) => (row.textContent ?? '').replace(/\s+/g, ' ').trim()));
  return { title, rows };
}

/** Clicks the link or button with exactly this text inside a webview (any frame but the workbench). */
async function clickInWebview(page, { text, timeoutMs = 15_000 }) {
  const found = await untilFound(timeoutMs, async () => {
    for (const frame of page.frames()) {
      if (frame === page.mainFrame()) continue;
      const target = frame.getByText(String(text), { exact: true }).first();
      if ((await target.count().catch(() => 0)) > 0) return target;
    }
    return null;
  });
  if (!found) throw new Error(`no webview element with the text ${JSON.stringify(text)}`);
  await found.click({ timeout: timeoutMs });
  return { clicked: text };
}

/**
 * The flame panel's stall strip as drawn: its summary and marks (text, clickable, box). With
 * `hover` (a mark's position in the strip), the pointer rests on that mark first and the strip's
 * hover line is returned; with `click`, that mark is then clicked as a person would.
 */
async function stallStrip(page, { hover, click, timeoutMs = 15_000 }) {
  // The webview showing a strip now (a hidden panel's frame may still hold an older one).
  const frame = await untilFound(timeoutMs, async () => {
    for (const f of page.frames()) {
      if (await f.locator('.stall-strip:not([hidden]) .stall-track').first().isVisible().catch(() => false)) return f;
    }
    return null;
  });
  if (!frame) throw new Error('no flame graph webview shows a stall strip');
  const summary = (await frame.locator('.stall-summary').first().textContent()) ?? '';
  const marks = await frame.locator('.stall-mark').evaluateAll((nodes) =>
    nodes.map((n) => {
      const box = n.getBoundingClientRect();
      return { title: n.getAttribute('title') ?? '', openable: !n.disabled, x: box.x, width: box.width };
    }),
  );
  const track = await frame.locator('.stall-track').first().boundingBox();
  let hoverText = null;
  if (typeof hover === 'number') {
    await frame.locator('.stall-mark').nth(hover).hover({ timeout: timeoutMs });
    hoverText = (await frame.locator('.stall-hover').first().textContent()) ?? '';
  }
  if (typeof click === 'number') {
    // A person's click at the mark's middle, in page coordinates: whatever is on top there gets it.
    const box = await frame.locator('.stall-mark').nth(click).boundingBox({ timeout: timeoutMs });
    if (!box) throw new Error(`stall mark ${click} is not visible`);
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  }
  return { summary, marks, trackWidth: track?.width ?? 0, hoverText };
}

/** The text of the editor hover shown now (diagnostics' messages and the providers' markdown). */
async function hoverText(page, { timeoutMs = 15_000 }) {
  const hover = page.locator('.monaco-hover:not(.hidden)').first();
  await hover.waitFor({ state: 'visible', timeout: timeoutMs });
  // The providers' part arrives after the markers' part: wait until the text stops growing.
  let text = '';
  for (let i = 0; i < 20; i++) {
    const now = (await hover.innerText().catch(() => '')) ?? '';
    if (now === text && now !== '') break;
    text = now;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return { text };
}

/** What the view titled `view` shows: its header and the labels of its rendered rows. */
async function describePane(page, view) {
  return page.evaluate((title) => {
    const pane = [...document.querySelectorAll('.pane')].find((p) => p.querySelector('.pane-header')?.textContent?.includes(title));
    if (!pane) return `no view titled ${JSON.stringify(title)} in the page`;
    const header = pane.querySelector('.pane-header');
    const text = (row, selector) => row.querySelector(selector)?.textContent?.trim() ?? '';
    const rows = [...pane.querySelectorAll('.monaco-list-row')].map((r) => `${text(r, '.label-name')} ${text(r, '.label-description')}`.trim());
    // What a click in the upper part of the view would hit: a row, or something drawn over it.
    const box = pane.getBoundingClientRect();
    const hit = document.elementFromPoint(box.x + box.width / 2, box.y + Math.min(60, box.height / 2));
    const hitText = hit === null ? 'nothing' : `${hit.tagName.toLowerCase()}.${String(hit.className).split(' ').join('.')}`;
    return `view ${JSON.stringify(title)} (expanded: ${header?.getAttribute('aria-expanded')}, shown: ${pane.offsetParent !== null}, ${box.height}px high, a click there hits ${hitText}) shows ${rows.length} rows: ${JSON.stringify(rows)}`;
  }, String(view));
}

/** Clicks the tree row whose label is exactly `label` in the view titled `view` (a person's click). */
async function clickTreeItem(page, { view, label, timeoutMs = 15_000 }) {
  const escape = (text) => String(text).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pane = page.locator('.pane', { has: page.locator('.pane-header', { hasText: String(view) }) }).first();
  const row = pane.locator('.monaco-list-row', { has: page.locator('.label-name', { hasText: new RegExp(`^${escape(label)}$`) }) }).first();
  try {
    await row.click({ timeout: timeoutMs });
  } catch (error) {
    // Say what was on screen instead: a missing row and a covered one call for different fixes.
    throw new Error(`no clickable row ${JSON.stringify(label)}; ${await describePane(page, view).catch((e) => `the view could not be read (${e.message})`)}\n${error instanceof Error ? error.message : String(error)}`);
  }
  return { clicked: await row.getAttribute('aria-label') };
}

/**
 * When something the suite is waiting for was first in the page's DOM, by the machine's clock
 * (Date.now(), the clock the extension host reads too): `heat`, an end-of-line note containing
 * `text` in an editor (what the heat decorations draw), or `flame`, the frames of a flame graph
 * webview (`shellAt`: when its page was there, still without a graph). Polled every 20 ms;
 * `{ at: null }` after timeoutMs. Used by bench/editor.bench.mjs.
 */
async function paintedAt(page, { what, text = '', timeoutMs = 60_000 }) {
  const deadline = Date.now() + timeoutMs;
  // flame: also when the webview's page (its #app) was first there, before the graph.
  let shellAt = null;
  for (;;) {
    const frames = what === 'flame' ? page.frames().filter((f) => f !== page.mainFrame()) : [page.mainFrame()];
    // All frames at once, each given 100 ms: a closed webview's frame can leave an evaluation
    // waiting, which must not delay seeing the new one.
    const seen = await Promise.all(
      frames.map((frame) =>
        Promise.race([
          frame
            .evaluate(
              ([kind, wanted, selector]) => {
                if (kind === 'flame') return document.querySelector(selector) ? Date.now() : document.getElementById('app') ? -Date.now() : 0;
                const spans = document.querySelectorAll('.monaco-editor .view-lines span');
                // VS Code draws a decoration's `after` text as injected text or as the ::after content of a span.
                for (const span of spans) if (span.textContent?.includes(wanted) || getComputedStyle(span, '::after').content.includes(wanted)) return Date.now();
                return 0;
              },
              [what, String(text), FLAME_FRAME],
            )
            .catch(() => 0),
          new Promise((resolve) => setTimeout(() => resolve(0), 100)),
        ]),
      ),
    );
    const at = Math.max(0, ...seen);
    if (at > 0) return { at, shellAt: shellAt ?? at };
    const shell = seen.find((v) => v < 0);
    if (shell !== undefined) shellAt ??= -shell;
    if (Date.now() > deadline) return { at: null };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export function runAction(page, request, shots, shotsDir) {
  switch (request.kind) {
    case 'screenshot':
      return screenshot(page, request, shots, shotsDir);
    case 'flameFrames':
      return flameFrames(page, request);
    case 'sandwichSplit':
      return sandwichSplit(page, request);
    case 'dblclickFrame':
      return dblclickFrame(page, request);
    case 'clickNotificationButton':
      return clickNotificationButton(page, request);
    case 'clickTreeItem':
      return clickTreeItem(page, request);
    case 'notificationLinks':
      return notificationLinks(page, request);
    case 'answerQuickInput':
      return answerQuickInput(page, request);
    case 'quickPickRows':
      return quickPickRows(page, request);
    case 'clickInWebview':
      return clickInWebview(page, request);
    case 'frameTooltip':
      return frameTooltip(page, request);
    case 'treeItemText':
      return treeItemText(page, request);
    case 'paintedAt':
      return paintedAt(page, request);
    case 'stallStrip':
      return stallStrip(page, request);
    case 'hoverText':
      return hoverText(page, request);
    default:
      throw new Error(`unknown action ${JSON.stringify(request.kind)}`);
  }
}
