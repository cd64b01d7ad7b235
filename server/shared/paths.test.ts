import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';

import { SOURCE_EXTENSIONS, isSourceFile, uriToPath } from './paths';

describe('paths: source files and document URIs', () => {
  it('takes every source extension and nothing else, .d.ts excluded', () => {
    assert.deepEqual(SOURCE_EXTENSIONS.map((ext) => isSourceFile(`a${ext}`)), SOURCE_EXTENSIONS.map(() => true));
    for (const name of ['types.d.ts', 'types.d.mts', 'types.d.cts', 'notes.txt', 'app.json', '.js', 'js', 'app.js.map']) assert.equal(isSourceFile(name), false, name);
    assert.equal(isSourceFile('/srv/app/routes/tasks.mts'), true);
  });

  it('lists .js before .ts, as Node and tsc resolve an extensionless specifier', () => {
    assert.ok(SOURCE_EXTENSIONS.indexOf('.js') < SOURCE_EXTENSIONS.indexOf('.ts'));
  });

  it('turns file URIs into paths and keeps other schemes as they are', () => {
    const path = '/srv/app/a b/ü.js';
    assert.equal(uriToPath(pathToFileURL(path).href), path);
    assert.equal(uriToPath('untitled:Untitled-1'), 'untitled:Untitled-1');
    // A file URI with a host is not a local path here: kept as the URI.
    assert.equal(uriToPath('file://server/share/a.js'), 'file://server/share/a.js');
  });
});
