// The one place the client asks VS Code for `hotframe.*` settings (checked in
// client/configValues.ts). The server reads its own (server/lsp/settings.ts) through the
// synchronized section; the client reads what it displays and what it sends with a load.
import * as vscode from 'vscode';
import { parseClientConfig, SECTION, type ClientConfig } from './configValues';

export { SECTION };

export function readConfig(scope?: vscode.ConfigurationScope): ClientConfig {
  const config = vscode.workspace.getConfiguration(SECTION, scope);
  return parseClientConfig((key) => config.get<unknown>(key));
}

export function affectsHeat(event: vscode.ConfigurationChangeEvent): boolean {
  return event.affectsConfiguration(`${SECTION}.heat.enabled`) || event.affectsConfiguration(`${SECTION}.hotThresholdPercent`);
}

/** Mappings are applied when a profile is loaded, so a change means loading it again. */
export function affectsPathMappings(event: vscode.ConfigurationChangeEvent): boolean {
  return event.affectsConfiguration(`${SECTION}.pathMappings`);
}
