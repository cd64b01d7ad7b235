// The commands' options, split by node:util parseArgs (`--name value`, `--name=value`, `--` ends
// the options) and checked here, so that every mistake is one line of ours and exit 2.
import { parseArgs } from 'node:util';

import { InputError } from '../shared/errors';

export interface ParsedArgs {
  positionals: string[];
  /** Option name (without dashes) -> every value given, in order. */
  flags: Map<string, string[]>;
  /** What follows the first `--`, untouched (also at the end of `positionals`); null without `--`. */
  afterDashes: string[] | null;
}

/**
 * Parses a command's arguments. Every option in `known` takes a value and may be repeated; each of
 * `switches` takes none (it is recorded with the value ''); any other option is a usage error, so
 * typos never pass silently. A value is never taken from a word that starts with `--` (`--root
 * --top 3` forgot the folder); `--name=--x` still gives one.
 */
export function parseCommandArgs(argv: readonly string[], known: readonly string[], switches: readonly string[] = []): ParsedArgs {
  // Not strict: its errors are Node's, several lines long; the tokens are checked below instead.
  const { tokens } = parseArgs({
    args: [...argv],
    options: Object.fromEntries([
      ...known.map((name) => [name, { type: 'string' as const, multiple: true }]),
      ...switches.map((name) => [name, { type: 'boolean' as const, multiple: true }]),
    ]),
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const positionals: string[] = [];
  const flags = new Map<string, string[]>();
  let afterDashes: string[] | null = null;
  for (const token of tokens) {
    if (token.kind === 'option-terminator') {
      afterDashes = [];
    } else if (token.kind === 'positional') {
      positionals.push(token.value);
      afterDashes?.push(token.value);
    } else {
      if (switches.includes(token.name)) {
        if (token.inlineValue) throw new InputError(`option --${token.name} takes no value`);
        flags.set(token.name, ['']);
        continue;
      }
      if (!known.includes(token.name)) throw new InputError(`unknown option ${token.rawName}`);
      const { value } = token;
      if (value === undefined || (!token.inlineValue && value.startsWith('--'))) throw new InputError(`option --${token.name} needs a value`);
      flags.set(token.name, [...(flags.get(token.name) ?? []), value]);
    }
  }
  return { positionals, flags, afterDashes };
}

/** The last value of a flag, or undefined. */
export function flagValue(args: ParsedArgs, name: string): string | undefined {
  return args.flags.get(name)?.at(-1);
}

/** True when `--help` or `-h` stands among the options (not after `--`, where they belong to someone else). */
export function asksForHelp(argv: readonly string[]): boolean {
  const { tokens } = parseArgs({ args: [...argv], strict: false, allowPositionals: true, tokens: true });
  return tokens.some((token) => token.kind === 'option' && (token.name === 'help' || token.name === 'h'));
}
