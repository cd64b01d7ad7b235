// Text output of `hotframe profile` and `hotframe diff`: what `node --prof-process` prints, plus
// categories in ms, totals counted once per function, user call sites and the seeds' advice.
// Names and paths come from the profile (untrusted): control characters are escaped.
import { relative, isAbsolute } from 'node:path';

import type { ProfileDiff } from '../profile/analysis/diff';
import { formatMs, formatNumber, formatPercent, formatSignedNumber, formatWeight } from '../shared/format';
import { CATEGORIES, type FunctionCost, type ProfileReport, type WeightUnit } from '../profile/model/types';
import { printable } from './printable';

/** A figure in the report's unit: ms for CPU profiles, bytes or objects for allocation profiles. */
function amount(value: number, unit: WeightUnit): string {
  return unit === 'ms' ? formatMs(value) : formatWeight(value, unit);
}

// Control characters (terminal escapes included) are shown as \xNN, so a profile cannot drive the terminal.
export { printable };

export function where(file: string, line: number, root: string, category?: string): string {
  // A user frame without a file is JavaScript the profile recorded without a URL.
  if (file === '') return category === 'user' ? '(no URL)' : category === 'kernel' ? '(kernel)' : '(native)';
  const shown = isAbsolute(file) && !relative(root, file).startsWith('..') ? relative(root, file) : file;
  return printable(line > 0 ? `${shown}:${line}` : shown);
}

function pad(text: string, width: number): string {
  return text.length >= width ? text : ' '.repeat(width - text.length) + text;
}

/** A share of CPU time, or "-" for idle (not CPU time). */
function share(percent: number | null): string {
  return percent === null ? '-' : formatPercent(percent);
}

function functionRows(functions: FunctionCost[], root: string, unit: WeightUnit): string[] {
  const rows = [`  ${pad('self', 10)} ${pad('self%', 7)} ${pad('total', 10)} ${pad('total%', 7)}  function (category)  location`];
  for (const f of functions) {
    rows.push(
      `  ${pad(amount(f.selfMs, unit), 10)} ${pad(share(f.selfPercent), 7)} ${pad(amount(f.totalMs, unit), 10)} ${pad(share(f.totalPercent), 7)}  ` +
        `${printable(f.name || '(anonymous)')} (${f.category})  ${where(f.file, f.line, root, f.category)}${f.inferred === true ? ' (inferred from the name)' : ''}`,
    );
  }
  return rows;
}

