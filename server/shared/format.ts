// The one way Hotframe writes a measured quantity, used by the CLI, the language server, the
// extension and the flame graph webview, so that the same frame reads the same everywhere.
// Every share is `ms / D` with one D per profile: its CPU time, idle excluded; for a capture of
// several processes and threads merged, theirs together; for an allocation profile, everything it
// allocated (see docs/profiles.md, "Which number is which"). The profile says which (`ShareBasis`,
// built by the report from the loaded profile) and every view names D through the functions here,
// so no view can say a denominator the profile does not have. No imports: the client and the
// webview bundle it.

/** Units a quantity can be written in; time is always carried in ms, sizes in bytes. */
export type QuantityUnit = 'ms' | 'bytes';

/** Three significant digits at most, never fewer than the integer part: "0.42", "4.20", "42.0", "420". */
function significant(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 100) return value.toFixed(0);
  if (abs >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

/** A bare number with the same rounding, for columns whose unit is in the header (a diff's ms/s). */
export function formatNumber(value: number): string {
  return Number.isFinite(value) ? significant(value) : '—';
}

/** The same, signed: "+4.20", "-1.30", "0.00". */
export function formatSignedNumber(value: number): string {
  return value > 0 ? `+${formatNumber(value)}` : formatNumber(value);
}

/** A duration: "0.42 ms", "42.0 ms", "420 ms", "4.20 s", "42.0 s". */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '— ms';
  if (Math.abs(ms) >= 1000) return `${significant(ms / 1000)} s`;
  return `${significant(ms)} ms`;
}

const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'] as const;

