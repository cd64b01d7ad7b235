// parseWebviewMessage: what the flame graph panel accepts from its (untrusted) webview.
import assert from 'node:assert/strict';
import { parseWebviewMessage } from '../../client/flameMessages';

const openable = ['/srv/app/lib/models.js', '/srv/app/lib/handler.js'];

describe('parseWebviewMessage', () => {
  describe('valid', () => {
    const cases: Array<[string, unknown, unknown]> = [
      ['ready', { type: 'ready' }, { type: 'ready' }],
      ['open of an openable file', { type: 'open', file: '/srv/app/lib/models.js', line: 43 }, { type: 'open', file: '/srv/app/lib/models.js', line: 43 }],
      ['request normal', { type: 'request', mode: 'normal', onlyMyCode: false }, { type: 'request', mode: 'normal', onlyMyCode: false }],
      ['request inverted', { type: 'request', mode: 'inverted', onlyMyCode: true }, { type: 'request', mode: 'inverted', onlyMyCode: true }],
      ['request diff', { type: 'request', mode: 'diff', onlyMyCode: true }, { type: 'request', mode: 'diff', onlyMyCode: true }],
      ['swap (the comparison\'s button), extra fields dropped', { type: 'swap', before: '/etc/passwd' }, { type: 'swap' }],
    ];
    for (const [name, raw, expected] of cases) {
      it(name, () => assert.deepEqual(parseWebviewMessage(raw, openable), expected));
    }

    it('returns a fresh object without extra fields', () => {
      const raw = { type: 'open', file: '/srv/app/lib/handler.js', line: 27, command: 'rm -rf /', __proto__: { polluted: true } };
      const parsed = parseWebviewMessage(raw, openable);
      assert.deepEqual(parsed, { type: 'open', file: '/srv/app/lib/handler.js', line: 27 });
      assert.notEqual(parsed, raw);
      assert.deepEqual(Object.keys(parsed!), ['type', 'file', 'line']);
    });

    it('accepts a Set of openable files', () => {
      assert.deepEqual(parseWebviewMessage({ type: 'open', file: openable[0], line: 1 }, new Set(openable)), { type: 'open', file: openable[0], line: 1 });
    });
  });

  describe('invalid (null)', () => {
    const cases: Array<[string, unknown]> = [
      ['undefined', undefined],
      ['null', null],
      ['a string', 'ready'],
      ['an array', [{ type: 'ready' }]],
      ['no type', { file: openable[0], line: 1 }],
      ['unknown type', { type: 'exec', command: 'ls' }],
      ['type with different case', { type: 'Ready' }],
      ['open of a file not in the graph', { type: 'open', file: '/etc/passwd', line: 1 }],
      ['open of a path that only ends like an openable one', { type: 'open', file: '/x/srv/app/lib/models.js', line: 1 }],
      ['open of a relative variant', { type: 'open', file: '/srv/app/lib/../lib/models.js', line: 1 }],
      ['open with line 0', { type: 'open', file: openable[0], line: 0 }],
      ['open with a negative line', { type: 'open', file: openable[0], line: -4 }],
      ['open with a fractional line', { type: 'open', file: openable[0], line: 4.5 }],
      ['open with NaN', { type: 'open', file: openable[0], line: Number.NaN }],
      ['open with Infinity', { type: 'open', file: openable[0], line: Number.POSITIVE_INFINITY }],
      ['open with a huge line', { type: 'open', file: openable[0], line: 2 ** 60 }],
      ['open with a string line', { type: 'open', file: openable[0], line: '43' }],
      ['open without file', { type: 'open', line: 43 }],
      ['open with a file object', { type: 'open', file: { toString: () => openable[0] }, line: 43 }],
      ['request with an unknown mode', { type: 'request', mode: 'sideways', onlyMyCode: false }],
      ['request with a mode from the prototype', { type: 'request', mode: 'toString', onlyMyCode: false }],
      ['request with a string boolean', { type: 'request', mode: 'normal', onlyMyCode: 'true' }],
      ['request without onlyMyCode', { type: 'request', mode: 'normal' }],
      ['request with a numeric boolean', { type: 'request', mode: 'normal', onlyMyCode: 1 }],
      ['openStall with a negative index', { type: 'openStall', index: -1 }],
      ['openStall with a fractional index', { type: 'openStall', index: 0.5 }],
      ['openStall with a string index', { type: 'openStall', index: '0' }],
      ['openStall with a path instead of an index', { type: 'openStall', file: openable[0], line: 3 }],
    ];
    for (const [name, raw] of cases) {
      it(name, () => assert.equal(parseWebviewMessage(raw, openable), null));
    }

    it('passes openStall on as an index only, whatever else the message carries', () => {
      assert.deepEqual(parseWebviewMessage({ type: 'openStall', index: 2, file: '/etc/passwd' }, []), { type: 'openStall', index: 2 });
    });

    it('opens nothing when the graph has no openable files', () => {
      assert.equal(parseWebviewMessage({ type: 'open', file: openable[0], line: 1 }, []), null);
    });
  });
});
