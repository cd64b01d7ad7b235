// Small profiles built frame by frame with the readers' own CallTreeBuilder, so the expected
// numbers below can be checked by hand. Exported for the other analysis specs.
import { strict as assert } from 'node:assert';

import { CallTreeBuilder } from './callTreeBuilder';
import type { NormalizedProfile, ProfileFormat } from './types';

export interface FrameSpec {
  name: string;
  /** '' (default) for native code. */
  url?: string;
  line?: number;
  column?: number;
  /** Line in the caller the call came from (V8 log); 0 = unknown. */
  callLine?: number;
}

export interface StackSpec {
  /** Outermost first. */
  frames: FrameSpec[];
  samples: number;
  /** Line of the leaf function the samples fell on. */
  line?: number;
}

export function profileOf(stacks: StackSpec[], options: { format?: ProfileFormat; msPerSample?: number } = {}): NormalizedProfile {
  const builder = new CallTreeBuilder();
  const msPerSample = options.msPerSample ?? 1;
  let samples = 0;
  for (const stack of stacks) {
    let node = 0;
    for (const frame of stack.frames) {
      const url = frame.url ?? '';
      const f = builder.internFunction(frame.name, url, frame.line ?? 0, frame.column ?? 1, url === '' && !frame.name.startsWith('(') ? 'native' : 'js');
      node = builder.child(node, f, frame.callLine ?? 0);
    }
    builder.addSelf(node, stack.samples, stack.samples * msPerSample);
    if (stack.line !== undefined) builder.addLine(node, stack.line, stack.samples, stack.samples * msPerSample);
    samples += stack.samples;
  }
  return builder.build(options.format ?? 'v8log', samples, samples * msPerSample, []);
}

describe('constructed profiles', () => {
  it('are built with one sample count per stack', () => {
    const profile = profileOf([{ frames: [{ name: 'a', url: '/x/a.js', line: 1 }], samples: 3 }], { msPerSample: 2 });
    assert.equal(profile.samples, 3);
    assert.equal(profile.durationMs, 6);
    assert.equal(profile.tree.count, 2);
  });
});
