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

/** VS Code's icon syntax in labels (quick picks, status bar): `$(name)` or `$(name~spin)`. */
export const ICON_SYNTAX = /\$\([a-z0-9-]+(?:~[a-z]+)?\)/gi;

/**
 * `text` with no link and no icon left in it, for quick pick labels, descriptions and details,
 * which render `$(name)` as an icon: a zero-width space breaks every `$(`. Text from another
 * process (a command line read from /proc) goes through this.
 */
export function plainLabel(text: string): string {
  return noLinks(text).replace(/\$\(/g, `$${BREAK}(`);
}
