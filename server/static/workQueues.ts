// A work queue built around a worker function (`async.queue(worker, 1)`, `fastq(worker, 1)`,
// `fastq.promise(that, worker, 1)`): pushing a task runs the worker later, once per task, so the
// worker runs in the context of the code that pushes (a conversion queued per export request
// runs per request, however the queue spaces the work). Read from the queue's constant binding.
import type { NodePath } from '@babel/traverse';
import type * as t from '@babel/types';
import type { BindingResolver } from './bindings';
import { functionOfBinding, isFunctionNode, propertyName } from './functionNames';

/** Methods that hand a task to the queue. */
const PUSH_METHODS = new Set(['push', 'pushAsync', 'unshift', 'unshiftAsync']);
/** async's queue factories (`async.queue`, a destructured `queue`) and fastq. */
const QUEUE_FACTORIES = new Set(['queue', 'priorityQueue', 'cargo', 'cargoQueue', 'fastq']);

function factoryName(callee: t.Node): string | null {
  if (callee.type === 'Identifier') return callee.name;
  if (callee.type !== 'MemberExpression') return null;
  const property = propertyName(callee.property, callee.computed);
  // `fastq.promise(worker)`.
  if (property === 'promise' && callee.object.type === 'Identifier') return callee.object.name;
  return property;
}

/** The worker function that `queue.push(...)` (the callee at `path`) runs, or null. */
export function queueWorkerOf(path: NodePath, callee: t.MemberExpression, bindings: BindingResolver): t.Node | null {
  const method = propertyName(callee.property, callee.computed);
  if (method === null || !PUSH_METHODS.has(method) || callee.object.type !== 'Identifier') return null;
  const binding = bindings.bindingOf(path, callee.object.name);
  const declarator = binding?.constant ? binding.path.node : null;
  const init = declarator?.type === 'VariableDeclarator' ? declarator.init : null;
  if (init?.type !== 'CallExpression') return null;
  const name = factoryName(init.callee);
  if (name === null || !QUEUE_FACTORIES.has(name)) return null;
  // The first function among the first two arguments (fastq may take a `that` first).
  for (const arg of init.arguments.slice(0, 2)) {
    if (isFunctionNode(arg)) return arg;
    if (arg.type === 'Identifier') {
      const fn = functionOfBinding(bindings, binding!.path, arg.name);
      if (fn) return fn;
    }
  }
  return null;
}
