// The profile worker (dist/profileWorker.js): loads and analyzes profiles off the language
// server's main thread. It serves one ProfileSession over its message port with vscode-jsonrpc,
// speaking server/protocol/worker.ts; server/lsp/profileChannel.ts is the other end.
import { isMainThread, parentPort, type MessagePort } from 'node:worker_threads';
import { CancellationToken, createMessageConnection, PortMessageReader, PortMessageWriter, ResponseError, type MessageConnection } from 'vscode-jsonrpc/node';

import { oneLine, ProfileSession } from '../profile/analysis/session';
import { WORKER_REQUEST_FAILED, WorkerProgress, WorkerRequests, type WorkerParams } from '../protocol/worker';
import type { OverviewResult } from '../protocol/wire';
import { DEFAULT_STALL_MS } from '../profile/analysis/stalls';
import { nodeRoutesOfWorkspace, routesOfWorkspace } from './routesOfWorkspace';
import { stallStripOf } from './stallStrip';
import { GcTraceSession, semiSpaceSweep } from './gcTraceSession';

/** The session's answer, or its failure as one line for the user (jsonrpc would prefix "Request ... failed with message:"). */
async function answer<R>(work: () => R | Promise<R>): Promise<R> {
  try {
    return await work();
  } catch (error) {
    throw new ResponseError(WORKER_REQUEST_FAILED, oneLine(error));
  }
}

/** The request's cancellation as an AbortSignal, which the session's reads check. */
function signalOf(token: CancellationToken): AbortSignal {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  else token.onCancellationRequested(() => controller.abort());
  return controller.signal;
}

/** Reports progress under the request's token, at most once per percent. */
function progressOf(connection: MessageConnection, params: WorkerParams): ((fraction: number) => void) | undefined {
  const token = params.progressToken;
  if (token === undefined) return undefined;
  let reported = -1;
  return (fraction) => {
    const percent = Math.floor(fraction * 100);
    if (percent === reported) return;
    reported = percent;
    void connection.sendProgress(WorkerProgress, token, fraction);
  };
}

/** Serves a fresh session on `port` (the worker's parentPort, or one end of a MessageChannel). */
export function serveProfileSession(port: MessagePort): MessageConnection {
  const session = new ProfileSession();
  /** A --trace-gc output the user opened (issue 29): beside the profiles, not one of them. */
  const gcTrace = new GcTraceSession();
  /** The workspace folders of the last primary load: where the route registrations are read. */
  let roots: string[] = [];
  /** The primary profile's path: a Hotframe recording's serving notes are beside it. */
  let primaryPath: string | undefined;
  /** The "pid:tid" picked in a capture folder, if any: its requests only are counted. */
  let primaryThread: string | undefined;
  /** The stall threshold of the last primary load (`hotframe.stallThresholdMs`): the flame panel's strip uses the notes' figures. */
  let stallMs = DEFAULT_STALL_MS;
  const connection = createMessageConnection(new PortMessageReader(port), new PortMessageWriter(port));
  connection.onRequest(WorkerRequests.load, (params, token) =>
    answer(async () => {
      if (params.role === 'primary') {
        roots = params.roots ?? [];
        primaryPath = params.path;
        primaryThread = params.thread;
        stallMs = params.stallThresholdMs ?? DEFAULT_STALL_MS;
      }
      const loaded = await session.load(
        params.path,
        params.role,
        { roots: params.roots, pathMappings: params.pathMappings, nativeSymbols: params.nativeSymbols, ...(params.stallThresholdMs !== undefined ? { stallThresholdMs: params.stallThresholdMs } : {}) },
        signalOf(token),
        progressOf(connection, params),
        { sampleType: params.sampleType, thread: params.thread },
        // The primary's routes go with its cost table: the editor notes registration lines and findings' hovers.
        // With routes, the stalls on a line name the routes they served, as `profile --stalls` does.
        (analyzed) => {
          const routes = routesOfWorkspace(analyzed, roots, primaryPath, primaryThread);
          if (routes === null) return null;
          const routeOf = nodeRoutesOfWorkspace(analyzed, roots);
          return routeOf === undefined ? { routes } : { routeOf, routes };
        },
      );
      return loaded;
    }),
  );
  connection.onRequest(WorkerRequests.clear, () =>
    answer(() => {
      session.clear();
      gcTrace.clear();
      return null;
    }),
  );
  connection.onRequest(WorkerRequests.flame, ({ mode, onlyMyCode, minFraction }) =>
    answer(() => {
      const graph = session.flame({ mode, onlyMyCode, minFraction });
      // The stall strip shows the primary's run; a comparison of two runs has no one timeline.
      const stalls = mode === 'diff' ? undefined : stallStripOf(session.primaryAnalysis(), roots, stallMs);
      return stalls === undefined ? graph : { ...graph, stalls };
    }),
  );
  connection.onRequest(WorkerRequests.overview, () =>
    answer((): OverviewResult => {
      const routes = routesOfWorkspace(session.primaryAnalysis(), roots, primaryPath, primaryThread);
      const overview = session.overview();
      const trace = gcTrace.view(overview.profile);
      return { ...overview, ...(routes !== null ? { routes: routes.report } : {}), ...(trace !== null ? { gcTrace: trace } : {}) };
    }),
  );
  // Paths relative to the first workspace folder, as `hotframe diff` run there prints them (none open: absolute).
  connection.onRequest(WorkerRequests.comparisonText, () => answer(() => session.comparisonText(roots[0] ?? '')));
  connection.onRequest(WorkerRequests.loadGcTrace, ({ path }) => answer(() => gcTrace.load(path, session.overview().profile)));
  connection.onRequest(WorkerRequests.semiSpaceSweep, (params) => answer(() => semiSpaceSweep(params)));
  connection.onRequest(WorkerRequests.sandwich, ({ file, line, column, name }) => answer(() => session.sandwich({ file, line, ...(column !== undefined ? { column } : {}), ...(name !== undefined ? { name } : {}) })));
  connection.onRequest(WorkerRequests.lineDetail, ({ file, line }) => answer(() => session.lineDetail(file, line)));
  connection.listen();
  return connection;
}

if (!isMainThread && parentPort !== null) serveProfileSession(parentPort);
