// What a binding resolver (server/static/bindings.ts) tells of every name of a tree, as text: per
// identifier, the binding it resolves to where it is read or declared, with what the rules read of
// that binding (its kind, declaration and its place, whether it is constant, its reads and their
// places, its scope chain). An editor document's resolver keeps parts of its scopes across edits;
// the incremental paths' tests (test/editedDocuments.ts) compare this text with a fresh resolver's.
import type { NodePath } from '@babel/traverse';
import type * as t from '@babel/types';
import type { BindingRecord, BindingResolver, ScopeInfo } from '../server/static/bindings';
import { NodeStack, pathOf, rootFrame } from '../server/static/lazyPaths';
import { forEachChildOnStack } from '../server/static/walk';

/** Where a path sits: its keys from the Program down, with each node's start (a stale key shows). */
function placeOf(path: NodePath): string {
  const steps: string[] = [];
  for (let current: NodePath | null = path; current !== null; current = current.parentPath) {
    steps.push(`${current.listKey ?? ''}.${String(current.key)}@${current.node.start ?? '?'}`);
  }
  return steps.reverse().join('/');
}

function scopeChainOf(scope: ScopeInfo): string {
  const chain: string[] = [];
  for (let s: ScopeInfo | null = scope; s !== null; s = s.parent) chain.push(`${s.node.type}@${s.node.start ?? '?'}<${s.parentNode?.type ?? '-'}`);
  return chain.join(' ');
}

function bindingText(binding: BindingRecord): string {
  return [
    `${binding.kind} ${binding.identifier.name}@${binding.identifier.start ?? '?'}`,
    binding.constant ? 'constant' : 'reassigned',
    `declared at ${placeOf(binding.path)} in ${scopeChainOf(binding.pathScope)}`,
    `scope ${scopeChainOf(binding.scope)}`,
    `${binding.referenceCount} reads: ${binding.referencePaths.map(placeOf).join(', ')}`,
  ].join('; ');
}

/** One line per identifier of `file` (in the walk's order): what `resolver` makes of its name there. */
export function scopeView(resolver: BindingResolver, file: t.File): string {
  const lines: string[] = [];
  const described = new Map<BindingRecord, string>();
  const stack = new NodeStack(rootFrame(file));
  const visit = (depth: number): void => {
    const node = stack.node(depth);
    if (node.type === 'Identifier') {
      const path = pathOf(stack.frameAt(depth), resolver);
      const binding = resolver.bindingOf(path, node.name);
      let text = 'global';
      if (binding !== undefined) {
        text = described.get(binding) ?? bindingText(binding);
        described.set(binding, text);
      }
      lines.push(`${node.name}@${node.start ?? '?'} in ${scopeChainOf(resolver.scopeOf(path))}: ${text}`);
    }
    forEachChildOnStack(stack, depth, visit, () => false);
  };
  stack.set(1, file.program, 'program', null);
  visit(1);
  return lines.join('\n');
}
