// The tools `hotframe mcp` offers a coding agent, each answering with the JSON the command line
// gives for the same question (`analyze`, `profile`, `diff`, `gate` with `--format json`), bounded
// in size, with paths relative to the workspace. No tool runs a command or records a profile:
// recording stays a person's action; agents read what was recorded.
import { nodeRoutesFor } from '../routesOutput';
import { statSync } from 'node:fs';

import { z } from 'zod';

import type { AnalyzedProfile } from '../../profile/analysis/report';
import { DEFAULT_GATE_OPTIONS } from '../../profile/gate/gate';
import { InputError } from '../../shared/errors';
import { analyzeReport } from '../analyzeCommand';
import { diffJson, diffOf } from '../diffCommand';
import { formatJson } from '../findingFormats';
import { checkRunCounts, gateReport, profilesOf } from '../gateCommand';
import { gateJson } from '../gateFormats';
import { analyzeProfileForCli, reportJson } from '../profileCommand';
import { stallsJson } from '../stallsOutput';
import { DEFAULT_STALL_MS } from '../../profile/analysis/stalls';
import { relativeFiles, workspacePath } from './workspacePaths';

/** The most an answer may hold, in characters of JSON: past it, the agent is asked for a smaller `top`. */
export const MAX_ANSWER_CHARS = 200_000;
const DEFAULT_TOP = 20;
const MAX_TOP = 200;

const top = z.number().int().min(1).max(MAX_TOP).optional().describe(`How many entries each list keeps (default ${DEFAULT_TOP}, at most ${MAX_TOP}).`);
const profile = z.string().describe('A profile file (.cpuprofile, isolate-*.log, .heapprofile, pprof), relative to the workspace.');

export interface ToolAnswer {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  isError?: boolean;
}

/** A JSON answer, or an error answer when it is over the size bound. */
function answer(value: unknown): ToolAnswer {
  const text = JSON.stringify(value, null, 2);
  if (text.length > MAX_ANSWER_CHARS) return failure(`the answer is ${text.length} characters, over the ${MAX_ANSWER_CHARS} this server sends: ask with a smaller top`);
  return { content: [{ type: 'text', text }] };
}

