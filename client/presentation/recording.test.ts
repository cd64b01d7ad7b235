import * as assert from 'node:assert/strict';
import { cpuDescription, formatElapsed, howItEnded, recordingStatus, stoppingStatus } from './recording';

describe('recording texts (client/presentation/recording.ts)', () => {
  it('shows the elapsed minutes and seconds with a Stop', () => {
    assert.deepEqual([0, 999, 1000, 59_999, 60_000, 65_432, 3_600_000].map(formatElapsed), ['0:00', '0:00', '0:01', '0:59', '1:00', '1:05', '60:00']);
    assert.equal(recordingStatus(65_432), '$(debug-stop) Hotframe: recording 1:05 · Stop');
    assert.equal(stoppingStatus('npm run start'), '$(loading~spin) Hotframe: stopping npm run start…');
  });

  it('says how the command ended and what each process cost', () => {
    assert.equal(howItEnded({ code: null, signal: 'SIGTERM' }), 'ended by SIGTERM');
    assert.equal(howItEnded({ code: 3, signal: null }), 'exited with code 3');
    assert.equal(cpuDescription(null), 'CPU time not recorded');
    assert.equal(cpuDescription(1234.6), '1.23 s of CPU (its process)');
    assert.equal(cpuDescription(85), '85.0 ms of CPU (its process)');
  });
});
