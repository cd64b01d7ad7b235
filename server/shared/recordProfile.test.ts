// The editor's typed command line: words, quotes, environment assignments, and shell syntax refused.
import { strict as assert } from 'node:assert';

import { parseCommandLine } from './recordProfile';

describe('parseCommandLine (Record CPU Profile, typed command)', () => {
  it('splits words, keeps quoted spaces, and takes leading NAME=value as environment', () => {
    assert.deepEqual(parseCommandLine(`PORT=3001 DEBUG= node "my server.js" --name='a b' c\\ d`), {
      argv: ['node', 'my server.js', '--name=a b', 'c d'],
      env: { PORT: '3001', DEBUG: '' },
    });
    assert.deepEqual(parseCommandLine('node x.js FOO=1'), { argv: ['node', 'x.js', 'FOO=1'], env: {} });
  });

  it('refuses what only a shell would do, instead of passing it on as text', () => {
    for (const line of ['node a.js | tee log', 'npm run build && node x', 'node x > out', 'node $HOME/x.js', 'node "$(id)"', 'node *.js', 'node `id`', 'node a; rm b']) {
      assert.ok('error' in parseCommandLine(line), line);
    }
    assert.deepEqual(parseCommandLine('node "unclosed'), { error: 'an unclosed "' });
    assert.deepEqual(parseCommandLine('FOO=1'), { error: 'no command' });
  });
});
