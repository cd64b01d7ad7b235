// Which files the command line's walk collects: source files by extension, and the extensionless
// scripts a node shebang runs (an entry point such as `bin/www` wires the modules together).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

import { collectSourceFiles } from './sourceFiles';

describe('sourceFiles: the files a folder walk collects', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'hotframe-walk-'));
    const files: Record<string, string> = {
      '.git/HEAD': 'ref: refs/heads/main\n',
      '.gitignore': 'ignored/\n',
      'app.js': "require('./lib');\n",
      'bin/www': '#!/usr/bin/env node\nrequire(\'../app\');\n',
      'bin/serve': '#!/usr/local/bin/node --max-old-space-size=4096\r\nrequire(\'../app\');\n',
      'bin/split': '#!/usr/bin/env -S node --enable-source-maps\nrequire(\'../app\');\n',
      'bin/deploy': '#!/bin/bash\nnode app.js\n',
      'bin/watch': '#!/usr/bin/env nodemon\nrequire(\'../app\');\n',
      'bin/nodejs-notes': 'node is started by systemd\n',
      'ignored/www': '#!/usr/bin/env node\nrequire(\'../app\');\n',
      'Makefile': 'all:\n\tnode app.js\n',
      'notes.txt': '#!/usr/bin/env node\n',
    };
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('collects extensionless scripts whose first line runs node, and no other extensionless or ignored file', () => {
    const collected = collectSourceFiles([dir], dir).map((file) => relative(dir, file));
    assert.deepEqual(collected, ['app.js', 'bin/serve', 'bin/split', 'bin/www']);
  });
});
