// The flame graph webview in headless Chromium: the real dist/webview.js under the panel's CSP.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import type { FlameGraphResult } from '../../server/protocol/wire';
import { launchBrowser, openHarness, waitFor, type Harness } from './harness';
import { APP, HOSTILE, allFrames, diffGraph, incidentGraph } from './sampleGraphs';

interface DrawnFrame {
  name: string;
  fill: string;
  width: number;
  x: number;
  y: number;
  label: string;
  labelShown: boolean;
}

/** Frames in the DOM with a non-zero width (d3 keeps hidden ones at width 0 until removed). */
function drawnFrames(page: Page): Promise<DrawnFrame[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('g.frame'))
      .map((g) => {
        const rect = g.querySelector('rect')!;
        const box = rect.getBoundingClientRect();
        const label = g.querySelector('div.d3-flame-graph-label') as HTMLElement | null;
        return {
          name: g.getAttribute('name') ?? '',
          fill: rect.getAttribute('fill') ?? '',
          width: box.width,
          x: box.x + box.width / 2,
          y: box.y + box.height / 2,
          label: label?.textContent ?? '',
          labelShown: label !== null && getComputedStyle(label).display !== 'none',
        };
      })
      .filter((f) => f.width > 0),
  );
}

async function frameNamed(page: Page, name: string): Promise<DrawnFrame> {
  const found = (await drawnFrames(page)).find((f) => f.name === name);
  assert.ok(found, `frame ${name} is drawn`);
  return found;
}

