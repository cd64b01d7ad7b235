// How a finding's message names the path from a handler to the code (ExecutionContext.via).
import type { ExecutionContext } from '../api';

/** ' (via onMessage -> getTimestamp)' for messages; empty when the code sits in the handler itself. */
export function viaText(context: ExecutionContext): string {
  return context.via.length > 0 ? ` (via ${context.via.join(' -> ')})` : '';
}
