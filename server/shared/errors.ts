// What Hotframe says when something goes wrong with what the user gave it: one wording for what
// the operating system refused (errno codes), and the error class for a user's input problem.

/**
 * A problem with what the user passed (an argument, a path, a file), said in one line that is
 * meant for the user as is: the command line prints it and exits 2, never with a stack trace.
 */
export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}

function codeOf(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | null | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The errno code of a failed system call (ENOENT, EACCES...), if it is one (not Node's own ERR_* codes). */
export function errnoCode(error: unknown): string | undefined {
  const code = codeOf(error);
  return code !== undefined && /^E[A-Z0-9]+$/.test(code) ? code : undefined;
}

const REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'is a directory',
  ELOOP: 'too many symbolic links',
  ENXIO: 'not a regular file (a socket or device)',
};

/**
 * Why a file or folder could not be read, in words: "no such file", "permission denied"... and
 * for any other failure "cannot read (EMFILE)", or its message's first line when it has no code.
 */
export function errnoReason(error: unknown): string {
  const code = codeOf(error);
  if (code !== undefined && Object.hasOwn(REASONS, code)) return REASONS[code];
  return `cannot read (${code ?? (error instanceof Error ? error.message : String(error)).split('\n')[0]})`;
}
