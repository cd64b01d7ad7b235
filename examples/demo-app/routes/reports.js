'use strict';
// Seed 001: garbage collection took 27% of the CPU (Scavenge: 988 of 1008 GCs in 3 minutes,
// 47.7 s of GC). Short-lived per-request objects fill the young generation; the incident's fix
// was --max-semi-space-size=64 (GC 7.14%, GC time 11.8 s, QPS +10%; 128/256 MB gave little more
// and longer pauses). The "after" recording runs with that flag AND the route below that
// allocates less: both halves of the fix.
const express = require('express');
const { Task } = require('../models');
const { validateProjectId } = require('./projectId');

const router = express.Router();
router.param('projectId', validateProjectId);

// As found: every task copied once per tag, its note split into words and joined again.
async function tagReportV1(req, res) {
  const tasks = await Task.find({ projectId: Number(req.params.projectId) }).lean();
  const rows = tasks.flatMap((task) => task.tags.map((tag) => ({ ...task, tag, words: task.note.split(' ') })));
  const byTag = {};
  for (const row of rows) {
    (byTag[row.tag] ??= []).push({ ...row, noteLength: row.words.join(' ').length });
  }
  res.json(
    Object.entries(byTag).map(([tag, list]) => ({
      tag,
      tasks: list.length,
      averageNoteLength: list.reduce((sum, row) => sum + row.noteLength, 0) / list.length,
    })),
  );
}

// Fixed: one pass, one small accumulator per tag.
async function tagReportV2(req, res) {
  const tasks = await Task.find({ projectId: Number(req.params.projectId) }).lean();
  const byTag = new Map();
  for (const task of tasks) {
    for (const tag of task.tags) {
      const entry = byTag.get(tag) ?? { tasks: 0, noteChars: 0 };
      entry.tasks++;
      entry.noteChars += task.note.length;
      byTag.set(tag, entry);
    }
  }
  res.json([...byTag].map(([tag, entry]) => ({ tag, tasks: entry.tasks, averageNoteLength: entry.noteChars / entry.tasks })));
}

router.get('/v1/projects/:projectId/reports/tags', tagReportV1);
router.get('/v2/projects/:projectId/reports/tags', tagReportV2);

module.exports = { router };