function failure(message: string): ToolAnswer {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** Profiles analyzed once per file version: agents ask several questions of one profile. */
class ProfileCache {
  private readonly entries = new Map<string, Promise<AnalyzedProfile>>();

  constructor(private readonly root: string, private readonly capacity = 4) {}

  get(path: string): Promise<AnalyzedProfile> {
    const stats = statSync(path);
    const key = `${path}\u0000${stats.size}\u0000${stats.mtimeMs}`;
    let entry = this.entries.get(key);
    if (entry === undefined) {
      entry = analyzeProfileForCli(path, this.root);
      entry.catch(() => this.entries.delete(key));
      if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    } else {
      this.entries.delete(key); // most recently used last
    }
    this.entries.set(key, entry);
    return entry;
  }
}

export interface Tool {
  name: string;
  title: string;
  description: string;
  inputSchema: z.ZodRawShape;
  run(args: Record<string, unknown>): Promise<ToolAnswer>;
}

/** The tools over the workspace `root`. */
export function workspaceTools(root: string): Tool[] {
  const profiles = new ProfileCache(root);
  const analyzed = (given: string): Promise<AnalyzedProfile> => profiles.get(workspacePath(root, given));
  const topOf = (args: Record<string, unknown>): number => (typeof args.top === 'number' ? args.top : DEFAULT_TOP);

  return [
    {
      name: 'findings',
      title: 'Findings, ranked by measured cost',
      description:
        'The static findings of the workspace (or of the given files and folders), as `hotframe analyze --format json` gives them. With a CPU profile, each finding carries what its code cost in that profile and they are ranked by it.',
      inputSchema: {
        paths: z.array(z.string()).optional().describe('Files or folders to analyze, relative to the workspace (default: the whole workspace).'),
        profile: profile.optional(),
        top,
      },
      async run(args) {
        const paths = Array.isArray(args.paths) && args.paths.length > 0 ? (args.paths as string[]) : ['.'];
        for (const path of paths) workspacePath(root, path);
        const report = await analyzeReport({ paths, format: 'json', levels: {}, profile: typeof args.profile === 'string' ? workspacePath(root, args.profile) : null, alloc: null, root }, root);
        // The command line's JSON (ranked by cost when a profile is given), its list cut to `top`.
        const json = JSON.parse(formatJson(report)) as { findings: unknown[] };
        return answer(relativeFiles({ ...json, findings: json.findings.slice(0, topOf(args)), findingsTotal: json.findings.length }, root));
      },
    },
    {
      name: 'profile_report',
      title: 'Where the time went',
      description: 'A profile\'s report as `hotframe profile --format json` gives it: categories, hot functions and lines, call sites in your code with the library time under them, insights.',
      inputSchema: { profile, top },
      async run(args) {
        const { report } = await analyzed(args.profile as string);
        return answer(relativeFiles(reportJson(report, topOf(args)), root));
      },
    },
    {
      name: 'cost',
      title: 'The cost of a file, a line or a function',
      description:
        'What a file, one of its lines, or a function cost in a profile: the lines, functions and call lines the report gives for it (the same entries and figures as `hotframe profile --format json`).',
      inputSchema: {
        profile,
        file: z.string().optional().describe('A source file, relative to the workspace.'),
        line: z.number().int().min(1).optional().describe('A line of that file.'),
        function: z.string().optional().describe('A function name (of that file, when a file is given).'),
      },
      async run(args) {
        if (typeof args.file !== 'string' && typeof args.function !== 'string') throw new InputError('cost: name a file, a function, or both');
        const file = typeof args.file === 'string' ? workspacePath(root, args.file) : null;
        const line = typeof args.line === 'number' ? args.line : null;
        const name = typeof args.function === 'string' ? args.function : null;
        const { report } = await analyzed(args.profile as string);
        const json = reportJson(report, Number.MAX_SAFE_INTEGER) as unknown as { unit: string; shareOf: string; cpuMs?: number; functions: { name: string; file: string; line: number }[]; lines: { file: string; line: number }[]; callLines: { function: string; file: string; line: number }[] };
        const inFile = (f: { file: string }): boolean => file === null || f.file === file;
        return answer(
          relativeFiles(
            {
              unit: json.unit,
              shareOf: json.shareOf,
              functions: json.functions.filter((f) => inFile(f) && (name === null || f.name === name)),
              lines: name !== null ? [] : json.lines.filter((l) => inFile(l) && (line === null || l.line === line)),
              callLines: json.callLines.filter((c) => inFile(c) && (line === null || c.line === line) && (name === null || c.function === name)),
            },
            root,
          ),
        );
      },
    },
    {
      name: 'call_sites',
      title: 'Where a function is called from',
      description: 'The lines of your code that call a function in a profile, with the time under each call (the report\'s call lines whose callee it is, and its call sites naming it as a library cost).',
      inputSchema: { profile, function: z.string().describe('The called function\'s name, as the profile names it.') },
      async run(args) {
        const name = args.function as string;
        const json = reportJson((await analyzed(args.profile as string)).report, Number.MAX_SAFE_INTEGER) as unknown as { unit: string; shareOf: string; callLines: { callee: string }[]; callSites: { libraries: { name: string }[] }[] };
        return answer(
          relativeFiles(
            {
              unit: json.unit,
              shareOf: json.shareOf,
              function: name,
              callLines: json.callLines.filter((c) => c.callee === name),
              callSites: json.callSites.filter((s) => s.libraries.some((l) => l.name === name)),
            },
            root,
          ),
        );
      },
    },
    {
      name: 'stalls',
      title: 'What froze the event loop',
      description:
        'The spans of a CPU profile with no return to the event loop longer than a threshold, and the lines of your code that held them, as `hotframe profile FILE --stalls --format json` gives it (lists cut to top).',
      inputSchema: { profile, stallMs: z.number().positive().optional().describe(`The shortest stall counted, in ms (default ${DEFAULT_STALL_MS}).`), top },
      async run(args) {
        // As the CLI's --stalls: each stall names the route it served, from the root's registrations.
        const profile = await analyzed(args.profile as string);
        const report = profile.stalls(typeof args.stallMs === 'number' ? args.stallMs : DEFAULT_STALL_MS, nodeRoutesFor(profile, root));
        const json = stallsJson(report) as { stalls: unknown[] | null; lines?: unknown[] };
        if (json.stalls === null) return answer(json);
        return answer(relativeFiles({ ...json, stalls: json.stalls.slice(0, topOf(args)), lines: (json.lines ?? []).slice(0, topOf(args)) }, root));
      },
    },
    {
      name: 'diff',
      title: 'What changed between two profiles',
      description: 'Two profiles of the same code compared, as `hotframe diff --format json` gives it: per function and line, ms of CPU per second of profile before and after.',
      inputSchema: { before: profile, after: profile, top },
      async run(args) {
        const before = await analyzed(args.before as string);
        const after = await analyzed(args.after as string);
        return answer(relativeFiles(diffJson(diffOf(before.report, after.report), topOf(args)), root));
      },
    },
    {
      name: 'gate',
      title: 'Did it get slower, beyond the noise',
      description:
        'Several profiles of each side (repeated runs of one workload): the functions and lines that got slower by more than the threshold and the noise between runs, with their intervals and the findings on those lines, as `hotframe gate --format json` gives it.',
      inputSchema: {
        before: z.array(z.string()).min(1).describe('Profiles or folders of profiles of the baseline, relative to the workspace.'),
        after: z.array(z.string()).min(1).describe('Profiles or folders of profiles of the change.'),
        threshold: z.number().min(0).max(10).optional().describe('Smallest relative change that counts, 0.1 = 10% (default).'),
        minMs: z.number().min(0).optional().describe(`Smallest change that counts, in ms of CPU per second (default ${DEFAULT_GATE_OPTIONS.minMs}).`),
        windows: z.number().int().min(1).max(100).optional().describe('Cut each profile into this many windows of equal duration, each one run (one long recording a side).'),
        top,
      },
      async run(args) {
        const side = (flag: string, values: string[]): string[] => values.flatMap((value) => profilesOf(flag, workspacePath(root, value), root));
        const before = side('before', args.before as string[]);
        const after = side('after', args.after as string[]);
        const windows = typeof args.windows === 'number' ? args.windows : 1;
        const options = { ...DEFAULT_GATE_OPTIONS, ...(typeof args.threshold === 'number' ? { threshold: args.threshold } : {}), ...(typeof args.minMs === 'number' ? { minMs: args.minMs } : {}) };
        checkRunCounts(before.length, after.length, windows, options.confidence);
        return answer(JSON.parse(gateJson(await gateReport(before, after, options, root, root, topOf(args), windows))));
      },
    },
  ];
}

/** Runs a tool; the user's input errors (and unreadable profiles) are error answers in one line, not protocol errors. */
export async function callTool(tool: Tool, args: Record<string, unknown>): Promise<ToolAnswer> {
  try {
    return await tool.run(args);
  } catch (error) {
    if (error instanceof InputError) return failure(error.message.split('\n')[0]);
    throw error;
  }
}
