#!/usr/bin/env node
// `hotframe` command line: the same engine as the editor, for CI and scripts.
// Exit codes: 0 nothing found, 1 findings, 2 usage or input error (one line on stderr).
import { join } from 'node:path';

import { InputError } from '../shared/errors';
import { asksForHelp } from './args';
import { COMMAND_NAMES, commandHelp, overviewHelp, type CommandName } from './commandSpecs';
import { printable } from './printable';


type Command = (args: string[]) => Promise<number>;

async function loadCommand(name: string): Promise<Command | null> {
  switch (name) {
    case 'analyze':
      return (await import('./analyzeCommand')).runAnalyze;
    case 'profile':
      return (await import('./profileCommand')).runProfile;
    case 'diff':
      return (await import('./diffCommand')).runDiff;
    case 'record':
      return (await import('./recordCommand')).runRecord;
    case 'attach':
      return (await import('./attachCommand')).runAttach;
    case 'gate':
      return (await import('./gateCommand')).runGateCommand;
    case 'mcp':
      // A bundle of its own beside this one (scripts/build.mjs): the MCP SDK is not loaded, nor
      // parsed, by the other commands.
      return (require(join(__dirname, 'mcp.js')) as typeof import('./mcp/mcpCommand')).runMcp;
    default:
      return null;
  }
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(overviewHelp() + '\n');
    return name === undefined ? 2 : 0;
  }
  if (name === '--version') {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const command = await loadCommand(name);
  if (command === null) throw new InputError(`unknown command '${name}' (try: hotframe --help)`);
  // `hotframe profile --help`: that command's options, each with its meaning, and examples.
  // (Only before `--`: what follows is `hotframe record`'s command and its own flags.)
  if (asksForHelp(rest) && (COMMAND_NAMES as string[]).includes(name)) {
    process.stdout.write(commandHelp(name as CommandName) + '\n');
    return 0;
  }
  return command(rest);
}

declare const VERSION: string; // injected by scripts/build.mjs

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // Input and usage problems are the user's to fix: one line, no stack. Anything else is our
    // bug, still one line, with a hint where to report it.
    const message = error instanceof Error ? error.message : String(error);
    // dist/mcp.js and the CLI's other bundles (scripts/cliParts.mjs) have their own copy of the class: their input errors are known by name.
    const isInput = error instanceof InputError || (error instanceof Error && error.name === 'InputError');
    const prefix = isInput ? 'hotframe' : 'hotframe: internal error';
    process.stderr.write(`${prefix}: ${printable(message.split('\n')[0])}\n`);
    process.exitCode = 2;
  },
);
