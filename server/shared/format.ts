// The one way Hotframe writes a measured quantity, used by the CLI, the language server, the
// extension and the flame graph webview, so that the same frame reads the same everywhere.
// Every share is `ms / D` with one D per profile: its CPU time, idle excluded (see
// docs/profiles.md, "Which number is which"). No imports: the client and the webview bundle it.

/** Units a quantity can be written in; time is always carried in ms, sizes in bytes. */
export type QuantityUnit = 'ms' | 'bytes';

/** What every percentage is a share of, in full (hovers, tooltips, CLI headers, JSON `shareOf`). */
export const SHARE_OF = '% of CPU time, idle excluded';
/** The same, where space is short (editor notes, view descriptions): "4.20% CPU". */
export const SHARE_OF_SHORT = 'CPU';

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

/** "14.0% of CPU time, idle excluded". */
export function formatShare(percent: number): string {
  return `${formatPercent(percent)} of CPU time, idle excluded`;
}

/** "1.20 s (14.0% of CPU time, idle excluded)": a time with its share, the denominator named. */
export function formatCost(ms: number, percent: number | null): string {
  return percent === null ? `${formatMs(ms)} (idle, not CPU time)` : `${formatMs(ms)} (${formatShare(percent)})`;
}

/** "1.20 s · 14.0% CPU": the short form for notes and list descriptions. */
export function formatCostShort(ms: number, percent: number | null): string {
  return percent === null ? `${formatMs(ms)} · idle` : `${formatMs(ms)} · ${formatPercent(percent)} ${SHARE_OF_SHORT}`;
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

/** What a profile's shares are of, in full: "% of CPU time, idle excluded", "% of allocated bytes". */
export function shareOfIn(unit: WeightUnit): string {
  return unit === 'ms' ? SHARE_OF : `% of allocated ${unit}`;
}

/** `formatCost` in the profile's unit: "1.20 s (14.0% of CPU time, idle excluded)", "57.0 MiB (63.8% of allocated bytes)". */
export function formatCostIn(value: number, percent: number | null, unit: WeightUnit): string {
  if (unit === 'ms') return formatCost(value, percent);
  return `${formatWeight(value, unit)} (${formatPercent(percent ?? 0)} of allocated ${unit})`;
}

/** `formatCostShort` in the profile's unit: "1.20 s · 14.0% CPU", "57.0 MiB · 63.8% of bytes". */
export function formatCostShortIn(value: number, percent: number | null, unit: WeightUnit): string {
  if (unit === 'ms') return formatCostShort(value, percent);
  return `${formatWeight(value, unit)} · ${formatPercent(percent ?? 0)} of ${unit}`;
}

/** ms of a profile lasting durationMs -> ms per second of profile ("ms/s", 1000 = one core busy): how `hotframe diff` and `gate` compare profiles of different lengths. */
export function perSecond(ms: number, durationMs: number): number {
  return durationMs > 0 ? (ms * 1000) / durationMs : 0;
}
