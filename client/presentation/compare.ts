// Which profile is the BEFORE of a comparison, and what the picker says (issue 23.6).
// Pure: the glue in client/commands.ts loads the two sides in the order said here.

/** One side of a comparison: a profile file and how it was picked (sample type, thread). */
export interface CompareSide {
  path: string;
  name: string;
  sampleType?: string;
  thread?: string;
}

/** The two sides, each loaded in its role: `after` as the primary profile, `before` as the baseline. */
export interface ComparePlan {
  before: CompareSide;
  after: CompareSide;
}

/**
 * The picker's title when Compare is run with no profile named: with a profile loaded, that
 * profile is the baseline and the user picks what it is compared with.
 */
export function comparePickTitle(loadedName: string | null): string {
  return loadedName === null ? 'Compare: pick the BEFORE profile (the baseline)' : `Compare ${loadedName} (before) with…`;
}

/** Compare run from the editor with a profile loaded: the loaded one is the baseline, the picked one the after. */
export function planWithLoadedAsBefore(loaded: CompareSide, picked: CompareSide): ComparePlan {
  return { before: loaded, after: picked };
}

/** The swap button: what was the baseline becomes the after, and the other way round. */
export function swapped(plan: ComparePlan): ComparePlan {
  return { before: plan.after, after: plan.before };
}
