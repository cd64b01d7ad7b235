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
  ],
  invalid: [
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
        message: /^new Redis\(\) opens a new connection per request; create the client or pool once at module level and reuse it \(each new connection costs a TCP handshake and leaves a socket in TIME_WAIT\)\.$/,
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
      errors: [{ messageId: 'connectionPerRequest', line: 4, column: 36, message: /^createClient\(\) opens a new connection per request \(via cache\);/ }],
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
        { messageId: 'agentFalse', line: 15, column: 25, endColumn: 37, message: /^agent: false opens a new TCP connection per request;/ },
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
fastify.get('/f', async () => require('redis').createClient());
http.createServer((req, res) => { http.get({ host: 'up', agent: new http.Agent({ keepAlive: true }) }); });`,
      errors: [
        { messageId: 'connectionPerRequest', line: 5, column: 43, message: /^redis\.createClient\(\) opens a new connection per request;/ },
        { messageId: 'connectionPerRequest', line: 6, column: 31, message: /^require\('redis'\)\.createClient\(\) opens/ },
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
      errors: [{ messageId: 'connectionPerRequest', line: 4, column: 17, message: /^new IORedis\(\) opens a new connection per message;/ }],
      output: null,
    },
  ],
});
