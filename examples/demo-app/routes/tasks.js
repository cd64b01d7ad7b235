'use strict';
// Task routes in two versions: /v1 as the incidents found them, /v2 fixed. The load driver
// (scripts/record-demo.mjs) sends the "before" load to /v1 and the "after" load to /v2.
const express = require('express');
const Redis = require('ioredis');
const config = require('../config');
const { Task, User } = require('../models');
const { validateProjectId } = require('./projectId');

const router = express.Router();
router.param('projectId', validateProjectId);

function projectOf(req) {
  return Number(req.params.projectId);
}

// Seed 004: reads returned without .lean() hydrate every document into a mongoose Document
// (2+ s in completeMany in the incident; lean made DB reads at least 1.5x faster).
async function listTasksV1(req, res) {
  res.json(await Task.find({ projectId: projectOf(req) })); // expect: mongoose-missing-lean
}

async function listTasksV2(req, res) {
  res.json(await Task.find({ projectId: projectOf(req) }).lean());
}

// Seed 004: a count endpoint that loaded every document to take its length
// (TTFB 5 s -> 197 ms once it asked the database to count).
async function countTasksV1(req, res) {
  const count = (await Task.find({ projectId: projectOf(req) })).length; // expect: mongoose-count-by-loading
  res.json({ count });
}

async function countTasksV2(req, res) {
  res.json({ count: await Task.countDocuments({ projectId: projectOf(req) }) });
}

// Seed 004: a chain of middlewares ([mdl.toJson(), mdl.fillCreator(), mdl.fillExecutor(), ...])
// each waiting for its own query and walking the same task list again, one after the other
// (task list 6 s -> 800 ms after the rewrite).
function loadTasks() {
  return async (req, res, next) => {
    req.tasks = await Task.find({ projectId: projectOf(req) }).lean();
    next();
  };
}

function fillCreator() {
  return async (req, res, next) => {
    req.creators = await usersById(req.tasks.map((task) => task.creatorId));
    next();
  };
}

function fillExecutor() {
  return async (req, res, next) => {
    req.executors = await usersById(req.tasks.map((task) => task.executorId));
    next();
  };
}

function toJson() {
  return (req, res, next) => {
    req.board = req.tasks.map((task) => boardCard(task, req.creators, req.executors));
    next();
  };
}

function sendBoard(req, res) {
  res.json(req.board);
}

// Fixed: one handler, the two user lookups concurrently, one pass over the tasks.
async function boardV2(req, res) {
  const tasks = await Task.find({ projectId: projectOf(req) }).lean();
  const [creators, executors] = await Promise.all([
    usersById(tasks.map((task) => task.creatorId)),
    usersById(tasks.map((task) => task.executorId)),
  ]);
  res.json(tasks.map((task) => boardCard(task, creators, executors)));
}

async function usersById(ids) {
  const users = await User.find({ _id: { $in: ids } }).lean();
  return new Map(users.map((user) => [String(user._id), user]));
}

function boardCard(task, creators, executors) {
  return {
    id: task._id,
    title: task.title,
    status: task.status,
    creator: creators.get(String(task.creatorId))?.name ?? null,
    executor: executors.get(String(task.executorId))?.name ?? null,
  };
}

// Seed 002: a new Redis connection per request. 30k+ sockets in TIME_WAIT to one Redis port,
// connect() went from 22 us to 2.5 ms (100x); CPU went back to 90%+ idle once it was shared.
async function countViewV1(req, res) {
  const redis = new Redis({ host: '127.0.0.1', port: config.redisPort }); // expect: connection-per-request
  try {
    res.json({ views: await redis.incr(`task:${req.params.taskId}:views`) });
  } finally {
    redis.quit();
  }
}

// Fixed: one client for the process (ioredis pipelines concurrent commands over it).
const counters = new Redis({ host: '127.0.0.1', port: config.redisPort, lazyConnect: true });

async function countViewV2(req, res) {
  res.json({ views: await counters.incr(`task:${req.params.taskId}:views`) });
}

router.get('/v1/projects/:projectId/tasks', listTasksV1);
router.get('/v2/projects/:projectId/tasks', listTasksV2);
router.get('/v1/projects/:projectId/tasks/count', countTasksV1);
router.get('/v2/projects/:projectId/tasks/count', countTasksV2);
router.get('/v1/projects/:projectId/board', [loadTasks(), fillCreator(), fillExecutor(), toJson()], sendBoard); // expect: serial-heavy-middleware
router.get('/v2/projects/:projectId/board', boardV2);
router.post('/v1/tasks/:taskId/views', countViewV1);
router.post('/v2/tasks/:taskId/views', countViewV2);

function closeCounters() {
  counters.disconnect();
}

module.exports = { router, closeCounters };
