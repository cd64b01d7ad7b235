'use strict';
// The Hotframe demo service: express 5 + mongoose 8 + ioredis 5 + child_process, reproducing the
// five incidents Hotframe's rules and insights come from (see README.md). Routes exist as /v1
// (as found) and /v2 (fixed); FIXED=1 switches the Redis message handler and the stats timer.
const express = require('express');
const mongoose = require('mongoose');
const Redis = require('ioredis');
const config = require('./config');
const { startFakeMongo } = require('./fake-mongo');
const { subscribeTaskEvents, eventStats, malformedCount } = require('./messages');
const stats = require('./routes/stats');
const tasks = require('./routes/tasks');
const reports = require('./routes/reports');

function listen(app) {
  return new Promise((resolve, reject) => {
    const server = app.listen(config.httpPort, '127.0.0.1', (error) => (error ? reject(error) : resolve(server)));
  });
}

async function main() {
  const fakeMongo = config.mongoUri === '' ? await startFakeMongo({ port: config.fakeMongoPort }) : null;
  await mongoose.connect(fakeMongo === null ? config.mongoUri : fakeMongo.uri, {
    autoIndex: false,
    autoCreate: false,
    serverSelectionTimeoutMS: 5000,
  });
  // Give up after a few attempts so that a missing Redis is one clear error, not endless retries.
  const subscriber = new Redis({ host: '127.0.0.1', port: config.redisPort, lazyConnect: true, retryStrategy: (attempt) => (attempt > 3 ? null : 200) });
  await subscriber.connect();
  await subscribeTaskEvents(subscriber, config.fixed);
  stats.startHostStats(config.fixed);

  const app = express();
  app.get('/healthz', (req, res) => res.json({ ok: true, fixed: config.fixed }));
  app.get('/events', (req, res) => res.json({ types: Object.fromEntries(eventStats), malformedMessages: malformedCount() }));
  app.use(tasks.router, reports.router, stats.router);
  const server = await listen(app);
  console.log(`demo-app listening on http://127.0.0.1:${config.httpPort} (${config.fixed ? 'fixed' : 'as found'})`);

  // Leave through process.exit(): --cpu-prof writes its profile at exit, which the default
  // action of SIGINT/SIGTERM would skip.
  async function shutdown() {
    setTimeout(() => process.exit(1), 5000).unref();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    subscriber.disconnect();
    tasks.closeCounters();
    await mongoose.disconnect();
    if (fakeMongo !== null) await fakeMongo.close();
    process.exit(0);
  }
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((error) => {
  console.error(`demo-app: ${error.message}`);
  process.exit(1);
});
