// Text the CLI and the editor's plain-text pages print comes from analyzed trees and profiles (untrusted): file names, function
// names, messages. Characters that would act instead of show are escaped: C0/C1 controls (terminal
// escapes, newlines), the line and paragraph separators U+2028/U+2029, and the bidirectional
// controls (U+202A-U+202E, U+2066-U+2069, marks) that can make a line read differently than it is.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const hex = (c: string, width: number): string => c.charCodeAt(0).toString(16).padStart(width, '0');

/** Unsafe characters as \xNN (\uNNNN above U+00FF). */
export function printable(text: string): string {
  return text.replace(UNSAFE, (c) => (c.charCodeAt(0) <= 0xff ? `\\x${hex(c, 2)}` : `\\u${hex(c, 4)}`));
}

/** Unsafe characters as \uNNNN (the style of `hotframe analyze`'s text report). */
export function printableAsUnicode(text: string): string {
  return text.replace(UNSAFE, (c) => `\\u${hex(c, 4)}`);
}
