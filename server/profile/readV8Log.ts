import { ProfileInputError } from './profileInputError';
import type { NormalizedProfile } from './types';

export class V8LogReader {
  constructor(private readonly label: string) {}
  line(text: string): void {
    void text;
  }
  async finish(): Promise<NormalizedProfile> {
    throw new ProfileInputError(`${this.label}: raw V8 logs are not supported yet`);
  }
}
