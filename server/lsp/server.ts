// Connection wiring of the language server: the connection, the open documents, the settings,
// validation, code actions and the profile half, joined in one place.
import { format } from 'node:util';
import {
  CodeActionKind,
  DidChangeWatchedFilesNotification,
  ProposedFeatures,
  TextDocumentSyncKind,
  TextDocuments,
  createConnection,
} from 'vscode-languageserver/node';
import type { Connection, InitializeResult, Message, MessageReader, MessageWriter } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';

import { ProjectIndex, readModuleFromDisk } from '../static/projectIndex';
import { Notifications, type InitializationOptions } from '../protocol/lsp';
import { isSourceFile, SOURCE_EXTENSIONS, uriToPath } from '../shared/paths';
import { analyzeSource } from '../static/engine';
import type { Finding } from '../../rules/api';
import type { LineFinding } from './callLineFindings';
import { ReadScope } from '../shared/readScope';
import { codeActionsFor } from './codeActions';
import type { FindingDiagnosticData } from './diagnostics';
import { findingHoverMarkdown } from './findingHover';
import { registerAttachFeatures } from './attachFeatures';
import { registerProfileFeatures } from './profileFeatures';
import { SettingsStore } from './settings';
import { Validator } from './validation';

/**
 * The newest document version read from the wire, per URI. The jsonrpc layer applies one message
 * per macrotask, so a didChange can already be received while an older version is about to be
 * validated; this is how validation knows it has been superseded.
 */
export class IncomingVersions {
  private readonly latest = new Map<string, number>();

  observe(message: Message): void {
    const { method, params } = message as { method?: unknown; params?: unknown };
    if (method !== 'textDocument/didOpen' && method !== 'textDocument/didChange' && method !== 'textDocument/didClose') return;
    const document = (params as { textDocument?: { uri?: unknown; version?: unknown } } | undefined)?.textDocument;
    if (typeof document?.uri !== 'string') return;
    if (method === 'textDocument/didClose') this.latest.delete(document.uri);
    else if (typeof document.version === 'number') this.latest.set(document.uri, document.version);
  }

  newerThan(uri: string, version: number): boolean {
    const latest = this.latest.get(uri);
    return latest !== undefined && latest > version;
  }
}

/** Passes every message through `versions` on its way into the connection. */
function observedReader(reader: MessageReader, versions: IncomingVersions): MessageReader {
  return {
    onError: reader.onError,
    onClose: reader.onClose,
    onPartialMessage: reader.onPartialMessage,
    listen: (callback) =>
      reader.listen((message) => {
        versions.observe(message);
        callback(message);
      }),
    dispose: () => reader.dispose(),
  };
}

/** stdout may be the protocol channel: route stray console output to the client's log instead. */
function routeConsole(connection: Connection): void {
  console.log = (...args: unknown[]) => connection.console.log(format(...args));
  console.info = (...args: unknown[]) => connection.console.info(format(...args));
  console.warn = (...args: unknown[]) => connection.console.warn(format(...args));
  console.error = (...args: unknown[]) => connection.console.error(format(...args));
  console.debug = (...args: unknown[]) => connection.console.log(format(...args));
}

