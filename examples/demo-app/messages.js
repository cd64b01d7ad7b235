'use strict';
// Seed 000: 16 pm2 workers sat at 60-85% CPU; `node --prof` showed Date.now()
// (Runtime_DateCurrentTime: 494 ticks, 19.4% of the C++ ticks, 10.3% of all) called for every
// Redis message through a getTimestamp() helper (models.js:43 in the incident). Each message here
// carries a batch of task events, each stamped with the current second.
const clock = require('./clock');

/** Event type -> { count, lastSecond }. */
const eventStats = new Map();
let malformedMessages = 0;

/** The events of one message; anything but a JSON array of objects counts as malformed, never throws. */
function parseEvents(message) {
  try {
    const events = JSON.parse(message);
    if (Array.isArray(events)) return events.filter((event) => event !== null && typeof event === 'object');
  } catch {
    // counted below
  }
  malformedMessages++;
  return [];
}

function getTimestamp() {
  return Math.floor(Date.now() / 1000); // expect: date-now-hot-path
}

function tally(event, second) {
  const type = String(event.type);
  const entry = eventStats.get(type);
  if (entry === undefined) eventStats.set(type, { count: 1, lastSecond: second });
  else {
    entry.count++;
    entry.lastSecond = second;
  }
}

// As found: the clock is read once per event of every message.
function onTaskEvents(channel, message) {
  for (const event of parseEvents(message)) tally(event, getTimestamp());
}

// Fixed: the coarse clock of ./clock.js.
function onTaskEventsFixed(channel, message) {
  for (const event of parseEvents(message)) tally(event, clock.seconds());
}

function subscribeTaskEvents(subscriber, fixed) {
  if (fixed) subscriber.on('message', onTaskEventsFixed);
  else subscriber.on('message', onTaskEvents);
  return subscriber.subscribe('task-events');
}

module.exports = { subscribeTaskEvents, eventStats, malformedCount: () => malformedMessages };
