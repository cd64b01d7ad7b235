// `hotframe profile FILE --stalls [--stall-ms N]`: the event-loop stalls of a profile
// (server/profile/analysis/stalls.ts), per line and in time order, as text or JSON.
// Names and paths come from the profile (untrusted): control characters are escaped.
import { isAbsolute, relative } from 'node:path';

import type { StallReport, StallSite } from '../profile/analysis/stalls';
import { withLoopMonitor } from '../profile/analysis/loopMonitor';
import { readServingLog, servingLogPath } from '../profile/readers/readServingLog';
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

/**
 * The stalls joined with the event-loop monitor of a Hotframe recording, when its notes are
 * beside `profileFile`; notes that cannot be used are said on stderr.
 */
export function withLoopNotes(report: StallReport | null, profileFile: string): StallReport | null {
  if (report === null) return null;
  const log = readServingLog(profileFile);
  if (log === null) return report;
  if ('error' in log) {
    process.stderr.write(`hotframe: ${printable(servingLogPath(profileFile))}: ${printable(log.error)}; the event-loop monitor is not used\n`);
    return report;
  }
  return withLoopMonitor(report, log.loop);
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
    const monitor = report.monitor;
    // With the recording's event-loop monitor: how long it saw the loop held over each stall.
    out.push(`  ${pad('at', 9)} ${pad('lasted', 9)}${monitor !== undefined ? ` ${pad('monitor', 9)}` : ''}  line`);
    for (const stall of longest) {
      const mostly = stall.mostly === undefined ? '' : `; most: ${where(stall.mostly, root)} (${called(stall.mostly)}) ${formatMs(stall.mostly.ms)}`;
      const at = stall.at === null ? `(no one line holds half of it${mostly})` : `${where(stall.at, root)}  (${called(stall.at)})`;
      const seen = monitor === undefined ? '' : ` ${pad(stall.loop !== undefined ? formatMs(stall.loop.delayMs) : 'not seen', 9)}`;
      out.push(`  ${pad(formatMs(stall.startMs), 9)} ${pad(formatMs(stall.durationMs), 9)}${seen}  ${at}${stall.startup === true ? '  [start-up]' : ''}${stall.route !== undefined ? '  ' + printable(stall.route) : ''}`);
    }
  }
  if (report.monitor !== undefined) out.push(...monitorNotes(report, top));
  return out.join('\n') + '\n';
}

/** What the event-loop monitor confirmed, and what it saw alone. */
function monitorNotes(report: StallReport, top: number): string[] {
  const monitor = report.monitor!;
  const out = ['', `Event-loop monitor (a ${formatMs(monitor.tickMs)} timer of the recording; "monitor" = how long it saw the loop held over the stall): ${count(monitor.confirmed)} stall(s) confirmed, ${count(monitor.unconfirmed)} not seen by it.`];
  if (monitor.monitorOnly.length > 0) {
    out.push(`${count(monitor.monitorOnly.length)} delay(s) over ${formatMs(report.thresholdMs)} with no JavaScript on the sampled stacks (GC, native work, the process not scheduled): no line can be named.`);
    const longest = [...monitor.monitorOnly].sort((a, b) => b.delayMs - a.delayMs).slice(0, top).sort((a, b) => a.fromMs - b.fromMs);
    for (const gap of longest) out.push(`  ${pad(formatMs(gap.fromMs), 9)} ${pad('', 9)} ${pad(formatMs(gap.delayMs), 9)}  (monitor only)`);
  }
  return out;
}

const round = (ms: number): number => Math.round(ms * 1000) / 1000;
const roundGap = <T extends { fromMs: number; toMs: number; delayMs: number }>(g: T): T => ({ ...g, fromMs: round(g.fromMs), toMs: round(g.toMs), delayMs: round(g.delayMs) });

export function stallsJson(report: StallReport | null): Record<string, unknown> {
  if (report === null) return { stalls: null, reason: 'this format keeps no sample order' };
  return {
    ...report,
    totalMs: round(report.totalMs),
    stalls: report.stalls.map((s) => ({ ...s, startMs: round(s.startMs), durationMs: round(s.durationMs), atMs: round(s.atMs), ...(s.mostly !== undefined ? { mostly: { ...s.mostly, ms: round(s.mostly.ms) } } : {}), ...(s.loop !== undefined ? { loop: roundGap(s.loop) } : {}) })),
    lines: report.lines.map((l) => ({ ...l, longestMs: round(l.longestMs), totalMs: round(l.totalMs) })),
    ...(report.monitor !== undefined ? { monitor: { ...report.monitor, monitorOnly: report.monitor.monitorOnly.map(roundGap) } } : {}),
  };
}
