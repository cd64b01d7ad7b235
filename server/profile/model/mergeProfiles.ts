// Several profiles of one capture (the processes and threads `hotframe attach` or `hotframe record`
// wrote) as one: the same function in several processes is one function, each process's call
// tree hangs from the one root, and the weights add up, so every share is of the CPU time of all
// of them. Which process or thread each came from stays in `threads` ("pid:tid" ids), so a view
// can merge a subset (a per-process filter) by merging again.
import type { CallTree, LineTicks, NormalizedProfile, ProfileFunction } from './types';

export interface MergeInput {
  /** "pid:tid" when the file name says it (Node's CPU.<date>.<time>.<pid>.<tid>.<seq> names), else the file name. */
  id: string;
  /** Shown to people: the file's name. */
  name: string;
  profile: NormalizedProfile;
}

/** "pid:tid" from a name as node --cpu-prof / --heap-prof / hotframe attach write it (hotframe record: the command in place of CPU/Heap), or null. */
export function processThreadOf(fileName: string): string | null {
  const match = /^(?:CPU|Heap|[A-Za-z0-9_][A-Za-z0-9._-]*)\.\d{8}\.\d{6}\.(\d+)\.(\d+)\.\d+\.(?:cpuprofile|heapprofile)$/.exec(fileName);
  return match ? `${match[1]}:${match[2]}` : null;
}

function functionKey(f: ProfileFunction): string {
  return `${f.name}\u0000${f.url}\u0000${f.line}\u0000${f.column}\u0000${f.category}\u0000${f.noUrl === true}`;
}

/** One profile of them all. Throws (one line) when they measure different things. */
export function mergeProfiles(inputs: readonly MergeInput[]): NormalizedProfile {
  if (inputs.length === 0) throw new Error('no profile to merge');
  const unit = inputs[0].profile.unit ?? 'ms';
  for (const input of inputs) {
    if ((input.profile.unit ?? 'ms') !== unit) throw new Error(`${input.name} measures ${input.profile.unit ?? 'ms'}, ${inputs[0].name} measures ${unit}: profiles of different kinds cannot be merged`);
  }
  const functions: ProfileFunction[] = [];
  const functionIndex = new Map<string, number>();
  const count = 1 + inputs.reduce((sum, input) => sum + input.profile.tree.count - 1, 0);
  const tree: CallTree = {
    count,
    parent: new Int32Array(count),
    func: new Int32Array(count),
    callLine: new Int32Array(count),
    selfSamples: new Float64Array(count),
    selfMs: new Float64Array(count),
  };
  tree.parent[0] = -1;
  tree.func[0] = -1;
  const lineTicks: LineTicks[] = [];
  const warnings: string[] = [];
  let next = 1;
  for (const { name, profile } of inputs) {
    const source = profile.tree;
    const funcMap = profile.functions.map((f) => {
      const key = functionKey(f);
      let index = functionIndex.get(key);
      if (index === undefined) {
        index = functions.length;
        functions.push(f);
        functionIndex.set(key, index);
      }
      return index;
    });
    // Node 0 of every profile is the one root; its other nodes follow in order (parents first).
    const offset = next - 1;
    tree.selfSamples[0] += source.selfSamples[0];
    tree.selfMs[0] += source.selfMs[0];
    for (let i = 1; i < source.count; i++) {
      const at = offset + i;
      tree.parent[at] = source.parent[i] === 0 ? 0 : source.parent[i] + offset;
      tree.func[at] = source.func[i] < 0 ? -1 : funcMap[source.func[i]];
      tree.callLine[at] = source.callLine[i];
      tree.selfSamples[at] = source.selfSamples[i];
      tree.selfMs[at] = source.selfMs[i];
    }
    next += source.count - 1;
    for (const ticks of profile.lineTicks) lineTicks.push({ ...ticks, node: ticks.node === 0 ? 0 : ticks.node + offset });
    for (const warning of profile.warnings) warnings.push(`${name}: ${warning}`);
  }
  const first = inputs[0].profile;
  const notes = [...new Set(inputs.flatMap((input) => input.profile.notes ?? []))];
  notes.unshift(`${inputs.length} profiles merged (${inputs.map((input) => input.id).join(', ')}): every share is of all of them`);
  return {
    format: first.format,
    samples: inputs.reduce((sum, input) => sum + input.profile.samples, 0),
    // The processes ran side by side: the capture lasted as long as the longest of them.
    durationMs: Math.max(...inputs.map((input) => input.profile.durationMs)),
    functions,
    tree,
    lineTicks,
    warnings,
    ...(first.unit !== undefined ? { unit: first.unit } : {}),
    notes,
    threads: inputs.map((input) => ({ id: input.id, name: input.name, samples: input.profile.samples })),
    capture: { kept: inputs.map((input) => input.id), of: inputs.length },
  };
}

/** The weight a profile holds outside idle (CPU ms, or bytes): a part's share of a merged profile. */
export function busyWeight(profile: NormalizedProfile): number {
  let total = 0;
  for (let i = 0; i < profile.tree.count; i++) {
    const func = profile.tree.func[i];
    if (func >= 0 && profile.functions[func].category !== 'idle') total += profile.tree.selfMs[i];
  }
  return total;
}
