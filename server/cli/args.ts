import { CliError } from './errors';

export interface ParsedArgs {
  positionals: string[];
  /** Flag name (without dashes) -> every value given, in order. Boolean flags get 'true'. */
  flags: Map<string, string[]>;
}

/**
 * Parses `--name value`, `--name=value`, bare positionals and `--` (the end of options). `booleanFlags` take no value;
 * any flag not in `known` is a usage error, so typos never pass silently.
 */
export function parseArgs(argv: readonly string[], known: readonly string[], booleanFlags: readonly string[] = []): ParsedArgs {
  const positionals: string[] = [];
  const flags = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    // `--` ends the options: what follows is positional, even when it starts with dashes.
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    if (!known.includes(name)) throw new CliError(`unknown option --${name}`);
    let value: string;
    if (booleanFlags.includes(name)) {
      value = eq === -1 ? 'true' : arg.slice(eq + 1);
    } else if (eq !== -1) {
      value = arg.slice(eq + 1);
    } else {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) throw new CliError(`option --${name} needs a value`);
      value = next;
      i++;
    }
    const list = flags.get(name) ?? [];
    list.push(value);
    flags.set(name, list);
  }
  return { positionals, flags };
}

/** The last value of a flag, or undefined. */
export function flagValue(args: ParsedArgs, name: string): string | undefined {
  const values = args.flags.get(name);
  return values === undefined ? undefined : values[values.length - 1];
}