function rgb(fill: string): [number, number, number] {
  const m = /^rgb\((\d+),\s*(\d+),\s*(\d+)\)$/.exec(fill);
  assert.ok(m, `colour ${fill} is rgb()`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

/** The search highlight colour, --hf-match in flame.css. */
const isMatch = (fill: string) => rgb(fill).join() === '230,0,230';

/** page.mouse.click has no modifiers option: hold the key around the click. */
async function ctrlClick(page: Page, x: number, y: number): Promise<void> {
  await page.keyboard.down('Control');
  await page.mouse.click(x, y);
  await page.keyboard.up('Control');
}

const text = (page: Page, selector: string) => page.locator(selector).first().textContent();

describe('flame graph webview (headless Chromium)', function () {
  this.timeout(60_000);
  let browser: Browser;
  let h: Harness;
  let page: Page;

  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    h = await openHarness(browser);
    page = h.page;
  });
  afterEach(async () => {
    await h.settle();
    const problems = [...h.problems];
    await h.close();
    assert.deepEqual(problems, [], 'no console errors, page errors or CSP violations');
  });

  const render = (graph: FlameGraphResult, onlyMyCode?: boolean) =>
    h.send(onlyMyCode === undefined ? { type: 'render', graph } : { type: 'render', graph, onlyMyCode });

  it('says ready on load and shows the empty state before any graph', async () => {
    assert.deepEqual(await h.posted(), [{ type: 'ready' }]);
    assert.match((await text(page, '.empty')) ?? '', /No flame graph yet/);
    assert.equal(await page.locator('g.frame').count(), 0);
  });

  it('draws one frame per node with readable labels, a legend and the title', async () => {
    const graph = incidentGraph();
    await render(graph);
    const frames = await drawnFrames(page);
    const expected = allFrames(graph.root).map((f) => f.name).sort();
    assert.deepEqual(frames.map((f) => f.name).sort(), expected);
    const ts = frames.find((f) => f.name === 'getTimestamp')!;
    assert.equal(ts.label, 'getTimestamp');
    assert.ok(ts.labelShown, 'a 560/4796-wide frame has its label shown');
    // Root on top: the root's row is above its children's.
    const rootFrame = frames.find((f) => f.name === '(root)')!;
    assert.ok(rootFrame.y < ts.y);
    assert.equal(await text(page, '.toolbar .title'), 'worker-3.cpuprofile');
    assert.equal(await page.locator('.legend .legend-item').count(), 9, 'eight categories and the search colour');
    assert.ok(await page.locator('.empty').isHidden());
    assert.equal(await text(page, '.status'), '16 frames');
  });

  it('colours frames by category: same category same hue family, gc unlike user', async () => {
    await render(incidentGraph());
    const [r1, g1, b1] = rgb((await frameNamed(page, '(garbage collector)')).fill);
    const [r2, g2, b2] = rgb((await frameNamed(page, 'getTimestamp')).fill);
    assert.ok(r1 > g1 + 60 && r1 > b1 + 60, `gc is red: ${r1},${g1},${b1}`);
    assert.ok(r2 > b2 + 60 && g2 > b2, `user is orange: ${r2},${g2},${b2}`);
  });

  it('searches case-insensitively and highlights the matches', async () => {
    await render(incidentGraph());
    await page.fill('input.search', 'GETtimestamp');
    await page.press('input.search', 'Enter');
    await h.settle();
    const frames = await drawnFrames(page);
    const highlighted = frames.filter((f) => isMatch(f.fill)).map((f) => f.name);
    assert.deepEqual(highlighted, ['getTimestamp']);
    assert.equal(await text(page, '.search-summary'), '1 match · 13.7% CPU');
  });

  for (const [term, expected] of [
    ['a.b(c)*[d]', ['a.b(c)*[d]']],
    ['(', ['(root)', '(program)', '(garbage collector)', 'a.b(c)*[d]', '(idle)']],
    ['*', ['a.b(c)*[d]']],
    ['[', ['a.b(c)*[d]']],
    ['a.b', ['a.b(c)*[d]']],
    ['.', null],
  ] as const) {
    it(`treats ${JSON.stringify(term)} literally`, async () => {
      const graph = incidentGraph();
      await render(graph);
      await page.fill('input.search', term);
      await page.press('input.search', 'Enter');
      await h.settle();
      const highlighted = (await drawnFrames(page)).filter((f) => isMatch(f.fill)).map((f) => f.name).sort();
      // '.' also matches file names ending in .js: the literal rule, computed from the data.
      const want = expected
        ? [...expected].sort()
        : allFrames(graph.root)
            .filter((f) => f.name.includes('.') || f.file.includes('.'))
            .map((f) => f.name)
            .sort();
      assert.deepEqual(highlighted, want);
      if (term === 'a.b') assert.ok(!highlighted.includes('axbxcxd'), '"." is not "any character"');
    });
  }

  it('zooms into a clicked frame and resets', async () => {
    await render(incidentGraph());
    const before = await drawnFrames(page);
    const fullWidth = (await frameNamed(page, '(root)')).width;
    const handler = await frameNamed(page, 'handleMessage');
    assert.ok(handler.width < fullWidth / 2);
    await page.mouse.click(handler.x, handler.y);
    await h.settle();
    const zoomed = await drawnFrames(page);
    const names = zoomed.map((f) => f.name);
    assert.ok(!names.includes('(garbage collector)') && !names.includes('TLSSocket.onStreamRead'), 'siblings are hidden');
    assert.ok(names.includes('getTimestamp') && names.includes('Date.now'), 'the subtree stays');
    const zoomedWidth = (await frameNamed(page, 'handleMessage')).width;
    assert.ok(Math.abs(zoomedWidth - fullWidth) < 1, `the zoomed frame spans the width: ${zoomedWidth} vs ${fullWidth}`);
    assert.match((await text(page, '.details-name')) ?? '', /^handleMessage$/);
    assert.match((await text(page, '.details-cost')) ?? '', /^total 1\.70 s \(41\.5% CPU\) · self 220 ms \(5\.37% CPU\)$/);

    await page.click('button.reset');
    await h.settle();
    assert.equal((await drawnFrames(page)).length, before.length);
    assert.match((await text(page, '.details')) ?? '', /Click a frame to zoom/);
  });

  it('Escape resets the zoom', async () => {
    await render(incidentGraph());
    const before = (await drawnFrames(page)).length;
    const tls = await frameNamed(page, 'TLSSocket.onStreamRead');
    await page.mouse.click(tls.x, tls.y);
    await h.settle();
    assert.ok((await drawnFrames(page)).length < before);
    await page.keyboard.press('Escape');
    await h.settle();
    assert.equal((await drawnFrames(page)).length, before);
  });

  it('opens the source of a selected frame from the details bar', async () => {
    await render(incidentGraph());
    const ts = await frameNamed(page, 'getTimestamp');
    await page.mouse.click(ts.x, ts.y);
    await h.settle();
    assert.deepEqual(await h.posted(), [{ type: 'ready' }], 'a plain click only zooms');
    assert.equal(await text(page, 'button.open'), `Open ${APP}/models.js:43`);
    await page.click('button.open');
    assert.deepEqual((await h.posted()).slice(1), [{ type: 'open', file: `${APP}/models.js`, line: 43 }]);
  });

  it('opens directly on Ctrl+click and double-click; never for a file the host cannot open', async () => {
    await render(incidentGraph());
    const save = await frameNamed(page, 'saveEvent');
    await ctrlClick(page, save.x, save.y);
    await h.settle();
    const exec = await frameNamed(page, 'Query.exec');
    await ctrlClick(page, exec.x, exec.y);
    await h.settle();
    assert.match((await text(page, '.details-location')) ?? '', /mongoose\/lib\/query\.js:4400 \(not found locally\)/);
    assert.equal(await page.locator('button.open').count(), 0);
    await page.click('button.reset');
    await h.settle();
    const weird = await frameNamed(page, 'a.b(c)*[d]');
    await page.mouse.dblclick(weird.x, weird.y);
    await h.settle();
    assert.deepEqual((await h.posted()).slice(1), [
      { type: 'open', file: `${APP}/models.js`, line: 88 },
      { type: 'open', file: `${APP}/weird.js`, line: 1 },
    ]);
  });

  it('opens the double-clicked frame in a narrow panel, where the first click\'s selection would move the graph', async () => {
    // The first click of a double-click selects the frame: the details bar then holds its facts and
    // two buttons, which grew the bar and pushed the graph down 10 px, half a row, before the second
    // click: a click at a row's middle then hit the caller (CI runs opened onTaskEvents for a
    // double-click on parseEvents).
    await h.close();
    h = await openHarness(browser, { width: 460 });
    page = h.page;
    await render(incidentGraph());
    const chartTop = () => page.evaluate(() => document.querySelector('g.frame')!.getBoundingClientRect().top);
    const before = await chartTop();
    const first = await frameNamed(page, 'getTimestamp');
    await page.mouse.click(first.x, first.y);
    await h.settle();
    assert.equal(await chartTop(), before, 'selecting a frame does not move the graph');
    await page.keyboard.press('Escape');
    await h.settle();
    const save = await frameNamed(page, 'saveEvent');
    await page.mouse.dblclick(save.x, save.y);
    await h.settle();
    assert.deepEqual((await h.posted()).slice(1), [{ type: 'open', file: `${APP}/models.js`, line: 88 }]);
    // Whatever else the first click may redraw: here it pushes the graph down a whole row, and the
    // double-click still opens the frame its first press was on, not the caller now under the pointer.
    await page.keyboard.press('Escape');
    await h.settle();
    const ts = await frameNamed(page, 'getTimestamp');
    await page.evaluate(() => {
      document.addEventListener('click', () => {
        document.querySelector('g.frame')!.closest('svg')!.style.marginTop = '20px';
      }, { once: true, capture: true });
    });
    await page.mouse.dblclick(ts.x, ts.y);
    await h.settle();
    assert.deepEqual((await h.posted()).slice(2), [{ type: 'open', file: `${APP}/models.js`, line: 43 }]);
  });

  it('draws the stall strip: marks placed by time and duration, hover text, a click posts the stall\'s index only', async () => {
    const site = (file: string, line: number) => ({ file, line, function: 'collectStats', call: 'execSync', found: 'exactLine' as const });
    const graph: FlameGraphResult = {
      ...incidentGraph(),
      stalls: {
        thresholdMs: 50,
        runMs: 4000,
        count: 3,
        startupCount: 0,
        totalMs: 700,
        unnamedCount: 0,
        stalls: [
          { startMs: 1000, durationMs: 400, samples: 300, at: site(`${APP}/models.js`, 43), atMs: 400, route: 'GET /stats' },
          { startMs: 3000, durationMs: 200, samples: 150, at: site('/elsewhere/<img src=x onerror=alert(1)>.js', 2), atMs: 200 },
          { startMs: 3600, durationMs: 100, samples: 80, at: null, atMs: 0 },
        ],
      },
    };
    await render(graph);
    assert.equal(await text(page, '.stall-summary'), '3 event-loop stalls over 50.0 ms while serving, 700 ms in all');
    const track = await page.locator('.stall-track').boundingBox();
    const marks = await page.locator('.stall-mark').evaluateAll((nodes) => nodes.map((n) => ({ box: n.getBoundingClientRect().toJSON() as DOMRect, title: (n as HTMLButtonElement).title, disabled: (n as HTMLButtonElement).disabled })));
    assert.equal(marks.length, 3);
    const inner = track!.width - 2; // the track's 1px borders
    assert.ok(Math.abs(marks[0]!.box.x - (track!.x + 1 + inner * 0.25)) < 1.5, 'the first stall starts a quarter into the run');
    assert.ok(Math.abs(marks[0]!.box.width - inner * 0.1) < 1.5, 'and is a tenth of the run wide');
    assert.deepEqual(marks.map((m) => m.disabled), [false, true, true], 'only a line the host may open is clickable');
    assert.match(marks[1]!.title, /<img src=x onerror=alert\(1\)>\.js:2/, 'a hostile file name stays text');
    await page.hover('.stall-mark >> nth=0');
    assert.equal(await text(page, '.stall-hover'), `Stall of 400 ms at 1.00 s: collectStats \u2192 execSync (models.js:43) \u00b7 GET /stats \u00b7 click to open the line`);
    await page.click('.stall-mark >> nth=0');
    await page.click('.stall-mark >> nth=1', { force: true });
    assert.deepEqual((await h.posted()).slice(1), [{ type: 'openStall', index: 0 }]);
    await render(diffGraph());
    assert.equal(await page.locator('.stall-strip').isHidden(), true, 'no strip without stalls in the graph (the diff view)');
  });

  it('posts a request when a toggle changes, and shows the mode it gets back', async () => {
    await render(incidentGraph(), false);
    await page.click('input.only-my-code');
    assert.equal(await text(page, '.status'), 'Loading…');
    await waitFor(page, () => (window as unknown as { __posted: unknown[] }).__posted.length === 2, 'the request');
    assert.deepEqual((await h.posted())[1], { type: 'request', mode: 'normal', onlyMyCode: true });
    assert.ok(await page.locator('input.only-my-code').isDisabled(), 'no second toggle while one is pending');
    await render(incidentGraph(), true);
    await page.click('input.inverted');
    assert.deepEqual((await h.posted())[2], { type: 'request', mode: 'inverted', onlyMyCode: true });
    await render(incidentGraph('inverted'), true);
    assert.ok(await page.locator('input.inverted').isChecked());
    assert.ok(await page.locator('input.only-my-code').isChecked());
    assert.equal(await text(page, '.mode-badge'), 'bottom-up');
    await page.click('input.inverted');
    assert.deepEqual((await h.posted())[3], { type: 'request', mode: 'normal', onlyMyCode: true });
  });

  it('puts the toggles back when the requested graph fails', async () => {
    await render(incidentGraph(), false);
    await page.click('input.only-my-code');
    await h.send({ type: 'error', message: 'Hotframe: the server stopped' });
    assert.equal(await page.locator('input.only-my-code').isChecked(), false);
    assert.ok(await page.locator('input.only-my-code').isEnabled());
    assert.equal(await text(page, '.status'), '16 frames', 'the graph on screen is unchanged');
    assert.equal(await text(page, '.banner'), 'Hotframe: the server stopped');
  });

  it('draws the differential view in delta colours with its legend', async () => {
    await render(diffGraph());
    const [r, g, b] = rgb((await frameNamed(page, 'JSON.parse')).fill);
    assert.ok(r > b + 40 && r > g + 40, `slower is red: ${r},${g},${b}`);
    const [r2, g2, b2] = rgb((await frameNamed(page, 'Date.now')).fill);
    assert.ok(b2 > r2 + 40, `faster is blue: ${r2},${g2},${b2}`);
    const [r3, g3, b3] = rgb((await frameNamed(page, 'Query.exec')).fill);
    assert.ok(r3 === g3 && g3 === b3, `unchanged is grey: ${r3},${g3},${b3}`);
    assert.match((await page.locator('.legend').textContent()) ?? '', /slower than baseline.*faster than baseline/);
    assert.equal(await text(page, '.mode-badge'), 'differential');
    assert.ok(await page.locator('input.inverted').isDisabled(), 'no inverted diff');
    const parse = await frameNamed(page, 'JSON.parse');
    await page.mouse.click(parse.x, parse.y);
    await h.settle();
    assert.equal(await text(page, '.details-delta'), '+120 ms vs baseline (slower)');
  });

  it('shows a hostile frame name as text everywhere and never runs it', async () => {
    await render(incidentGraph());
    const evil = await frameNamed(page, HOSTILE);
    assert.equal(evil.label, HOSTILE);
    await page.mouse.move(evil.x, evil.y);
    await h.settle();
    assert.equal(await text(page, '.tooltip-name'), HOSTILE);
    assert.ok(await page.locator('.tooltip').isVisible());
    await page.mouse.click(evil.x, evil.y);
    await h.settle();
    assert.equal(await text(page, '.details-name'), HOSTILE);
    await page.fill('input.search', '<IMG');
    await page.press('input.search', 'Enter');
    await h.settle();
    assert.equal(await page.locator('img').count(), 0);
    assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
  });

  it('shows the tooltip with total, self, location and category', async () => {
    await render(incidentGraph());
    const ts = await frameNamed(page, 'getTimestamp');
    await page.mouse.move(ts.x, ts.y);
    await h.settle();
    assert.deepEqual(await page.locator('.tooltip > div').allTextContents(), [
      'getTimestamp',
      'total 560 ms (13.7% CPU) · self 66.0 ms (1.61% CPU)',
      `${APP}/models.js:43`,
      'your code',
    ]);
    await page.mouse.move(2, 2);
    await h.settle();
    assert.ok(await page.locator('.tooltip').isHidden());
  });

  it('shows host errors as text and keeps the graph', async () => {
    await render(incidentGraph());
    await h.send({ type: 'error', message: 'profile.cpuprofile: <b>not JSON</b>' });
    assert.equal(await text(page, '.banner'), 'profile.cpuprofile: <b>not JSON</b>');
    assert.equal(await page.locator('.banner b').count(), 0);
    assert.ok((await drawnFrames(page)).length > 0);
  });

  it('shows the empty state for a graph without samples', async () => {
    await render({ ...incidentGraph(), root: { name: '(root)', value: 0, self: 0, category: 'program', file: '', line: 0, children: [] } });
    assert.match((await text(page, '.empty')) ?? '', /no samples/);
    assert.ok(await page.locator('.empty').isVisible());
  });

  it('ignores malformed messages without breaking', async () => {
    await render(incidentGraph());
    const count = (await drawnFrames(page)).length;
    await h.send({ type: 'render', graph: { root: 5 } });
    await h.send({ type: 'explode' });
    await h.send({ type: 'render', graph: { ...incidentGraph(), mode: 'sideways' } });
    assert.equal((await drawnFrames(page)).length, count);
  });

  it('folds thousands of sub-pixel frames into their parent', async () => {
    const graph = incidentGraph();
    const tiny = Array.from({ length: 5000 }, (_, i) => ({ name: `tiny${i}`, value: 0.01, self: 0.01, category: 'user' as const, file: '', line: 0, children: [] }));
    graph.root.children[0]!.children = tiny;
    await render(graph);
    assert.equal(await text(page, '.status'), '16 frames · 5,000 tiny folded');
    assert.ok(!(await drawnFrames(page)).some((f) => f.name.startsWith('tiny')));
    const prog = await frameNamed(page, '(program)');
    await page.mouse.move(prog.x, prog.y);
    await h.settle();
    assert.equal(await text(page, '.tooltip-category'), 'VM (program) · 5000 tiny frames folded in');
  });

  it('follows the window width when resized', async () => {
    await render(incidentGraph());
    await page.setViewportSize({ width: 700, height: 600 });
    // The resize handler waits 100 ms so that a drag does not redraw on every pixel.
    await new Promise((resolve) => setTimeout(resolve, 250));
    await h.settle();
    const root = await frameNamed(page, '(root)');
    assert.ok(Math.abs(root.width - (700 - 24)) < 1, `root is ${root.width} px in a 700 px window with 12 px padding each side`);
  });

  it('focuses the search box on "/"', async () => {
    await render(incidentGraph());
    await page.keyboard.press('/');
    assert.equal(await page.evaluate(() => document.activeElement?.className), 'search');
    await page.keyboard.type('json');
    await page.keyboard.press('Enter');
    await h.settle();
    assert.deepEqual((await drawnFrames(page)).filter((f) => isMatch(f.fill)).map((f) => f.name), ['JSON.parse']);
  });

  it('runs under an enforced CSP: the harness sees inline scripts and styles blocked', async () => {
    // The control for every "no CSP violations" check above: a violation is seen when there is one.
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__inline = 1';
      document.body.append(script);
      document.body.setAttribute('style', 'background: red');
    });
    await h.settle();
    assert.equal(await page.evaluate(() => (window as unknown as { __inline?: number }).__inline), undefined);
    const seen = h.problems.splice(0);
    assert.ok(seen.some((p) => p.startsWith('csp: script-src')), seen.join('; '));
    assert.ok(seen.some((p) => p.startsWith('csp: style-src')), seen.join('; '));
  });

  it('looks right (screenshot for a human: test-results/flamegraph-harness.png)', async () => {
    await render(incidentGraph());
    const ts = await frameNamed(page, 'getTimestamp');
    await page.mouse.click(ts.x, ts.y);
    await page.click('button.reset');
    await page.fill('input.search', 'date');
    await page.press('input.search', 'Enter');
    await page.mouse.move(ts.x, ts.y);
    await h.settle();
    mkdirSync('test-results', { recursive: true });
    await page.screenshot({ path: 'test-results/flamegraph-harness.png' });
    const drawn = await drawnFrames(page);
    assert.ok(drawn.filter((f) => f.labelShown).length >= 10, 'most labels are readable');
  });
});

describe('flame graph webview with animations on', function () {
  this.timeout(60_000);
  it('ends in the same layout as without them, and zooms', async () => {
    const browser = await launchBrowser();
    try {
      const h = await openHarness(browser, { reducedMotion: false });
      await h.send({ type: 'render', graph: incidentGraph() });
      // d3-flame-graph grows new frames over ~375 ms when animating.
      await new Promise((resolve) => setTimeout(resolve, 800));
      await h.settle();
      const full = (await frameNamed(h.page, '(root)')).width;
      const ts = await frameNamed(h.page, 'getTimestamp');
      assert.ok(Math.abs(ts.width - (full * 560) / 4796) < 1, `getTimestamp is 560/4796 of the root: ${ts.width} of ${full}`);
      await h.page.mouse.click(ts.x, ts.y);
      await new Promise((resolve) => setTimeout(resolve, 800));
      await h.settle();
      assert.ok(Math.abs((await frameNamed(h.page, 'getTimestamp')).width - full) < 1);
      assert.deepEqual(h.problems, []);
      await h.close();
    } finally {
      await browser.close();
    }
  });
});
