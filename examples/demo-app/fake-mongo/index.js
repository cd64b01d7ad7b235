'use strict';
/*
 * fake-mongo: a small MongoDB stand-in for the Hotframe demo, so that mongoose runs its REAL
 * driver, query and hydration path (Query.exec -> completeMany -> Document.init) without a
 * MongoDB installation. It speaks the wire protocol (OP_MSG, plus OP_QUERY for the driver's first
 * handshake) on a loopback TCP port and serves deterministic seed data (./seedData.js).
 *
 * What it is NOT: a database. No persistence, no indexes, no sorting or projection (both ignored),
 * filters are top-level equality with $eq/$in only, aggregate only as countDocuments uses it, no
 * updates or deletes, no auth, no TLS, no replica set. Unsupported queries fail loudly
 * (BadValue / CommandNotFound) instead of returning wrong data. Set MONGODB_URI to use a real server.
 *
 * Use: require('./fake-mongo').startFakeMongo({ port }) -> { uri, close() }, or run
 * `node fake-mongo/index.js --port 41717` (prints "fake-mongo listening on <uri>").
 */
const net = require('node:net');
const { MessageReader, encodeReply } = require('./wire');
const { Store } = require('./store');
const { runCommand } = require('./commands');
const { seedCollections } = require('./seedData');

function startFakeMongo({ port = 0, host = '127.0.0.1', database = 'demo' } = {}) {
  const store = new Store(seedCollections());
  const sockets = new Set();
  let connections = 0;
  const server = net.createServer((socket) => {
    sockets.add(socket);
    const context = { connectionId: ++connections };
    const reader = new MessageReader();
    socket.on('data', (chunk) => {
      let requests;
      try {
        requests = reader.push(chunk);
      } catch (error) {
        process.stderr.write(`fake-mongo: closing connection ${context.connectionId}: ${error.message}\n`);
        socket.destroy();
        return;
      }
      for (const request of requests) {
        const body = runCommand(store, request.command, context);
        if (!request.moreToCome) socket.write(encodeReply(request, body));
      }
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      resolve({
        uri: `mongodb://${host}:${address.port}/${database}?directConnection=true`,
        close: () =>
          new Promise((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

function portFromArgs(argv) {
  const at = argv.indexOf('--port');
  if (at !== -1 && argv[at + 1] === undefined) throw new Error('--port needs a value');
  const port = at === -1 ? 0 : Number(argv[at + 1]);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0..65535, got '${argv[at + 1]}'`);
  return port;
}

if (require.main === module) {
  let port;
  try {
    port = portFromArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`fake-mongo: ${error.message}\n`);
    process.exit(2);
  }
  startFakeMongo({ port }).then(
    (fake) => {
      process.stdout.write(`fake-mongo listening on ${fake.uri}\n`);
      const stop = () => fake.close().then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    },
    (error) => {
      process.stderr.write(`fake-mongo: ${error.message}\n`);
      process.exit(1);
    },
  );
}

module.exports = { startFakeMongo };
