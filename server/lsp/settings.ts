// Every `hotframe.*` setting the server uses, typed and read in this one place: the rule levels
// and the hot threshold. The rest of the server receives a `HotframeSettings` value and never
// calls workspace/configuration itself. The editor-only settings (`heat.enabled`) and the path
// mappings are the client's (client/config.ts); the mappings reach the server with each
// profile load, and are checked here too (`readPathMappings`).
import type { ClientCapabilities, Connection } from 'vscode-languageserver';
import { DidChangeConfigurationNotification } from 'vscode-languageserver';

import type { RuleId, RuleLevel } from '../../rules/api';
import { RULE_LEVELS, isRuleId, isRuleLevel } from '../static/ruleLevels';
import type { PathMapping } from '../protocol/wire';
import { DEFAULT_HOT_THRESHOLD_PERCENT } from '../join/costIndex';
import { DEFAULT_STALL_MS } from '../profile/analysis/stalls';

/** The longest stall threshold accepted (a minute): beyond it nothing a service does is a stall worth a note. */
export const MAX_STALL_THRESHOLD_MS = 60_000;

export interface HotframeSettings {
  /** `hotframe.rules.<id>`: per-rule level; absent = the rule's default severity. */
  rules: Partial<Record<RuleId, RuleLevel>>;
  /** `hotframe.hotThresholdPercent`: a finding whose code costs at least this share of CPU is raised one severity step. */
  hotThresholdPercent: number;
  /** `hotframe.stallThresholdMs`: the shortest event-loop stall shown, in ms (read at each profile load). */
  stallThresholdMs: number;
}

export const DEFAULT_SETTINGS: Readonly<HotframeSettings> = Object.freeze({
  rules: {},
  hotThresholdPercent: DEFAULT_HOT_THRESHOLD_PERCENT,
  stallThresholdMs: DEFAULT_STALL_MS,
});

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Turns the raw `hotframe` section into settings. A bad value is replaced by its default and
 * reported through `warn` (one line each), so a typo in settings.json never stops validation.
 */
export function parseSettings(raw: unknown, warn: (line: string) => void): HotframeSettings {
  const settings: HotframeSettings = { rules: {}, hotThresholdPercent: DEFAULT_SETTINGS.hotThresholdPercent, stallThresholdMs: DEFAULT_SETTINGS.stallThresholdMs };
  if (raw === null || raw === undefined) return settings;
  if (!isRecord(raw)) {
    warn('hotframe settings: expected an object, using defaults');
    return settings;
  }
  if (isRecord(raw.rules)) {
    for (const [id, level] of Object.entries(raw.rules)) {
      if (!isRuleId(id)) warn(`hotframe.rules: unknown rule '${id}' ignored`);
      else if (!isRuleLevel(level)) warn(`hotframe.rules.${id}: '${String(level)}' is not one of ${RULE_LEVELS.join('|')}, using the default`);
      else settings.rules[id] = level;
    }
  } else if (raw.rules !== undefined) {
    warn('hotframe.rules: expected an object, ignored');
  }
  const threshold = raw.hotThresholdPercent;
  if (typeof threshold === 'number' && Number.isFinite(threshold) && threshold >= 0 && threshold <= 100) {
    settings.hotThresholdPercent = threshold;
  } else if (threshold !== undefined) {
    warn(`hotframe.hotThresholdPercent: '${String(threshold)}' is not a number in 0..100, using ${DEFAULT_SETTINGS.hotThresholdPercent}`);
  }
  const stallMs = raw.stallThresholdMs;
  if (typeof stallMs === 'number' && Number.isFinite(stallMs) && stallMs > 0 && stallMs <= MAX_STALL_THRESHOLD_MS) {
    settings.stallThresholdMs = stallMs;
  } else if (stallMs !== undefined) {
    warn(`hotframe.stallThresholdMs: '${String(stallMs)}' is not a number of ms above 0 and at most ${MAX_STALL_THRESHOLD_MS}, using ${DEFAULT_SETTINGS.stallThresholdMs}`);
  }
  return settings;
}

/**
 * `hotframe.pathMappings` as the client sends it with a profile load (recorded path prefix ->
 * local prefix): entries without a non-empty string `from` and a string `to` are dropped, each
 * with one warning line.
 */
export function readPathMappings(raw: unknown, warn: (line: string) => void): PathMapping[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    warn('hotframe.pathMappings: expected an array of {from, to}, ignored');
    return [];
  }
  const mappings: PathMapping[] = [];
  for (const entry of raw) {
    if (isRecord(entry) && typeof entry.from === 'string' && typeof entry.to === 'string' && entry.from !== '') {
      mappings.push({ from: entry.from, to: entry.to });
    } else {
      warn('hotframe.pathMappings: an entry without string "from" and "to" was ignored');
    }
  }
  return mappings;
}

/**
 * Holds the settings in force. Pulled with workspace/configuration when the client supports it
 * (defaults otherwise, or from the didChangeConfiguration payload for push-only clients), and
 * refreshed on every didChangeConfiguration.
 */
export class SettingsStore {
  private value: HotframeSettings = { ...DEFAULT_SETTINGS, rules: {} };
  private canPull = false;
  private canRegister = false;
  private readonly listeners: ((settings: HotframeSettings) => void)[] = [];

  constructor(private readonly connection: Connection) {}

  get current(): HotframeSettings {
    return this.value;
  }

  /** Call from onInitialize: remembers what the client can do. */
  initialize(capabilities: ClientCapabilities): void {
    this.canPull = capabilities.workspace?.configuration === true;
    this.canRegister = capabilities.workspace?.didChangeConfiguration?.dynamicRegistration === true;
  }

  /** Call from onInitialized: registers for changes and pulls the first values. */
  async start(): Promise<void> {
    if (this.canRegister) {
      await this.connection.client.register(DidChangeConfigurationNotification.type, { section: 'hotframe' });
    }
    this.connection.onDidChangeConfiguration((change) => {
      const pushed: unknown = isRecord(change.settings) ? change.settings.hotframe : undefined;
      void this.refresh(pushed);
    });
    await this.refresh(undefined);
  }

  onDidChange(listener: (settings: HotframeSettings) => void): void {
    this.listeners.push(listener);
  }

  private async refresh(pushed: unknown): Promise<void> {
    let raw: unknown = pushed;
    if (this.canPull) {
      try {
        raw = await this.connection.workspace.getConfiguration({ section: 'hotframe' });
      } catch (error) {
        this.connection.console.warn(`hotframe: could not read settings (${error instanceof Error ? error.message : String(error)}), keeping the previous ones`);
        return;
      }
    }
    const next = parseSettings(raw, (line) => this.connection.console.warn(line));
    // Clients that both synchronize the section and honour the registration notify twice.
    if (JSON.stringify(next) === JSON.stringify(this.value)) return;
    this.value = next;
    for (const listener of this.listeners) listener(this.value);
  }
}
