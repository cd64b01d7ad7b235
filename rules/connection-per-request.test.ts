import rule from './connection-per-request';
import { runRuleTests } from '../test/ruleTester';

runRuleTests(rule, {
  valid: [
    {
      name: 'a test shipped in the package: a connection per test message serves nothing',
      filename: 'test/pop3-onconnect-test.js',
      code: `const net = require('net');
const server = net.createServer((socket) => {
  socket.on('data', () => {
    const client = net.connect(2110, '127.0.0.1');
    client.end('QUIT\\r\\n');
  });
});
server.listen(0);`,
    },
    {
      name: 'module-level client and pool, reused by handlers (pool.connect / pool.query)',
      code: `const Redis = require('ioredis');
const { Pool } = require('pg');
const express = require('express');
const redis = new Redis();
const pool = new Pool();
const app = express();
app.get('/u/:id', async (req, res) => {
  const client = await pool.connect();
  try { res.json(await client.query('select 1')); } finally { client.release(); }
  await pool.query('select 2');
  res.end(await redis.get(req.params.id));
});`,
    },
    {
      name: 'a client created in a start-up function',
      code: `import { createClient } from 'redis';
import mongoose from 'mongoose';
async function start() {
  const client = createClient();
  await client.connect();
  await mongoose.connect(process.env.MONGO_URL);
  return client;
}
start();`,
    },
    {
      name: 'an exported factory nobody calls per request here',
      code: `const mysql = require('mysql2');
module.exports.connect = () => mysql.createConnection({ host: 'db' });`,
    },
    {
      name: 'agent: false outside handlers, and agent: keepAliveAgent inside',
      code: `const https = require('https');
const agent = new https.Agent({ keepAlive: true });
const probe = { agent: false };
app.get('/p', (req, res) => https.get({ host: 'x', agent }, (r) => r.pipe(res)));`,
    },
    {
      name: 'a local class named Client is not pg',
      code: `class Client { constructor() { this.n = 1; } }
app.get('/c', (req, res) => res.json(new Client()));`,
    },
    {
      name: "a guard clause on the client it fills: the first request connects, the others return early (labelled on formio's sanityCheck)",
      code: `const { MongoClient } = require('mongodb');
let db = null;
async function connection() {
  if (db) return;
  const client = new MongoClient(url);
  await client.connect();
  db = client.db();
}
app.use(async (req, res, next) => { await connection(); next(); });`,
    },
    {
      name: 'clients of servers an administrator adds at run time, kept in a module-level map keyed by name and reused',
      code: `const Redis = require('ioredis');
const clients = new Map();
app.post('/connections', (req, res) => {
  const client = new Redis({ host: req.body.host, port: req.body.port });
  client.on('error', (err) => console.error(err));
  clients.set(req.body.name, client);
  res.json({ ok: true });
});
app.get('/keys/:name', async (req, res) => res.json(await clients.get(req.params.name).keys('*')));`,
    },
    {
      name: 'a pool per configured data source, stored in a module-level object keyed by its id',
      code: `const { Pool } = require('pg');
const pools = {};
app.post('/datasources', (req, res) => {
  const pool = new Pool(req.body);
  pools[req.body.id] = pool;
  res.status(201).end();
});`,
    },
    {
      name: 'a client stored on a long-lived object (a field of app.locals, this.client of a service)',
      code: `const { createClient } = require('redis');
class Backend {
  async reconnect(options) {
    this.client = createClient(options);
    await this.client.connect();
  }
}
const backend = new Backend();
app.post('/settings', async (req, res) => {
  app.locals.redis = createClient(req.body);
  await backend.reconnect(req.body);
  res.end();
});`,
    },
    {
      name: 'a module-level variable assigned in a handler, and a node-style connect whose client is kept',
      code: `const Redis = require('ioredis');
const { MongoClient } = require('mongodb');
let subscriber;
const dbs = {};
app.post('/subscribe', (req, res) => {
  subscriber = new Redis(req.body.url);
  MongoClient.connect(req.body.mongo, (err, client) => { dbs[req.body.name] = client.db(); });
  MongoClient.connect(req.body.mongo).then((client) => { dbs.copy = client; });
  res.end();
});`,
    },
    {
      name: 'a client handed to code not followed here (returned to the framework, passed to a function): not proven dropped',
      code: `const redis = require('redis');
fastify.get('/f', async () => redis.createClient());
app.get('/g', (req, res) => { register(redis.createClient()); res.end(); });`,
    },
    {
      name: "mongoose.connect in a handler sets mongoose's one default connection, kept and reused",
      code: `const mongoose = require('mongoose');
app.post('/setup', async (req, res) => { await mongoose.connect(req.body.uri); res.end(); });`,
    },
  ],
  invalid: [
    {
      name: "a client's socket.io event and an administrative route: hints (their rate is not the traffic's); a request's connection stays shown",
      code: `const express = require('express');
const mysql = require('mysql2');
const app = express();
const io = require('socket.io')(app.listen(3000));
io.on('connection', (socket) => {
  socket.on('check database', (options) => {
    const conn = mysql.createConnection(options);
    conn.ping(() => conn.end());
  });
});
app.post('/admin/settings/database', (req, res) => {
  const conn = mysql.createConnection(req.body);
  conn.ping(() => { conn.end(); res.end(); });
});
app.get('/status', (req, res) => {
  const conn = mysql.createConnection({});
  conn.ping(() => { conn.end(); res.end(); });
});`,
      errors: [
        { messageId: 'connectionPerRequest', line: 7, column: 18, severity: 'hint', message: /here while handling a message/ },
        { messageId: 'connectionPerRequest', line: 12, column: 16, severity: 'hint', message: /here while handling a request/ },
        { messageId: 'connectionPerRequest', line: 16, column: 16, severity: 'warning', message: /here while handling a request/ },
      ],
      output: null,
    },
    {
      name: 'seed 002 shape: a new Redis connection per request (express)',
      code: `const express = require('express');
const Redis = require('ioredis');
const app = express();
app.get('/session/:id', async (req, res) => {
  const redis = new Redis({ host: '10.0.0.5', port: 6379 });
  res.json(await redis.get(req.params.id));
  redis.disconnect();
});`,
      errors: [{
        messageId: 'connectionPerRequest', line: 5, column: 17, endLine: 5, endColumn: 60,
        message: /^new Redis\(\) opens a new connection each time it runs, here while handling a request, and the client is closed again; create the client or pool once \(one per server it talks to\) and reuse it: each new connection costs a TCP handshake and leaves a socket in TIME_WAIT once closed\.$/,
      }],
      output: null,
    },
    {
      name: 'redis v4 createClient in a helper called per request (ESM)',
      code: `import { createClient } from 'redis';
import express from 'express';
const router = express.Router();
async function cache() { const c = createClient(); await c.connect(); return c; }
router.get('/x', async (req, res) => res.json(await (await cache()).get('x')));`,
      errors: [{ messageId: 'connectionPerRequest', line: 4, column: 36, message: /^createClient\(\) opens a new connection each time it runs, here while handling a request \(via cache\), and the client is not kept for reuse;.* each new connection costs a TCP handshake and stays open until something closes it\.$/ }],
      output: null,
    },
    {
      name: 'pg, mysql, mongodb, mongoose, net and agents inside handlers',
      code: `const pg = require('pg');
const mysql = require('mysql');
const { MongoClient } = require('mongodb');
const mongoose = require('mongoose');
const net = require('node:net');
const http = require('http');
app.post('/a', async (req, res) => {
  const client = new pg.Client();
  const conn = mysql.createConnection({});
  const mongo = await MongoClient.connect('mongodb://db');
  const m = new MongoClient('mongodb://db');
  await mongoose.createConnection('mongodb://db');
  const sock = net.connect(6379);
  http.get({ host: 'x', agent: new http.Agent() });
  http.get({ host: 'y', agent: false });
});`,
      errors: [
        { messageId: 'connectionPerRequest', line: 8, column: 18, message: /^new pg\.Client\(\) opens/ },
        { messageId: 'connectionPerRequest', line: 9, column: 16, message: /^mysql\.createConnection\(\) opens/ },
        { messageId: 'connectionPerRequest', line: 10, column: 23 },
        { messageId: 'connectionPerRequest', line: 11, column: 13 },
        { messageId: 'connectionPerRequest', line: 12, column: 9 },
        { messageId: 'connectionPerRequest', line: 13, column: 16 },
        { messageId: 'connectionPerRequest', line: 14, column: 32, message: /^new http\.Agent\(\) opens/ },
        { messageId: 'agentFalse', line: 15, column: 25, endColumn: 37, message: /^agent: false makes each outgoing request with these options open a new TCP connection, here while handling a request;/ },
      ],
      output: null,
    },
    {
      name: 'koa, fastify and http.createServer handlers; namespace and inline require',
      code: `const redis = require('redis');
const http = require('node:http');
const Koa = require('koa');
const app = new Koa();
app.use(async (ctx) => { ctx.body = await redis.createClient().get('k'); });
fastify.get('/f', async () => (await require('redis').createClient().get('f')));
http.createServer((req, res) => { http.get({ host: 'up', agent: new http.Agent({ keepAlive: true }) }); });`,
      errors: [
        { messageId: 'connectionPerRequest', line: 5, column: 43, message: /^redis\.createClient\(\) opens a new connection each time it runs, here while handling a request, and the client is not kept for reuse;/ },
        { messageId: 'connectionPerRequest', line: 6, column: 38, message: /^require\('redis'\)\.createClient\(\) opens/ },
        { messageId: 'connectionPerRequest', line: 7, column: 65 },
      ],
      output: null,
    },
    {
      name: 'a require inside the handler',
      code: `app.get('/lazy', async (req, res) => {
  const Redis = require('ioredis');
  const { createClient } = require('redis');
  const a = new Redis();
  const b = createClient();
  res.end();
});`,
      errors: [
        { messageId: 'connectionPerRequest', line: 4, column: 13 },
        { messageId: 'connectionPerRequest', line: 5, column: 13 },
      ],
      output: null,
    },
    {
      name: 'a message handler (TypeScript, import default ioredis)',
      filename: 'consumer.ts',
      code: `import IORedis from 'ioredis';
const sub = new IORedis();
sub.on('message', async (channel: string, id: string) => {
  const store = new IORedis();
  await store.incr(id);
});`,
      errors: [{ messageId: 'connectionPerRequest', line: 4, column: 17, message: /^new IORedis\(\) opens a new connection each time it runs, here while handling a message, and the client is not kept for reuse;/ }],
      output: null,
    },
    {
      name: 'a probe of a user-given server: created, pinged and closed within the request',
      code: `const Redis = require('ioredis');
const { MongoClient } = require('mongodb');
app.post('/probe', async (req, res) => {
  const probe = new Redis(req.body);
  try { res.json({ pong: await probe.ping() }); } finally { probe.quit(); }
});
app.post('/probe-mongo', (req, res) => {
  MongoClient.connect(req.body.uri, (err, client) => { client.db().admin().ping(); client.close(); res.end(); });
  MongoClient.connect(req.body.uri).then((client) => client.close());
});`,
      errors: [
        { messageId: 'connectionPerRequest', line: 4, column: 17, message: /^new Redis\(\) opens a new connection each time it runs, here while handling a request, and the client is closed again;/ },
        { messageId: 'connectionPerRequest', line: 8, column: 3, message: /and the client is closed again;/ },
        { messageId: 'connectionPerRequest', line: 9, column: 3, message: /and the client is closed again;/ },
      ],
      output: null,
    },
  ],
});
