'use strict';
// Seed 003: Kubernetes pods with ~16k injected service-link variables (13,793 seen by execve).
// execSync('free -m') / `df -k` without `env` on a stats timer made Node walk the whole
// environment in normalizeSpawnArguments on every call: 7.5 s (TestEnv: 7.494 s) with the event
// loop blocked, requests stalled for ~20 s. Fix: a small `env` and asynchronous exec (or
// `enableServiceLinks: false` in the pod spec).
const { exec, execSync } = require('node:child_process');
const express = require('express');

const router = express.Router();
let latest = { memory: '', disk: '' };

// As found.
function sampleHostStats() {
  try {
    latest = {
      memory: execSync('free -m').toString(), // expect: spawn-without-env, blocking-sync-call
      disk: execSync('df -k /').toString(), // expect: spawn-without-env, blocking-sync-call
    };
  } catch (error) {
    // No `free` (macOS) or a failing command: report it, keep serving.
    latest = { memory: '', disk: '', error: error.message.split('\n')[0] };
  }
}

// Fixed: asynchronous, with one variable in the child's environment instead of thousands.
function sampleHostStatsFixed() {
  exec('free -m', { env: { PATH: process.env.PATH } }, (error, stdout) => {
    latest = { ...latest, memory: error ? '' : stdout, error: error ? error.message.split('\n')[0] : undefined };
  });
  exec('df -k /', { env: { PATH: process.env.PATH } }, (error, stdout) => {
    latest = { ...latest, disk: error ? '' : stdout, error: error ? error.message.split('\n')[0] : undefined };
  });
}

// Every 4 s. Node reads each variable through getenv(), which scans the whole environment, so
// one walk grows with the square of the variable count: measured here ~0.1 s per execSync with
// 2,000 variables, ~1.9 s with 15,000 (2 shared cores). Either stalls every request meanwhile.
function startHostStats(fixed) {
  if (fixed) setInterval(sampleHostStatsFixed, 4000).unref();
  else setInterval(sampleHostStats, 4000).unref();
}

function hostStats(req, res) {
  res.json(latest);
}

router.get('/stats', hostStats);

module.exports = { router, startHostStats };
