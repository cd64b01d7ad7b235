// CONTRACT STUB: `hotframe diff` is being written; replace this body.
import { CliError } from './errors';

export async function runDiff(args: string[]): Promise<number> {
  void args;
  throw new CliError('diff: not implemented yet');
}
