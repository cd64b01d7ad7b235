// What the code alone shows about how often a serving path runs (issue 22: "what matters only when
// code runs often is a hint until a profile measures it"). A finding whose cost per run is small (a
// small file write, the copy of the environment a spawn makes) is shown only when the code shows it
// runs at the rate of the traffic.
import type { ExecutionContext } from '../api';

/**
 * True when the code runs with the service's traffic as far as the code shows: per request of a
 * route or server that every request, page view or poll reaches, per message of a source other
 * than a child's IPC, or per tick of a periodic timer. False for a handler recognised only by its
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
  if (context.kind === 'message') return true;
  return context.kind === 'timer' && context.periodic;
}
