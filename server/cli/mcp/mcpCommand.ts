// `hotframe mcp [--root DIR]`: an MCP server on stdio (the Model Context Protocol's SDK) whose tools
// answer a coding agent's questions about the workspace with the command line's JSON (tools.ts).
// stdout carries the protocol: nothing else may be written there.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

import { InputError } from '../../shared/errors';
import { parseCommandArgs } from '../args';
import { rootFolder } from '../profileCommand';
import { optionNames } from '../commandSpecs';
import { callTool, workspaceTools } from './tools';

declare const VERSION: string; // injected by scripts/build.mjs

export async function runMcp(argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, optionNames('mcp'));
  if (args.positionals.length > 0) throw new InputError(`mcp: unexpected '${args.positionals[0]}' (usage: hotframe mcp [--root DIR])`);
  const root = rootFolder(args);

  const server = new McpServer({ name: 'hotframe', version: typeof VERSION === 'string' ? VERSION : 'dev' });
  for (const tool of workspaceTools(root)) {
    server.registerTool(tool.name, { title: tool.title, description: tool.description, inputSchema: tool.inputSchema, annotations: { readOnlyHint: true, openWorldHint: false } }, (toolArgs: Record<string, unknown>) => callTool(tool, toolArgs));
  }
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((done) => {
    transport.onclose = () => done();
    process.stdin.once('end', () => done());
  });
  await server.connect(transport);
  await closed;
  return 0;
}
