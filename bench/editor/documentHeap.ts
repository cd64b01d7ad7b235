// The heap an open document costs the language server: its StaticDocument (the tree, the scopes,
// the statement records) and its last analysis (the findings), after an edit or two, with the
// collector run. Run by lspLatency.bench.mjs as `node --expose-gc --import tsx` on a file it wrote;
// prints the MB per document, the mean of three documents open at once.
import { readFileSync } from 'node:fs';
import { analyzeSource, type AnalysisResult } from '../../server/static/engine';
import { StaticDocument } from '../../server/static/staticDocument';

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with --expose-gc');
const file = process.argv[2];
const text = readFileSync(file, 'utf8');
const heapAfterGc = (): number => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

// Module-level caches (message templates, Babel's visitor tables) are filled by a first document, not counted.
analyzeSource({ filePath: file, text, document: new StaticDocument() });
const before = heapAfterGc();
const kept: { document: StaticDocument; result: AnalysisResult }[] = [];
for (let i = 0; i < 3; i++) {
  const document = new StaticDocument();
  const middle = text.indexOf('\n', text.length >> 1) + 1;
  analyzeSource({ filePath: file, text, document });
  analyzeSource({ filePath: file, text: `${text.slice(0, middle)}\n${text.slice(middle)}`, document });
  kept.push({ document, result: analyzeSource({ filePath: file, text, document }) });
}
const perDocument = (heapAfterGc() - before) / 3 / (1024 * 1024);
console.log(JSON.stringify({ mb: Number(perDocument.toFixed(1)), documents: kept.length }));
