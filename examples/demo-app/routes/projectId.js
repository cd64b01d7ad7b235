'use strict';
// `:projectId` must be a whole number: anything else is the client's mistake (400), not a
// query that mongoose would reject with a CastError (500).

function validateProjectId(req, res, next, value) {
  if (/^\d{1,9}$/.test(value)) next();
  else res.status(400).json({ error: `projectId must be a whole number, got '${String(value).slice(0, 40)}'` });
}

module.exports = { validateProjectId };
