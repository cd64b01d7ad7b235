import { strict as assert } from 'node:assert';
import { threadsOf, type Running } from './capture';
import type { StopAnswer } from './agent';

const running: Running = { target: { pid: 41 } as Running['target'], pid: 41, command: 'node app.js', startedAt: 0, startPauseMs: 1, startWorkMs: null, exitFile: null };
const worker = (more: Partial<StopAnswer['workers'][number]>): StopAnswer['workers'][number] => ({ workerId: '1', title: 'w', gone: false, started: 3, answered: 4, afterStop: 1, response: null, ...more });
const answer = (workers: StopAnswer['workers']): StopAnswer => ({ threadId: 0, pauseMs: 2, workMs: null, main: { nodes: [], startTime: 0, endTime: 1 }, workers });

describe("a process's stop answer: its threads, and why a thread gave no profile", () => {
  it('takes a worker thread that answered its stop with a profile', () => {
    const { threads, problems } = threadsOf(running, answer([worker({ response: { id: 9, result: { profile: { nodes: [] } } } })]));
    assert.deepEqual(threads.map((t) => [t.threadId, t.title]), [[0, 'main'], [1, 'w']]);
    assert.deepEqual(problems, []);
  });

  it("says what a thread that refused the stop answered to the start, the target's text escaped", () => {
    const refused = worker({ response: { id: 9, error: { message: 'No recording profiles found' } }, startError: 'Profiler is not enabled\u001b[2J\n' });
    const { threads, problems } = threadsOf(running, answer([refused]));
    assert.equal(threads.length, 1);
    assert.deepEqual(problems, [
      'process 41, thread 1: no profile (No recording profiles found; it had answered 3 of the 3 commands that started its profiler, one of them with an error (Profiler is not enabled\\x1b[2J\\x0a))',
    ]);
  });

  it('says of a silent thread whether it sent anything after the stop', () => {
    const { problems } = threadsOf(running, answer([worker({ answered: 1, afterStop: 0 })]));
    assert.match(problems[0]!, /did not answer within \d+ s; it had answered 1 of the 3 commands that started its profiler, and sent nothing since the stop was sent\)$/);
  });
});
