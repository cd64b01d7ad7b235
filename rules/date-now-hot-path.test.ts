import rule from './date-now-hot-path';
import { runRuleTests } from '../test/ruleTester';

runRuleTests(rule, {
  valid: [
    {
      name: 'start-up code reads the clock once',
      code: `const startedAt = Date.now();
const boot = new Date();
console.log(startedAt, boot);`,
    },
    {
      name: "seed 000's fix: a coarse clock refreshed every second (lazy first read)",
      code: `const Redis = require('ioredis');
const sub = new Redis();
function getTimestamp () {
    if (! getTimestamp._timestamp) {
        getTimestamp._timestamp = Math.floor(Date.now() / 1000);

        setInterval(function () {
            getTimestamp._timestamp = Math.floor(Date.now() / 1000);
        }, 1000).unref();
    }

    return getTimestamp._timestamp;
}
getTimestamp._timestamp = 0;
sub.on('message', (channel, message) => {
  const event = JSON.parse(message);
  event.ts = getTimestamp();
});`,
    },
    {
      name: 'a module-level timer refreshing a cached clock every 5 s',
      code: `let now = Date.now();
setInterval(() => { now = Date.now(); }, 5000).unref();
app.get('/t', (req, res) => res.json({ now }));`,
    },
    {
      name: 'signal handlers run once',
      code: `process.on('SIGTERM', () => { console.log('stopping at', Date.now()); process.exit(0); });`,
    },
    {
      name: 'an exported helper nobody in the module calls is unknown, not hot',
      code: `exports.stamp = function stamp(record) { record.at = Date.now(); return record; };`,
    },
    {
      name: 'a helper only called at start-up',
      code: `function loadConfig() { return { loadedAt: new Date() }; }
const config = loadConfig();
app.get('/config', (req, res) => res.json(config));`,
    },
    {
      name: 'new Date(value) parses, it does not read the clock',
      code: `app.get('/d', (req, res) => res.json({ d: new Date(req.query.at) }));`,
    },
    {
      name: 'a local class named Date is not the global',
      code: `class Date { static now() { return 0; } }
app.get('/d', (req, res) => res.json({ d: Date.now() }));`,
    },
    {
      name: 'an unrelated "on" event (not request/message) is not a hot registration',
      code: `emitter.on('ready', () => { console.log(Date.now()); });`,
    },
    {
      name: 'a timer with an unknown interval is not assumed hot',
      code: `setInterval(() => report(Date.now()), config.interval);`,
    },
    {
      name: 'ioredis subscribe callback (err, count) runs once',
      code: `const Redis = require('ioredis');
const sub = new Redis();
sub.subscribe('news', (err, count) => { console.log('subscribed at', Date.now(), count); });`,
    },
    {
      name: 'a 1000 ms timer is the recommended refresh; a one-shot setTimeout is no timer loop',
      code: `let last = 0;
setInterval(() => { last = Date.now(); }, 1000);
setTimeout(() => console.log('started', Date.now()), 10);`,
    },
    {
      name: 'logical assignment caches the first read',
      code: `let cached;
app.get('/c', (req, res) => { cached ||= Date.now(); res.json({ cached }); });`,
    },
  ],
  invalid: [
    {
      name: "seed 000: getTimestamp() called from a redis 'message' handler",
      code: `const Redis = require('ioredis');
const sub = new Redis();

function getTimestamp () {
    return Math.floor(Date.now() / 1000);
}

function onMessage(channel, message) {
  const event = JSON.parse(message);
  event.ts = getTimestamp();
}
sub.subscribe('events');
sub.on('message', onMessage);`,
      errors: [{
        messageId: 'perMessage', line: 5, column: 23, endLine: 5, endColumn: 33,
        message: /^Date\.now\(\) runs per message \(via onMessage -> getTimestamp\)\. In seed 000 Runtime_DateCurrentTime took 494 ticks/,
      }],
      output: null,
    },
    {
      name: 'express route, directly',
      code: `const express = require('express');
const app = express();
app.get('/orders', (req, res) => {
  res.json({ at: Date.now() });
});`,
      errors: [{ messageId: 'perRequest', line: 4, column: 18, message: /^Date\.now\(\) runs per request\. / }],
      output: null,
    },
    {
      name: 'express.Router with middleware array, new Date() and +new Date',
      code: `import express from 'express';
const router = express.Router();
function stamp(req, res, next) { req.at = new Date(); next(); }
router.post('/items', [stamp], (req, res) => { res.json({ t: +new Date }); });
export default router;`,
      errors: [
        { messageId: 'perRequest', line: 3, column: 43, endColumn: 53, message: /^new Date\(\) runs per request \(via stamp\)/ },
        { messageId: 'perRequest', line: 4, column: 62, endColumn: 71, message: /^\+new Date\(\) runs per request/ },
      ],
      output: null,
    },
    {
      name: 'per loop iteration inside a request handler (TypeScript)',
      filename: 'handler.ts',
      code: `import type { Request, Response } from 'express';
export function list(req: Request, res: Response): void {
  const rows: number[] = [];
  for (let i = 0; i < 10; i++) rows.push(Date.now());
  res.json(rows);
}
app.get('/list', list);`,
      errors: [{ messageId: 'perRequest', line: 4, column: 42, message: /^Date\.now\(\) runs per request \(via list\), inside a loop,/ }],
      output: null,
    },
    {
      name: 'koa middleware and @koa/router',
      code: `const Koa = require('koa');
const Router = require('@koa/router');
const app = new Koa();
const router = new Router();
app.use(async (ctx, next) => { ctx.state.start = Date.now(); await next(); });
router.get('user', '/users/:id', (ctx) => { ctx.body = { at: new Date() }; });`,
      errors: [
        { messageId: 'perRequest', line: 5, column: 50 },
        { messageId: 'perRequest', line: 6, column: 62 },
      ],
      output: null,
    },
    {
      name: 'fastify shorthand with options, route({ handler }) and addHook',
      code: `const fastify = require('fastify')();
fastify.get('/a', { schema: {} }, async () => ({ at: Date.now() }));
fastify.route({ method: 'GET', url: '/b', handler: async () => Date.now() });
fastify.addHook('onRequest', async (request) => { request.t = Date.now(); });`,
      errors: [
        { messageId: 'perRequest', line: 2, column: 54 },
        { messageId: 'perRequest', line: 3, column: 64, message: /^Date\.now\(\) runs per request \(via handler\)/ },
        { messageId: 'perRequest', line: 4, column: 63 },
      ],
      output: null,
    },
    {
      name: 'http.createServer handler calling a method through this',
      code: `const http = require('http');
class Api {
  handle(req, res) { res.end(this.now()); }
  now() { return String(Date.now()); }
}
const api = new Api();
http.createServer((req, res) => api.handle(req, res)).listen(8080);
const clock = { read() { return new Date(); } };
http.createServer((req, res) => { res.end(String(clock.read())); });`,
      errors: [
        { messageId: 'perRequest', line: 4, column: 25, message: /^Date\.now\(\) runs per request \(via handle -> now\)\./ },
        { messageId: 'perRequest', line: 8, column: 33, message: /^new Date\(\) runs per request \(via read\)/ },
      ],
      output: null,
    },
    {
      name: 'kafkajs eachMessage, amqplib consume and redis v4 subscribe listener',
      code: `await consumer.run({ eachMessage: async ({ message }) => { message.seen = Date.now(); } });
channel.consume('jobs', (msg) => { msg.t = new Date(); });
await client.subscribe('news', (message) => console.log(message, Date.now()));`,
      errors: [
        { messageId: 'perMessage', line: 1, column: 75, message: /via eachMessage/ },
        { messageId: 'perMessage', line: 2, column: 44 },
        { messageId: 'perMessage', line: 3, column: 66 },
      ],
      output: null,
    },
    {
      name: 'seed 000 in TypeScript / ESM: an exported helper that the message handler calls',
      filename: 'models.ts',
      code: `import Redis from 'ioredis';
const sub = new Redis();
export function getTimestamp(): number {
  return Math.floor(Date.now() / 1000);
}
sub.on('message', (channel: string, message: string) => {
  const event = JSON.parse(message) as { ts?: number };
  event.ts = getTimestamp();
});`,
      errors: [{ messageId: 'perMessage', line: 4, column: 21, message: /^Date\.now\(\) runs per message \(via getTimestamp\)\. / }],
      output: null,
    },
    {
      name: 'NestJS controller and message handlers (decorators)',
      filename: 'orders.controller.ts',
      code: `@Controller('orders')
export class OrdersController {
  @Get(':id')
  findOne(@Param('id') id: string) { return { id, at: this.now() }; }
  @EventPattern('order_created')
  onCreated(data: unknown) { return { data, seen: new Date() }; }
  @Interval(5000)
  refresh() { this.cached = Date.now(); }
  private now(): number { return Date.now(); }
  private cached = 0;
}`,
      errors: [
        { messageId: 'perMessage', line: 6, column: 51, message: /^new Date\(\) runs per message \(via onCreated\)/ },
        { messageId: 'perRequest', line: 9, column: 34, message: /^Date\.now\(\) runs per request \(via findOne -> now\)/ },
      ],
      output: null,
    },
    {
      name: 'a 999 ms timer is just under the limit',
      code: `let last = 0;
setInterval(() => { last = Date.now(); }, 999);`,
      errors: [{ messageId: 'fastTimer', line: 2, column: 28, message: /^Date\.now\(\) runs every 999 ms in a timer\./ }],
      output: null,
    },
    {
      name: 'a 100 ms timer counts as hot',
      code: `setInterval(function sample() { samples.push(Date.now()); }, 100);`,
      errors: [{ messageId: 'fastTimer', line: 1, column: 46, message: /^Date\.now\(\) runs every 100 ms in a timer \(via sample\)\./ }],
      output: null,
    },
    {
      name: 'a callback nested in a message handler is hot; disable comment silences one line only',
      code: `socket.on('data', (chunk) => {
  chunk.toString().split('\\n').forEach((line) => {
    // hotframe-disable-next-line date-now-hot-path
    log(line, Date.now());
    log(line, Date.now());
  });
});`,
      errors: [{ messageId: 'perMessage', line: 5, column: 15 }],
      output: null,
    },
  ],
});
