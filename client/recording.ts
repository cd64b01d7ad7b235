// "Hotframe: Record CPU Profile…": pick an npm script or type a command, run it with the
// profiler in every Node process it starts (server/shared/recordProfile.ts), show a Stop button
// with the elapsed time, and when the command ends save the profiles in the workspace
// (`hotframe.recordingsFolder`, default profiles/; server/shared/recordingFiles.ts) and open the
// busiest.
//
// A typed command runs as a program and its arguments, not through a shell: `FOO=1 node x.js`
// sets FOO, quotes group words, and shell syntax (pipes, `&&`, `$(…)`) is refused with a hint to
// use an npm script (which runs in npm's shell, as the user wrote it).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { formatMs } from '../server/shared/format';
import { parseCommandLine, PROFILE_KINDS, startRecording, type ProfileKindName, type Recording, type RecordingResult } from '../server/shared/recordProfile';
import { keepRecording, recordingsFolderIn, type KeepTarget } from '../server/shared/recordingFiles';
import { removeTemporaryFolder } from '../server/shared/temporaryFolders';
import { readConfig } from './config';
import type { HotframeContext } from './ctx';
import { cpuDescription, DEFAULT_SWEEP_SIZES, sweepTitle, howItEnded, recordingStatus, stoppingStatus, sweepStatus } from './presentation/recording';
import { noLinks } from './presentation/plainText';
import { parseSemiSpaceSizes, runAtSemiSpaceSize } from '../server/shared/semiSpaceRun';
import { Requests } from '../server/protocol/lsp';
import type { SemiSpaceRunFiles, SemiSpaceSweepResult } from '../server/protocol/wire';
import { SweepResult } from './sweepResult';

export const RECORD_COMMAND = 'hotframe.recordProfile';
export const RECORD_ALLOCATION_COMMAND = 'hotframe.recordAllocationProfile';
export const STOP_COMMAND = 'hotframe.stopRecording';

interface ScriptPick extends vscode.QuickPickItem {
  argv?: string[];
  cwd?: string;
  typed?: true;
  /** The semi-space sweep (issue 29): the workload is picked next. */
  sweep?: true;
}

function npmScripts(): ScriptPick[] {
  const picks: ScriptPick[] = [];
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const file = path.join(folder.uri.fsPath, 'package.json');
    let scripts: Record<string, unknown> = {};
    try {
      const stat = fs.statSync(file);
      if (!stat.isFile() || stat.size > 1024 * 1024) continue;
      const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as { scripts?: unknown };
      if (manifest.scripts && typeof manifest.scripts === 'object') scripts = manifest.scripts as Record<string, unknown>;
    } catch {
      continue;
    }
    for (const [name, body] of Object.entries(scripts)) {
      if (typeof body !== 'string' || /^(pre|post)/.test(name)) continue;
      // Script names and bodies come from the workspace: shown without links.
      picks.push({ label: noLinks(`npm run ${name}`), description: noLinks(body), detail: noLinks(folder.name), argv: [process.platform === 'win32' ? 'npm.cmd' : 'npm', 'run', name], cwd: folder.uri.fsPath });
    }
  }
  return picks;
}

