// Seeded pseudo-random numbers, so that what draws them (the gate's bootstrap, randomized tests)
// gives the same result on every machine and every run, and a failing seed can be replayed.

/** A small, fast, seeded PRNG (mulberry32): uniform in [0, 1). Statistical quality is ample for resampling. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
