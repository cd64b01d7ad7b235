// Work a scheduler or a job queue runs, told from the call that hands it over (pure AST tests, as
// registrationShapes.ts holds for routes and listeners):
// - a schedule: a cron expression and the function it runs (`cron.schedule('*/5 * * * * *', fn)`,
//   `new CronJob('0 * * * *', fn)`, `schedule.scheduleJob(rule, fn)`, `{ cronTime, onTick }`): a
//   periodic timer, whatever library reads the expression;
// - a job queue's processor: a function whose first parameter is the job, handed to a queue's
//   `process`, `work` or `define`, or to what makes a worker (`queue.process((job) => …)`, `new
//   Worker('thumbs', async (job) => …)`, `owl.createWorker(async (job, ack) => …)`,
//   `agenda.define('report', (job) => …)`): it runs once per job, at a rate the code does not show.
import type * as t from '@babel/types';
import { isFunctionNode, propertyName } from './functionNames';
import { calleeProperty, stringValue } from './registrationShapes';

/** One field of a cron expression: digits, `*`, ranges, steps, lists, names (`MON-FRI`, `JAN`), `?`, `L`, `W`, `#`. */
const CRON_FIELD = /^(?:\*|\?|[0-9A-Za-z]+(?:-[0-9A-Za-z]+)?)(?:\/\d+)?(?:,(?:\*|[0-9A-Za-z]+(?:-[0-9A-Za-z]+)?)(?:\/\d+)?)*[LW#\d]*$/;
/** The named schedules cron libraries accept. */
const CRON_NICKNAME = /^@(?:yearly|annually|monthly|weekly|daily|midnight|hourly|every_minute|every_second)$/;

/**
 * `*\/5 * * * *`, `0 0 * * * *` (a leading seconds field), `0 9 * * MON-FRI`, `@hourly`: a cron
 * expression (5 to 7 fields, at least one of them `*` or a step, so that a date or a version is not one).
 */
export function isCronExpression(text: string): boolean {
  const trimmed = text.trim();
  if (CRON_NICKNAME.test(trimmed)) return true;
  const fields = trimmed.split(/\s+/);
  if (fields.length < 5 || fields.length > 7) return false;
  return fields.every((field) => CRON_FIELD.test(field)) && fields.some((field) => field.includes('*') || field.includes('/') || field === '?');
}

/** Methods that add a recurring job from a spec the code may read from configuration (`cron.schedule(config.cron, fn)`). */
const SCHEDULE_METHODS = new Set(['schedule', 'scheduleJob']);
/** A job queue's methods that take the function each job runs. */
const JOB_METHODS = new Set(['process', 'work', 'define']);
/** The keys of a schedule written as an object (`CronJob.from({ cronTime, onTick })`). */
const CRON_OBJECT_SPEC = 'cronTime';
const CRON_OBJECT_TICK = 'onTick';

function calleeName(callee: t.Node): string | null {
  return callee.type === 'Identifier' ? callee.name : calleeProperty(callee);
}

/** What can name a function to run: a function written there, or a name or member that may hold one. */
function mayBeFunction(node: t.Node): boolean {
  return isFunctionNode(node) || node.type === 'Identifier' || node.type === 'MemberExpression';
}

/**
 * The function a call or `new` schedules to run periodically (as written: a function, or the name
 * of one), else null: the argument after a cron expression (or after the spec of a `schedule` /
 * `scheduleJob` method), or the `onTick` of an object with a cron `cronTime`.
 */
export function scheduledFunction(node: t.CallExpression | t.NewExpression): t.Node | null {
  const args = node.arguments;
  const name = calleeName(node.callee);
  // The spec comes first (a job's name may come before it: `scheduleJob('nightly', '0 3 * * *', fn)`).
  for (let i = 0; i < Math.min(args.length, 2); i++) {
    const arg = args[i];
    if (arg.type === 'ObjectExpression' && i === 0) {
      const spec = objectValue(arg, CRON_OBJECT_SPEC);
      const tick = objectValue(arg, CRON_OBJECT_TICK);
      if (spec !== null && isCronExpression(stringValue(spec) ?? '') && tick !== null && mayBeFunction(tick)) return tick;
      continue;
    }
    const next = args[i + 1];
    if (next === undefined || !mayBeFunction(next) || isFunctionNode(arg)) continue;
    if (isCronExpression(stringValue(arg) ?? '')) return next;
    if (name !== null && SCHEDULE_METHODS.has(name) && i === args.length - 2 && arg.type !== 'StringLiteral') return next;
  }
  return null;
}

function objectValue(object: t.ObjectExpression, key: string): t.Node | null {
  for (const prop of object.properties) {
    if (prop.type === 'SpreadElement' || propertyName(prop.key, prop.computed) !== key) continue;
    return prop.type === 'ObjectMethod' ? prop : prop.value;
  }
  return null;
}

/** A first parameter that is a job: `job`, `jobs` (a batch), `emailJob`. */
function takesJob(fn: t.Function): boolean {
  const first = fn.params[0];
  return first?.type === 'Identifier' && /^jobs?$|Job$/.test(first.name);
}

/**
 * The processor a job queue is handed (`queue.process('mail', 5, (job, done) => …)`, `new
 * Worker('thumbs', processThumb, options)`), as written, else null: the last argument that is, or
 * names, a function, when its first parameter is the job. `resolve` finds the function a name holds.
 */
export function jobProcessor(node: t.CallExpression | t.NewExpression, resolve: (name: string) => t.Node | null): t.Node | null {
  const name = calleeName(node.callee);
  if (name === null) return null;
  const isJobMethod = node.type === 'CallExpression' && node.callee.type === 'MemberExpression' && JOB_METHODS.has(name)
    && !(node.callee.object.type === 'Identifier' && node.callee.object.name === 'process');
  // `new Worker(name, fn)`, `owl.createWorker(fn)`: what makes a queue's worker.
  const isWorker = /Worker$/.test(name);
  if (!isJobMethod && !isWorker) return null;
  // Options may follow it (`new Worker('thumbs', processThumb, { connection })`).
  for (let i = node.arguments.length - 1; i >= 0; i--) {
    const arg = node.arguments[i];
    const fn = isFunctionNode(arg) ? arg : arg.type === 'Identifier' ? resolve(arg.name) : null;
    if (fn !== null && isFunctionNode(fn)) return takesJob(fn as t.Function) ? arg : null;
  }
  return null;
}
