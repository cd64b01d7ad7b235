// The extension's API, the value activate() returns: what the extension shows that VS Code's
// own API cannot read back (the status bar text, the decorations drawn, the tree's data, the
// graph in the flame panel, the last error message). The e2e suite observes the extension
// through it (test/e2e/suite/workbench.ts), and so may any other extension.
import type * as vscode from 'vscode';
import type { HotframeContext } from './ctx';
import type { HeatDecorations } from './decorations';
import type { FlamePanel } from './flamePanel';
import type { AppliedHeat } from './presentation/heat';
import { profileHintShown } from './profileHint';
import type { ProfileRecorder } from './recording';
import type { ProfileStatusBar } from './statusBar';
import type { OverviewTree } from './views';
import type { SandwichView } from './sandwichView';
import type { FlameGraphResult, OverviewResult, ProfileSummary, SandwichResult } from '../server/protocol/wire';

export interface HotframeState {
  profile: ProfileSummary | null;
  baseline: ProfileSummary | null;
  /** An allocation profile joined to the CPU profile (its GC insight then names who allocates). */
  allocation: ProfileSummary | null;
  /** The last error message shown to the user, or null. */
  lastError: string | null;
  /** The last warning message shown to the user (one a capture's missing parts gave), or null. */
  lastWarning: string | null;
  /** The status bar entry's text and tooltip; null while hidden. */
  statusBar: string | null;
  statusBarTooltip: string | null;
  /** What the heat decorations draw, by document URI (visible documents only). */
  heat: Record<string, AppliedHeat>;
  /** What the Hotframe view shows. */
  overview: OverviewResult | null;
  /** The graph in the flame graph panel; null when the panel is closed. */
  flame: FlameGraphResult | null;
  /** Whether the one-time hint about opening a profile with Hotframe was shown. */
  profileHintShown: boolean;
  recording: { active: boolean; status: string | null };
  /** The Callers and Callees view's rows as drawn once expanded ("label — description", indented); [] when empty. */
  sandwichView: string[];
  /** The callers/callees split the flame panel draws; null when it is closed or draws a graph. */
  flameSandwich: SandwichResult | null;
}

export interface HotframeApi {
  /** How long activate() took, in ms (it waits for nothing: the server starts in the background). */
  readonly activationMs: number;
  /** The state once the decorations and the view have caught up with the last change. */
  state(): Promise<HotframeState>;
}

export interface ApiParts {
  ctx: HotframeContext;
  heat: HeatDecorations;
  tree: OverviewTree;
  statusBar: ProfileStatusBar;
  flame: FlamePanel;
  recorder: ProfileRecorder;
  sandwich: SandwichView;
}

/**
 * The API over the extension's parts, made at the end of activate() (errors are shown only
 * later, asynchronously); `subscriptions` receives what it listens with.
 */
export function createApi(parts: ApiParts, activationMs: number, subscriptions: vscode.Disposable[]): HotframeApi {
  const { ctx, heat, tree, statusBar, flame, recorder, sandwich } = parts;
  let lastError: string | null = null;
  let lastWarning: string | null = null;
  subscriptions.push(ctx.onDidShowError((message) => (lastError = message)));
  subscriptions.push(ctx.onDidShowWarning((message) => (lastWarning = message)));
  return {
    activationMs,
    async state() {
      await Promise.all([heat.settle(), tree.settle()]);
      return {
        profile: ctx.profile,
        baseline: ctx.baseline,
        allocation: ctx.allocation,
        lastError,
        lastWarning,
        statusBar: statusBar.text,
        statusBarTooltip: statusBar.tooltip,
        heat: Object.fromEntries(heat.applied),
        overview: tree.current,
        flame: flame.graph,
        profileHintShown: profileHintShown(ctx),
        recording: { active: recorder.isRecording, status: recorder.statusText },
        sandwichView: sandwich.text,
        flameSandwich: flame.sandwich,
      };
    },
  };
}
