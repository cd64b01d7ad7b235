// A periodic timer that ticks on the serving event loop (seed 003's stats timer): its module serves
// requests, or it runs in the process of a serving module of the project: that module loads it (a
// scheduler module the server requires and starts: issue 22's `exec('ps …')` every few seconds
// from a scheduler tick), or a module that loads the serving one loads it too (an entry that loads
// a broker's client and a state module). What such a tick blocks, every request or message waits
// for. One-shot timers (a retry, a start-up delay) are not ticks.
import { dirname, relative, sep } from 'node:path';
import type { ExecutionContext, HotContext } from '../api';

/** Where the timer runs, as a message says it; null when it is not a periodic tick of the serving process. */
export function servingTimerText(context: ExecutionContext, hot: HotContext, filePath: string): string | null {
  if (context.kind !== 'timer' || !context.periodic) return null;
  if (hot.servesRequests) return 'in a timer of a module that serves requests';
  const loader = hot.servingLoader;
  if (loader === null) return null;
  const what = loader.serves === 'requests' ? 'serves requests' : 'handles messages';
  // That the timer is started in that process, and that the process serves then, is inferred from
  // what modules load, not proven (a function that arms it may never be called there).
  const assumed = ' (assumed: the timer is started in that process)';
  if (loader.via === undefined) return `in a timer of a module loaded by ${shownFrom(filePath, loader.file)}, which ${what}${assumed}`;
  if (loader.via === filePath) return `in a timer of a module that loads ${shownFrom(filePath, loader.file)}, which ${what}${assumed}`;
  return `in a timer of a module that ${shownFrom(filePath, loader.via)} loads along with ${shownFrom(filePath, loader.file)}, which ${what}${assumed}`;
}

/**
 * The timer is on a serving event loop only by what modules load (its own module serves nothing):
 * an assumption, so what is found there is a hint until a profile measures it.
 */
export function inServingProcessByLoadsOnly(context: ExecutionContext, hot: HotContext): boolean {
  return context.kind === 'timer' && context.periodic && !hot.servesRequests && !hot.inWorker && hot.servingLoader !== null;
}

/** `file` as seen from the folder of `from`: './server.js', '../app.js'. */
function shownFrom(from: string, file: string): string {
  const path = relative(dirname(from), file).split(sep).join('/');
  return path.startsWith('../') ? path : `./${path}`;
}
