// The one place numbers become text for people: every view (CLI, hover, decorations, tree view,
// flame graph) formats through here so that one frame shows one figure everywhere. Pure: the
// client and the webview import it.

/** What a profile's weights measure: CPU time, allocated bytes, or allocated objects (pprof `objects`). */
export type WeightUnit = 'ms' | 'bytes' | 'objects';

/** Bytes in decimal units, as DevTools and `ls -h --si` print them: 512 B, 3.4 kB, 366 MB, 1.20 GB. */
export function formatBytes(bytes: number): string {
  const abs = Math.abs(bytes);
  if (abs < 1000) return `${Math.round(bytes)} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (Math.abs(value) >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return `${value.toFixed(digits)} ${units[unit]}`;
}

/** A count of allocated objects: "1,234 objects". */
export function formatObjects(count: number): string {
  const rounded = Math.round(count);
  return `${rounded.toLocaleString('en-US')} object${rounded === 1 ? '' : 's'}`;
}

/** A weight that is not time (time has its own formatter per view until they are one). */
export function formatWeight(value: number, unit: Exclude<WeightUnit, 'ms'>): string {
  return unit === 'bytes' ? formatBytes(value) : formatObjects(value);
}

/** The verb a source note uses for a weight: "allocates 366 MB". */
export function weightVerb(unit: WeightUnit): string {
  return unit === 'ms' ? 'runs' : 'allocates';
}
