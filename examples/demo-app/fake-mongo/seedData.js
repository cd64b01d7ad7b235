'use strict';
// The documents the fake server starts with: users and tasks of a small project tracker, the
// shape of seed 004 (Teambition task lists: a few hundred tasks per list, each with a creator and
// an executor to fill in). Generated from a fixed seed, so every run and every recorded profile
// sees the same data.
const { ObjectId } = require('./bson');

const PROJECTS = 30;
const TASKS_PER_PROJECT = 200;
const USERS = 400;
const EPOCH_MS = Date.UTC(2026, 0, 1);
const WORDS = ['deploy', 'redis', 'review', 'latency', 'cache', 'index', 'billing', 'search', 'export', 'sprint', 'mobile', 'login'];
const STATUSES = ['todo', 'doing', 'review', 'done'];

/** mulberry32: a tiny deterministic PRNG (Math.random cannot be seeded). */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function objectId(kind, n) {
  return ObjectId.createFromHexString(`65f00000${kind}${n.toString(16).padStart(14, '0')}`);
}

function words(random, count) {
  const out = [];
  for (let i = 0; i < count; i++) out.push(WORDS[Math.floor(random() * WORDS.length)]);
  return out;
}

function seedUsers() {
  const random = prng(4);
  const users = [];
  for (let i = 0; i < USERS; i++) {
    users.push({
      _id: objectId('01', i),
      name: `user${i}`,
      email: `user${i}@example.test`,
      title: words(random, 2).join(' '),
      avatarUrl: `https://avatars.example.test/${i}.png`,
    });
  }
  return users;
}

function seedTasks(users) {
  const random = prng(40);
  const tasks = [];
  for (let p = 1; p <= PROJECTS; p++) {
    for (let i = 0; i < TASKS_PER_PROJECT; i++) {
      const n = tasks.length;
      const created = new Date(EPOCH_MS + n * 60000);
      tasks.push({
        _id: objectId('02', n),
        projectId: p,
        title: `${words(random, 4).join(' ')} #${n}`,
        note: words(random, 30).join(' '),
        status: STATUSES[Math.floor(random() * STATUSES.length)],
        priority: Math.floor(random() * 4),
        creatorId: users[Math.floor(random() * users.length)]._id,
        executorId: users[Math.floor(random() * users.length)]._id,
        tags: words(random, 3),
        subtasks: words(random, 4).map((w, k) => ({ title: `${w} step ${k}`, done: random() < 0.5 })),
        dueDate: new Date(created.getTime() + 7 * 86400000),
        createdAt: created,
        updatedAt: created,
      });
    }
  }
  return tasks;
}

/** Collection name -> documents. */
function seedCollections() {
  const users = seedUsers();
  return { users, tasks: seedTasks(users) };
}

module.exports = { seedCollections, PROJECTS, TASKS_PER_PROJECT, USERS };
