import { strict as assert } from 'node:assert';
import { parseExpression } from '@babel/parser';
import type * as t from '@babel/types';
import { isCronExpression, jobProcessor, scheduledFunction } from './scheduledWork';

const call = (code: string): t.CallExpression | t.NewExpression => parseExpression(code) as t.CallExpression | t.NewExpression;

describe('scheduledWork: cron schedules and job processors', () => {
  it('reads cron expressions (5 to 7 fields, a star, a step or ?; nicknames), not dates, versions or sentences', () => {
    for (const text of ['* * * * *', '*/5 * * * * *', '0 9 * * MON-FRI', '0 0 12 ? * WED', '0,30 8-18/2 * * 1-5', '@hourly', ' 15 3 * * * ']) {
      assert.equal(isCronExpression(text), true, text);
    }
    for (const text of ['2024-01-01 10:00:00', '1 2 3 4 5', 'run it now or else later', '* * * *', '1.2.3', '@sometimes', '']) {
      assert.equal(isCronExpression(text), false, text);
    }
  });

  it('finds the function after a cron expression, after a schedule method\'s spec, and an object\'s onTick', () => {
    const scheduled = (code: string): string | null => {
      const fn = scheduledFunction(call(code));
      return fn === null ? null : fn.type === 'Identifier' ? fn.name : fn.type;
    };
    assert.equal(scheduled("cron.schedule('*/5 * * * *', tick)"), 'tick');
    assert.equal(scheduled("schedule.scheduleJob('nightly', '0 3 * * *', () => {})"), 'ArrowFunctionExpression');
    assert.equal(scheduled('scheduler.scheduleJob(config.rule, sweep)'), 'sweep');
    assert.equal(scheduled("new CronJob('0 * * * *', onTick, null, true)"), 'onTick');
    assert.equal(scheduled("CronJob.from({ cronTime: '0 * * * *', onTick() {} })"), 'ObjectMethod');
    assert.equal(scheduled('scheduler.schedule(() => {}, 100)'), null);
    assert.equal(scheduled("queue.schedule('in 20 minutes', 'send email')"), null);
    assert.equal(scheduled("log('1 2 3 4 5', done)"), null);
  });

  it('finds a processor by its job parameter, after options too; not a function that takes anything else', () => {
    const resolve = (name: string): t.Node | null => (name === 'makeThumb' ? parseExpression('function makeThumb(job) {}') : name === 'load' ? parseExpression('function load(file) {}') : null);
    const processor = (code: string): boolean => jobProcessor(call(code), resolve) !== null;
    assert.equal(processor("queue.process('mail', 5, async (job, done) => {})"), true);
    assert.equal(processor("new Worker('thumbs', makeThumb, { connection })"), true);
    assert.equal(processor("agenda.define('report', { priority: 'high' }, async (reportJob) => {})"), true);
    assert.equal(processor("boss.work('resize', async (jobs) => {})"), true);
    assert.equal(processor('owl.createWorker(async (job, ack, span) => {})'), true);
    assert.equal(processor('pool.createWorker((options) => {})'), false);
    assert.equal(processor("new Worker('thumbs', load)"), false);
    assert.equal(processor("define('legacy', ['dep'], function (dep) {})"), false);
    assert.equal(processor('process.process((job) => {})'), false);
    assert.equal(processor("new Worker('./worker.js')"), false);
  });
});
