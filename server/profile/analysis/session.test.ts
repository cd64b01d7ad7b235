import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { ProfileInputError } from '../readers/profileInputError';
import { tempFolders } from '../../../test/unit/tempFolders';
import { MAX_UNRESOLVED_LISTED, ProfileSession } from './session';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'test', 'fixtures');
const PROFILES = join(FIXTURES, 'profiles');
const WORKLOADS = join(FIXTURES, 'workloads');
const options = { root: WORKLOADS };

describe('profile session (the worker logic)', () => {
  const temp = tempFolders();
  after(() => temp.removeAll());

  it('loads a primary profile with progress up to 1 and a cost table of local files', async () => {
    const session = new ProfileSession();
    const fractions: number[] = [];
    const loaded = await session.load(join(PROFILES, 'service.cpuprofile'), 'primary', options, undefined, (f) => fractions.push(f));
    assert.equal(fractions[fractions.length - 1], 1);
    for (let i = 1; i < fractions.length; i++) assert.ok(fractions[i] >= fractions[i - 1]);
    assert.equal(loaded.summary.name, 'service.cpuprofile');
    assert.ok(loaded.costTable !== null && join(WORKLOADS, 'clock.js') in loaded.costTable.files);
    assert.ok(loaded.insights.some((i) => i.id === 'spawn-env-walk'));
  });

  it('lists the costliest files not found locally, at most MAX_UNRESOLVED_LISTED, and counts them all', async () => {
    // A profile recorded elsewhere (hit counts, no sample list): one function in each of 50 more
    // missing files than are listed, file k hit k times.
    const files = MAX_UNRESOLVED_LISTED + 50;
    const name = (k: number): string => `/srv/app/part${String(k).padStart(5, '0')}.js`;
    const nodes: unknown[] = [{ id: 1, callFrame: { functionName: '(root)', scriptId: '0', url: '', lineNumber: -1, columnNumber: -1 }, hitCount: 0, children: Array.from({ length: files }, (_, k) => k + 2) }];
    for (let k = 1; k <= files; k++) nodes.push({ id: k + 1, callFrame: { functionName: `handle${k}`, scriptId: String(k), url: `file://${name(k)}`, lineNumber: 3, columnNumber: 0 }, hitCount: k });
    const dir = temp.make('hotframe-session-unresolved-');
    writeFileSync(join(dir, 'elsewhere.cpuprofile'), JSON.stringify({ nodes, startTime: 0, endTime: 1e6 }));
    const { summary } = await new ProfileSession().load(join(dir, 'elsewhere.cpuprofile'), 'primary', { root: dir });
    assert.equal(summary.unresolvedCount, files);
    assert.equal(summary.unresolvedFiles.length, MAX_UNRESOLVED_LISTED);
    // The costliest first: the last file (most hits) down to the 51st.
    assert.equal(summary.unresolvedFiles[0], name(files));
    assert.equal(summary.unresolvedFiles.at(-1), name(files - MAX_UNRESOLVED_LISTED + 1));
  });

  it('keeps the previous state when a load fails or is aborted', async () => {
    const session = new ProfileSession();
    await session.load(join(PROFILES, 'service.cpuprofile'), 'primary', options);
    const dir = temp.make('hotframe-session-');
    writeFileSync(join(dir, 'empty.cpuprofile'), '');
    await assert.rejects(session.load(join(dir, 'empty.cpuprofile'), 'primary', options), ProfileInputError);
    await assert.rejects(session.load(join(dir, 'none.cpuprofile'), 'primary', options), /none\.cpuprofile: no such file/);
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(session.load(join(PROFILES, 'typed.cpuprofile'), 'primary', options, controller.signal), /^Error: cancelled$/);
    assert.equal(session.overview().profile?.name, 'service.cpuprofile');
  });

  it('needs a baseline for the diff view and a profile for any view', async () => {
    const session = new ProfileSession();
    assert.throws(() => session.flame({ mode: 'normal', onlyMyCode: false }), /no profile loaded/);
    await session.load(join(PROFILES, 'service.cpuprofile'), 'primary', options);
    assert.throws(() => session.flame({ mode: 'diff', onlyMyCode: false }), /no baseline profile loaded/);
    const baseline = await session.load(join(PROFILES, 'service.preprocessed.json.gz'), 'baseline', options);
    // A baseline only feeds the diff: no cost table, no insights for the editor.
    assert.deepEqual([baseline.costTable, baseline.insights], [null, []]);
    const diff = session.flame({ mode: 'diff', onlyMyCode: false });
    assert.equal(diff.title, 'service.preprocessed.json.gz → service.cpuprofile');
    assert.equal(diff.root.value, session.flame({ mode: 'normal', onlyMyCode: false }).root.value);
    session.clear();
    assert.deepEqual(session.overview(), { profile: null, baseline: null, allocation: null, hotFunctions: [], callSites: [], insights: [] });
  });

  it('ends a comparison when another profile is opened (the baseline does not stick to it)', async () => {
    const session = new ProfileSession();
    await session.load(join(PROFILES, 'service.cpuprofile'), 'primary', options);
    await session.load(join(PROFILES, 'service.preprocessed.json.gz'), 'baseline', options);
    assert.equal(session.overview().baseline?.name, 'service.preprocessed.json.gz');
    await session.load(join(PROFILES, 'typed.cpuprofile'), 'primary', options);
    assert.equal(session.overview().baseline, null);
    assert.throws(() => session.flame({ mode: 'diff', onlyMyCode: false }), /no baseline profile loaded/);
  });
});
