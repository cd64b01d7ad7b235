// A loaded profile's summary as the server sends it, for the client's presentation tests.
import type { ProfileSummary } from '../../server/protocol/wire';

export function profileSummary(over: Partial<ProfileSummary> = {}): ProfileSummary {
  return {
    name: 'before.cpuprofile',
    path: '/p/before.cpuprofile',
    format: 'cpuprofile',
    unit: 'ms',
    // What its shares are of follows its unit unless a test says otherwise (a merged capture).
    shareBasis: { unit: over.unit ?? 'ms' },
    notes: [],
    samples: 9000,
    durationMs: 12_345,
    gcPercent: 8.04,
    cpuMs: 9000,
    unresolvedFiles: [],
    unresolvedCount: 0,
    warnings: [],
    ...over,
  };
}
