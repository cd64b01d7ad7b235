// The commands' options in one table: the parser accepts exactly these (parseCommandArgs), and
// `hotframe --help` and `hotframe <command> --help` print them, so help cannot omit an option the
// parser takes, nor list one it refuses (server/cli/commandSpecs.test.ts).

export type CommandName = 'analyze' | 'profile' | 'diff' | 'record' | 'attach' | 'gate' | 'mcp';

export interface OptionSpec {
  name: string;
  /** The value's placeholder, as in `--top N`; '' for a switch that takes none (`--stalls`). */
  value: string;
  help: string;
}

export interface CommandSpec {
  /** What follows the command's name before its options: `FILE`, `[paths..]`. */
  operands: string;
  summary: string;
  options: readonly OptionSpec[];
  /** Usage that works as written (from a project folder). */
  examples: readonly string[];
}

const ROOT: OptionSpec = { name: 'root', value: 'DIR', help: "the checkout the profile's paths are mapped onto (default: the current folder)" };
const TOP: OptionSpec = { name: 'top', value: 'N', help: 'rows per table (default 20)' };
const FORMAT: OptionSpec = { name: 'format', value: 'text|json', help: 'output format (default text)' };
const SAMPLE_TYPE: OptionSpec = { name: 'sample-type', value: 'TYPE', help: 'the sample type of a pprof profile to read (cpu, wall, alloc_space, …)' };
const ALLOC: OptionSpec = { name: 'alloc', value: 'ALLOCATION_PROFILE', help: 'an allocation profile (.heapprofile, heap pprof) of the same service: who makes the garbage' };

export const COMMANDS: Readonly<Record<CommandName, CommandSpec>> = {
  analyze: {
    operands: '[paths..]',
    summary: 'the rules over files and folders (default: the current folder), ranked by a profile when given',
    options: [
      { name: 'format', value: 'text|json|sarif', help: 'output format (default text); sarif for GitHub code scanning' },
      { name: 'rule', value: '<id>=<level>', help: 'a rule\'s level: off, hint, information, warning or error (repeatable)' },
      { name: 'profile', value: 'FILE', help: 'a CPU profile of the service: each finding gets the measured cost of its code' },
      { ...ALLOC, help: `${ALLOC.help} (with --profile)` },
      ROOT,
    ],
    examples: ['hotframe analyze .', 'hotframe analyze src --format sarif > hotframe.sarif', 'hotframe analyze . --profile prof.cpuprofile --rule date-now-hot-path=off'],
  },
  profile: {
    operands: 'FILE..|FOLDER',
    summary: 'where the time (or the allocation) went: functions, lines, calls into libraries, insights; several files (or a folder) of one capture merged',
    options: [
      ROOT,
      TOP,
      FORMAT,
      { name: 'thread', value: 'ID', help: 'the thread of a trace to read (the summary lists them)' },
      SAMPLE_TYPE,
      ALLOC,
      { name: 'function', value: 'NAME[:file]', help: "that function's callers and callees (the sandwich) instead of the report" },
      { name: 'stalls', value: '', help: 'the event-loop stalls (no return to the loop for longer than --stall-ms) and the lines that held them, instead of the report' },
      { name: 'stall-ms', value: 'N', help: 'with --stalls: the shortest stall counted, in ms (default 50)' },
      { name: 'routes', value: '', help: "CPU time per route and message handler (the --root folder's registrations joined to the samples' stacks), instead of the report" },
    ],
    examples: [
      'hotframe profile prof.cpuprofile --top 10',
      'hotframe profile isolate-0x1-v8.log --root .',
      'hotframe profile prof.cpuprofile --alloc heap.heapprofile',
      'hotframe profile prof.cpuprofile --function getTimestamp:messages.js',
      'hotframe profile trace-gc.log',
      'hotframe profile prof.cpuprofile --stalls --stall-ms 100',
      'hotframe profile prof.cpuprofile --routes --root .',
    ],
  },
  diff: {
    operands: 'BEFORE AFTER',
    summary: 'what changed between two profiles of the same service',
    options: [ROOT, TOP, FORMAT, SAMPLE_TYPE],
    examples: ['hotframe diff before.cpuprofile after.cpuprofile --top 10'],
  },
  record: {
    operands: '-- <command> [args..]',
    summary: 'runs a command with every Node process it starts profiled (Ctrl+C to stop), then reports the busiest profile',
    options: [
      { name: 'out', value: 'DIR', help: 'where the profiles are written (default ./profiles)' },
      ROOT,
      TOP,
      FORMAT,
      { name: 'kind', value: 'cpu|allocation', help: 'a CPU profile (default) or an allocation profile, garbage included' },
      { name: 'semi-space', value: 'MB,MB..', help: 'runs the command once per semi-space size in MB, its GC traced, and compares GC share, pauses and wall time' },
    ],
    examples: ['hotframe record -- node server.js', 'hotframe record --out /tmp/p -- npm start', 'hotframe record --kind allocation -- node server.js', 'hotframe record --semi-space 16,32,64,128 -- node bench.js'],
  },
  attach: {
    operands: 'PID..',
    summary: 'profiles running Node processes without a restart (a cluster or pm2 parent: every worker and thread), then reports them merged',
    options: [
      { name: 'duration', value: 'S', help: 'seconds to profile (default 10)' },
      { name: 'kind', value: 'cpu|allocation', help: 'a CPU profile (default) or an allocation profile' },
      { name: 'inspector', value: 'URL', help: 'an inspector already listening on loopback (ws://127.0.0.1:9229/…): used, and left open' },
      { name: 'out', value: 'DIR', help: 'where the profiles are written (default ./profiles)' },
      ROOT,
      TOP,
      FORMAT,
    ],
    examples: ['hotframe attach 4242 --duration 5', 'hotframe attach 4242 --kind allocation --duration 30'],
  },
  gate: {
    operands: '',
    summary: 'fails (exit 1) only when a function or line got slower beyond the noise between runs and the threshold; several profiles a side',
    options: [
      { name: 'before', value: 'FILE|DIR', help: 'a profile of the baseline, or a folder of them (repeatable; at least 2 profiles)' },
      { name: 'after', value: 'FILE|DIR', help: 'a profile of the change, or a folder of them (repeatable; at least 2 profiles)' },
      { name: 'windows', value: 'N', help: 'cut each profile into N windows of equal duration, each one run (one long recording a side; default 1)' },
      { name: 'threshold', value: 'PERCENT', help: 'smallest relative change that counts (default 10%)' },
      { name: 'min-ms', value: 'N', help: 'smallest change that counts, in ms of CPU per second (default 5)' },
      { name: 'confidence', value: 'C', help: 'confidence shared by the changes tested (default 0.995)' },
      ROOT,
      { name: 'format', value: 'text|json|markdown|sarif', help: 'output format (default text); markdown for a pull-request comment, sarif for code scanning' },
      TOP,
    ],
    examples: ['hotframe gate --before profiles/before --after profiles/after', 'hotframe gate --before base.cpuprofile --after head.cpuprofile --windows 10', 'hotframe gate --before base/ --after head/ --threshold 5% --format sarif > gate.sarif'],
  },
  mcp: {
    operands: '',
    summary: "an MCP server on stdio for coding agents: findings ranked by a profile, costs, call sites, diff and gate, as this command line's JSON",
    options: [{ name: 'root', value: 'DIR', help: 'the workspace the tools answer for (default: the current folder)' }],
    examples: ['hotframe mcp --root .'],
  },
};

