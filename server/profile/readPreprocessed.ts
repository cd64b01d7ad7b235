import { ProfileInputError } from './profileInputError';
import type { NormalizedProfile } from './types';

export function isPreprocessed(json: unknown): boolean {
  return typeof json === 'object' && json !== null && Array.isArray((json as { code?: unknown }).code) && Array.isArray((json as { ticks?: unknown }).ticks);
}

export async function readPreprocessed(json: unknown, label: string): Promise<NormalizedProfile> {
  void json;
  throw new ProfileInputError(`${label}: preprocessed V8 logs are not supported yet`);
}
