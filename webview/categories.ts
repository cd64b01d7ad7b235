// The frame categories as the flame graph shows them: their words, and their order in the
// legend. The table's type makes it name every category of the wire type, so the list derived
// from it is complete; the server's own list (for the CLI) stays in the profile engine.
import type { Category } from '../server/protocol/wire';

const categoryWords: Record<Category, string> = {
  user: 'your code',
  dependency: 'dependency (node_modules)',
  node: 'Node.js internals',
  native: 'native / V8 builtins',
  kernel: 'OS kernel (Linux perf)',
  gc: 'garbage collection',
  program: 'VM (program)',
  idle: 'idle',
};

/** Every category, in the legend's order. */
export const CATEGORIES = Object.keys(categoryWords) as readonly Category[];

const known: ReadonlySet<string> = new Set(CATEGORIES);

/** A category named by the host (untrusted shape): one the webview can colour and label. */
export function isCategory(value: unknown): value is Category {
  return typeof value === 'string' && known.has(value);
}

export function categoryLabel(category: Category): string {
  return categoryWords[category];
}
