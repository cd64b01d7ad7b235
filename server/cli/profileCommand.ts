// CONTRACT STUB: `hotframe profile` is being written; replace this body.
import { CliError } from './errors';

export async function runProfile(args: string[]): Promise<number> {
  void args;
  throw new CliError('profile: not implemented yet');
}
