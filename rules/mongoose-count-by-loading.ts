// mongoose-count-by-loading: documents loaded (and hydrated) only to read `.length`.
import type { RuleModule } from './api';

export const mongooseCountByLoading: RuleModule = {
  meta: {
    id: 'mongoose-count-by-loading',
    description: 'Flags mongoose queries that load every matching document only to take `.length`; use `countDocuments()` instead.',
    defaultSeverity: 'warning',
    incident: {
      seed: '004',
      summary: 'Teambition: a count endpoint loaded and hydrated every document to count it; counting in the database cut its TTFB from ~5 s to 197 ms.',
    },
    messages: {
      countByLoading: '`{{model}}.{{method}}()` loads and hydrates every matching document only to take `.length`{{where}}; use `{{model}}.countDocuments()` (seed 004: count TTFB 5 s -> 197 ms).',
    },
    fixable: true,
  },
  create() {
    return { visitor: {} };
  },
};

export default mongooseCountByLoading;
