// The status bar entry for the loaded profile: name, duration and GC share; click -> flame graph.
import * as vscode from 'vscode';
import type { HotframeContext } from './ctx';
import type { ProfileSummary } from '../server/protocol/wire';
import { formatMs, formatPercent, formatShare, formatWeight } from '../server/shared/format';

export function statusText(profile: ProfileSummary): string {
  // An allocation profile has no duration or GC share: it shows what was allocated.
  if (profile.unit !== undefined && profile.unit !== 'ms') return `$(flame) ${profile.name} · ${formatWeight(profile.cpuMs, profile.unit)} allocated`;
  return `$(flame) ${profile.name} · ${formatMs(profile.durationMs)} · GC ${formatPercent(profile.gcPercent)} CPU`;
}

export class ProfileStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('hotframe.profile', vscode.StatusBarAlignment.Left, 10);
  private readonly subscription: vscode.Disposable;

  constructor(private readonly ctx: HotframeContext) {
    this.item.name = 'Hotframe Profile';
    this.item.command = 'hotframe.showFlameGraph';
    this.subscription = ctx.onDidChangeProfile(() => this.update());
    this.update();
  }

  /** What the item shows, for the e2e suite (status bar text cannot be read through the API). */
  get text(): string | null {
    return this.ctx.profile ? this.item.text : null;
  }

  get tooltip(): string | null {
    return this.ctx.profile && typeof this.item.tooltip === 'string' ? this.item.tooltip : null;
  }

  private update(): void {
    const { profile, baseline } = this.ctx;
    if (!profile) {
      this.item.hide();
      return;
    }
    this.item.text = statusText(profile);
    const lines =
      profile.unit === undefined || profile.unit === 'ms'
        ? [
            `Hotframe: ${profile.path}`,
            `${profile.samples} samples, ${profile.format}, ${formatMs(profile.durationMs)} recorded, ${formatMs(profile.cpuMs)} CPU time (idle excluded)`,
            `GC: ${formatShare(profile.gcPercent)}`,
          ]
        : [`Hotframe: ${profile.path}`, `${profile.format}, ${formatWeight(profile.cpuMs, profile.unit)} allocated (sampled)`, ...(profile.notes ?? [])];
    if (baseline) lines.push(`Comparing: ${baseline.name} (before) → ${profile.name} (after)`);
    if (profile.unresolvedFiles.length > 0) lines.push(`${profile.unresolvedFiles.length} files not found locally`);
    lines.push('Click to show the flame graph');
    this.item.tooltip = lines.join('\n');
    this.item.show();
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}
