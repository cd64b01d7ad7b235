// The language server's half of "Hotframe: Profile Running Process…" (issue 28): the list of local
// Node processes for the pick, and the capture itself, run by the same engine as `hotframe attach`
// (server/attach/). The client only shows the list and opens the folder answered here.
//
// A capture signals another process and runs code in it through its inspector: refused while the
// workspace is not trusted (docs/security.md). Params crossed a process boundary: checked here.
import { LSPErrorCodes, ResponseError, WorkDoneProgress, type Connection } from 'vscode-languageserver/node';

import { capture } from '../attach/capture';
import { writeCapture } from '../attach/captureFiles';
import { checkPlatform } from '../attach/openInspector';
import { listNodeProcesses } from '../attach/processList';
import { Requests } from '../protocol/lsp';
import type { AttachParams, AttachResult, RunningProcesses } from '../protocol/wire';
import { oneLine } from '../profile/analysis/session';
import { handOverTemporaryFolder, makeTemporaryFolder, removeTemporaryFolder } from '../shared/temporaryFolders';

/** The longest capture the editor asks for (the CLI allows an hour; a notification is not that). */
export const MAX_EDITOR_CAPTURE_S = 300;

function failure(message: string): ResponseError<void> {
  return new ResponseError(LSPErrorCodes.RequestFailed, message);
}

/** Checks what the client sent: a pid and a duration, nothing else is read. */
export function attachParams(raw: unknown): AttachParams {
  const params = raw as Partial<AttachParams> | null;
  if (params === null || typeof params !== 'object') throw failure('attach: expected {pid, durationS}');
  if (typeof params.pid !== 'number' || !Number.isInteger(params.pid) || params.pid < 2 || params.pid > 2 ** 31) throw failure(`attach: pid must be a process id, got ${JSON.stringify(params.pid)}`);
  if (typeof params.durationS !== 'number' || !(params.durationS > 0) || params.durationS > MAX_EDITOR_CAPTURE_S) throw failure(`attach: durationS must be seconds, more than 0 and at most ${MAX_EDITOR_CAPTURE_S}`);
  const token = typeof params.workDoneToken === 'string' || typeof params.workDoneToken === 'number' ? params.workDoneToken : undefined;
  return { pid: params.pid, durationS: params.durationS, ...(token !== undefined ? { workDoneToken: token } : {}) };
}

export function registerAttachFeatures(connection: Connection, isTrusted: () => boolean): void {
  connection.onRequest(Requests.runningProcesses, (): RunningProcesses => {
    const unsupported = checkPlatform();
    if (unsupported !== null) return { groups: [], more: 0, unsupported };
    return listNodeProcesses();
  });

  connection.onRequest(Requests.attach, async (untrusted, token): Promise<AttachResult> => {
    if (!isTrusted()) throw failure('profiling a running process runs code in it: trust the workspace first (Manage Workspace Trust)');
    const params = attachParams(untrusted);
    const abort = new AbortController();
    const cancel = token.onCancellationRequested(() => abort.abort());
    const progress = params.workDoneToken;
    if (progress !== undefined) void connection.sendProgress(WorkDoneProgress.type, progress, { kind: 'begin', title: 'Profiling', cancellable: true });
    try {
      const result = await capture({
        targets: [{ pid: params.pid }],
        kind: 'cpu',
        durationMs: params.durationS * 1000,
        signal: abort.signal,
        onProgress: (line) => {
          if (progress !== undefined) void connection.sendProgress(WorkDoneProgress.type, progress, { kind: 'report', message: line });
        },
      });
      if (result.threads.length === 0) throw new Error(result.problems[0] ?? 'no profile was captured');
      // A temporary folder named as recordings' are: the client moves the files into the
      // workspace's recordings folder and removes it (client/attachProcess.ts). Until it is
      // answered, this process removes it if it ends (main.ts).
      const folder = makeTemporaryFolder('record');
      try {
        writeCapture(result.threads, 'cpu', folder);
      } catch (error) {
        removeTemporaryFolder(folder);
        throw error;
      }
      handOverTemporaryFolder(folder);
      return {
        folder,
        profiles: result.threads.length,
        problems: result.problems,
        pauses: result.threads.filter((t) => t.threadId === 0).map((t) => ({ pid: t.pid, startMs: t.pauseMs.start, stopMs: t.pauseMs.stop })),
      };
    } catch (error) {
      if (error instanceof ResponseError) throw error;
      throw failure(oneLine(error));
    } finally {
      cancel.dispose();
      if (progress !== undefined) void connection.sendProgress(WorkDoneProgress.type, progress, { kind: 'end' });
    }
  });
}
