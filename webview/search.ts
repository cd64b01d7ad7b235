// Frame search: the user's text is matched literally (no regular expression), ignoring case,
// against the frame's name and file. d3-flame-graph's own matcher builds a RegExp from the
// text, so `(`, `.`, `*` or `[` would be misread or throw; this predicate replaces it.
import type { FlameNode } from '../server/protocol/wire';

export function normalizeSearchTerm(text: string): string {
  return text.trim().toLowerCase();
}

/** `term` must already be normalized; an empty term matches nothing. */
export function frameMatches(node: Pick<FlameNode, 'name' | 'file'>, term: string): boolean {
  if (term === '') return false;
  return node.name.toLowerCase().includes(term) || (node.file !== '' && node.file.toLowerCase().includes(term));
}
