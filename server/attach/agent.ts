// The code Hotframe runs inside the target (Runtime.evaluate over its inspector) to start and stop
// a capture. The profiler then runs in the target through an in-process inspector Session, so the
// inspector port is needed only for the moment of starting and of stopping: Hotframe opens it,
// starts, closes it, and opens it again to stop. Processes of a cluster then take turns on the one
// default port (9229), and nothing listens during the capture.
//
// Worker threads are reached through the inspector's NodeWorker domain: every worker attached
// (those running at the start and those started during the capture) gets the same profiler
// commands through its worker session, and its stop answer is passed back as the raw text the
// worker sent (never parsed in the target: parsing a large profile would pause the service).
// A thread's answer can arrive before `session.post` that sent its command has returned: the
// thread posts it to the main thread with an interrupt, which V8 serves at the next JS stack check,
// and `post` runs JS (the callback of its own answer) before it returns. Every command's id is
// therefore recorded before it is posted.
//
// Rules for this code, since it runs inside someone's service:
// - it never throws out of a timer or an event (an uncaught exception would end the service);
// - `require` is the command line API's, passed in when the evaluation starts (includeCommandLineAPI),
//   so modules are taken synchronously;
// - it runs at the target's next microtask checkpoint, never where the inspector's interrupt lands
//   (InspectorSession.evaluateString, atCheckpoint: code run mid-statement broke a worker's nextTick queue);
// - what it keeps lives under one global symbol and is removed at the stop;
// - if the process exits during the capture, the main thread's profile so far is written to
//   `exitFile` (when given) from an 'exit' listener, removed again at the stop.
import { ALLOCATION_SAMPLING, CPU_SAMPLING_INTERVAL_US } from '../shared/recordProfile';

export type CaptureKind = 'cpu' | 'allocation';

export interface AgentConfig {
  kind: CaptureKind;
  /** Where the target writes its main thread's profile if it exits during the capture (null: nowhere). */
  exitFile: string | null;
  /** How long the stop waits for each worker thread's answer. */
  workerStopTimeoutMs: number;
}

const KEY = "Symbol.for('hotframe.attach')";

/**
 * The target's main thread's CPU time in ms, as Linux counts it (to the scheduler's tick), NaN
 * elsewhere. On a busy machine a pause's wall time is mostly waiting for a CPU; this is the part
 * the capture's own work took. Needs `fs` in scope.
 */
const THREAD_CPU_MS = `() => { try { return Number(fs.readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6; } catch { return NaN; } }`;

/** What the start expression returns (a JSON string). */
export interface StartAnswer {
  /** Another capture (another Hotframe) is running in this process. */
  busy?: true;
  pid: number;
  node: string;
  argv: string[];
  /** How long starting the profiler held the target's main thread (measured there, wall time). */
  pauseMs: number;
  /** The main thread's CPU time in that pause (its /proc/thread-self/schedstat; null where not readable): the rest was waiting for a CPU. */
  workMs: number | null;
}

/** What the stop expression returns (a JSON string). */
export interface StopAnswer {
  /** No capture of ours was running (the process was restarted in between, or another tool stopped it). */
  missing?: true;
  threadId: number;
  /** How long stopping held the target's main thread (measured there, wall time). */
  pauseMs: number;
  /** The main thread's CPU time in that pause (null where not readable). */
  workMs: number | null;
  /** The main thread's profile, or its error. */
  main: unknown;
  workers: { workerId: string; title: string; gone: boolean; started: number; answered: number; afterStop: number; startError?: string | null; response: { id?: number; result?: { profile?: unknown }; error?: { message?: string } } | null }[];
}

