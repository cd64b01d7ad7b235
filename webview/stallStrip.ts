// The stall strip's model (issue 25), pure so it is unit-tested: the primary profile's event-loop
// stalls (the report `hotframe profile --stalls` prints, sent by the host) placed on the run's
// timeline. Each mark keeps its index into the host's list: a click asks the host to open that
// stall's line, so no path or name from the profile travels back as an argument.
import type { StallSite, StallStrip } from '../server/protocol/wire';
import { formatMs } from '../server/shared/format';

export interface StripMark {
  /** Index into `strip.stalls`: what the host opens. */
  index: number;
  /** Position and width on the strip, in % of the run. */
  leftPercent: number;
  widthPercent: number;
  /** The hover text: when, how long, which user line, which route. */
  label: string;
  /** The stall names a line the host may open. */
  openable: boolean;
  startup: boolean;
}

export interface StripModel {
  /** "2 event-loop stalls over 50.0 ms while serving, 412 ms in all; 1 at start-up", as the CLI says it. */
  summary: string;
  marks: StripMark[];
}

const count = (n: number): string => n.toLocaleString('en-US');
const finite = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);

/** The last part of a path (either separator): the strip has no workspace root to make it relative. */
function shortFile(file: string): string {
  const parts = file.split(/[\\/]/);
  return parts[parts.length - 1] || file;
}

function called(site: StallSite): string {
  return site.call === '' ? site.function : `${site.function} \u2192 ${site.call}`;
}

/** The strip's summary and marks; stalls with numbers that cannot be placed are left out. */
export function stallStripModel(strip: StallStrip, canOpen: (file: string) => boolean): StripModel {
  const serving = strip.count - strip.startupCount;
  const summary =
    `${count(serving)} event-loop stall${serving === 1 ? '' : 's'} over ${formatMs(strip.thresholdMs)} while serving, ${formatMs(strip.totalMs)} in all` +
    (strip.startupCount > 0 ? `; ${count(strip.startupCount)} at start-up` : '') +
    (strip.stalls.length < strip.count ? ` (the ${count(strip.stalls.length)} longest drawn)` : '');
  const marks: StripMark[] = [];
  const runMs = strip.runMs;
  if (!finite(runMs) || runMs <= 0) return { summary, marks };
  strip.stalls.forEach((stall, index) => {
    if (!finite(stall.startMs) || !finite(stall.durationMs) || stall.durationMs <= 0) return;
    const leftPercent = Math.min(100, Math.max(0, (stall.startMs / runMs) * 100));
    const widthPercent = Math.min(100 - leftPercent, (stall.durationMs / runMs) * 100);
    const at = stall.at;
    const where =
      at !== null
        ? `${called(at)} (${shortFile(at.file)}:${at.line})`
        : stall.mostly !== undefined
          ? `no one line holds half of it; most: ${called(stall.mostly)} (${shortFile(stall.mostly.file)}:${stall.mostly.line}) ${formatMs(stall.mostly.ms)}`
          : 'no user line on its stacks';
    const openable = at !== null && canOpen(at.file);
    const label =
      `Stall of ${formatMs(stall.durationMs)} at ${formatMs(stall.startMs)}: ${where}` +
      (stall.route !== undefined ? ` \u00b7 ${stall.route}` : '') +
      (stall.startup === true ? ' \u00b7 start-up (the main module\u2019s run)' : '') +
      (openable ? ' \u00b7 click to open the line' : '');
    marks.push({ index, leftPercent, widthPercent, label, openable, startup: stall.startup === true });
  });
  return { summary, marks };
}
