#!/usr/bin/env node
// `hotframe` command line: the same engine as the editor, for CI and scripts.
// Exit codes: 0 nothing found, 1 findings, 2 usage or input error (one line on stderr).
import { InputError } from '../shared/errors';
import { asksForHelp } from './args';
import { printable } from './printable';

const USAGE = `usage: hotframe <command> [options]

commands:
  analyze [paths..] [--format text|json|sarif] [--rule <id>=<level>] [--profile FILE] [--alloc ALLOCATION_PROFILE] [--root DIR]
  profile FILE [--root DIR] [--top N] [--format text|json] [--sample-type TYPE] [--alloc ALLOCATION_PROFILE] [--stalls [--stall-ms N]]
  diff BEFORE AFTER [--root DIR] [--top N] [--format text|json] [--sample-type TYPE]
  record [--out DIR] [--root DIR] [--top N] [--format text|json] -- <command> [args..]

exit codes: 0 no findings, 1 findings, 2 usage or input error`;

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
    default:
      return null;
  }
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(USAGE + '\n');
    return name === undefined ? 2 : 0;
  }
  if (name === '--version') {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const command = await loadCommand(name);
  if (command === null) throw new InputError(`unknown command '${name}' (try: hotframe --help)`);
  // `hotframe profile --help` is how most people ask; the usage covers every command.
  // (Only before `--`: what follows is `hotframe record`'s command and its own flags.)
  if (asksForHelp(rest)) {
    process.stdout.write(USAGE + '\n');
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
    const prefix = error instanceof InputError ? 'hotframe' : 'hotframe: internal error';
    process.stderr.write(`${prefix}: ${printable(message.split('\n')[0])}\n`);
    process.exitCode = 2;
  },
);
