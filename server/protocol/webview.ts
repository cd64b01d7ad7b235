// Messages between the extension host (client/flamePanel.ts) and the flame graph webview, over
// the webview's postMessage. Everything arriving from the webview is untrusted and validated by
// the panel before use (client/flameMessages.ts); the webview checks the host's messages too
// (webview/hostChannel.ts). Types only: the webview bundle stays free of jsonrpc.
import type { FlameGraphResult, FlameMode } from './wire';
import type { SandwichResult } from './wire';

export type ToWebview =
  /** `onlyMyCode`: the filter the host computed this graph with, so the toggle shows it. */
  | { type: 'render'; graph: FlameGraphResult; onlyMyCode?: boolean }
  | { type: 'error'; message: string }
  /** Callers and callees of one function (issue 29): drawn as a split, callers inverted above, callees below. */
  | { type: 'sandwich'; sandwich: SandwichResult };

export type FromWebview =
  | { type: 'ready' }
  | { type: 'open'; file: string; line: number }
  | { type: 'request'; mode: FlameMode; onlyMyCode: boolean }
  /** Open the user line of `graph.stalls.stalls[index]`: an index into what the host sent, never a path. */
  | { type: 'openStall'; index: number }
  /** The comparison's swap button: the BEFORE becomes the AFTER and the other way round. */
  | { type: 'swap' }
  /** Callers and callees of a frame of the graph shown: the host acts only when that graph holds such a frame. */
  | { type: 'sandwich'; file: string; line: number; name: string };
