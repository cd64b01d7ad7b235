// Issue 26: an edit inside a function nested in a big top-level statement re-parses that function
// only (server/static/nestedReparse.ts). Over stdio, on the real modules of bench/inputs/, each
// version of a typing session (Enter, a character typed into a name, a handler with the seeds'
// patterns pasted into a nested body and taken out, a line deleted, a call left unclosed and
// mended) must publish what the server publishes for the same text opened fresh.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as t from '@babel/types';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import type { Diagnostic } from 'vscode-languageserver';
import { parseSource } from '../../server/static/parse';
import { forEachChild } from '../../server/static/walk';
import { REPO_ROOT } from './bundles';
import { startStdioServer, type StdioServer } from './stdioServer';

const realModules = ['iobroker-js-controller-main.js', 'apostrophe-page-index.js'];

const key = (d: Diagnostic): string => `${String(d.code)} ${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character} ${d.message}`;

function positionAt(text: string, offset: number): { line: number; character: number } {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length - 1, character: offset - lineStart };
}

/** Block bodies of functions nested in the biggest top-level statement, five spread over it. */
function nestedBodies(text: string, name: string): t.BlockStatement[] {
  const body = parseSource(`/virtual/${name}`, text).ast?.program.body ?? [];
  const biggest = body.reduce((a, b) => ((b.end ?? 0) - (b.start ?? 0) > (a.end ?? 0) - (a.start ?? 0) ? b : a));
  const bodies: t.BlockStatement[] = [];
  const visit = (node: t.Node): void => {
    if (node !== biggest && /Function|Method/.test(node.type) && 'body' in node && (node.body as t.Node).type === 'BlockStatement' && (node.body as t.BlockStatement).body.length > 1) {
      bodies.push(node.body as t.BlockStatement);
    }
    forEachChild(node, visit);
  };
  visit(biggest);
  return Array.from({ length: 5 }, (_, i) => bodies[Math.floor(((i + 0.5) * bodies.length) / 5)]);
}

describe('edits inside nested functions of real modules, over stdio (issue 26)', function () {
  this.timeout(240_000);
  let server: StdioServer | undefined;
  let connection: MessageConnection;

  before(async () => {
    server = await startStdioServer();
    connection = server.connection;
  });

  after(() => server?.stop());

  for (const name of realModules) {
    it(`${name}: every version publishes what a fresh open of its text publishes`, async () => {
      const original = readFileSync(join(REPO_ROOT, 'bench', 'inputs', name), 'utf8');
      const uri = `file:///virtual/nested-edits/${name}`;
      let text = original;
      let version = 1;
      let fresh = 0;
      await connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'javascript', version, text } });
      const opened = await server!.publishFor(uri, (p) => p.version === version);
      const edit = async (at: number, remove: number, insert: string): Promise<Diagnostic[]> => {
        version++;
        const range = { start: positionAt(text, at), end: positionAt(text, at + remove) };
        text = text.slice(0, at) + insert + text.slice(at + remove);
        await connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ range, text: insert }] });
        return server!.publishFor(uri, (p) => p.version === version);
      };
      const same = async (got: Diagnostic[], where: string): Promise<void> => {
        const copy = `file:///virtual/nested-edits/fresh-${++fresh}-${name}`;
        await connection.sendNotification('textDocument/didOpen', { textDocument: { uri: copy, languageId: 'javascript', version: 1, text } });
        const want = await server!.publishFor(copy, (p) => p.version === 1);
        await connection.sendNotification('textDocument/didClose', { textDocument: { uri: copy } });
        assert.deepEqual(got.map(key), want.map(key), `${name}: ${where}`);
      };
      let withFindings = 0;
      // From the last site backwards, so that the offsets found on the original text stay right.
      for (const block of nestedBodies(original, name).reverse()) {
        const first = block.body[0];
        const at = first.start ?? 0;
        const line = `line ${first.loc?.start.line}`;
        await same(await edit(at, 0, '\n    '), `Enter at ${line}`);
        await edit(at, 5, '');
        const pasted = 'const redis = new (require(\'ioredis\'))(); redis.get(String(Date.now())); require(\'child_process\').execSync(\'df -k\');\n    ';
        const got = await edit(at, 0, pasted);
        if (got.filter((d) => d.code !== 'parse-error').length > opened.filter((d) => d.code !== 'parse-error').length) withFindings++;
        await same(got, `a handler's patterns pasted at ${line}`);
        await same(await edit(at + pasted.indexOf('Date') + 4, 0, 'x'), `a character typed into a name at ${line}`);
        await same(await edit(at, pasted.length + 1, ''), `the paste taken out at ${line}`);
        await same(await edit(at, 0, 'foo('), `a call left unclosed at ${line}`);
        await same(await edit(at, 4, ''), `the call mended at ${line}`);
        const second = block.body[1].start ?? 0;
        const removed = original.slice(at, second);
        await same(await edit(at, second - at, ''), `the first statement deleted at ${line}`);
        await same(await edit(at, 0, removed), `and put back at ${line}`);
      }
      assert.equal(text, original);
      // A module the rules find serving code in (iobroker's controller; apostrophe's page module has
      // none: its handlers are registered through its framework) finds the pasted patterns.
      if (opened.length > 0) assert.ok(withFindings >= 3, `only ${withFindings} of 5 pasted handlers added findings`);
      await connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
    });
  }
});
