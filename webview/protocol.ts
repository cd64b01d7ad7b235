// Messages between the extension host (client/flamePanel.ts) and the flame graph webview.
// Everything arriving from the webview is untrusted and validated by the panel before use.
import type { FlameGraphResult, FlameMode } from '../server/protocol';

export type ToWebview =
  /** `onlyMyCode`: the filter the host computed this graph with, so the toggle shows it. */
  | { type: 'render'; graph: FlameGraphResult; onlyMyCode?: boolean }
  | { type: 'error'; message: string };

export type FromWebview =
  | { type: 'ready' }
  | { type: 'open'; file: string; line: number }
  | { type: 'request'; mode: FlameMode; onlyMyCode: boolean };