/** The expression that starts a capture in the target; evaluate with includeCommandLineAPI. */
export function startExpression(config: AgentConfig): string {
  const start =
    config.kind === 'cpu'
      ? [['Profiler.enable', {}], ['Profiler.setSamplingInterval', { interval: CPU_SAMPLING_INTERVAL_US }], ['Profiler.start', {}]]
      : [['HeapProfiler.enable', {}], ['HeapProfiler.startSampling', ALLOCATION_SAMPLING]];
  const stopMethod = config.kind === 'cpu' ? 'Profiler.stop' : 'HeapProfiler.stopSampling';
  // The allocation profile carries its sampling options, as `hotframe record` writes it.
  const finish = config.kind === 'cpu' ? '(p) => p' : `(p) => Object.assign(p, { $hotframe: ${JSON.stringify(ALLOCATION_SAMPLING)} })`;
  return `(() => {
  const key = ${KEY};
  if (globalThis[key]) return JSON.stringify({ busy: true, pid: process.pid, node: process.version, argv: process.argv });
  // The pause this process sees, from here to the answer: V8's CPU profiler start, which logs
  // every function compiled so far (and its source positions), is nearly all of it.
  const before = performance.now();
  const fs = require('node:fs');
  const threadCpuMs = ${THREAD_CPU_MS};
  const cpuBefore = threadCpuMs();
  const inspector = require('node:inspector');
  const threadId = require('node:worker_threads').threadId;
  const start = ${JSON.stringify(start)};
  const stopMethod = ${JSON.stringify(stopMethod)};
  const finish = ${finish};
  const exitFile = ${JSON.stringify(config.exitFile)};
  const session = new inspector.Session();
  session.connect();
  const state = { session, threadId, stopMethod, finish, workers: new Map(), waiting: new Map(), nextId: 1, onExit: null, workerStopTimeoutMs: ${JSON.stringify(config.workerStopTimeoutMs)} };
  // Sends a command to a worker thread, its id added to ids before the post (see the top of this file).
  state.toWorker = (sessionId, method, params, ids) => {
    const id = state.nextId++;
    ids.push(id);
    session.post('NodeWorker.sendMessageToWorker', { sessionId, message: JSON.stringify({ id, method, params }) }, () => {});
  };
  for (const [method, params] of start) session.post(method, params, () => {});
  session.on('NodeWorker.attachedToWorker', (message) => {
    try {
      const p = message.params;
      const w = { sessionId: p.sessionId, workerId: String(p.workerInfo.workerId), title: String(p.workerInfo.title), startIds: [], startError: null, stopIds: [], response: null, gone: false, started: 0, answered: 0, afterStop: 0 };
      state.workers.set(p.sessionId, w);
      for (const [method, params] of start) { w.started++; state.toWorker(p.sessionId, method, params, w.startIds); }
    } catch {}
  });
  session.on('NodeWorker.detachedFromWorker', (message) => {
    try {
      const w = state.workers.get(message.params.sessionId);
      if (w) { w.gone = true; const done = state.waiting.get(w.sessionId); if (done) done(); }
    } catch {}
  });
  session.on('NodeWorker.receivedMessageFromWorker', (message) => {
    try {
      const w = state.workers.get(message.params.sessionId);
      if (!w) return;
      const text = message.params.message;
      // Every message after the stop was sent, its answer or not: a thread that went silent is
      // told from one whose answer was not recognised.
      if (w.stopIds.length > 0) w.afterStop++;
      // V8 writes a response's id first: the stop's answer is told by its prefix, without parsing it.
      const id = /^\\{"id":(\\d+)[,}]/.exec(text.slice(0, 32));
      if (!id) return;
      // Counted so that a thread which never answers can be told from one that stopped answering.
      w.answered++;
      // The first error a start command was answered with (its answers are small): a stop that then
      // finds no profile says why.
      if (w.startError === null && w.startIds.includes(Number(id[1]))) {
        const answer = JSON.parse(text);
        if (answer.error) w.startError = String(answer.error.message).slice(0, 120);
      }
      if (!w.stopIds.includes(Number(id[1])) || w.response !== null) return;
      w.response = text;
      const done = state.waiting.get(w.sessionId);
      if (done) done();
    } catch {}
  });
  session.post('NodeWorker.enable', { waitForDebuggerOnStart: false }, () => {});
  if (exitFile !== null) {
    state.onExit = () => {
      try {
        session.post(stopMethod, (error, result) => {
          try { if (!error) fs.writeFileSync(exitFile, JSON.stringify(finish(result.profile)), { mode: 0o600 }); } catch {}
        });
      } catch {}
    };
    process.once('exit', state.onExit);
  }
  globalThis[key] = state;
  const workMs = threadCpuMs() - cpuBefore;
  return JSON.stringify({ pid: process.pid, node: process.version, argv: process.argv, pauseMs: performance.now() - before, workMs: Number.isFinite(workMs) ? workMs : null });
})()`;
}

