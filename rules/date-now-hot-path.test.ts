import rule from './date-now-hot-path';
import { runRuleTests } from '../test/ruleTester';

runRuleTests(rule, {
  valid: [
    {
      name: 'a read four calls below a data handler sits on a rare branch (labelled on node-media-server rtsp_client: an auth retry)',
      code: `class RtspClient {
  connect() { this.socket.on('data', this.handleData); }
  handleData = (data) => { this.buffer = Buffer.concat([this.buffer, data]); this.parseResponse(); };
  parseResponse() { if (this.buffer.includes('\\r\\n\\r\\n')) this.dispatch(this.buffer); }
  dispatch(response) { if (response.status === 401) this.authChallenge(response); }
  authChallenge(response) { this.retry(response); }
  retry(response) { this.socket.write(this.request(response)); this.lastActivity = Date.now(); }
}`,
    },
    {
      name: 'an age predicate called per item: the read belongs to the helper (labelled on signalk remoteProvider _isHttpGatewayFresh)',
      code: `class Provider {
  _isFresh(id) {
    const last = this.lastPostTime.get(id) ?? 0;
    return Date.now() - last <= TTL;
  }
  gatewayInfo() {
    const result = [];
    for (const [id] of this.seenMacs) if (this._isFresh(id)) result.push(id);
    return result;
  }
}
const provider = new Provider();
app.get('/gateways', (req, res) => res.json(provider.gatewayInfo()));`,
    },
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
    {
      name: 'one clock read per HTTP request: express, a router middleware, +new Date (labelled on ghost, formio, redis-commander)',
      code: `import express from 'express';
const app = express();
const router = express.Router();
app.get('/orders', (req, res) => { res.json({ at: Date.now() }); });
function stamp(req, res, next) { req.at = new Date(); next(); }
router.post('/items', [stamp], (req, res) => { res.json({ t: +new Date }); });`,
    },
    {
      name: 'one read per request in koa, fastify and http.createServer handlers',
      code: `const Koa = require('koa');
const http = require('http');
const app = new Koa();
app.use(async (ctx, next) => { ctx.state.start = Date.now(); await next(); });
fastify.route({ method: 'GET', url: '/b', handler: async () => Date.now() });
http.createServer((req, res) => { res.end(String(new Date())); });`,
    },
    {
      name: 'timers read the clock at their own pace (labelled on homebridge, node-red)',
      code: `let last = 0;
setInterval(() => { last = Date.now(); }, 999);
setInterval(function sample() { samples.push(Date.now()); }, 100);`,
    },
    {
      name: 'a duration measured in a high-rate handler: subtracted, never a coarse clock (issue 11)',
      code: `sub.on('message', async (channel, message) => {
  const start = Date.now();
  await handle(message);
  metrics.observe(Date.now() - start);
});`,
    },
    {
      name: "an in-process event bus, a child's IPC and a CLI's keypresses are not high-rate sources (labelled on ghost, homebridge, json-server)",
      code: `DomainEvents.subscribe(StartGiftReminderFlushEvent, async () => { logging.info(Date.now()); });
this.child.on('message', (message) => { if (message.type === 'online') this.onlineSince = Date.now(); });
process.on('message', (message) => { state.at = Date.now(); });
process.stdin.on('data', (chunk) => { if (chunk.trim() === 's') save(\`db-\${Date.now()}.json\`); });`,
    },
    {
      name: "a branch that opens the connection's session runs once per connection, not per message (labelled on signalk remoteProvider)",
      code: `wss.on('connection', (ws) => {
  let session = null;
  ws.on('message', (data) => {
    const msg = JSON.parse(data);
    if (msg.type === 'hello' && !session) {
      session = new Session(msg.gateway_id, ws);
      ws.send(JSON.stringify({ type: 'hello_ack', server_time: Date.now() }));
      return;
    }
    session.handle(msg);
  });
});`,
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
        message: /^Date\.now\(\) runs while handling messages \(via onMessage -> getTimestamp\) of a high-rate source \(pub\/sub, socket or stream data, a queue consumer\), a clock read each time it runs\. If second precision is enough, read a clock refreshed by setInterval\(\.\.\., 1000\)\.unref\(\) instead\.$/,
      }],
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
      errors: [{
        messageId: 'perItem', line: 4, column: 42,
        message: /^Date\.now\(\) runs once per item of a loop, while handling a request \(via list\), a clock read each time\. Read the clock once before the loop and reuse the value\.$/,
      }],
      output: null,
    },
    {
      name: 'an age check written in the loop itself: one read before the loop serves every item',
      code: `app.get('/gateways', (req, res) => {
  res.json(req.query.ids.filter((id) => Date.now() - last.get(id) <= TTL));
});`,
      errors: [{ messageId: 'perItem', line: 2, column: 41 }],
      output: null,
    },
    {
      name: 'per document of a bulk write: a map over request data (labelled on formio BulkSubmissionResource)',
      code: `router.post('/bulk', async (req, res) => {
  const operations = req.body.map((doc) => ({ updateOne: { filter: { _id: doc._id }, update: { $set: { ...doc, modified: new Date() } } } }));
  res.json(await Submission.bulkWrite(operations));
});`,
      errors: [{ messageId: 'perItem', line: 2, column: 122, endColumn: 132 }],
      output: null,
    },
    {
      name: 'a helper called per item of the posted devices (labelled on signalk remoteProvider)',
      code: `function stamp(device) { return { ...device, timestamp: Date.now() }; }
app.post('/ble/advertisements', (req, res) => {
  for (const device of req.body.devices) table.set(device.mac, stamp(device));
  res.sendStatus(204);
});`,
      errors: [{ messageId: 'perItem', line: 1, column: 57, message: /^Date\.now\(\) runs once per item of a loop, while handling a request \(via stamp\)/ }],
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
      name: 'a timestamp per UDP datagram (labelled on signalk socket-manager)',
      code: `const dgram = require('dgram');
const socket = dgram.createSocket('udp4');
socket.on('message', (msg, rinfo) => {
  inbox.push({ data: Buffer.from(msg), address: rinfo.address, timestamp: Date.now() });
});`,
      errors: [{ messageId: 'perMessage', line: 4, column: 75 }],
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
      errors: [{ messageId: 'perMessage', line: 4, column: 21, message: /^Date\.now\(\) runs while handling messages \(via getTimestamp\) of a high-rate source/ }],
      output: null,
    },
    {
      name: 'NestJS message handler (decorator); a single read per HTTP request stays quiet',
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
      errors: [{ messageId: 'perMessage', line: 6, column: 51, message: /^new Date\(\) runs while handling messages \(via onCreated\)/ }],
      output: null,
    },
    {
      name: 'a callback per line of a socket data chunk is per item; disable comment silences one line only',
      code: `socket.on('data', (chunk) => {
  chunk.toString().split('\\n').forEach((line) => {
    // hotframe-disable-next-line date-now-hot-path
    log(line, Date.now());
    log(line, Date.now());
  });
});`,
      errors: [{ messageId: 'perItem', line: 5, column: 15, message: /^Date\.now\(\) runs once per item of a loop, while handling a message/ }],
      output: null,
    },
    {
      name: 'a guard on state reset per message is no once-guard; a guard that only maybe sets it is none either',
      code: `wss.on('connection', (ws) => {
  let session = null;
  ws.on('message', (data) => {
    let seen = null;
    if (!seen) {
      seen = true;
      record({ at: Date.now() });
    }
    if (!session) {
      if (data.length > 0) session = open(data);
      ws.send(String(Date.now()));
    }
  });
});`,
      errors: [
        { messageId: 'perMessage', line: 7, column: 20, endColumn: 30 },
        { messageId: 'perMessage', line: 11, column: 22, endColumn: 32 },
      ],
      output: null,
    },
  ],
});
