// The one escaper for text that comes from a file, a path, a profile or the server and is shown
// where VS Code renders markdown links: notifications and progress titles (`[text](command:…)`
// becomes a live link there, and a click runs the command with the link's arguments), quick
// picks, tree items and the status bar. No vscode import (unit-tested); every such sink in
// client/ passes its text through `noLinks`.

/**
 * VS Code's link syntax in plain-text places (vs/base/common/linkedText.ts, 1.100):
 * `[label](href)` with href starting with http(s)://, command: or file:. There is no escape
 * character in it, so the only way to show the text unchanged without a link is to break the
 * `](` every link needs.
 */
export const LINKED_TEXT = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;

/** A zero-width space: the text reads the same, and `]` is no longer followed by `(`. */
const BREAK = '\u200b';

/** `text` with no markdown link left in it: every `](` gets a zero-width space between. */
export function noLinks(text: string): string {
  return text.replace(/\]\(/g, `]${BREAK}(`);
}
