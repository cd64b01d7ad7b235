'use strict';
// The BSON library of the MongoDB driver that mongoose uses, resolved through mongoose's own
// dependency tree, so the fake server encodes exactly what the driver decodes and the demo
// needs no dependency of its own.
const { createRequire } = require('node:module');

const fromMongoose = createRequire(require.resolve('mongoose'));
const fromDriver = createRequire(fromMongoose.resolve('mongodb'));

module.exports = fromDriver('bson');
