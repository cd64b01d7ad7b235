// Opening a `node --trace-gc` output (issue 29): the server looks at the file's first bytes; a
// trace is read and kept beside the profiles (the Hotframe view shows its summary), anything else
// goes on to load as a profile. The client shows what the server computed, nothing more.
import * as vscode from 'vscode';

import { Requests } from '../server/protocol/lsp';
import type { GcTraceView, ProfileSummary } from '../server/protocol/wire';
import type { HotframeContext } from './ctx';

/** The view of a trace, null when `file` is not a trace, 'failed' when reading it failed (the error was shown). */
export async function openIfGcTrace(ctx: HotframeContext, file: string): Promise<GcTraceView | null | 'failed'> {
  let trace: GcTraceView | null;
  try {
    trace = await ctx.request(Requests.loadGcTrace, { path: file });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    ctx.showError(`Hotframe: ${message.split('\n')[0]?.trim() || 'unknown error'}`);
    return 'failed';
  }
  if (trace === null) return null;
  ctx.setGcTrace(trace);
  ctx.output.appendLine(`[gc trace] ${trace.name}: ${trace.summary.collections} collections`);
  await vscode.commands.executeCommand('workbench.view.extension.hotframe');
  return trace;
}

/** What an open command answers: a trace's view or a profile's summary. */
export function isGcTraceView(value: GcTraceView | ProfileSummary | null): value is GcTraceView {
  return value !== null && 'summary' in value && 'cpuProfile' in value;
}
