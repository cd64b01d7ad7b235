// Cost per route by the requests' time windows (issue 25). A Hotframe recording notes when each
// request started and finished on the main thread (server/shared/servingRecorder.ts); the work
// the thread did for a request without any of its route's frames on the stack (Node's HTTP
// parsing and writing, middleware that runs for every request, the GC) falls inside that window.
// The rule: a sample whose stack names no endpoint route (none at all, or only middleware, whose
// samples belong to whichever request it ran for) is charged to a route when every request open
// at the sample's time is that route's. A sample taken while requests of several routes were open
// (or one whose route is not known) stays where its stack put it: which of them the thread worked
// for cannot be told, and it is not split, since a split by the number of open requests would be
// a guess. A sample whose stack has an endpoint route's frame keeps that route: the stack wins.
//
// A request's route: the endpoint rows its method and path matched; when several did (`/db` and
// `/:key`), those whose own frames were sampled inside its window, if exactly one was; else the
// request has no route here. Pure: the samples in order with their rows, the windows in.

export interface RequestWindow {
  /** ms since the profile's start, the timeline's axis; `endMs` null: still open at the end. */
  startMs: number;
  endMs: number | null;
  /** The report rows (indexes) of the endpoint routes its method and path matched. */
  candidates: readonly number[];
}

export interface WindowSamples {
  /** Sample i lasts from atMs[i] to atMs[i + 1] (the last until endMs), as the tree's selfMs counts it. */
  atMs: Float64Array;
  endMs: number;
  /** The row each sample is charged to by its stack (and the GC rule); -1: none. */
  row: Int32Array;
  /** Idle samples are no CPU time: never charged. */
  idle: Uint8Array;
  /** Rows whose handlers are middleware only: their samples may be charged to the request's route. */
  middleware: (row: number) => boolean;
  rowCount: number;
}

export interface WindowCharge {
  /** Per row: ms charged to it by the rule (added to its stack's figure). */
  gained: Float64Array;
  /** Per row: ms of its (middleware) samples charged to a request's route instead. */
  given: Float64Array;
  /** ms of samples with no route on their stack charged to a route. */
  fromNoRouteMs: number;
  /** ms of samples the rule could have charged but requests of several routes (or of no known route) were open. */
  overlappedMs: number;
  /** Requests with a start and a route, and those in all. */
  ownedRequests: number;
  requests: number;
  /** The route row each window is for, or -1 (windowOwners). */
  owners: Int32Array;
}

/** The route row each window is for, or -1. */
export function windowOwners(samples: Pick<WindowSamples, 'atMs' | 'row' | 'middleware' | 'endMs'>, windows: readonly RequestWindow[]): Int32Array {
  const owners = new Int32Array(windows.length).fill(-1);
  // The times each row's own (endpoint) frames were sampled, ascending, to find one inside a window.
  const timesOf = new Map<number, number[]>();
  for (let i = 0; i < samples.row.length; i++) {
    const r = samples.row[i];
    if (r === -1 || samples.middleware(r)) continue;
    const times = timesOf.get(r) ?? [];
    times.push(samples.atMs[i]);
    timesOf.set(r, times);
  }
  const sampledIn = (row: number, from: number, to: number): boolean => {
    const times = timesOf.get(row);
    if (times === undefined) return false;
    let lo = 0;
    let hi = times.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (times[mid] < from) lo = mid + 1;
      else hi = mid;
    }
    return lo < times.length && times[lo] < to;
  };
  windows.forEach((w, k) => {
    const candidates = [...new Set(w.candidates)];
    if (candidates.length === 1) owners[k] = candidates[0];
    else if (candidates.length > 1) {
      const seen = candidates.filter((row) => sampledIn(row, w.startMs, w.endMs ?? samples.endMs));
      if (seen.length === 1) owners[k] = seen[0];
    }
  });
  return owners;
}

/** What the rule charges, and what it leaves for overlapping requests. */
export function chargeByRequestWindows(samples: WindowSamples, windows: readonly RequestWindow[]): WindowCharge {
  const owners = windowOwners(samples, windows);
  const gained = new Float64Array(samples.rowCount);
  const given = new Float64Array(samples.rowCount);
  let fromNoRouteMs = 0;
  let overlappedMs = 0;
  // Sweep the samples in time order with the windows open at each: a window is open on [start, end).
  const starts = windows.map((w, k) => ({ at: w.startMs, owner: owners[k] })).sort((a, b) => a.at - b.at);
  const ends = windows.map((w, k) => ({ at: w.endMs ?? Infinity, owner: owners[k] })).sort((a, b) => a.at - b.at);
  const open = new Map<number, number>();
  const change = (owner: number, by: number): void => {
    const n = (open.get(owner) ?? 0) + by;
    if (n === 0) open.delete(owner);
    else open.set(owner, n);
  };
  let s = 0;
  let e = 0;
  const count = samples.atMs.length;
  for (let i = 0; i < count; i++) {
    const at = samples.atMs[i];
    while (s < starts.length && starts[s].at <= at) change(starts[s++].owner, 1);
    while (e < ends.length && ends[e].at <= at) change(ends[e++].owner, -1);
    const row = samples.row[i];
    if (open.size === 0 || samples.idle[i] === 1 || (row !== -1 && !samples.middleware(row))) continue;
    const lasted = (i + 1 < count ? samples.atMs[i + 1] : samples.endMs) - at;
    if (!(lasted > 0)) continue;
    const owner = open.size === 1 ? open.keys().next().value! : -1;
    if (owner === -1) {
      overlappedMs += lasted;
      continue;
    }
    gained[owner] += lasted;
    if (row === -1) fromNoRouteMs += lasted;
    else given[row] += lasted;
  }
  let ownedRequests = 0;
  for (const o of owners) if (o !== -1) ownedRequests++;
  return { gained, given, fromNoRouteMs, overlappedMs, ownedRequests, requests: windows.length, owners };
}
