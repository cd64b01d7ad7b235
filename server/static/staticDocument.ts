// What the engine keeps of one editor document between its analyses, so that an edit costs what
// it touched: the previous tree (re-parsed only around the edit), the binding resolver's scopes
// and the rules' reports of the statements the edit did not touch. The language server holds one per open
// document and hands it to analyzeSource; the command line analyzes each file once, without one.
import { BindingResolver } from './bindings';
import { IncrementalParser } from './incrementalParse';
import { StatementRecords } from './statementRecords';

export class StaticDocument {
  readonly parser = new IncrementalParser();
  /** Kept: the trees it resolves come back, edited, for the next analysis. */
  readonly bindings = new BindingResolver(true);
  /** What the rules made of each unchanged statement (see statementRecords.ts). */
  readonly records = new StatementRecords();
}
