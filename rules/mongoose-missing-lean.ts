// mongoose-missing-lean: read queries whose documents are only serialized, so mongoose's
// hydration (completeMany, 2+ s in seed 004) is pure overhead.
import type { RuleModule } from './api';

export const mongooseMissingLean: RuleModule = {
  meta: {
    id: 'mongoose-missing-lean',
    description: 'Flags mongoose read queries whose results are only returned or serialized but are hydrated into full documents because `.lean()` is missing.',
    defaultSeverity: 'warning',
    incident: {
      seed: '004',
      summary: 'Teambition: mongoose hydration (completeMany) took 2+ s of CPU per task-list request; adding .lean() made DB reads at least 1.5x faster.',
    },
    messages: {
      missingLean: '`{{model}}.{{method}}()` hydrates full mongoose documents that are only {{use}}{{where}}; add `.lean()` (seed 004: completeMany took 2+ s, lean reads were >= 1.5x faster).',
    },
    fixable: true,
  },
  create() {
    return { visitor: {} };
  },
};

export default mongooseMissingLean;