export class ProfileRecorder implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('hotframe.recording', vscode.StatusBarAlignment.Left, 11);
  private current: { recording: Recording; label: string; timer: NodeJS.Timeout } | null = null;
  private disposed = false;
  /** What the current (or last) recording records. */
  private kind: ProfileKindName = 'cpu';
  /** Stop was asked during a semi-space sweep: no further size is started. */
  private sweepStopped = false;
  private readonly sweepResult = new SweepResult();

  private get title(): string {
    return this.kind === 'cpu' ? 'Record CPU Profile' : 'Record Allocation Profile';
  }

  constructor(
    private readonly ctx: HotframeContext,
    private readonly openProfile: (file: string) => Promise<unknown>,
  ) {
    this.item.name = 'Hotframe Recording';
    this.item.command = STOP_COMMAND;
    this.item.tooltip = 'Stop the command and open its CPU profile';
  }

  get isRecording(): boolean {
    return this.current !== null;
  }

  /** What the status bar entry shows while recording. */
  get statusText(): string | null {
    return this.current ? this.item.text : null;
  }

  /**
   * The command: asks what to run (an npm script or a typed command line, never one passed as
   * an argument); resolves when the recording has ended and its profile is open. `kind`
   * 'allocation' records allocation profiles with the garbage kept (Hotframe: Record Allocation
   * Profile…).
   */
  async record(kind: ProfileKindName = 'cpu'): Promise<RecordingResult | SemiSpaceSweepResult | null> {
    if (this.current) {
      void vscode.window.showInformationMessage(noLinks(`Hotframe is already recording ${this.current.label}.`), 'Stop').then((choice) => choice && this.stop());
      return null;
    }
    // The extension runs nothing of an untrusted workspace; recording runs its scripts.
    if (!vscode.workspace.isTrusted) {
      this.ctx.showError('Hotframe: recording runs this workspace\'s code; trust the workspace first (Manage Workspace Trust)');
      return null;
    }
    this.kind = kind;
    const what = await this.ask();
    if (what === null) return null;
    // Where the profiles will be saved, checked before anything runs.
    const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(what.cwd));
    const workspace = folder?.uri.fsPath ?? what.cwd;
    const out = recordingsFolderIn(workspace, readConfig(folder?.uri).recordingsFolder);
    if ('error' in out) {
      this.ctx.showError(`Hotframe: cannot record: ${out.error}`);
      return null;
    }
    if (what.sizes !== undefined) return this.sweep(what.sizes, what.argv, what.cwd, what.env, what.label, out.dir, workspace);
    return this.run(what.argv, what.cwd, what.env, what.label, { outDir: out.dir, argv: what.argv, startedAt: Date.now(), workspace });
  }

  stop(): void {
    this.sweepStopped = true;
    if (!this.current) return;
    this.item.text = noLinks(stoppingStatus(this.current.label));
    this.current.recording.stop();
  }

  private async ask(sizes?: number[]): Promise<{ argv: string[]; cwd: string; env: Record<string, string>; label: string; sizes?: number[] } | null> {
    const typed: ScriptPick = { label: '$(terminal) Type a command…', detail: 'Run as a program and its arguments (not in a shell); NODE_OPTIONS records every Node process it starts', typed: true };
    // Seed 001's experiment, offered where CPU profiles are recorded: the workload is picked next.
    const sweep: ScriptPick = { label: '$(beaker) Semi-space sweep…', detail: 'Run a command once per --max-semi-space-size and compare GC share, pauses and wall time (--trace-gc)', sweep: true };
    const offered = this.kind === 'cpu' && sizes === undefined ? [...npmScripts(), typed, sweep] : [...npmScripts(), typed];
    const title = sizes === undefined ? this.title : sweepTitle(sizes);
    const placeHolder = sizes === undefined ? `Run an npm script or a command with the ${this.kind === 'cpu' ? 'CPU profiler' : 'allocation sampler (collected objects kept)'}` : 'The workload to run once per size: an npm script or a command';
    const picked = await vscode.window.showQuickPick<ScriptPick>(offered, { title: noLinks(`Hotframe: ${title}`), placeHolder: noLinks(placeHolder) });
    if (!picked) return null;
    if (picked.sweep) {
      const text = await vscode.window.showInputBox({
        title: 'Hotframe: Semi-space sweep',
        prompt: 'Sizes to try, in MB (--max-semi-space-size), separated by commas: one run of the workload each',
        value: this.ctx.extension.workspaceState.get<string>('hotframe.lastSweepSizes') ?? DEFAULT_SWEEP_SIZES,
        validateInput: (value) => {
          const parsed = parseSemiSpaceSizes(value);
          return 'error' in parsed ? parsed.error : null;
        },
      });
      if (text === undefined) return null;
      const parsed = parseSemiSpaceSizes(text);
      if ('error' in parsed) return null;
      await this.ctx.extension.workspaceState.update('hotframe.lastSweepSizes', text);
      return this.ask(parsed);
    }
    const withSizes = sizes === undefined ? {} : { sizes };
    if (!picked.typed) return { argv: picked.argv!, cwd: picked.cwd!, env: {}, label: picked.label, ...withSizes };
    if (!picked.typed) return { argv: picked.argv!, cwd: picked.cwd!, env: {}, label: picked.label };
    const line = await vscode.window.showInputBox({
      title: noLinks(`Hotframe: ${this.title}`),
      prompt: 'The command to run, e.g. node server.js (no shell: use an npm script for pipes or &&)',
      value: this.ctx.extension.workspaceState.get<string>('hotframe.lastRecordCommand') ?? 'node ',
      validateInput: (value) => {
        const parsed = parseCommandLine(value);
        return 'error' in parsed ? `Cannot run without a shell: ${parsed.error}` : null;
      },
    });
    if (line === undefined) return null;
    const parsed = parseCommandLine(line);
    if ('error' in parsed) return null;
    await this.ctx.extension.workspaceState.update('hotframe.lastRecordCommand', line);
    return { argv: parsed.argv, cwd: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd(), env: parsed.env, label: line, ...withSizes };
  }

  /**
   * Seed 001's experiment: the workload once per size (server/shared/semiSpaceRun.ts, as `hotframe
   * record --semi-space` runs it), each run's trace and profile saved in the recordings folder,
   * then the server compares them and the result opens as the CLI prints it. Stop ends the current
   * run and starts no further size.
   */
  private async sweep(sizes: number[], argv: string[], cwd: string, env: Record<string, string>, label: string, outDir: string, workspace: string): Promise<SemiSpaceSweepResult | null> {
    const output = this.ctx.output;
    output.appendLine(`[sweep] ${label}: one run per --max-semi-space-size of ${sizes.join(', ')} MB (in ${cwd}; files saved in ${outDir})`);
    this.sweepStopped = false;
    const runs: SemiSpaceRunFiles[] = [];
    const startedAt = Date.now();
    let shown = { size: sizes[0], run: 1 };
    const tick = (): void => {
      if (this.current) this.item.text = noLinks(sweepStatus(shown.size, shown.run, sizes.length, Date.now() - startedAt));
    };
    const timer = setInterval(tick, 1000);
    this.item.show();
    void vscode.commands.executeCommand('setContext', 'hotframe.recording', true);
    try {
      for (const [i, size] of sizes.entries()) {
        if (this.sweepStopped) break;
        shown = { size, run: i + 1 };
        const ran = await runAtSemiSpaceSize(size, {
          command: argv,
          cwd,
          env,
          outDir,
          workspace,
          onStderr: (text) => output.append(text),
          onStart: (recording) => {
            this.current = { recording, label, timer };
            tick();
            if (this.sweepStopped) recording.stop();
          },
        });
        this.current = null;
        if (ran.truncated) output.appendLine(`[sweep] the ${size} MB run printed more than was kept; only the first part is read`);
        output.appendLine(`[sweep] ${size} MB: ${howItEnded({ code: ran.exitCode, signal: ran.signal })} after ${formatMs(ran.wallMs)}`);
        runs.push({ sizeMb: size, wallMs: ran.wallMs, exitCode: ran.exitCode, tracePath: ran.tracePath, profilePath: ran.profilePaths[0] ?? null, files: [...ran.profilePaths, ran.tracePath] });
      }
    } catch (error) {
      this.ctx.showError(`Hotframe: semi-space sweep: ${error instanceof Error ? error.message : String(error)}`);
      return null;
    } finally {
      clearInterval(timer);
      this.current = null;
      this.item.hide();
      void vscode.commands.executeCommand('setContext', 'hotframe.recording', false);
    }
    if (runs.length < 2) {
      this.ctx.showError(`Hotframe: semi-space sweep stopped after ${runs.length} of ${sizes.length} runs; nothing to compare`);
      return null;
    }
    try {
      const result = await this.ctx.request(Requests.semiSpaceSweep, { runs, root: workspace });
      output.appendLine(`[sweep] ${result.enoughMb === null ? `GC still improved at ${sizes.at(-1)} MB` : `enough: ${result.enoughMb} MB`}`);
      await this.sweepResult.show(result.text);
      return result;
    } catch (error) {
      this.ctx.showError(`Hotframe: semi-space sweep: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`);
      return null;
    }
  }

  private async run(argv: string[], cwd: string, env: Record<string, string>, label: string, target: KeepTarget): Promise<RecordingResult | null> {
    const output = this.ctx.output;
    let recording: Recording;
    try {
      recording = startRecording({ command: argv, cwd, env, kind: this.kind, stdio: 'pipe', onOutput: (text) => output.append(text) });
    } catch (error) {
      this.ctx.showError(`Hotframe: cannot record: ${error instanceof Error ? error.message : String(error)}`);
      return null;
    }
    output.appendLine(`[record] ${label} (in ${cwd}; profiles will be saved in ${target.outDir})`);
    const tick = (): void => {
      if (this.current) this.item.text = recordingStatus(Date.now() - recording.startedAt);
    };
    this.current = { recording, label, timer: setInterval(tick, 1000) };
    tick();
    this.item.show();
    void vscode.commands.executeCommand('setContext', 'hotframe.recording', true);
    let result: RecordingResult;
    try {
      result = await recording.done;
    } catch (error) {
      this.ctx.showError(`Hotframe: ${error instanceof Error ? error.message : String(error)}`);
      return null;
    } finally {
      clearInterval(this.current.timer);
      this.current = null;
      this.item.hide();
      void vscode.commands.executeCommand('setContext', 'hotframe.recording', false);
    }
    // Disposed meanwhile: its folder is gone (dispose) and nobody is left to show the profiles to.
    if (this.disposed) return null;
    const ended = howItEnded(result);
    // Saved in the workspace under the command's name and start time; the temporary folder goes.
    try {
      const saved = keepRecording(result.dir, result.profiles.map((p) => p.path), { ...target, startedAt: recording.startedAt });
      result = { ...result, dir: target.outDir, profiles: result.profiles.map((p, i) => ({ ...p, path: saved[i] })) };
    } catch (error) {
      this.ctx.showError(`Hotframe: ${label} ${ended}, but ${error instanceof Error ? error.message : String(error)}`);
      return result;
    }
    output.appendLine(`[record] ${label} ${ended}; ${result.profiles.length} profile(s) saved in ${result.dir}`);
    if (result.profiles.length === 0) {
      this.ctx.showError(`Hotframe: ${label} ${ended} and no Node process wrote a ${PROFILE_KINDS[this.kind].label}`);
      return result;
    }
    const busiest = result.profiles[0];
    await this.openProfile(busiest.path);
    if (result.profiles.length > 1) {
      const cpu = busiest.cpuMs === null ? '' : ` (${formatMs(busiest.cpuMs)} of CPU)`;
      void vscode.window
        .showInformationMessage(noLinks(`Hotframe: ${result.profiles.length} Node processes were recorded; opened the busiest, ${path.basename(busiest.path)}${cpu}.`), 'Open Another…')
        .then((choice) => (choice ? this.pickAnother(result) : undefined));
    }
    return result;
  }

  private async pickAnother(result: RecordingResult): Promise<void> {
    const items = result.profiles.map((p) => ({ label: noLinks(path.basename(p.path)), description: cpuDescription(p.cpuMs), file: p.path }));
    const picked = await vscode.window.showQuickPick(items, { title: 'Hotframe: open a recorded profile' });
    if (picked) await this.openProfile(picked.file);
  }

  dispose(): void {
    this.disposed = true;
    // A semi-space sweep starts no further size.
    this.sweepStopped = true;
    const recording = this.current?.recording;
    recording?.stop();
    // The window closes (or the extension goes) during a recording: its processes write their
    // profiles only as they end, after this process may be gone, so nothing of it can be kept;
    // its temporary folder goes now (what a killed editor leaves, the next activation removes).
    if (recording !== undefined) removeTemporaryFolder(recording.dir);
    this.item.dispose();
    this.sweepResult.dispose();
  }
}
