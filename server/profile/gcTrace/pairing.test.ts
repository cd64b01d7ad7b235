import { strict as assert } from 'node:assert';

import { processIdOfProfileName, sameRun } from './pairing';

describe('a GC trace and a CPU profile of one run (pairing.ts)', () => {
  it('reads the pid from the names Node and Hotframe\'s recordings give, and nothing else', () => {
    assert.equal(processIdOfProfileName('CPU.20261128.093000.4242.0.001.cpuprofile'), 4242);
    assert.equal(processIdOfProfileName('npm-run-start.20261128.093000.4243.0.002.cpuprofile'), 4243);
    assert.equal(processIdOfProfileName('isolate-0x5581c0f0-4244-v8.log'), 4244);
    assert.equal(processIdOfProfileName('isolate-0x5581c0f0-4245-4245-v8.log'), 4245);
    for (const name of ['after.cpuprofile', 'profile.pprof', 'CPU.4242.cpuprofile', 'gc.log']) assert.equal(processIdOfProfileName(name), null, name);
  });

  it('pairs only in one folder and only on a traced pid', () => {
    const isolates = ['4242:0x3f57be70', '4250:0x2c114090'];
    assert.equal(sameRun('/srv/run/gc.log', isolates, '/srv/run/CPU.20261128.093000.4242.0.001.cpuprofile'), true);
    assert.equal(sameRun('/srv/run/gc.log', isolates, '/srv/run/CPU.20261128.093000.4250.0.001.cpuprofile'), true, 'any traced isolate');
    assert.equal(sameRun('/srv/run/gc.log', isolates, '/srv/other/CPU.20261128.093000.4242.0.001.cpuprofile'), false, 'another folder');
    assert.equal(sameRun('/srv/run/gc.log', isolates, '/srv/run/CPU.20261128.093000.4243.0.001.cpuprofile'), false, 'another process');
    assert.equal(sameRun('/srv/run/gc.log', isolates, '/srv/run/after.cpuprofile'), false, 'a name without a pid');
  });
});
