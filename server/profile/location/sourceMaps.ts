// Maps generated positions (bundled or transpiled JavaScript that ran) back to the original
// sources, using the file's `//# sourceMappingURL=` (a file next to it or an inline data: URL).
// Decoding is @jridgewell/trace-mapping's; one TraceMap per generated file, cached.
// The comment is untrusted (it comes with the profiled code): maps are read through the guarded
// reader (regular files, capped), only inside the read scope, and warnings never quote them.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LEAST_UPPER_BOUND, TraceMap, originalPositionFor } from '@jridgewell/trace-mapping';
import { formatCap, GuardedReadError, readGuardedText } from '../../shared/guardedRead';
import type { ReadScope } from '../../shared/readScope';
import { countJsonStrings, countSegments, mapSegmentBudget, mapStringBudget } from './sourceMapBudget';

export interface OriginalPosition {
  file: string;
  line: number; // 1-based
  column: number; // 1-based
}

/** Source maps larger than this are skipped (a profile view must not stall on a 200 MB map). */
const MAX_MAP_BYTES = 64 * 1024 * 1024;
/** A generated file is read whole for its mapping comment (an inline map is part of it). */
const MAX_GENERATED_BYTES = MAX_MAP_BYTES + 1024 * 1024;
/** The last `//# sourceMappingURL=` of a generated file (inline maps can be megabytes long: no line split), or null. */
function mappingUrlOf(source: string): string | null {
  const at = source.lastIndexOf('sourceMappingURL=');
  if (at < 4 || !/\/\/[#@]\s?$/.test(source.slice(Math.max(0, at - 4), at))) return null;
  const end = source.indexOf('\n', at);
  const url = source.slice(at + 'sourceMappingURL='.length, end === -1 ? undefined : end).trim();
  // A comment followed by more code is not the mapping comment (it sits inside a string or template).
  if (end !== -1 && source.slice(end).trim() !== '') return null;
  return url === '' ? null : url;
}

function decodeDataUrl(url: string): string | null {
  const comma = url.indexOf(',');
  if (comma === -1) return null;
  const header = url.slice(0, comma);
  const body = url.slice(comma + 1);
  return header.endsWith(';base64') ? Buffer.from(body, 'base64').toString('utf8') : decodeURIComponent(body);
}

/** Why a map could not be used, without quoting it (a JSON error message carries the map's first bytes). */
function reasonOf(error: unknown): string {
  if (error instanceof GuardedReadError) return error.reason;
  if (error instanceof SyntaxError || error instanceof URIError) return 'not valid JSON';
  return 'not a valid source map';
}

/** A map past one of its budgets: not applied, with one line naming the budget. */
class MapBudgetError extends Error {}

export class SourceMapCache {
  private readonly maps = new Map<string, TraceMap | null>();
  /** Segments the maps applied so far may still decode (sourceMapBudget.ts). */
  private segmentsLeft = mapSegmentBudget(MAX_MAP_BYTES);
  /** One line per map that exists but cannot be used; reported once each. */
  readonly warnings: string[] = [];

  /** `scope`: where generated files and maps may be read from (the report passes one; tests may not). */
  constructor(private readonly scope?: ReadScope) {}

  /** The map of a local generated file, or null when it has none (or it is unreadable). */
  mapFor(file: string): TraceMap | null {
    let map = this.maps.get(file);
    if (map === undefined) {
      map = this.load(file);
      this.maps.set(file, map);
    }
    return map;
  }

  /** The original position of a generated one (line and column 1-based), or null when unmapped. */
  originalOf(file: string, line: number, column: number): OriginalPosition | null {
    const map = this.mapFor(file);
    if (map === null || line < 1) return null;
    let found = column >= 1 ? originalPositionFor(map, { line, column: column - 1 }) : null;
    // Unknown column, or nothing mapped before it: take the line's first mapped segment.
    if (found === null || found.source === null) {
      found = originalPositionFor(map, { line, column: Math.max(0, column - 1), bias: LEAST_UPPER_BOUND });
    }
    if (found.source === null) return null;
    let source = found.source;
    try {
      if (source.startsWith('file://')) source = fileURLToPath(source);
    } catch {
      return null; // file://host/... or a bad escape: not a local file
    }
    return { file: resolve(dirname(file), source), line: found.line, column: found.column + 1 };
  }

  private load(file: string): TraceMap | null {
    if (this.scope !== undefined && !this.scope.allows(file)) return null;
    let url: string | null;
    try {
      url = mappingUrlOf(readGuardedText(file, MAX_GENERATED_BYTES));
    } catch {
      return null;
    }
    if (url === null) return null;
    try {
      if (url.startsWith('data:')) {
        // The whole file was within the cap; the map in it is held to the map cap as well.
        if (url.length > MAX_MAP_BYTES) {
          this.warnings.push(`inline source map of ${file} is larger than ${formatCap(MAX_MAP_BYTES)}; not applied`);
          return null;
        }
        const text = decodeDataUrl(url);
        return text === null ? null : this.traceMap(text, file);
      }
      const mapPath = url.startsWith('file://') ? fileURLToPath(url) : resolve(dirname(file), decodeURIComponent(url));
      if (this.scope !== undefined && !this.scope.allows(mapPath)) {
        this.warnings.push(`source map ${mapPath} named by ${file} is outside the workspace and the profile's folder; not read (add a path mapping to allow it)`);
        return null;
      }
      let text: string;
      try {
        text = readGuardedText(mapPath, MAX_MAP_BYTES);
      } catch (error) {
        if (error instanceof GuardedReadError && error.code === 'ENOENT') this.warnings.push(`source map ${mapPath} named by ${file} does not exist`);
        else this.warnings.push(`source map ${mapPath} named by ${file} is not applied: ${reasonOf(error)}`);
        return null;
      }
      return this.traceMap(text, mapPath);
    } catch (error) {
      if (error instanceof MapBudgetError) this.warnings.push(`source map of ${file} is not applied: ${error.message} (the budget for source maps, docs/security.md)`);
      else this.warnings.push(`source map of ${file} cannot be read: ${reasonOf(error)}`);
      return null;
    }
  }

  /** The map parsed and set up for decoding, after its strings and segments were counted against the budgets. */
  private traceMap(text: string, url: string): TraceMap {
    const strings = mapStringBudget(MAX_MAP_BYTES);
    if (countJsonStrings(text) > strings) throw new MapBudgetError(`more than ${strings.toLocaleString('en-US')} strings (sources, names)`);
    const json = JSON.parse(text) as { mappings?: unknown; sections?: unknown };
    if (json.sections !== undefined) throw new MapBudgetError('an indexed map (sections) is not supported');
    const segments = typeof json.mappings === 'string' ? countSegments(json.mappings) : 0;
    if (segments > this.segmentsLeft) {
      const budget = mapSegmentBudget(MAX_MAP_BYTES);
      throw new MapBudgetError(`more than ${budget.toLocaleString('en-US')} mapping segments${this.segmentsLeft < budget ? ' with the maps already applied' : ''}`);
    }
    this.segmentsLeft -= segments;
    return new TraceMap(json as ConstructorParameters<typeof TraceMap>[0], url);
  }
}
