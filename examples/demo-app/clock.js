'use strict';
// The fix of seed 000: a coarse clock. Date.now() runs once a second on a timer that does not
// keep the process alive, and every message reads the cached value.
let currentSeconds = Math.floor(Date.now() / 1000);

function refresh() {
  currentSeconds = Math.floor(Date.now() / 1000);
}

setInterval(refresh, 1000).unref();

/** Unix time in whole seconds, at most one second old. */
function seconds() {
  return currentSeconds;
}

module.exports = { seconds };
