// The text of a comparison, as `hotframe diff` prints it and the editor's comparison summary
// shows it (issue 23.6): one formatter for both, so the two show the same figures. Names and paths
// come from the profiles (untrusted): unsafe characters are escaped (server/shared/printable.ts).
import { isAbsolute, relative } from 'node:path';

import { formatNumber, formatMs, formatSignedNumber, formatWeight } from '../../shared/format';
import { printable } from '../../shared/printable';
import type { ProfileDiff } from './diff';

/** The rows of each list the comparison's text shows by default (`hotframe diff`'s --top default). */
export const DIFF_TOP = 20;

/** A frame's location, relative to `root` when inside it (`root` '': none, paths as they are); frames without a file say what they are. */
export function where(file: string, line: number, root: string, category?: string): string {
  // A user frame without a file is JavaScript the profile recorded without a URL.
  if (file === '') return category === 'user' ? '(no URL)' : category === 'kernel' ? '(kernel)' : '(native)';
  const shown = root !== '' && isAbsolute(file) && !relative(root, file).startsWith('..') ? relative(root, file) : file;
  return printable(line > 0 ? `${shown}:${line}` : shown);
}

export function pad(text: string, width: number): string {
  return text.length >= width ? text : ' '.repeat(width - text.length) + text;
}

/** The comparison as text: both sides, then the functions and lines that changed most (at most `top` of each), in the diff's unit. */
export function diffText(names: { before: string; after: string }, diff: ProfileDiff, top: number, root: string): string {
  const out: string[] = [];
  const rates = diff.unit === 'ms/s';
  const weight = diff.unit === 'ms/s' ? null : diff.unit;
  // Allocation profiles: bytes (or objects) as they are, "+1.20 MB"; CPU profiles: ms/s, rounded as every other number.
  const value = (v: number): string => (weight === null ? formatNumber(v) : formatWeight(v, weight));
  const change = (v: number): string => (weight === null ? formatSignedNumber(v) : `${v > 0 ? '+' : v < 0 ? '-' : ''}${formatWeight(Math.abs(v), weight)}`);
  const sideText = (side: ProfileDiff['before']): string =>
    weight === null ? `${side.format}, ${side.samples} samples, ${formatMs(side.durationMs)}` : `${side.format}, ${formatWeight(side.samples, weight)}`;
  out.push(`before: ${printable(names.before)} (${sideText(diff.before)})`);
  out.push(`after:  ${printable(names.after)} (${sideText(diff.after)})`);
  out.push('', rates ? `Functions, biggest change in self time first (ms of CPU per second of profile; + = more after)` : `Functions, biggest change in self ${diff.unit} first (${diff.unit} allocated, before → after; + = more after)`);
  out.push(`  ${pad('delta', 9)} ${pad('before', 9)} ${pad('after', 9)} ${pad('total Δ', 9)}  function  location`);
  for (const f of diff.functions.slice(0, top)) {
    out.push(
      `  ${pad(change(f.selfDelta), 9)} ${pad(value(f.beforeSelf), 9)} ${pad(value(f.afterSelf), 9)} ${pad(change(f.totalDelta), 9)}  ` +
        `${printable(f.name || '(anonymous)')} (${f.category})  ${where(f.file, f.line, root, f.category)}`,
    );
  }
  if (diff.lines.length > 0) {
    out.push('', `Lines, biggest change first (${diff.unit})`);
    for (const l of diff.lines.slice(0, top)) {
      out.push(`  ${pad(change(l.delta), 9)} ${pad(value(l.before), 9)} ${pad(value(l.after), 9)}  ${where(l.file, l.line, root)}`);
    }
  }
  return out.join('\n') + '\n';
}
