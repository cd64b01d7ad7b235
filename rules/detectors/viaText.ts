// How a finding's message names the path from a handler to the code (ExecutionContext.via).
import type { ExecutionContext } from '../api';

/**
 * ' (via onMessage -> getTimestamp)' for messages; empty when the code sits in the handler itself.
 * A handler recognised only by its `(req, res)` parameters says that its being a route is assumed.
 */
export function viaText(context: ExecutionContext): string {
  const via = context.via.length > 0 ? `via ${context.via.join(' -> ')}` : '';
  if (!context.assumed) return via === '' ? '' : ` (${via})`;
  const assumption = 'if it is registered as a route: its (req, res) parameters say so, no registration was found';
  return via === '' ? ` (${assumption})` : ` (${via}; ${assumption})`;
}
