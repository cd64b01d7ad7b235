// What a Hotframe recording notes beside each CPU profile about what its process served (issue 25):
// the HTTP requests its servers received, and when the event loop was held. Written by the
// recorder's preload (recordProfile.ts) when the process exits, as `<profile>.serving.json`, and
// read by server/profile/readers/readServingLog.ts.
// `hotframe attach` starts the same monitor in a running process through its inspector and removes
// it after (server/attach/servingObserver.ts).
//
// Requests are observed through Node's diagnostics channels (`http.server.request.start`,
// `http.server.response.finish`: Node ≥ 18.13 and 19.2, https servers too): a subscriber is only
// told, it changes nothing the server does. On an older Node, `http.Server.prototype.emit` is
// wrapped: it notes a 'request' event and calls the original with the same arguments and `this`,
// returning what it returns. Only the method and the path are kept (never the query string, which
// may hold tokens, nor headers), bounded in count and length.
//
// The event loop is watched by a timer that ticks every LOOP_TICK_MS (unref'd: it never keeps a
// process alive): when two ticks are further apart than the tick plus LOOP_GAP_MS, the loop ran
// none of its timers for that long, and the span it was held is kept: it ends at the late tick and
// lasted the part of the gap the loop spent outside its poll, by the loop's own idle clock
// (`performance.eventLoopUtilization()`, libuv's time in epoll_wait) — at least how late the tick
// ran, at most the whole gap. So a hold is placed to within the work the loop did between the tick
// before and the hold's start, not within a tick: the tick can be long. What a tick costs is
// mostly the wake of a sleeping loop (on a 2-core VM 50-100 µs of the thread's CPU, by the
// machine's load, against well under 1 µs a request: bench/recordOverhead.bench.mjs); a 10 ms
// tick wakes it half as often as the 5 ms one of sidecar version 1, whose holds were the pair of
// tick times (each wake after a longer sleep costs a little more: idle, a quarter was saved).
// Node's monitorEventLoopDelay measures the delay but keeps a histogram without times; stalls
// need to be placed in time.
//
// Every CPU_READING_TICKS-th tick also reads the main thread's own CPU clock (Linux: the first
// field of /proc/thread-self/schedstat, ns on a CPU). A CPU profile does not show all of that
// time: the kernel's side of the loop's socket reads and polls is sampled as idle. Set beside the
// samples, the readings tell how much of the thread's CPU in each span between two readings the
// samples missed (server/profile/routes/unsampledCpu.ts). Elsewhere there is no such file, and no
// readings. A read costs 3 µs warm but 40-95 µs on a tick that woke the loop (the kernel's path
// is cold then; a 2-core VM, a loaded service, bench/recordOverhead.bench.mjs): read every tick it
// was half of what the monitor cost idle (14 ms of CPU a second against 6 without), so the spans
// are 50 ms, not a tick.
//
// Times are microseconds of process.hrtime, the clock V8 stamps a .cpuprofile's samples with, and
// the profile's own startTime is written with them, so the reader places both on one axis.

/** The environment variable that, set to `off`, leaves the notes out (to measure what they cost, or to do without). */
export const SERVING_SWITCH = 'HOTFRAME_SERVING_NOTES';
/** The sidecar's name: the profile's path with this appended. */
export const SERVING_SUFFIX = '.serving.json';
/** The `format` member that says what the file is. */
export const SERVING_FORMAT = 'hotframe-serving';
/** Requests kept one by one; past this only `seen` grows. */
export const MAX_REQUESTS = 100_000;
/** Characters of a path kept (a longer one is cut and marked by `…`). */
export const MAX_PATH_CHARS = 512;
/** The sidecar's version: 2 since holds are kept as spans of the loop held (1: the pair of tick times). */
export const SERVING_VERSION = 2;
/** The event-loop timer's period, and the extra gap between two ticks that is kept. */
export const LOOP_TICK_MS = 10;
export const LOOP_GAP_MS = 10;
/** Gaps kept one by one; past this only `gapsSeen` grows. */
export const MAX_GAPS = 20_000;
/** Ticks between two readings of the main thread's CPU clock (50 ms). */
export const CPU_READING_TICKS = 5;
/** Readings of the main thread's CPU clock kept (one in 50 ms: 100 minutes); past this only `readingsSeen` grows. */
export const MAX_CPU_READINGS = 120_000;

