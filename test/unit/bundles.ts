// The language server (with its profile worker beside it, as in dist/) and CLI bundles the
// process tests spawn. Built once per test run with
// esbuild (the options of scripts/build.mjs) into a private temp folder, so a half-written
// dist/ from a concurrent `npm run build`, or another entry failing to build, cannot affect them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { CLI_PARTS, cliPartEntry, cliPartsPlugin } from '../../scripts/cliParts.mjs';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface Bundles {
  server: string;
  cli: string;
}

let built: Promise<Bundles> | null = null;

export function bundles(): Promise<Bundles> {
  built ??= (async () => {
    const out = mkdtempSync(join(tmpdir(), 'hotframe-bundles-'));
    process.once('exit', () => rmSync(out, { recursive: true, force: true }));
    const common = {
      bundle: true,
      platform: 'node' as const,
      target: 'node20',
      format: 'cjs' as const,
      logLevel: 'error' as const,
      define: { VERSION: '"0.0.0-test"' },
      external: ['vscode'],
      absWorkingDir: REPO_ROOT,
    };
    const result = { server: join(out, 'server.js'), cli: join(out, 'cli.js') };
    await Promise.all([
      build({ ...common, entryPoints: ['server/lsp/main.ts'], outfile: result.server }),
      build({ ...common, entryPoints: ['server/cli/main.ts'], outfile: result.cli, plugins: [cliPartsPlugin(REPO_ROOT)] }),
      ...CLI_PARTS.map((part) => build({ ...common, stdin: cliPartEntry(REPO_ROOT, part), outfile: join(out, part.file) })),
      build({ ...common, entryPoints: ['server/lsp/profileWorker.ts'], outfile: join(out, 'profileWorker.js') }),
      build({ ...common, entryPoints: ['server/cli/mcp/mcpCommand.ts'], outfile: join(out, 'mcp.js') }),
    ]);
    return result;
  })();
  return built;
}