export function startServer(reader: MessageReader, writer: MessageWriter): Connection {
  const versions = new IncomingVersions();
  const connection = createConnection(ProposedFeatures.all, observedReader(reader, versions), writer);
  routeConsole(connection);
  const documents = new TextDocuments(TextDocument);
  const settings = new SettingsStore(connection);
  // Cross-module facts read open documents from the editor (unsaved text wins over the disk).
  // Matched by path, not by URI string: editors and Node percent-encode file URIs differently.
  const openText = (filePath: string) => documents.all().find((document) => uriToPath(document.uri) === filePath)?.getText();
  // From disk, only modules inside the workspace folders (links resolved): an absolute or `../`
  // require must not read elsewhere (whether a finding appears would tell what the file holds).
  // Without folders (lone files opened by hand) there is no workspace to stay in: no limit.
  let workspaceScope: ReadScope | null = null;
  const mayReadModule = (filePath: string): boolean => workspaceScope === null || workspaceScope.allows(filePath);
  const project = new ProjectIndex({ readFile: (filePath) => openText(filePath) ?? (mayReadModule(filePath) ? readModuleFromDisk(filePath) : null) });
  let versionedEdits = false;
  let watchFiles = false;
  // Until the client says otherwise (VS Code's Restricted Mode), the workspace is trusted.
  let workspaceTrusted = true;

  /**
   * The findings of one file, for a sandwich's call lines: an open document's last validation,
   * else the file analyzed from disk when it is a source file inside the workspace folders.
   */
  const findingsIn = (filePath: string): LineFinding[] => {
    const document = documents.all().find((d) => uriToPath(d.uri) === filePath);
    let findings: readonly Finding[] | undefined;
    if (document !== undefined) findings = validator.resultFor(document.uri, document.version)?.findings;
    else if (isSourceFile(filePath) && mayReadModule(filePath)) {
      const text = readModuleFromDisk(filePath);
      if (text !== null) {
        try {
          findings = analyzeSource({ filePath, text, levels: settings.current.rules, project }).findings;
        } catch {
          findings = undefined;
        }
      }
    }
    return (findings ?? []).map((f) => ({ rule: f.ruleId, message: f.message, startLine: f.range.loc.start.line, endLine: f.range.loc.end.line }));
  };

  const validator: Validator = new Validator({
    connection,
    documents,
    settings: () => settings.current,
    project,
    profile: registerProfileFeatures(connection, () => validator.republishAll(), () => settings.current, () => workspaceTrusted, (uri, position) => {
      const document = documents.get(uri);
      const result = document === undefined ? undefined : validator.resultFor(uri, document.version);
      if (result === undefined) return null;
      return findingHoverMarkdown(result.diagnostics, position, (diagnostic) => {
        const index = (diagnostic.data as Partial<FindingDiagnosticData> | undefined)?.findingIndex;
        return typeof index === 'number' && result.findings[index]?.evidence === 'frequency';
      });
    }, (filePath) => findingsIn(filePath)),
    newerVersionQueued: (uri, version) => versions.newerThan(uri, version),
  });

  connection.onInitialize((params): InitializeResult => {
    settings.initialize(params.capabilities);
    workspaceTrusted = (params.initializationOptions as InitializationOptions | null | undefined)?.workspaceTrusted !== false;
    const given = (params.initializationOptions as InitializationOptions | null | undefined)?.workspaceRoots;
    const roots = Array.isArray(given) ? given.filter((r): r is string => typeof r === 'string') : (params.workspaceFolders ?? []).flatMap((f) => uriToPath(f.uri) ?? []);
    workspaceScope = roots.length > 0 ? new ReadScope(roots) : null;
    versionedEdits = params.capabilities.workspace?.workspaceEdit?.documentChanges === true;
    watchFiles = params.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
        hoverProvider: true,
      },
      serverInfo: { name: 'hotframe', version: typeof VERSION === 'string' ? VERSION : 'dev' },
    };
  });

  registerAttachFeatures(connection, () => workspaceTrusted);

  connection.onNotification(Notifications.workspaceTrusted, () => {
    workspaceTrusted = true;
  });

  connection.onInitialized(() => {
    settings.onDidChange(() => validator.requestAll());
    settings.start().catch((error: unknown) => connection.console.error(`hotframe: settings: ${error instanceof Error ? error.message : String(error)}`));
    if (watchFiles) {
      const globPattern = `**/*.{${SOURCE_EXTENSIONS.map((ext) => ext.slice(1)).join(',')}}`;
      void connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern }] });
    }
  });

  // A file changed on disk (saved, generated, checked out): other modules may now import different models.
  connection.onDidChangeWatchedFiles((params) => {
    for (const change of params.changes) project.invalidate(uriToPath(change.uri));
    validator.requestAll();
  });

  documents.onDidChangeContent((event) => {
    project.invalidate(uriToPath(event.document.uri));
    validator.request(event.document.uri);
  });
  documents.onDidClose((event) => {
    project.invalidate(uriToPath(event.document.uri));
    validator.forget(event.document.uri);
  });

  connection.onCodeAction((params) => {
    const document = documents.get(params.textDocument.uri);
    if (document === undefined) return [];
    const result = validator.resultFor(document.uri, document.version);
    return result === undefined ? [] : codeActionsFor(result, params, versionedEdits);
  });

  documents.listen(connection);
  connection.listen();
  return connection;
}

declare const VERSION: string; // injected by scripts/build.mjs
