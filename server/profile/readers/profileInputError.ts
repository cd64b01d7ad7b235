/**
 * A profile file that cannot be read as a profile: empty, truncated, not a profile at all.
 * The message is one line, meant for the user as is (the CLI prints it and exits 2), so it
 * names the file and the place, never a stack.
 */
export class ProfileInputError extends Error {
  constructor(message: string) {
    // Untrusted text may end up in the message: keep it to one printable line.
    super(message.replace(/[\r\n]+/g, ' '));
    this.name = 'ProfileInputError';
  }
}
