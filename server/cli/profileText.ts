// Text output of `hotframe profile` and `hotframe diff`: what `node --prof-process` prints, plus
// categories in ms, totals counted once per function, user call sites and the seeds' advice.
// Names and paths come from the profile (untrusted): control characters are escaped.
import { relative, isAbsolute } from 'node:path';

import type { ProfileDiff } from '../profile/diff';
import { formatMs, formatPercent, SHARE_OF } from '../shared/format';
import { CATEGORIES, type FunctionCost, type ProfileReport } from '../profile/types';
import { printable } from './printable';

// Control characters (terminal escapes included) are shown as \xNN, so a profile cannot drive the terminal.
export { printable };

function where(file: string, line: number, root: string): string {
  if (file === '') return '(native)';
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

function functionRows(functions: FunctionCost[], root: string): string[] {
  const rows = [`  ${pad('self', 10)} ${pad('self%', 7)} ${pad('total', 10)} ${pad('total%', 7)}  function (category)  location`];
  for (const f of functions) {
    rows.push(
      `  ${pad(formatMs(f.selfMs), 10)} ${pad(share(f.selfPercent), 7)} ${pad(formatMs(f.totalMs), 10)} ${pad(share(f.totalPercent), 7)}  ` +
        `${printable(f.name || '(anonymous)')} (${f.category})  ${where(f.file, f.line, root)}`,
    );
  }
  return rows;
}

export function profileText(name: string, report: ProfileReport, top: number, root: string): string {
  const out: string[] = [];
  const unit = report.format === 'cpuprofile' ? 'samples' : 'ticks';
  out.push(`${printable(name)}: ${report.format}, ${report.samples} ${unit}, ${formatMs(report.durationMs)}, CPU time (idle excluded) ${formatMs(report.cpuMs)}`);
  out.push(`Every % below is ${SHARE_OF}: ms / ${formatMs(report.cpuMs)}.`);
  out.push('', `Summary by category`, `  ${'category'.padEnd(11)} ${pad(unit, 9)} ${pad('ms', 10)} ${pad('%', 7)}`);
  for (const category of CATEGORIES) {
    const cost = report.categories[category];
    out.push(`  ${category.padEnd(11)} ${pad(String(cost.samples), 9)} ${pad(formatMs(cost.ms), 10)} ${pad(share(cost.percent), 7)}`);
  }
  out.push('', `Top ${top} by self time`, ...functionRows(report.functions.slice(0, top), root));
  const byTotal = [...report.functions].sort((a, b) => b.totalMs - a.totalMs).slice(0, top);
  out.push('', `Top ${top} by total time (each sample counted once per function)`, ...functionRows(byTotal, root));
  if (report.lines.length > 0) {
    out.push('', `Hot lines`);
    for (const line of report.lines.slice(0, top)) {
      out.push(`  ${pad(formatMs(line.selfMs), 10)} ${pad(share(line.percent), 7)}  ${where(line.file, line.line, root)}`);
    }
  }
  if (report.callSites.length > 0) {
    out.push('', `User call sites (library time charged to the user code that called it)`);
    for (const site of report.callSites.slice(0, top)) {
      out.push(`  ${pad(formatMs(site.ms), 10)} ${pad(share(site.percent), 7)}  ${printable(site.function || '(anonymous)')}  ${where(site.file, site.line, root)}`);
      for (const library of site.libraries.slice(0, 3)) {
        out.push(`  ${' '.repeat(19)}    ${pad(formatMs(library.ms), 9)}  ${printable(library.name || '(anonymous)')} (${library.category})  ${where(library.file, library.line, root)}`);
      }
    }
  }
  if (report.callLines.length > 0) {
    out.push('', 'Call lines (total time under the calls made on a user line; "source": the line is the one call to that name in the caller)');
    for (const call of report.callLines.slice(0, top)) {
      const how = call.found === 'fromSource' ? '  (source)' : '';
      out.push(`  ${pad(formatMs(call.ms), 10)} ${pad(formatPercent(call.percent), 7)}  ${where(call.file, call.line, root)}  ${printable(call.function || '(anonymous)')} → ${printable(call.callee || '(anonymous)')}${how}`);
    }
  }
  if (report.insights.length > 0) {
    out.push('', 'Insights');
    for (const insight of report.insights) {
      const at = insight.location === null ? '' : `  ${where(insight.location.file, insight.location.line, root)}`;
      out.push(`  [seed ${insight.seed}] ${insight.title}${at}`, `    ${printable(insight.message)}`);
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

function signed(value: number): string {
  const text = value.toFixed(Math.abs(value) >= 10 ? 1 : 2);
  return value > 0 ? `+${text}` : text;
}

export function diffText(names: { before: string; after: string }, diff: ProfileDiff, top: number, root: string): string {
  const out: string[] = [];
  out.push(`before: ${printable(names.before)} (${diff.before.format}, ${diff.before.samples} samples, ${formatMs(diff.before.durationMs)})`);
  out.push(`after:  ${printable(names.after)} (${diff.after.format}, ${diff.after.samples} samples, ${formatMs(diff.after.durationMs)})`);
  out.push('', `Functions, biggest change in self time first (ms of CPU per second of profile; + = more after)`);
  out.push(`  ${pad('delta', 9)} ${pad('before', 9)} ${pad('after', 9)} ${pad('total Δ', 9)}  function  location`);
  for (const f of diff.functions.slice(0, top)) {
    out.push(
      `  ${pad(signed(f.selfDelta), 9)} ${pad(f.beforeSelf.toFixed(2), 9)} ${pad(f.afterSelf.toFixed(2), 9)} ${pad(signed(f.totalDelta), 9)}  ` +
        `${printable(f.name || '(anonymous)')} (${f.category})  ${where(f.file, f.line, root)}`,
    );
  }
  if (diff.lines.length > 0) {
    out.push('', `Lines, biggest change first (ms/s)`);
    for (const l of diff.lines.slice(0, top)) {
      out.push(`  ${pad(signed(l.delta), 9)} ${pad(l.before.toFixed(2), 9)} ${pad(l.after.toFixed(2), 9)}  ${where(l.file, l.line, root)}`);
    }
  }
  return out.join('\n') + '\n';
}
