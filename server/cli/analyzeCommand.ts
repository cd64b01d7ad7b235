// CONTRACT STUB: `hotframe analyze` is being written; replace this body.
import { CliError } from './errors';

export async function runAnalyze(args: string[]): Promise<number> {
  void args;
  throw new CliError('analyze: not implemented yet');
}
