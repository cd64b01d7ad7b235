import type { RuleModule } from './api';

const rule: RuleModule = {
  meta: {
    id: 'date-now-hot-path',
    description: 'TODO',
    defaultSeverity: 'warning',
    incident: { seed: '000', summary: '' },
    messages: {},
    fixable: false,
  },
  create() {
    return { visitor: {} };
  },
};
export default rule;
