// `hotframe profile FILE --stalls [--stall-ms N]`: the event-loop stalls of a profile
// (server/profile/analysis/stalls.ts), per line and in time order, as text or JSON.
// Names and paths come from the profile (untrusted): control characters are escaped.
import { isAbsolute, relative } from 'node:path';

import type { StallReport, StallSite } from '../profile/analysis/stalls';
import { formatMs } from '../shared/format';
import { InputError } from '../shared/errors';
import { printable } from './printable';

/** `--stall-ms N`: a positive number of milliseconds. */
export function stallThreshold(text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const ms = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || !(ms > 0)) throw new InputError(`--stall-ms ${text}: expected a number of milliseconds above 0`);
  return ms;
}

function where(site: StallSite, root: string): string {
  const shown = isAbsolute(site.file) && !relative(root, site.file).startsWith('..') ? relative(root, site.file) : site.file;
  return printable(`${shown}:${site.line}`);
}

/** A count, as a whole number. */
const count = (n: number): string => n.toLocaleString('en-US');

function pad(text: string, width: number): string {
  return text.length >= width ? text : ' '.repeat(width - text.length) + text;
}

function called(site: StallSite): string {
  return printable(site.call === '' ? site.function : `${site.function} → ${site.call}`);
}

export function stallsText(name: string, report: StallReport | null, top: number, root: string): string {
  if (report === null) return `${printable(name)}: this format keeps no sample order, so stalls cannot be read from it (a .cpuprofile or a --prof log can)\n`;
  const out: string[] = [];
  out.push(`${printable(name)}: ${count(report.count - report.startupCount)} event-loop stall(s) over ${formatMs(report.thresholdMs)} while serving, ${formatMs(report.totalMs)} in all` +
    (report.startupCount > 0 ? `; ${count(report.startupCount)} at start-up (the main module's run) not counted` : '') +
    (report.unnamedCount > 0 ? `; ${count(report.unnamedCount)} held by no one line` : ''));
  if (report.lines.length > 0) {
    out.push('', 'Lines that stalled the event loop:');
    out.push(`  ${pad('stalls', 6)} ${pad('longest', 9)} ${pad('total', 9)}  line  (function → what it called)  routes`);
    for (const line of report.lines.slice(0, top)) {
      out.push(`  ${pad(count(line.count), 6)} ${pad(formatMs(line.longestMs), 9)} ${pad(formatMs(line.totalMs), 9)}  ${where(line, root)}  (${called(line)})${line.routes.length > 0 ? '  ' + printable(line.routes.join(', ')) : ''}`);
    }
  }
  if (report.stalls.length > 0) {
    const longest = [...report.stalls].sort((a, b) => b.durationMs - a.durationMs).slice(0, top).sort((a, b) => a.startMs - b.startMs);
    out.push('', `Stalls in time order${longest.length < report.stalls.length ? ` (the ${count(longest.length)} longest)` : ''}:`);
    out.push(`  ${pad('at', 9)} ${pad('lasted', 9)}  line`);
    for (const stall of longest) {
      const mostly = stall.mostly === undefined ? '' : `; most: ${where(stall.mostly, root)} (${called(stall.mostly)}) ${formatMs(stall.mostly.ms)}`;
      const at = stall.at === null ? `(no one line holds half of it${mostly})` : `${where(stall.at, root)}  (${called(stall.at)})`;
      out.push(`  ${pad(formatMs(stall.startMs), 9)} ${pad(formatMs(stall.durationMs), 9)}  ${at}${stall.startup === true ? '  [start-up]' : ''}${stall.route !== undefined ? '  ' + printable(stall.route) : ''}`);
    }
  }
  return out.join('\n') + '\n';
}

const round = (ms: number): number => Math.round(ms * 1000) / 1000;

export function stallsJson(report: StallReport | null): Record<string, unknown> {
  if (report === null) return { stalls: null, reason: 'this format keeps no sample order' };
  return {
    ...report,
    totalMs: round(report.totalMs),
    stalls: report.stalls.map((s) => ({ ...s, startMs: round(s.startMs), durationMs: round(s.durationMs), atMs: round(s.atMs), ...(s.mostly !== undefined ? { mostly: { ...s.mostly, ms: round(s.mostly.ms) } } : {}) })),
    lines: report.lines.map((l) => ({ ...l, longestMs: round(l.longestMs), totalMs: round(l.totalMs) })),
  };
}
