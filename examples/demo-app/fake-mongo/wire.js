'use strict';
// Framing of the MongoDB wire protocol: only what the Node.js driver sends to a standalone
// server. OP_MSG (2013) both ways; OP_QUERY (2004) is accepted because the driver sends its very
// first handshake that way (it does not know the server's wire version yet) and is answered by
// OP_REPLY (1). No compression (never advertised), no exhaust cursors.
const BSON = require('./bson');

const OP_REPLY = 1;
const OP_QUERY = 2004;
const OP_MSG = 2013;
const CHECKSUM_PRESENT = 1;
const MORE_TO_COME = 2;
const HEADER_BYTES = 16;
const MAX_MESSAGE_BYTES = 48000000; // the maxMessageSizeBytes the handshake advertises

class WireProtocolError extends Error {}

/** Cuts a TCP byte stream into whole messages; `push` returns the messages completed so far. */
class MessageReader {
  constructor() {
    this.pending = Buffer.alloc(0);
  }

  push(chunk) {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const messages = [];
    while (this.pending.length >= 4) {
      const length = this.pending.readInt32LE(0);
      if (length < HEADER_BYTES + 5 || length > MAX_MESSAGE_BYTES) {
        throw new WireProtocolError(`message length ${length} out of range`);
      }
      if (this.pending.length < length) break;
      messages.push(parseMessage(this.pending.subarray(0, length)));
      this.pending = this.pending.subarray(length);
    }
    return messages;
  }
}

/** One request: `command` is the BSON command document (document sequences merged in). */
function parseMessage(buf) {
  const requestId = buf.readInt32LE(4);
  const opCode = buf.readInt32LE(12);
  if (opCode === OP_MSG) return { requestId, opCode, ...parseOpMsg(buf) };
  if (opCode === OP_QUERY) return { requestId, opCode, moreToCome: false, command: parseOpQuery(buf) };
  throw new WireProtocolError(`unsupported opCode ${opCode}`);
}

function parseOpMsg(buf) {
  const flags = buf.readUInt32LE(HEADER_BYTES);
  const end = buf.length - (flags & CHECKSUM_PRESENT ? 4 : 0);
  let pos = HEADER_BYTES + 4;
  let command = null;
  const sequences = {};
  while (pos < end) {
    const kind = buf[pos++];
    const size = buf.readInt32LE(pos);
    if (size < 5 || pos + size > end) throw new WireProtocolError(`section of ${size} bytes overruns the message`);
    if (kind === 0) {
      command = BSON.deserialize(buf.subarray(pos, pos + size));
    } else if (kind === 1) {
      // Document sequence: int32 size, cstring identifier, then documents up to the end.
      const sectionEnd = pos + size;
      const nul = buf.indexOf(0, pos + 4);
      const identifier = buf.toString('utf8', pos + 4, nul);
      const docs = [];
      for (let at = nul + 1; at < sectionEnd; ) {
        const docSize = buf.readInt32LE(at);
        docs.push(BSON.deserialize(buf.subarray(at, at + docSize)));
        at += docSize;
      }
      sequences[identifier] = docs;
    } else {
      throw new WireProtocolError(`unknown OP_MSG section kind ${kind}`);
    }
    pos += size;
  }
  if (command === null) throw new WireProtocolError('OP_MSG without a body section');
  Object.assign(command, sequences);
  return { command, moreToCome: (flags & MORE_TO_COME) !== 0 };
}

function parseOpQuery(buf) {
  // flags(4) fullCollectionName(cstring) numberToSkip(4) numberToReturn(4) query(document)
  const nul = buf.indexOf(0, HEADER_BYTES + 4);
  const docAt = nul + 1 + 8;
  const size = buf.readInt32LE(docAt);
  return BSON.deserialize(buf.subarray(docAt, docAt + size));
}

function header(length, responseTo, opCode) {
  const out = Buffer.alloc(HEADER_BYTES);
  out.writeInt32LE(length, 0);
  out.writeInt32LE(nextResponseId(), 4);
  out.writeInt32LE(responseTo, 8);
  out.writeInt32LE(opCode, 12);
  return out;
}

let responseId = 0;
function nextResponseId() {
  responseId = (responseId + 1) | 0;
  return responseId;
}

/** The reply to `request`, whose body is an encoded BSON document. */
function encodeReply(request, body) {
  if (request.opCode === OP_QUERY) {
    // responseFlags(4) cursorID(8) startingFrom(4) numberReturned(4) documents
    const fields = Buffer.alloc(20);
    fields.writeInt32LE(1, 16);
    return Buffer.concat([header(HEADER_BYTES + 20 + body.length, request.requestId, OP_REPLY), fields, body]);
  }
  const flagsAndKind = Buffer.alloc(5); // flagBits 0, section kind 0
  return Buffer.concat([header(HEADER_BYTES + 5 + body.length, request.requestId, OP_MSG), flagsAndKind, body]);
}

module.exports = { MessageReader, WireProtocolError, encodeReply };