/** A size in binary units: "512 B", "4.20 KiB", "42.0 MiB". */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return '— B';
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${Math.round(value)} B` : `${significant(value)} ${BYTE_UNITS[unit]}`;
}

export function formatQuantity(value: number, unit: QuantityUnit): string {
  return unit === 'bytes' ? formatBytes(value) : formatMs(value);
}

/** The share of `part` in `whole` (same unit), 0..100; 0 when there is no whole. */
export function percentOf(part: number, whole: number): number {
  return whole > 0 ? (part / whole) * 100 : 0;
}

/** "0.42%", "4.20%", "42.0%"; a share that rounds to nothing but is not nothing is "<0.01%". */
export function formatPercent(percent: number): string {
  if (!Number.isFinite(percent)) return '—%';
  if (percent > 0 && percent < 0.005) return '<0.01%';
  return `${significant(percent)}%`;
}

/** The same rounding `formatPercent` shows, as a number (for tests and sorting what is shown). */
export function roundedPercent(percent: number): number {
  return Number(formatPercent(percent).replace(/[<%]/g, ''));
}

/** What a route's per-request figure divides, in full (tooltips, CLI headers, JSON `perRequestOf`). */
export const PER_REQUEST_OF = "the route's CPU time (profile samples) / the requests its server received while recorded";

/** "40 requests · 7.20 ms/request": a route's requests and its CPU time per request. */
export function formatPerRequest(ms: number, requests: number): string {
  const count = `${requests.toLocaleString('en-US')} request${requests === 1 ? '' : 's'}`;
  return requests > 0 ? `${count} · ${formatMs(ms / requests)}/request` : count;
}

/** A signed change: "+4.20 ms", "−1.30 s", "±0 ms". */
export function formatDeltaMs(ms: number): string {
  if (ms === 0) return '±0 ms';
  return `${ms > 0 ? '+' : '\u2212'}${formatMs(Math.abs(ms))}`;
}

/** What a profile's weights measure: CPU time, allocated bytes, or allocated objects (pprof `objects`). */
export type WeightUnit = 'ms' | 'bytes' | 'objects';

/** A count of allocated objects: "1,234 objects". */
export function formatObjects(count: number): string {
  const rounded = Math.round(count);
  return `${rounded.toLocaleString('en-US')} object${rounded === 1 ? '' : 's'}`;
}

/** An allocation profile's weight (bytes or objects), with its unit. */
export function formatWeight(value: number, unit: Exclude<WeightUnit, 'ms'>): string {
  return unit === 'bytes' ? formatBytes(value) : formatObjects(value);
}

/** A figure in its profile's unit: "1.20 s", "57.0 MiB", "1,234 objects". */
export function formatAmount(value: number, unit: WeightUnit): string {
  return unit === 'ms' ? formatMs(value) : formatWeight(value, unit);
}

/**
 * What every share of one profile is of: what its weights measure and, for a capture of several
 * processes and threads merged (issue 28), which of them are in the whole. Carried with the
 * figures (report, summary, cost table, hover, heat, flame graph), never assumed by a view.
 */
export interface ShareBasis {
  unit: WeightUnit;
  /** A merged capture: the ids ("pid:tid") of the processes and threads kept, and how many the capture has. */
  processes?: { kept: readonly string[]; of: number };
}

/** A single CPU profile's basis (a CPU profile read alone). */
export const CPU_BASIS: ShareBasis = { unit: 'ms' };

/** ", all processes and threads" or " of 4242:0 only (1 of 3 processes and threads)"; "" for one process. */
function processesText(basis: ShareBasis): string {
  const p = basis.processes;
  if (p === undefined) return '';
  if (p.kept.length >= p.of) return ', all processes and threads';
  return ` of ${p.kept.join(', ')} only (${p.kept.length} of ${p.of} processes and threads)`;
}

/** What every percent is of, in full (hovers, tooltips, CLI headers, JSON `shareOf`): "% of CPU time, idle excluded", "% of CPU time, all processes and threads, idle excluded", "% of allocated bytes". */
export function shareOfText(basis: ShareBasis): string {
  return basis.unit === 'ms' ? `% of CPU time${processesText(basis)}, idle excluded` : `% of allocated ${basis.unit}${processesText(basis)}`;
}

/** The same where space is short (editor notes, list descriptions), written after the percent: "CPU", "CPU, all processes", "CPU, 1 of 3 processes", "of bytes". */
export function shareOfShort(basis: ShareBasis): string {
  const base = basis.unit === 'ms' ? 'CPU' : `of ${basis.unit}`;
  const p = basis.processes;
  if (p === undefined) return base;
  return p.kept.length >= p.of ? `${base}, all processes` : `${base}, ${p.kept.length} of ${p.of} processes`;
}

/** "14.0% of CPU time, idle excluded" (or the capture's, or the allocation profile's). */
export function formatShare(percent: number, basis: ShareBasis): string {
  return `${formatPercent(percent)}${shareOfText(basis).slice(1)}`;
}

/** A figure with its share, the denominator named: "1.20 s (14.0% of CPU time, idle excluded)", "57.0 MiB (63.8% of allocated bytes)"; null percent: idle. */
export function formatCost(value: number, percent: number | null, basis: ShareBasis): string {
  if (percent === null) return basis.unit === 'ms' ? `${formatMs(value)} (idle, not CPU time)` : formatAmount(value, basis.unit);
  return `${formatAmount(value, basis.unit)} (${formatShare(percent, basis)})`;
}

/** The short form for notes and list descriptions: "1.20 s · 14.0% CPU", "1.20 s · 14.0% CPU, all processes", "57.0 MiB · 63.8% of bytes". */
export function formatCostShort(value: number, percent: number | null, basis: ShareBasis): string {
  if (percent === null) return basis.unit === 'ms' ? `${formatMs(value)} · idle` : formatAmount(value, basis.unit);
  return `${formatAmount(value, basis.unit)} · ${formatPercent(percent)} ${shareOfShort(basis)}`;
}

/** ms of a profile lasting durationMs -> ms per second of profile ("ms/s", 1000 = one core busy): how `hotframe diff` and `gate` compare profiles of different lengths. */
export function perSecond(ms: number, durationMs: number): number {
  return durationMs > 0 ? (ms * 1000) / durationMs : 0;
}
