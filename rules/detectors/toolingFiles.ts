// Files of a project's tooling rather than its service. A rule's policy, not the engine's: the
// engine analyzes them (a clock read in a test is still a clock read); the rules about a serving
// path (spawn-without-env, blocking-sync-call, connection-per-request, serial-heavy-middleware)
// stay quiet in them. A folder's name is only a presumption: when the project's own code registers
// or calls the file's exports from code that runs per request, message or tick, the file serves
// whatever its folder is called (issue 22: a service's `lib/tools/` module run by its metrics timer).
import type { ProjectView } from '../api';

/** Folders of a project whose code never serves: tests, build and release scripts, benchmarks, command-line entry points. */
const TOOLING_FOLDERS = new Set(['test', 'tests', '__tests__', 'spec', 'specs', 'e2e', 'benchmark', 'benchmarks', 'bench',
  'scripts', 'script', 'bin', 'cli', 'tools', 'build', 'install', 'installer']);
const TOOLING_FILES = /^(?:gruntfile|gulpfile|jakefile|webpack\.config|rollup\.config|vite\.config|karma\.conf)\.[cm]?[jt]s$|\.(?:test|spec)\.[cm]?[jt]sx?$/i;
/** How many folders above the file are looked at: the checkout itself may sit under /home/me/test/. */
const TOOLING_DEPTH = 3;

/**
 * A file of a project's tooling rather than its service: a test, a Gruntfile/gulpfile, a script,
 * a benchmark, a CLI entry point or an installer (issue 11: the env incident needs a spawn on a
 * serving path; these spawn on purpose, once, with the developer's environment).
 */
export function isToolingFile(filePath: string, project?: ProjectView): boolean {
  if (!isToolingByName(filePath)) return false;
  // Reached from serving code of a module that is not tooling itself (a test calling a helper is not evidence).
  const registrations = project?.registrationsOf?.(filePath) ?? [];
  return !registrations.some((registration) => !isToolingByName(registration.registeredIn));
}

/** Tooling by the file's name or a folder above it. */
function isToolingByName(filePath: string): boolean {
  const segments = filePath.split(/[\\/]/);
  if (TOOLING_FILES.test(segments[segments.length - 1])) return true;
  return segments.slice(-1 - TOOLING_DEPTH, -1).some((segment) => TOOLING_FOLDERS.has(segment.toLowerCase()));
}
