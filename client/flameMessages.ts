// Validation of what the flame graph webview posts. The webview renders profile strings, so it
// is treated as untrusted: only exact, well-typed messages get through, and `open` only for a
// file the current graph declared openable. Pure (no vscode import) so it is unit-tested.
import type { FlameMode } from '../server/protocol/wire';
import type { FromWebview } from '../server/protocol/webview';

const MODES: ReadonlySet<string> = new Set<FlameMode>(['normal', 'inverted', 'diff']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A fresh, well-typed message, or null when `raw` is anything else. */
export function parseWebviewMessage(raw: unknown, openableFiles: ReadonlySet<string> | readonly string[]): FromWebview | null {
  if (!isRecord(raw)) return null;
  switch (raw.type) {
    case 'ready':
      return { type: 'ready' };
    case 'open': {
      const { file, line } = raw;
      if (typeof file !== 'string' || typeof line !== 'number') return null;
      if (!Number.isSafeInteger(line) || line < 1) return null;
      const known = openableFiles instanceof Set ? openableFiles.has(file) : (openableFiles as readonly string[]).includes(file);
      return known ? { type: 'open', file, line } : null;
    }
    case 'request': {
      const { mode, onlyMyCode } = raw;
      if (typeof mode !== 'string' || !MODES.has(mode) || typeof onlyMyCode !== 'boolean') return null;
      return { type: 'request', mode: mode as FlameMode, onlyMyCode };
    }
    case 'openStall': {
      // An index into the stalls the host sent; the host looks the line up in its own copy.
      const { index } = raw;
      if (typeof index !== 'number' || !Number.isSafeInteger(index) || index < 0) return null;
      return { type: 'openStall', index };
    }
    case 'swap':
      return { type: 'swap' };
    case 'sandwich': {
      // Checked against the graph shown by the host (FlameSession): here only its shape.
      const { file, line, name } = raw;
      if (typeof file !== 'string' || typeof name !== 'string' || typeof line !== 'number' || !Number.isSafeInteger(line) || line < 0) return null;
      if (file.length > 4096 || name.length > 500) return null;
      return { type: 'sandwich', file, line, name };
    }
    default:
      return null;
  }
}
