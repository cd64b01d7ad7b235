// The values of the `hotframe.*` settings the client uses, checked (no vscode import, so they
// are unit-tested). client/config.ts is the one place that asks VS Code for them; the server
// reads the rule levels and the hot threshold itself (server/lsp/settings.ts).
import type { PathMapping } from '../server/protocol/wire';
import { DEFAULT_RECORDINGS_FOLDER } from '../server/shared/recordingFiles';

export const SECTION = 'hotframe';

export interface ClientConfig {
  /** `hotframe.heat.enabled`: per-line heat decorations. */
  heatEnabled: boolean;
  /** `hotframe.hotThresholdPercent`: lines at or above this share get an end-of-line note. */
  hotThresholdPercent: number;
  /** `hotframe.pathMappings`: sent with every profile load; their targets may be opened from the flame graph. */
  pathMappings: PathMapping[];
  /** `hotframe.recordingsFolder`: where Record Profile saves, relative to the workspace folder (checked when used: recordingsFolderIn). */
  recordingsFolder: string;
}

/** package.json's default; the server's is the same (DEFAULT_SETTINGS, checked by test/unit/settingsSchema.test.ts). */
const DEFAULT_HOT_THRESHOLD_PERCENT = 1;

function isPathMapping(value: unknown): value is PathMapping {
  if (typeof value !== 'object' || value === null) return false;
  const { from, to } = value as Record<string, unknown>;
  return typeof from === 'string' && typeof to === 'string' && from.length > 0;
}

/** `get(key)` answers the raw value of `hotframe.<key>`; a bad value falls back to its default. */
export function parseClientConfig(get: (key: string) => unknown): ClientConfig {
  const threshold = get('hotThresholdPercent');
  const mappings = get('pathMappings');
  const recordings = get('recordingsFolder');
  return {
    heatEnabled: get('heat.enabled') !== false,
    hotThresholdPercent: typeof threshold === 'number' && Number.isFinite(threshold) && threshold >= 0 && threshold <= 100 ? threshold : DEFAULT_HOT_THRESHOLD_PERCENT,
    // A malformed entry in settings.json is skipped rather than sent to the server.
    pathMappings: Array.isArray(mappings) ? mappings.filter(isPathMapping).map(({ from, to }) => ({ from, to })) : [],
    recordingsFolder: typeof recordings === 'string' && recordings.trim().length > 0 ? recordings : DEFAULT_RECORDINGS_FOLDER,
  };
}
