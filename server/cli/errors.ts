/** A problem with what the user passed (arguments or input files): one line on stderr, exit 2. */
export class CliError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliError';
  }
}