export function profileText(name: string, report: ProfileReport, top: number, root: string): string {
  const out: string[] = [];
  const { unit } = report;
  if (unit === 'ms') {
    const counted = report.format === 'cpuprofile' || report.format === 'pprof' || report.format === 'perf-script' || report.format === 'folded' ? 'samples' : 'ticks';
    out.push(`${printable(name)}: ${report.format}, ${report.samples} ${counted}, ${formatMs(report.durationMs)}, CPU time (idle excluded) ${formatMs(report.cpuMs)}`);
    out.push(`Every % below is ${report.shareOf}: ms / ${formatMs(report.cpuMs)}.`);
    for (const note of report.notes) out.push(`  ${printable(note)}`);
    out.push('', `Summary by category`, `  ${'category'.padEnd(11)} ${pad(counted, 9)} ${pad('ms', 10)} ${pad('%', 7)}`);
    for (const category of CATEGORIES) {
      const cost = report.categories[category];
      out.push(`  ${category.padEnd(11)} ${pad(String(cost.samples), 9)} ${pad(formatMs(cost.ms), 10)} ${pad(share(cost.percent), 7)}`);
    }
  } else {
    // Allocation profiles: every figure is the weight (bytes or objects) and every share a share of all of it.
    out.push(`${printable(name)}: ${report.format}, ${amount(report.cpuMs, unit)} allocated (sampled)${report.durationMs > 0 ? `, ${formatMs(report.durationMs)}` : ''}`);
    out.push(`Every % below is a share of the ${unit} allocated: ${unit} / ${amount(report.cpuMs, unit)}.`);
    for (const note of report.notes) out.push(`  ${printable(note)}`);
    out.push('', `Summary by category`, `  ${'category'.padEnd(11)} ${pad(unit, 10)} ${pad('%', 7)}`);
    for (const category of CATEGORIES) {
      const cost = report.categories[category];
      out.push(`  ${category.padEnd(11)} ${pad(amount(cost.ms, unit), 10)} ${pad(share(cost.percent), 7)}`);
    }
  }
  const what = unit === 'ms' ? 'time' : unit;
  out.push('', `Top ${top} by self ${what}`, ...functionRows(report.functions.slice(0, top), root, unit));
  const byTotal = [...report.functions].sort((a, b) => b.totalMs - a.totalMs).slice(0, top);
  out.push('', `Top ${top} by total ${what} (each ${unit === 'ms' ? 'sample' : 'allocation'} counted once per function)`, ...functionRows(byTotal, root, unit));
  if (report.lines.length > 0) {
    out.push('', `Hot lines`);
    for (const line of report.lines.slice(0, top)) {
      out.push(`  ${pad(amount(line.selfMs, unit), 10)} ${pad(share(line.percent), 7)}  ${where(line.file, line.line, root)}`);
    }
  }
  if (report.callSites.length > 0) {
    out.push('', unit === 'ms' ? `User call sites (library time charged to the user code that called it)` : `User call sites (${unit} allocated in libraries charged to the user code that called them)`);
    for (const site of report.callSites.slice(0, top)) {
      out.push(`  ${pad(amount(site.ms, unit), 10)} ${pad(share(site.percent), 7)}  ${printable(site.function || '(anonymous)')}  ${where(site.file, site.line, root, 'user')}`);
      for (const library of site.libraries.slice(0, 3)) {
        out.push(`  ${' '.repeat(19)}    ${pad(amount(library.ms, unit), 9)}  ${printable(library.name || '(anonymous)')} (${library.category})  ${where(library.file, library.line, root)}`);
      }
    }
  }
  if (report.callLines.length > 0) {
    const under = unit === 'ms' ? 'total time' : `${unit} allocated`;
    out.push('', `Call lines (${under} under the calls made on a user line; "source": the line is the one call to that name in the caller)`);
    for (const call of report.callLines.slice(0, top)) {
      const how = call.found === 'fromSource' ? '  (source)' : '';
      // Several callees on one line: each its own figure (the line's figure counts a sample once).
      const calls = call.calls ?? [];
      const callees = calls.length >= 2 ? calls.map((c) => `${printable(c.callee || '(anonymous)')} ${amount(c.ms, unit)}`).join(', ') : printable(call.callee || '(anonymous)');
      const untold = call.untold === true ? '  (more calls on this line than callees in the profile: not told apart)' : '';
      out.push(`  ${pad(amount(call.ms, unit), 10)} ${pad(formatPercent(call.percent), 7)}  ${where(call.file, call.line, root)}  ${printable(call.function || '(anonymous)')} → ${callees}${how}${untold}`);
    }
  }
  if (report.insights.length > 0) {
    out.push('', 'Insights');
    for (const insight of report.insights) {
      const at = insight.location === null ? '' : `  ${where(insight.location.file, insight.location.line, root)}`;
      out.push(`  [${insight.id}] ${insight.title}${at}`, `    ${printable(insight.message)}`);
    }
  }
  if (report.unresolvedFiles.length > 0) {
    out.push('', `Unresolved files (${report.unresolvedFiles.length}; map them with --root)`);
    for (const file of report.unresolvedFiles.slice(0, top)) out.push(`  ${printable(file)}`);
    if (report.unresolvedFiles.length > top) out.push(`  ... and ${report.unresolvedFiles.length - top} more`);
  }
  if (report.dependencySources.length > 0) {
    out.push('', `Sources named by dependencies' source maps but not installed (${report.dependencySources.length}; shown on the built files, nothing to map)`);
    for (const file of report.dependencySources.slice(0, top)) out.push(`  ${printable(file)}`);
    if (report.dependencySources.length > top) out.push(`  ... and ${report.dependencySources.length - top} more`);
  }
  if (report.warnings.length > 0) {
    out.push('', `Warnings (${report.warnings.length})`);
    for (const warning of report.warnings.slice(0, top)) out.push(`  ${printable(warning)}`);
  }
  return out.join('\n') + '\n';
}

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
