// Types of cliParts.mjs, for the tests' bundles (test/unit/bundles.ts).
import type { Plugin, StdinOptions } from 'esbuild';

export interface CliPart {
  file: string;
  modules: string[];
}
export const CLI_PARTS: readonly CliPart[];
export function cliPartsPlugin(root: string): Plugin;
export function cliPartEntry(root: string, part: CliPart): StdinOptions;
