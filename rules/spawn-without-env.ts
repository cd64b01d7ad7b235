import type { RuleModule } from './api';

const rule: RuleModule = {
  meta: {
    id: 'spawn-without-env',
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
