// How a syntax error reads, the same in the editor's diagnostic and in `hotframe analyze`.
import type { ParseProblem } from './engine';

/** The first line of a parse error, without Babel's trailing "(line:column)": the position is shown separately. */
export function parseErrorText(problem: ParseProblem): string {
  return problem.message.split('\n')[0].replace(/ \(\d+:\d+\)$/, '');
}
