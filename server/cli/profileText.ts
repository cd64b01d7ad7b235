// Text output of `hotframe profile` and `hotframe diff`: what `node --prof-process` prints, plus
// categories in ms, totals counted once per function, user call sites and the seeds' advice.
// Names and paths come from the profile (untrusted): control characters are escaped.
import { formatMs, formatPercent, formatWeight } from '../shared/format';
import { CATEGORIES, type FunctionCost, type ProfileReport, type WeightUnit } from '../profile/model/types';
import { printable } from './printable';
// `hotframe diff`'s text is the editor's comparison summary too: one formatter, in the profile engine.
import { diffText, pad, where } from '../profile/analysis/diffText';

export { diffText, where };

/** A figure in the report's unit: ms for CPU profiles, bytes or objects for allocation profiles. */
function amount(value: number, unit: WeightUnit): string {
  return unit === 'ms' ? formatMs(value) : formatWeight(value, unit);
}

// Control characters (terminal escapes included) are shown as \xNN, so a profile cannot drive the terminal.
export { printable };


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

