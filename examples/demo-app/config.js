'use strict';
// Ports and switches, read once at start-up. Defaults sit in Hotframe's demo port range.

function port(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (Number.isInteger(value) && value >= 0 && value <= 65535) return value;
  // A configuration mistake: one line, no stack trace.
  process.stderr.write(`demo-app: ${name} must be a port number (0-65535), got '${raw}'\n`);
  process.exit(2);
}

module.exports = Object.freeze({
  httpPort: port('PORT', 41780),
  redisPort: port('REDIS_PORT', 41779),
  fakeMongoPort: port('FAKE_MONGO_PORT', 41717),
  /** Empty: start the in-process fake MongoDB (./fake-mongo) instead. */
  mongoUri: process.env.MONGODB_URI ?? '',
  /** FIXED=1: the message handler and the stats timer run their fixed versions. */
  fixed: process.env.FIXED === '1',
});
