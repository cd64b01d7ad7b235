import type { Category } from './types';

/** What the profile says a function is: JavaScript with a script, native (C++, libraries, builtins), the OS kernel (Linux perf), or a VM state. */
export type CodeKind = 'js' | 'native' | 'kernel' | 'vm';

export const GC_NAME = '(garbage collector)';
export const IDLE_NAME = '(idle)';
export const PROGRAM_NAME = '(program)';

/**
 * The bucket a function's cost goes to. VM states first (their names are fixed by V8), then
 * code without a script (C++, shared libraries, builtins such as Date.now's `now`), then by url.
 */
export function categorize(name: string, url: string, kind: CodeKind = 'js'): Category {
  if (name === GC_NAME) return 'gc';
  if (name === IDLE_NAME) return 'idle';
  if (name === PROGRAM_NAME) return 'program';
  if (kind === 'vm') return 'program';
  if (kind === 'kernel') return 'kernel';
  if (kind === 'native' || url === '') return 'native';
  if (url.startsWith('node:') || url.startsWith('internal/')) return 'node';
  if (url.includes('/node_modules/') || url.includes('\\node_modules\\')) return 'dependency';
  return 'user';
}
