// The webview's side of the message channel: the VS Code API object, and a shape check on
// what the host sends (the host is trusted, but a malformed message must not break the view).
import type { FromWebview, ToWebview } from '../server/protocol/webview';

interface VsCodeApi {
  postMessage(message: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

export function parseHostMessage(data: unknown): ToWebview | null {
  if (!isRecord(data)) return null;
  if (data.type === 'error' && typeof data.message === 'string') return { type: 'error', message: data.message };
  if (data.type === 'sandwich' && isRecord(data.sandwich)) {
    const s = data.sandwich;
    if (!isRecord(s.callers) || !isRecord(s.callees) || !isRecord(s.target) || typeof s.cpuMs !== 'number' || !Array.isArray(s.openableFiles)) return null;
    if (s.unit !== 'ms' && s.unit !== 'bytes' && s.unit !== 'objects') return null;
    // Its trees are copied and checked node by node for drawing (drawableTree), as a graph's.
    return data as ToWebview;
  }
  if (data.type !== 'render' || !isRecord(data.graph)) return null;
  const graph = data.graph;
  if (!isRecord(graph.root) || (graph.mode !== 'normal' && graph.mode !== 'inverted' && graph.mode !== 'diff')) return null;
  if (graph.unit !== 'ms' && graph.unit !== 'bytes' && graph.unit !== 'objects') return null;
  if (typeof graph.title !== 'string' || typeof graph.cpuMs !== 'number' || !Array.isArray(graph.openableFiles)) return null;
  if (data.onlyMyCode !== undefined && typeof data.onlyMyCode !== 'boolean') return null;
  // The tree itself is checked node by node when it is copied for drawing (drawableTree).
  return data as ToWebview;
}

export interface HostChannel {
  post(message: FromWebview): void;
}

/** Calls `receive` for every well-formed message; anything else is dropped with one warning. */
export function connectHost(receive: (message: ToWebview) => void): HostChannel {
  const api = acquireVsCodeApi();
  let warned = false;
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    const message = parseHostMessage(event.data);
    if (message) receive(message);
    else if (!warned) {
      warned = true;
      console.warn('hotframe: ignored a malformed message from the extension');
    }
  });
  return { post: (message) => api.postMessage(message) };
}
