// Flame graphs for the webview tests, shaped like incident 000 (pm2 workers burning CPU in
// Date.now() via getTimestamp() at models.js:43: 494 ticks, 10.3% of ~4,800), plus frames whose
// names test literal search and one hostile name that must stay text.
import type { FlameGraphResult } from '../../server/protocol/wire';
import type { Category, FlameNode } from '../../server/profile/model/types';

export const HOSTILE = '<img src=x onerror="window.__pwned=1">';
export const APP = '/srv/app/lib';

function frame(name: string, value: number, category: Category, file: string, line: number, children: FlameNode[] = [], delta?: number): FlameNode {
  const self = value - children.reduce((sum, c) => sum + c.value, 0);
  const node: FlameNode = { name, value, self, category, file, line, children };
  if (delta !== undefined) node.delta = delta;
  return node;
}

function incidentTree(withDelta: boolean): FlameNode {
  const d = (value: number) => (withDelta ? value : undefined);
  return frame('(root)', 4796, 'program', '', 0, [
    frame('(program)', 600, 'program', '', 0, [], d(0)),
    frame('(garbage collector)', 300, 'gc', '', 0, [], d(25)),
    frame('processTicksAndRejections', 3200, 'node', 'node:internal/process/task_queues', 95, [
      frame('Redis.onMessage', 1900, 'dependency', '/srv/app/node_modules/ioredis/built/Redis.js', 812, [
        frame('handleMessage', 1700, 'user', `${APP}/handler.js`, 27, [
          frame('getTimestamp', 560, 'user', `${APP}/models.js`, 43, [frame('Date.now', 494, 'native', '', 0, [], d(-480))], d(-420)),
          frame('JSON.parse', 420, 'native', '', 0, [], d(120)),
          frame('saveEvent', 500, 'user', `${APP}/models.js`, 88, [
            frame('Query.exec', 380, 'dependency', '/srv/app/node_modules/mongoose/lib/query.js', 4400, [], d(0)),
          ], d(0)),
        ], d(-300)),
      ], d(-300)),
      frame('TLSSocket.onStreamRead', 1200, 'node', 'node:internal/stream_base_commons', 163, [
        frame('a.b(c)*[d]', 150, 'user', `${APP}/weird.js`, 1, [], d(0)),
        frame('axbxcxd', 120, 'user', `${APP}/weird.js`, 9, [], d(0)),
        frame(HOSTILE, 300, 'user', `${APP}/evil.js`, 3, [], d(0)),
      ], d(0)),
    ], d(-300)),
    frame('(idle)', 696, 'idle', '', 0, [], d(0)),
  ], d(-275));
}

export function incidentGraph(mode: 'normal' | 'inverted' = 'normal'): FlameGraphResult {
  const root = incidentTree(false);
  const idle = root.children.filter((c) => c.category === 'idle').reduce((sum, c) => sum + c.value, 0);
  return {
    title: 'worker-3.cpuprofile',
    mode,
    unit: 'ms',
    shareBasis: { unit: 'ms' },
    cpuMs: root.value - idle,
    root,
    openableFiles: [`${APP}/handler.js`, `${APP}/models.js`, `${APP}/weird.js`, `${APP}/evil.js`],
  };
}

export function diffGraph(): FlameGraphResult {
  return { ...incidentGraph(), title: 'after vs before', mode: 'diff', root: incidentTree(true) };
}

/** Every node of a tree, depth first. */
export function allFrames(root: FlameNode): FlameNode[] {
  const out: FlameNode[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    out.push(node);
    stack.push(...node.children);
  }
  return out;
}
