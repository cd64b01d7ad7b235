// One run of the semi-space sweep, as `hotframe record --semi-space` and the editor run it: the
// recorder's temporary folder is removed whatever happened, the run whose trace cannot be saved too.
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';

import { tempFolders } from '../../test/unit/tempFolders';
import { runAtSemiSpaceSize } from './semiSpaceRun';

describe('one semi-space run', function () {
  this.timeout(60_000);
  const temp = tempFolders();
  after(() => temp.removeAll());

  it('removes its temporary folder when the trace cannot be written there, and says why in one line', async () => {
    const work = temp.make('hotframe-semispace-run-');
    // The program takes the trace's name in the recorder's folder (a folder of that name): the
    // write of the trace fails after the command ended and its profile was written.
    const program = "require('node:fs').mkdirSync(require('node:path').join(process.env.HOTFRAME_PROFILE_DIR, 'trace-gc.log'))";
    let recordingDir = '';
    const failed = await runAtSemiSpaceSize(1, { command: [process.execPath, '-e', program], cwd: work, outDir: temp.adopt(`${work}-out`), onStart: (recording) => (recordingDir = temp.adopt(recording.dir)) }).then(
      () => assert.fail('the run succeeded without its trace'),
      (error: unknown) => error as Error,
    );
    assert.notEqual(recordingDir, '');
    assert.ok(!existsSync(recordingDir), `the temporary folder ${recordingDir} is still there`);
    assert.match(failed.message, /^cannot save the trace of the run \(EISDIR\)$/);
  });
});
