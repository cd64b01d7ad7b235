import * as assert from 'node:assert/strict';
import { captureLines, processItems, processPickPlaceholder } from './processPick';
import { ICON_SYNTAX, LINKED_TEXT } from './plainText';
import type { RunningProcesses } from '../../server/protocol/wire';

const list: RunningProcesses = {
  groups: [
    { root: { pid: 100, ppid: 1, command: 'PM2 v5.4.3: God Daemon (/tmp/pm2)' }, workers: [{ pid: 101, ppid: 100, command: 'node /srv/app.js', worker: 'pm2' }, { pid: 102, ppid: 100, command: 'node /srv/app.js', worker: 'pm2' }] },
    { root: { pid: 300, ppid: 50, command: 'node evil.js $(zap) [x](command:workbench.action.terminal.new)' }, workers: [] },
  ],
  more: 3,
};

describe('processItems: the pick of running Node processes', () => {
  it('lists a parent, then its workers indented and named, then the others', () => {
    const items = processItems(list);
    assert.deepEqual(items.map((i) => i.pid), [100, 101, 102, 300]);
    assert.match(items[0].detail ?? '', /pm2 daemon: profiles it and its 2 workers together/);
    assert.match(items[1].label, /└ 101/);
    assert.match(items[1].description, /^pm2 worker · node \/srv\/app\.js$/);
    assert.equal(items[3].detail, undefined);
  });

  it('renders no icon and no link from a command line', () => {
    for (const item of processItems(list)) {
      for (const text of [item.label, item.description, item.detail ?? '']) {
        assert.deepEqual([...text.matchAll(ICON_SYNTAX)], [], text);
        assert.deepEqual([...text.matchAll(LINKED_TEXT)], [], text);
      }
    }
  });

  it('says how many processes are listed and how many are not', () => {
    assert.equal(processPickPlaceholder(list), '4 Node processes of this user (3 more not listed): pick one to profile (a parent brings its workers)');
  });

  it('reports each process\'s pause in the output', () => {
    const lines = captureLines({ folder: '/tmp/c', profiles: 3, problems: ['process 9: exited'], pauses: [{ pid: 7, startMs: 1.5, stopMs: null }] }, (v) => `${v} ms`);
    assert.deepEqual(lines, ['[attach] 3 profiles in /tmp/c', '[attach] process 7: its main thread paused 1.5 ms to start the profiler', '[attach] process 9: exited']);
  });
});