export const COMMAND_NAMES = Object.keys(COMMANDS) as CommandName[];

/** The options of a command that take a value, as its parser accepts them. */
export function optionNames(command: CommandName): string[] {
  return COMMANDS[command].options.filter((option) => option.value !== '').map((option) => option.name);
}

/** The options of a command that take none (`--stalls`). */
export function switchNames(command: CommandName): string[] {
  return COMMANDS[command].options.filter((option) => option.value === '').map((option) => option.name);
}

/** `--name VALUE`, or `--name` for a flag. */
function written(option: OptionSpec): string {
  return option.value === '' ? `--${option.name}` : `--${option.name} ${option.value}`;
}

/** One line: `hotframe profile FILE [--root DIR] …` (the README's list of commands is these lines). */
export function synopsis(name: CommandName): string {
  const spec = COMMANDS[name];
  const options = spec.options.map((o) => `[${written(o)}]`).join(' ');
  // record's operands come after its options (everything after `--` is the command).
  if (name === 'record') return `hotframe record ${options} ${spec.operands}`;
  return spec.operands === '' ? `hotframe ${name} ${options}` : `hotframe ${name} ${spec.operands} ${options}`;
}

const EXIT_CODES = 'exit codes: 0 no findings, 1 findings (gate: a regression), 2 usage or input error';

/** `hotframe <command> --help`: what it does, every option with its meaning, examples. */
export function commandHelp(name: CommandName): string {
  const spec = COMMANDS[name];
  const width = Math.max(...spec.options.map((o) => written(o).length));
  return [
    `usage: ${synopsis(name)}`,
    '',
    spec.summary,
    '',
    'options:',
    ...spec.options.map((o) => `  ${written(o).padEnd(width)}  ${o.help}`),
    '',
    'examples:',
    ...spec.examples.map((e) => `  ${e}`),
    '',
    EXIT_CODES,
  ].join('\n');
}

/** `hotframe --help`: every command with every option, and an example of each. */
export function overviewHelp(): string {
  return [
    'usage: hotframe <command> [options]   (hotframe <command> --help for what each option means)',
    '',
    'commands:',
    ...COMMAND_NAMES.flatMap((name) => [`  ${synopsis(name).slice('hotframe '.length)}`, `      ${COMMANDS[name].summary}`, `      e.g. ${COMMANDS[name].examples[0]}`]),
    '',
    EXIT_CODES,
  ].join('\n');
}