/** The expression that stops the capture and returns every thread's profile; evaluate with awaitPromise. */
export function stopExpression(): string {
  return `(() => {
  const key = ${KEY};
  const state = globalThis[key];
  if (!state) return Promise.resolve(JSON.stringify({ missing: true }));
  delete globalThis[key];
  if (state.onExit) process.removeListener('exit', state.onExit);
  // The pause this process sees: the main thread's profile is built and written out on it.
  const fs = require('node:fs');
  const threadCpuMs = ${THREAD_CPU_MS};
  let pauseMs = 0;
  let workMs = NaN;
  const main = new Promise((resolve) => {
    const before = performance.now();
    const cpuBefore = threadCpuMs();
    try {
      state.session.post(state.stopMethod, (error, result) => {
        try { resolve(error ? JSON.stringify({ error: String(error.message) }) : JSON.stringify(state.finish(result.profile))); } catch (e) { resolve(JSON.stringify({ error: String(e) })); }
        pauseMs += performance.now() - before;
        workMs = threadCpuMs() - cpuBefore;
      });
    } catch (e) { resolve(JSON.stringify({ error: String(e) })); }
  });
  const workers = [...state.workers.values()].map((w) => new Promise((resolve) => {
    if (w.gone) return resolve(w);
    const timer = setTimeout(() => resolve(w), state.workerStopTimeoutMs);
    state.waiting.set(w.sessionId, () => { clearTimeout(timer); resolve(w); });
    try { state.toWorker(w.sessionId, state.stopMethod, {}, w.stopIds); } catch { resolve(w); }
  }));
  return Promise.all([main, Promise.all(workers)]).then(([mainText, done]) => {
    try { state.session.post('NodeWorker.disable', {}, () => {}); state.session.disconnect(); } catch {}
    return '{"threadId":' + state.threadId + ',"pauseMs":' + JSON.stringify(pauseMs) + ',"workMs":' + (Number.isFinite(workMs) ? JSON.stringify(workMs) : 'null') + ',"main":' + mainText + ',"workers":[' + done.map((w) =>
      '{"workerId":' + JSON.stringify(w.workerId) + ',"title":' + JSON.stringify(w.title) + ',"gone":' + w.gone + ',"started":' + w.started + ',"answered":' + w.answered + ',"afterStop":' + w.afterStop + ',"startError":' + JSON.stringify(w.startError) + ',"response":' + (w.response === null ? 'null' : w.response) + '}').join(',') + ']}';
  });
})()`;
}

/**
 * Closes the inspector port once nobody is connected to it. `inspector.close()` blocks the target's
 * event loop until every client has disconnected, and called while the close of Hotframe's own
 * connection was still under way on the inspector's I/O thread it crashed the target (SIGSEGV in
 * WsHandler::OnCloseFrameWritten: 3 of 45 rounds of a close 30 ms after an answer whose client
 * disconnected 20-40 ms after it). So after answering, the target watches its own port (Linux:
 * /proc/self/net/tcp and tcp6, where a connection accepted on the port has it as its local port)
 * and closes once no connection but the listening socket and closed ones (TIME_WAIT) has been left
 * for two looks in a row, `pollMs` apart. A connection still there after `giveUpMs` (someone
 * else's debugger) leaves the port open: Hotframe then says so. Where /proc cannot be read, it
 * closes after `fallbackMs`.
 */
export function closeExpression(timing: { pollMs: number; giveUpMs: number; fallbackMs: number }): string {
  return `(() => {
  const inspector = require('node:inspector');
  const fs = require('node:fs');
  let port = NaN;
  try { port = Number(new URL(inspector.url()).port); } catch {}
  const suffix = ':' + port.toString(16).toUpperCase().padStart(4, '0');
  // Sockets whose local port is the inspector's, other than listening (0A) and TIME_WAIT (06); null: unknown.
  const connections = () => {
    let count = 0;
    let read = false;
    for (const file of ['/proc/self/net/tcp', '/proc/self/net/tcp6']) {
      let text;
      try { text = fs.readFileSync(file, 'latin1'); read = true; } catch { continue; }
      for (const line of text.split('\\n')) {
        const cols = line.trim().split(/ +/);
        if (cols.length > 3 && cols[1].endsWith(suffix) && cols[3] !== '0A' && cols[3] !== '06') count++;
      }
    }
    return read && Number.isFinite(port) ? count : null;
  };
  const close = () => { try { inspector.close(); } catch {} };
  if (connections() === null) {
    setTimeout(close, ${JSON.stringify(timing.fallbackMs)}).unref();
    return true;
  }
  const started = Date.now();
  let quiet = 0;
  const timer = setInterval(() => {
    try {
      quiet = connections() === 0 ? quiet + 1 : 0;
      if (quiet >= 2) { clearInterval(timer); close(); }
      else if (Date.now() - started > ${JSON.stringify(timing.giveUpMs)}) clearInterval(timer);
    } catch { clearInterval(timer); }
  }, ${JSON.stringify(timing.pollMs)});
  timer.unref();
  return true;
})()`;
}
