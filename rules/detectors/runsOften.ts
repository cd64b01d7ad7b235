// What the code alone shows about how often a serving path runs (issue 22: "what matters only when
// code runs often is a hint until a profile measures it"). A finding whose cost per run is small (a
// small file write, the copy of the environment a spawn makes) is shown only when the code shows it
// runs at the rate of the traffic.
import type { ExecutionContext } from '../api';

/**
 * True when the code runs with the service's traffic as far as the code shows: per request of a
 * route or server that every request, page view or poll reaches, per message of a source known to
 * be busy (ExecutionContext.highRate: a broker's channel, a socket's data, a queue consumer), or per
 * tick of a periodic timer. False for a handler recognised only by its
 * shape (no registration seen), for code reached only through routes of methods that change state (a save, an upload, an install: one run per
 * action, whose rate the code does not show) or through administrative routes and a child's IPC
 * (ExecutionContext.occasional), for a raw TCP or TLS server's connection handler (how often
 * clients connect is not in the code), and for code that is not on a serving path.
 */
export function runsOftenByCode(context: ExecutionContext): boolean {
  if (context.assumed || context.occasional) return false;
  // A raw TCP server's connection handler runs once per client connection: a session or a device
  // that stays connected for hours, or one per delivery; the code does not show which.
  if (context.kind === 'request') return !context.changesState && !context.perConnection;
  // A message of a source not known to be busy (an in-process event bus, a subscription named for
  // its messages whose source the code does not show, a flow's input) may be a handful a day.
  if (context.kind === 'message') return context.highRate;
  return context.kind === 'timer' && context.periodic;
}
