'use strict';
// In-memory collections and open cursors. Documents are kept twice: decoded (to evaluate
// filters) and BSON-encoded (to answer queries by copying bytes). Collections are keyed by name
// only: every database name sees the same data.
const BSON = require('./bson');

const MAX_BATCH_BYTES = 16 * 1024 * 1024; // a real server also caps a batch at 16 MB

class UnsupportedQueryError extends Error {}

class Store {
  constructor(collections) {
    this.collections = new Map();
    this.cursors = new Map();
    this.nextCursorId = 1;
    for (const [name, docs] of Object.entries(collections)) this.insert(name, docs);
  }

  insert(name, docs) {
    let rows = this.collections.get(name);
    if (rows === undefined) {
      rows = [];
      this.collections.set(name, rows);
    }
    for (const doc of docs) rows.push({ doc, raw: BSON.serialize(doc) });
    return docs.length;
  }

  /** Rows matching `filter`, after `skip` and `limit` (0 = no limit). */
  select(name, filter, skip, limit) {
    const rows = this.collections.get(name) ?? [];
    const out = [];
    let skipped = 0;
    for (const row of rows) {
      if (!matches(row.doc, filter ?? {})) continue;
      if (skipped < skip) {
        skipped++;
        continue;
      }
      out.push(row);
      if (limit > 0 && out.length === limit) break;
    }
    return out;
  }

  /** Takes up to `batchSize` raws (0 = as many as fit in a batch) from `rows` starting at `from`. */
  static batch(rows, from, batchSize) {
    const raws = [];
    let bytes = 0;
    for (let i = from; i < rows.length; i++) {
      if (batchSize > 0 && raws.length === batchSize) break;
      bytes += rows[i].raw.length;
      if (raws.length > 0 && bytes > MAX_BATCH_BYTES) break;
      raws.push(rows[i].raw);
    }
    return raws;
  }

  /** Keeps the rows after `from` for getMore; returns the cursor id (0 when nothing is left). */
  openCursor(ns, rows, from) {
    if (from >= rows.length) return 0;
    const id = this.nextCursorId++;
    this.cursors.set(id, { ns, rows, position: from });
    return id;
  }

  cursor(id) {
    return this.cursors.get(id) ?? null;
  }

  closeCursor(id) {
    return this.cursors.delete(id);
  }
}

/** Top-level equality filters, with `$eq` and `$in` per field; dotted paths; arrays match by element. */
function matches(doc, filter) {
  for (const [path, condition] of Object.entries(filter)) {
    if (path.startsWith('$')) throw new UnsupportedQueryError(`fake-mongo: filter operator ${path} is not supported`);
    const value = valueAt(doc, path);
    if (!satisfies(value, condition)) return false;
  }
  return true;
}

function satisfies(value, condition) {
  if (isOperatorObject(condition)) {
    for (const [op, operand] of Object.entries(condition)) {
      if (op === '$eq') {
        if (!equalsOrContains(value, operand)) return false;
      } else if (op === '$in') {
        if (!Array.isArray(operand) || !operand.some((o) => equalsOrContains(value, o))) return false;
      } else {
        throw new UnsupportedQueryError(`fake-mongo: query operator ${op} is not supported`);
      }
    }
    return true;
  }
  return equalsOrContains(value, condition);
}

function isOperatorObject(v) {
  if (v === null || typeof v !== 'object' || Array.isArray(v) || v instanceof Date || v._bsontype !== undefined) return false;
  const keys = Object.keys(v);
  return keys.length > 0 && keys.every((k) => k.startsWith('$'));
}

function valueAt(doc, path) {
  let value = doc;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = value[part];
  }
  return value;
}

function equalsOrContains(value, expected) {
  if (Array.isArray(value) && !Array.isArray(expected)) return value.some((v) => same(v, expected));
  return same(value, expected);
}

function same(a, b) {
  if (a === b) return true;
  if (a === undefined) return b === null; // { field: null } matches a missing field
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (a._bsontype === 'ObjectId' && b._bsontype === 'ObjectId') return a.equals(b);
  return BSON.serialize({ v: a }).equals(BSON.serialize({ v: b }));
}

module.exports = { Store, UnsupportedQueryError };
