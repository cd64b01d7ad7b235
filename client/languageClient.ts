// Starts the Hotframe language server (dist/server.js, bundled by esbuild) in its own Node
// process over IPC. All parsing and profile analysis happen there; the client only displays.
import * as vscode from 'vscode';
import { LanguageClient, RevealOutputChannelOn, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { SECTION } from './config';
import { SOURCE_LANGUAGE_IDS, type InitializationOptions } from '../server/protocol/lsp';

export function createLanguageClient(extension: vscode.ExtensionContext, output: vscode.OutputChannel): LanguageClient {
  const module = vscode.Uri.joinPath(extension.extensionUri, 'dist', 'server.js').fsPath;
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6009'] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: SOURCE_LANGUAGE_IDS.map((language) => ({ scheme: 'file', language })),
    synchronize: { configurationSection: SECTION },
    outputChannel: output,
    // Failed requests are reported once, by the command that made them (client/commands.ts).
    revealOutputChannelOn: RevealOutputChannelOn.Never,
    // Read when the server starts, so the trust state is the current one.
    initializationOptions: (): InitializationOptions => ({
      workspaceRoots: (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath),
      workspaceTrusted: vscode.workspace.isTrusted,
    }),
  };
  return new LanguageClient('hotframe', 'Hotframe', serverOptions, clientOptions);
}
