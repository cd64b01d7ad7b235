'use strict';
// The commands the driver sends for what the demo does: the handshake and monitoring
// (hello/isMaster, ping, buildInfo, endSessions), reads (find, getMore, killCursors), counts
// (aggregate with $match/$skip/$limit/$group {$sum: 1}, as countDocuments builds it; count)
// and insert. Anything else gets CommandNotFound, as a real server answers unknown commands.
const BSON = require('./bson');
const { Store, UnsupportedQueryError } = require('./store');
const { cursorReply } = require('./cursorReply');

const DEFAULT_FIRST_BATCH = 101; // the server's default, which makes the driver issue getMore

function ok(fields) {
  return BSON.serialize({ ...fields, ok: 1 });
}

function failure(code, codeName, errmsg) {
  return BSON.serialize({ ok: 0, errmsg, code, codeName });
}

function hello(context) {
  // No topologyVersion: the driver then polls hello instead of streaming awaitable hellos.
  return ok({
    helloOk: true,
    ismaster: true,
    isWritablePrimary: true,
    maxBsonObjectSize: 16777216,
    maxMessageSizeBytes: 48000000,
    maxWriteBatchSize: 100000,
    logicalSessionTimeoutMinutes: 30,
    connectionId: context.connectionId,
    minWireVersion: 0,
    maxWireVersion: 21,
    readOnly: false,
  });
}

function find(store, command) {
  const name = command.find;
  const ns = `${command.$db}.${name}`;
  const limit = Math.abs(Number(command.limit ?? 0));
  const rows = store.select(name, command.filter, Number(command.skip ?? 0), limit);
  const batchSize = command.batchSize !== undefined ? Number(command.batchSize) : DEFAULT_FIRST_BATCH;
  const first = Store.batch(rows, 0, batchSize);
  const single = command.singleBatch === true || Number(command.limit ?? 0) < 0;
  const id = single ? 0 : store.openCursor(ns, rows, first.length);
  return cursorReply(ns, id, 'firstBatch', first);
}

function getMore(store, command) {
  const id = Number(command.getMore);
  const cursor = store.cursor(id);
  if (cursor === null) return failure(43, 'CursorNotFound', `cursor id ${id} not found`);
  const batch = Store.batch(cursor.rows, cursor.position, Number(command.batchSize ?? 0));
  cursor.position += batch.length;
  const left = cursor.position < cursor.rows.length;
  if (!left) store.closeCursor(id);
  return cursorReply(cursor.ns, left ? id : 0, 'nextBatch', batch);
}

function killCursors(store, command) {
  const killed = [];
  const notFound = [];
  for (const raw of command.cursors ?? []) {
    const id = Number(raw);
    (store.closeCursor(id) ? killed : notFound).push(BSON.Long.fromNumber(id));
  }
  return ok({ cursorsKilled: killed, cursorsNotFound: notFound, cursorsAlive: [], cursorsUnknown: [] });
}

/** countDocuments: [{$match}, {$skip}?, {$limit}?, {$group: {_id: <any>, n: {$sum: 1}}}]. */
function aggregate(store, command) {
  const name = command.aggregate;
  const ns = `${command.$db}.${name}`;
  let filter = {};
  let skip = 0;
  let limit = 0;
  let group = null;
  for (const stage of command.pipeline ?? []) {
    const [op] = Object.keys(stage);
    if (op === '$match' && group === null) filter = stage.$match;
    else if (op === '$skip' && group === null) skip = Number(stage.$skip);
    else if (op === '$limit' && group === null) limit = Number(stage.$limit);
    else if (op === '$group' && group === null && isCountGroup(stage.$group)) group = stage.$group;
    else throw new UnsupportedQueryError(`fake-mongo: aggregate stage ${op} is supported only as countDocuments uses it`);
  }
  const rows = store.select(name, filter, skip, limit);
  if (group === null) return cursorReply(ns, 0, 'firstBatch', Store.batch(rows, 0, 0));
  if (rows.length === 0) return cursorReply(ns, 0, 'firstBatch', []);
  const counted = { _id: group._id };
  for (const [field, spec] of Object.entries(group)) if (field !== '_id') counted[field] = spec.$sum === 1 ? rows.length : 0;
  return cursorReply(ns, 0, 'firstBatch', [BSON.serialize(counted)]);
}

function isCountGroup(group) {
  return Object.entries(group).every(([field, spec]) => field === '_id' || (spec !== null && typeof spec === 'object' && spec.$sum === 1));
}

const HANDLERS = {
  hello: (store, command, context) => hello(context),
  ismaster: (store, command, context) => hello(context),
  ping: () => ok({}),
  buildinfo: () => ok({ version: '7.0.0', versionArray: [7, 0, 0, 0], maxBsonObjectSize: 16777216 }),
  endsessions: () => ok({}),
  find,
  getmore: getMore,
  killcursors: killCursors,
  aggregate,
  count: (store, command) => ok({ n: store.select(command.count, command.query, Number(command.skip ?? 0), Number(command.limit ?? 0)).length }),
  insert: (store, command) => ok({ n: store.insert(command.insert, command.documents ?? []) }),
};

/** Runs one command document; returns the encoded reply document (never throws for bad queries). */
function runCommand(store, command, context) {
  const name = Object.keys(command)[0] ?? '';
  const handler = HANDLERS[name.toLowerCase()];
  if (handler === undefined) return failure(59, 'CommandNotFound', `no such command: '${name}' (fake-mongo implements only what the demo uses)`);
  try {
    return handler(store, command, context);
  } catch (error) {
    if (error instanceof UnsupportedQueryError) return failure(2, 'BadValue', error.message);
    throw error;
  }
}

module.exports = { runCommand };
