import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { normalizeRecordedPath, PathResolver } from './pathMapping';
import { tempFolders } from '../../../test/unit/tempFolders';

// Removed after every file has run: the folders are made while this file loads.
const temp = tempFolders();
after(() => temp.removeAll());

const root = temp.make('hotframe-paths-');
mkdirSync(join(root, 'src', 'lib'), { recursive: true });
writeFileSync(join(root, 'src', 'app.js'), '');
writeFileSync(join(root, 'src', 'lib', 'db.js'), '');
writeFileSync(join(root, 'app.js'), '');
const elsewhere = temp.make('hotframe-paths-mapped-');
writeFileSync(join(elsewhere, 'app.js'), '');

describe('path mapping', () => {
  it('finds the longest recorded suffix that exists under the root', () => {
    const paths = new PathResolver([root]);
    // 'src/app.js' exists and is longer than 'app.js', which exists too.
    assert.deepEqual(paths.resolve('/usr/src/service/src/app.js'), { file: join(root, 'src', 'app.js'), resolved: true });
    assert.deepEqual(paths.resolve('/usr/src/service/app.js'), { file: join(root, 'app.js'), resolved: true });
    assert.deepEqual(paths.resolve('/build/src/lib/db.js'), { file: join(root, 'src', 'lib', 'db.js'), resolved: true });
  });

  it('finds a package file where Node would, from the root up, before the recording machine\'s own path', () => {
    // A checkout with the service in a sub-folder and its packages at the top (the demo's layout),
    // recorded elsewhere on this same machine: the recorded path exists too, but is not this checkout.
    const checkout = temp.make('hotframe-paths-checkout-');
    const recorded = temp.make('hotframe-paths-recorded-');
    for (const top of [checkout, recorded]) {
      mkdirSync(join(top, 'node_modules', 'bson', 'lib'), { recursive: true });
      writeFileSync(join(top, 'node_modules', 'bson', 'lib', 'bson.js'), '');
      mkdirSync(join(top, 'service'), { recursive: true });
    }
    const paths = new PathResolver([join(checkout, 'service')]);
    assert.deepEqual(paths.resolve(join(recorded, 'node_modules', 'bson', 'lib', 'bson.js')), { file: join(checkout, 'node_modules', 'bson', 'lib', 'bson.js'), resolved: true });
  });

  it('lets an explicit prefix mapping win over the suffix match', () => {
    const paths = new PathResolver([root], [{ from: '/usr/src/service/', to: elsewhere }]);
    assert.deepEqual(paths.resolve('/usr/src/service/app.js'), { file: join(elsewhere, 'app.js'), resolved: true });
    // Prefixes match whole segments only.
    assert.deepEqual(paths.resolve('/usr/src/service2/src/app.js'), { file: join(root, 'src', 'app.js'), resolved: true });
    // A mapped file that does not exist stays mapped but unresolved.
    assert.deepEqual(paths.resolve('/usr/src/service/missing.js'), { file: join(elsewhere, 'missing.js'), resolved: false });
  });

  it('applies Windows-style explicit mappings to Windows recorded paths', () => {
    const paths = new PathResolver([root], [{ from: 'C:\\build\\service', to: elsewhere }]);
    assert.deepEqual(paths.resolve('C:\\build\\service\\app.js'), { file: join(elsewhere, 'app.js'), resolved: true });
    assert.deepEqual(paths.resolve('file:///C:/build/service/app.js'), { file: join(elsewhere, 'app.js'), resolved: true });
  });

  it('reads file:// URLs and Windows paths', () => {
    const paths = new PathResolver([root]);
    assert.deepEqual(paths.resolve(pathToFileURL(join(root, 'src', 'app.js')).href), { file: join(root, 'src', 'app.js'), resolved: true });
    assert.deepEqual(paths.resolve('C:\\work\\service\\src\\lib\\db.js'), { file: join(root, 'src', 'lib', 'db.js'), resolved: true });
    assert.deepEqual(paths.resolve('file:///C:/work/service/src/app.js'), { file: join(root, 'src', 'app.js'), resolved: true });
    assert.equal(normalizeRecordedPath('D:\\a\\\\b.js'), 'D:/a/b.js');
  });

  it('never resolves node internals, natives or remote urls, and reports misses as recorded', () => {
    const paths = new PathResolver([root]);
    assert.deepEqual(paths.resolve('node:child_process'), { file: 'node:child_process', resolved: false });
    assert.deepEqual(paths.resolve(''), { file: '', resolved: false });
    assert.deepEqual(paths.resolve('https://example.com/src/app.js'), { file: 'https://example.com/src/app.js', resolved: false });
    assert.deepEqual(paths.resolve('/nowhere/at/all.js'), { file: '/nowhere/at/all.js', resolved: false });
    // A directory is not a file.
    assert.deepEqual(paths.resolve('/x/src/lib'), { file: '/x/src/lib', resolved: false });
  });
});

describe('path mapping of a big profile recorded elsewhere', () => {
  it('looks at each missing folder once, not at each file in it, and still finds the files that exist', () => {
    const service = temp.make('hotframe-paths-many-');
    mkdirSync(join(service, 'module0'));
    writeFileSync(join(service, 'module0', 'service.js'), '');
    const paths = new PathResolver([service]);
    // Counted at the fs module (the resolver calls it through the module object).
    type Fs = typeof import('node:fs');
    const fs = require('node:fs') as { -readonly [K in keyof Fs]: Fs[K] };
    const { statSync, realpathSync } = fs;
    const realpathNative = realpathSync.native;
    let calls = 0;
    fs.statSync = ((...args: Parameters<typeof statSync>) => (calls++, statSync(...args))) as typeof statSync;
    const counted = ((...args: Parameters<typeof realpathNative>) => (calls++, realpathNative(...args))) as typeof realpathNative;
    fs.realpathSync = Object.assign(((...args: Parameters<typeof realpathSync>) => (calls++, realpathSync(...args))) as typeof realpathSync, { native: counted });
    const modules = 500;
    const results = [];
    try {
      for (let k = 0; k < modules; k++) for (const file of ['service.js', 'clock.js', 'lib/db.js']) results.push(paths.resolve(`file:///app/module${k}/${file}`));
    } finally {
      fs.statSync = statSync;
      fs.realpathSync = realpathSync;
    }
    assert.deepEqual(results[0], { file: join(service, 'module0', 'service.js'), resolved: true });
    assert.deepEqual(results[1], { file: '/app/module0/clock.js', resolved: false });
    assert.equal(results.filter((r) => r.resolved).length, 1);
    // module<k>/ is stat'ed once for its three files (app/ under the root once for all); resolving
    // and stat'ing every candidate file (two suffixes each) took 4 calls per file, 6,000 here.
    assert.ok(calls <= modules + 20, `${calls} file system calls for ${modules * 3} files in ${modules} missing folders`);
  });
});