/**
 * CommonJS defining `servingMonitor()`, which starts observing and returns `{ notes, stop }`:
 * `notes(profileStartUs)` is what was observed so far, as the sidecar's JSON value; `stop()` ends
 * the observation and removes every trace of it (the channel subscriptions, the wrapped `emit`
 * restored, the timer cleared), so a monitor started in a running process (`hotframe attach`,
 * server/attach/servingObserver.ts) leaves it as it was. `require` is called only while it starts.
 */
export const SERVING_MONITOR = `function servingMonitor() {
  // hrtime in µs without a BigInt per call: performance.now() reads the same clock (uv_hrtime) from
  // its time origin, so one offset taken now turns it into hrtime µs.
  const { performance } = require('node:perf_hooks');
  const originUs = Number(process.hrtime.bigint() / 1000n) - performance.now() * 1000;
  const nowUs = () => Math.round(originUs + performance.now() * 1000);
  // A request is kept as its method and path (strings the server made, or cut from its URL) and
  // two times in typed arrays, not as an object of its own: a recording keeps up to
  // ${MAX_REQUESTS} of them alive, and every old-space collection marks all that is kept. Kept as an
  // array and two heap numbers a request, they cost a loaded service several % of its CPU, while a
  // monitor that only counted requests read as none (bench/recordOverhead.bench.mjs, 2026-11-30).
  const methods = [];
  const paths = [];
  let startsUs = new Float64Array(1024);
  let endsUs = new Float64Array(1024); // 0 while the request is open
  let requestsSeen = 0;
  const open = new WeakMap();
  const grown = (times) => {
    const larger = new Float64Array(Math.min(2 * times.length, ${MAX_REQUESTS}));
    larger.set(times);
    return larger;
  };
  const pathOf = (url) => {
    const text = typeof url === 'string' ? url : '';
    const query = text.indexOf('?');
    const fragment = text.indexOf('#');
    const cut = query === -1 ? fragment : fragment === -1 ? query : Math.min(query, fragment);
    const path = cut === -1 ? text : text.slice(0, cut);
    return path.length > ${MAX_PATH_CHARS} ? path.slice(0, ${MAX_PATH_CHARS - 1}) + '\\u2026' : path;
  };
  const started = (request) => {
    requestsSeen++;
    const k = paths.length;
    if (k >= ${MAX_REQUESTS}) return;
    if (k === startsUs.length) {
      startsUs = grown(startsUs);
      endsUs = grown(endsUs);
    }
    methods.push(String(request.method).slice(0, 16));
    paths.push(pathOf(request.url));
    startsUs[k] = nowUs();
    open.set(request, k);
  };
  const finished = (request) => {
    const k = open.get(request);
    if (k === undefined) return;
    endsUs[k] = nowUs();
    open.delete(request); // only requests still open stay in the map
  };
  let observer = 'diagnostics_channel';
  let unobserve;
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major > 19 || (major === 19 && minor >= 2) || (major === 18 && minor >= 13)) {
    const channels = require('node:diagnostics_channel');
    const onStart = (message) => started(message.request);
    const onFinish = (message) => finished(message.request);
    channels.subscribe('http.server.request.start', onStart);
    channels.subscribe('http.server.response.finish', onFinish);
    unobserve = () => {
      channels.unsubscribe('http.server.request.start', onStart);
      channels.unsubscribe('http.server.response.finish', onFinish);
    };
  } else {
    observer = 'emit';
    const Server = require('node:http').Server;
    const emit = Server.prototype.emit;
    let observing = true;
    const wrapped = function (event, request, response) {
      if (observing && event === 'request') {
        try {
          started(request);
          response.once('finish', () => finished(request));
        } catch {}
      }
      return emit.apply(this, arguments);
    };
    Server.prototype.emit = wrapped;
    // Restored when nobody wrapped it after us; otherwise ours stays in their chain as a bare pass-through.
    unobserve = () => {
      observing = false;
      if (Server.prototype.emit === wrapped) Server.prototype.emit = emit;
    };
  }
  const gaps = [];
  let gapsSeen = 0;
  // The main thread's CPU clock (this code runs on it): one descriptor, read again at offset 0.
  const fs = require('node:fs');
  const readings = [];
  let readingsSeen = 0;
  let clockFd = null;
  const clockText = Buffer.alloc(128);
  try {
    clockFd = fs.openSync('/proc/thread-self/schedstat', 'r');
  } catch {}
  const readClock = (at) => {
    if (clockFd === null) return;
    readingsSeen++;
    if (readings.length >= ${MAX_CPU_READINGS}) return;
    try {
      const n = fs.readSync(clockFd, clockText, 0, clockText.length, 0);
      const ns = Number(clockText.toString('latin1', 0, n).split(' ')[0]);
      if (Number.isFinite(ns)) readings.push([at, Math.round(ns / 1000)]);
    } catch {}
  };
  // ms the loop has waited in its poll since it started (0 before it starts, as in a preload).
  const idleMs = typeof performance.eventLoopUtilization === 'function' ? () => performance.eventLoopUtilization().idle : () => 0;
  let lastTick = nowUs();
  let lastIdle = idleMs();
  let ticksToReading = ${CPU_READING_TICKS};
  readClock(lastTick);
  const timer = setInterval(() => {
    const now = nowUs();
    const idle = idleMs();
    const gap = now - lastTick;
    if (gap >= ${(LOOP_TICK_MS + LOOP_GAP_MS) * 1000}) {
      gapsSeen++;
      const held = Math.min(gap, Math.max(gap - ${LOOP_TICK_MS * 1000}, gap - (idle - lastIdle) * 1000));
      if (gaps.length < ${MAX_GAPS}) gaps.push([Math.round(now - held), now]);
    }
    lastTick = now;
    lastIdle = idle;
    if (--ticksToReading === 0) {
      ticksToReading = ${CPU_READING_TICKS};
      readClock(now);
    }
  }, ${LOOP_TICK_MS});
  timer.unref();
  let stopped = false;
  return {
    stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      unobserve();
      readClock(nowUs());
      if (clockFd !== null) {
        try {
          fs.closeSync(clockFd);
        } catch {}
        clockFd = null;
      }
    },
    notes: (profileStartUs) => ({
      format: ${JSON.stringify(SERVING_FORMAT)},
      version: ${SERVING_VERSION},
      clock: 'hrtime-us',
      profileStartUs,
      endUs: nowUs(),
      observer,
      requests: paths.map((path, k) => [methods[k], path, startsUs[k], endsUs[k] === 0 ? null : endsUs[k]]),
      requestsSeen,
      loop: { tickMs: ${LOOP_TICK_MS}, minGapMs: ${LOOP_TICK_MS + LOOP_GAP_MS}, gaps, gapsSeen },
      ...(readings.length > 0 ? { threadCpu: { unit: 'us', readings, readingsSeen } } : {}),
    }),
  };
}`;

/**
 * CommonJS for the preload: defines `startServingMonitor()`, which starts observing and returns a
 * function that writes the sidecar for a profile file (given the profile's startTime in µs).
 */
export const SERVING_PRELOAD = `${SERVING_MONITOR}
function startServingMonitor() {
  const fs = require('node:fs');
  const monitor = servingMonitor();
  return (file, profileStartUs) => {
    monitor.stop();
    fs.writeFileSync(file, JSON.stringify(monitor.notes(profileStartUs)));
  };
}`;
