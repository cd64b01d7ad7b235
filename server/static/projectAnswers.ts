// What the project-wide analysis says of one file, as one string (issue 22): which of its exports
// other modules register or call, and in what context; whether another module starts it as a
// worker; the modules injected into it; the serving module that loads it. A file analyzed before
// its answer changed holds findings of the old answer: the command line analyzes it again
// (server/cli/fileAnalysis.ts, its passes), and so does the editor for its other open documents
// when an edit in one changes what the project says of them (server/lsp/validation.ts).
import type { ProjectRegistration } from '../../rules/api';
import type { ProjectIndex } from './projectIndex';

/**
 * Each registrations list as text, by the list: the project keeps a file's list (never changed in
 * place) until a contribution naming the file changes, so comparing answers writes most lists out
 * once (on a service of a few thousand modules that was 3% of analyze's time).
 */
const registrationsText = new WeakMap<readonly ProjectRegistration[], string>();

/** What the project-wide analysis says of `path`, as one string. */
export function projectAnswerKey(project: ProjectIndex, path: string): string {
  const registrations = project.registrationsOf(path);
  let text = registrationsText.get(registrations);
  if (text === undefined) {
    text = JSON.stringify(registrations);
    registrationsText.set(registrations, text);
  }
  return `${text}\n${JSON.stringify([project.startedAsWorker(path), project.injectedInto(path), project.servingLoaderKey(path)])}`;
}
