// The one object that holds the extension's state: the language client and what profiles are
// loaded; errors for the user go through it. Every feature receives it instead of reading
// module globals.
import * as vscode from 'vscode';
import { RequestType, type LanguageClient, type RequestType0 } from 'vscode-languageclient/node';
import type { GcTraceView, ProfileSummary, ProfileRole } from '../server/protocol/wire';
import { noLinks } from './presentation/plainText';

export class HotframeContext implements vscode.Disposable {
  profile: ProfileSummary | null = null;
  baseline: ProfileSummary | null = null;
  /** An allocation profile joined to the CPU profile (Hotframe: Add Allocation Profile…). */
  allocation: ProfileSummary | null = null;
  /** A --trace-gc output opened beside the profiles (issue 29); the view shows its summary. */
  gcTrace: GcTraceView | null = null;

  private readonly changed = new vscode.EventEmitter<ProfileRole | 'cleared' | 'gcTrace'>();
  /** Fires after a profile is loaded (with its role) or both are cleared; views re-query the server. */
  readonly onDidChangeProfile = this.changed.event;
  private readonly errors = new vscode.EventEmitter<string>();
  /** Fires with each error message shown to the user (the extension's API reports the last one). */
  readonly onDidShowError = this.errors.event;
  private readonly warnings = new vscode.EventEmitter<string>();
  /** Fires with each warning message shown to the user (the extension's API reports the last one). */
  readonly onDidShowWarning = this.warnings.event;
  private started: Promise<void> | null = null;
  private progressTokens = 0;

  constructor(
    readonly extension: vscode.ExtensionContext,
    readonly client: LanguageClient,
    readonly output: vscode.OutputChannel,
  ) {
    // `hotframe.profileLoaded` drives menus and the view's welcome text (package.json `when` clauses).
    this.changed.event(() => void vscode.commands.executeCommand('setContext', 'hotframe.profileLoaded', this.profile !== null));
    this.changed.event(() => void vscode.commands.executeCommand('setContext', 'hotframe.comparing', this.baseline !== null));
  }

  /** Starts the server on first use; activation does not wait for it. */
  ready(): Promise<void> {
    this.started ??= this.client.start().catch((error: unknown) => {
      this.started = null;
      throw error;
    });
    return this.started;
  }

  /** Sends a request of server/protocol/lsp.ts once the server runs; its params and result types come from `type`. */
  async request<R>(type: RequestType0<R, void>): Promise<R>;
  async request<P, R>(type: RequestType<P, R, void>, params: P): Promise<R>;
  async request<P, R>(type: RequestType0<R, void> | RequestType<P, R, void>, params?: P): Promise<R> {
    await this.ready();
    return type instanceof RequestType ? this.client.sendRequest(type, params as P) : this.client.sendRequest(type);
  }

  /** A fresh workDoneToken for a request whose progress the client displays. */
  nextProgressToken(): string {
    return `hotframe-progress-${++this.progressTokens}`;
  }

  setProfile(role: ProfileRole, summary: ProfileSummary): void {
    if (role === 'baseline') this.baseline = summary;
    else if (role === 'allocation') this.allocation = summary;
    else {
      // Opening another profile ends a comparison and an allocation join (the server drops them too).
      this.profile = summary;
      this.baseline = null;
      this.allocation = null;
    }
    this.changed.fire(role);
  }

  /** A GC trace was opened: the profiles stay, the view shows the trace beside them. */
  setGcTrace(trace: GcTraceView): void {
    this.gcTrace = trace;
    this.changed.fire('gcTrace');
  }

  clearProfiles(): void {
    this.gcTrace = null;
    this.profile = null;
    this.baseline = null;
    this.allocation = null;
    this.changed.fire('cleared');
  }

  showError(message: string): void {
    this.output.appendLine(`[error] ${message}`);
    // Messages quote file names, paths and the server's words: no markdown link may form.
    void vscode.window.showErrorMessage(noLinks(message));
    this.errors.fire(noLinks(message));
  }

  showWarning(message: string): void {
    this.output.appendLine(`[warning] ${message}`);
    void vscode.window.showWarningMessage(noLinks(message));
    this.warnings.fire(noLinks(message));
  }

  dispose(): void {
    this.changed.dispose();
    this.warnings.dispose();
    this.errors.dispose();
  }
}
