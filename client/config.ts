// Every `hotframe.*` setting the client reads, in one place. The server reads its own copy of
// the section through the synchronized configuration; the client only needs what it displays.
import * as vscode from 'vscode';
import type { PathMapping } from '../server/protocol/wire';

export const SECTION = 'hotframe';

export interface ClientConfig {
  heatEnabled: boolean;
  hotThresholdPercent: number;
  pathMappings: PathMapping[];
}

function isPathMapping(value: unknown): value is PathMapping {
  if (typeof value !== 'object' || value === null) return false;
  const { from, to } = value as Record<string, unknown>;
  return typeof from === 'string' && typeof to === 'string' && from.length > 0;
}

export function readConfig(scope?: vscode.ConfigurationScope): ClientConfig {
  const config = vscode.workspace.getConfiguration(SECTION, scope);
  const threshold = config.get<unknown>('hotThresholdPercent');
  const mappings = config.get<unknown>('pathMappings');
  return {
    heatEnabled: config.get<unknown>('heat.enabled') !== false,
    hotThresholdPercent: typeof threshold === 'number' && Number.isFinite(threshold) && threshold >= 0 ? threshold : 1,
    // A malformed entry in settings.json is skipped rather than sent to the server.
    pathMappings: Array.isArray(mappings) ? mappings.filter(isPathMapping).map(({ from, to }) => ({ from, to })) : [],
  };
}

export function affectsHeat(event: vscode.ConfigurationChangeEvent): boolean {
  return event.affectsConfiguration(`${SECTION}.heat.enabled`) || event.affectsConfiguration(`${SECTION}.hotThresholdPercent`);
}

/** Mappings are applied when a profile is loaded, so a change means loading it again. */
export function affectsPathMappings(event: vscode.ConfigurationChangeEvent): boolean {
  return event.affectsConfiguration(`${SECTION}.pathMappings`);
}
