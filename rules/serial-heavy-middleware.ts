// serial-heavy-middleware: a route chain whose middlewares await independent I/O one after
// another, or re-walk the same request data in several passes (seed 004's mdl.toJson(),
// mdl.fillCreator(), mdl.fillExecutor() chain).
import type { RuleModule } from './api';

export const serialHeavyMiddleware: RuleModule = {
  meta: {
    id: 'serial-heavy-middleware',
    description: 'Flags routes that run two or more middlewares in series which each await independent I/O, or which each re-iterate the same request data.',
    defaultSeverity: 'warning',
    incident: {
      seed: '004',
      summary: 'Teambition: a serial chain of express middlewares (toJson, fillCreator, fillExecutor, ...) recomputed the same data per request; with the other fixes the task list went from ~6 s to 800 ms and pages loaded 8-10x faster.',
    },
    messages: {
      independentIo: 'Middlewares {{names}} each await independent I/O but run one after another{{where}}; neither reads what the other writes, so run the I/O concurrently (Promise.all) in one middleware (seed 004: serial middleware chains, task list 6 s -> 800 ms).',
      repeatedPasses: 'Middlewares {{names}} each iterate over the same `{{data}}`{{where}}; merge them into one pass (seed 004: serial middlewares recomputed the same data, page 8-10x faster once merged).',
    },
    fixable: false,
  },
  create() {
    return { visitor: {} };
  },
};

export default serialHeavyMiddleware;
