'use strict';
// Cursor replies assembled from documents that were BSON-encoded once, when stored: the fake
// server then copies bytes instead of re-encoding thousands of documents per query, so its own
// cost stays small next to the driver's decoding and mongoose's hydration it exists to exercise.

const TYPE_DOUBLE = 0x01;
const TYPE_STRING = 0x02;
const TYPE_DOCUMENT = 0x03;
const TYPE_ARRAY = 0x04;
const TYPE_INT64 = 0x12;

function element(type, key, value) {
  return Buffer.concat([Buffer.from([type]), Buffer.from(`${key}\0`, 'utf8'), value]);
}

function documentOf(elements) {
  const body = Buffer.concat(elements);
  const out = Buffer.alloc(body.length + 5);
  out.writeInt32LE(out.length, 0);
  body.copy(out, 4);
  return out; // the last byte is already the terminating 0
}

function stringValue(text) {
  const bytes = Buffer.from(`${text}\0`, 'utf8');
  const length = Buffer.alloc(4);
  length.writeInt32LE(bytes.length, 0);
  return Buffer.concat([length, bytes]);
}

function int64Value(n) {
  const out = Buffer.alloc(8);
  out.writeBigInt64LE(BigInt(n), 0);
  return out;
}

function doubleValue(n) {
  const out = Buffer.alloc(8);
  out.writeDoubleLE(n, 0);
  return out;
}

/**
 * `{ cursor: { <batchKey>: [...raws], id: Long(cursorId), ns }, ok: 1 }` where batchKey is
 * 'firstBatch' (find, aggregate) or 'nextBatch' (getMore).
 */
function cursorReply(ns, cursorId, batchKey, raws) {
  const batch = documentOf(raws.map((raw, i) => element(TYPE_DOCUMENT, String(i), raw)));
  const cursor = documentOf([
    element(TYPE_ARRAY, batchKey, batch),
    element(TYPE_INT64, 'id', int64Value(cursorId)),
    element(TYPE_STRING, 'ns', stringValue(ns)),
  ]);
  return documentOf([element(TYPE_DOCUMENT, 'cursor', cursor), element(TYPE_DOUBLE, 'ok', doubleValue(1))]);
}

module.exports = { cursorReply };
