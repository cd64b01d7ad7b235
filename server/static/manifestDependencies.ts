// The packages a project declares it runs with, read from its package.json: what a module's own
// imports do not say (a controller handed its mongoose model by a loader never imports mongoose).
// The manifest is untrusted text: whatever it holds, the answer is a bounded set of names.

/** Sections of a manifest whose packages the service runs with (devDependencies are its tooling). */
const RUNTIME_SECTIONS = ['dependencies', 'peerDependencies', 'optionalDependencies'] as const;
/** More names than this in one manifest are not read (a real service declares a few hundred). */
export const MAX_MANIFEST_DEPENDENCIES = 5000;

/** The runtime dependency names a package.json declares; empty when the text is not such a manifest. */
export function dependenciesOfManifest(text: string): ReadonlySet<string> {
  const names = new Set<string>();
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch {
    return names;
  }
  if (typeof manifest !== 'object' || manifest === null) return names;
  for (const section of RUNTIME_SECTIONS) {
    const listed: unknown = (manifest as Record<string, unknown>)[section];
    if (typeof listed !== 'object' || listed === null || Array.isArray(listed)) continue;
    for (const name of Object.keys(listed)) {
      if (names.size >= MAX_MANIFEST_DEPENDENCIES) return names;
      names.add(name);
    }
  }
  return names;
}
