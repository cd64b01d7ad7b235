// Where each kind of frame's cost goes, with the incidents' own frames as examples.
import assert from 'node:assert/strict';
import { categorize } from './categories';

describe('categorize', () => {
  const cases: [name: string, url: string, kind: 'js' | 'native' | 'vm' | undefined, expected: string][] = [
    ['(garbage collector)', '', 'vm', 'gc'],
    ['(idle)', '', 'vm', 'idle'],
    ['(program)', '', 'vm', 'program'],
    ['(root)', '', 'vm', 'program'],
    // 000: Date.now in a cpuprofile ('now', no url) and in a --prof log (C++ runtime function).
    ['now', '', undefined, 'native'],
    ['Runtime_DateCurrentTime', '', 'native', 'native'],
    ['DateNow', '', 'native', 'native'],
    ['/usr/lib/x86_64-linux-gnu/libc.so.6', '', 'native', 'native'],
    // 003: normalizeSpawnArguments lives in node's own JS.
    ['normalizeSpawnArguments', 'node:child_process', 'js', 'node'],
    ['normalizeSpawnArguments', 'child_process.js', 'js', 'user'],
    ['readFileSync', 'internal/fs/utils', 'js', 'node'],
    // 004: mongoose hydration is dependency code.
    ['completeMany', '/srv/app/node_modules/mongoose/lib/helpers/query/completeMany.js', 'js', 'dependency'],
    ['completeMany', 'file:///srv/app/node_modules/mongoose/lib/query.js', 'js', 'dependency'],
    ['completeMany', 'C:\\app\\node_modules\\mongoose\\lib\\query.js', 'js', 'dependency'],
    ['getTimestamp', '/srv/app/models.js', 'js', 'user'],
    ['getTimestamp', 'file:///srv/app/models.js', 'js', 'user'],
    // A file merely named like a folder is still user code.
    ['x', '/srv/app/node_modules.js', 'js', 'user'],
    // Native kind wins over a url (builtins can carry one).
    ['ArrayPrototypeMap', 'node:internal/per_context/primordials', 'native', 'native'],
  ];
  for (const [name, url, kind, expected] of cases) {
    it(`${name} @ ${url || '(no url)'} (${kind ?? 'default'}) -> ${expected}`, () => {
      assert.equal(kind === undefined ? categorize(name, url) : categorize(name, url, kind), expected);
    });
  }
});
