// The status bar entry for the loaded profile: name, duration and GC share; click -> flame graph.
import * as vscode from 'vscode';
import type { HotframeContext } from './ctx';
import type { ProfileSummary } from '../server/protocol';
import { formatWeight } from '../server/shared/format';

export function formatDuration(ms: number): string {
  if (ms >= 1000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.round(ms)} ms`;
}

export function formatPercent(percent: number): string {
  // One decimal under 10% so that "GC 0.4%" does not read as "GC 0%".
  return percent < 10 ? `${Math.round(percent * 10) / 10}%` : `${Math.round(percent)}%`;
}

export function statusText(profile: ProfileSummary): string {
  // An allocation profile has no duration or GC share: it shows what was allocated.
  if (profile.unit !== undefined && profile.unit !== 'ms') return `$(flame) ${profile.name} · ${formatWeight(profile.samples, profile.unit)} allocated`;
  return `$(flame) ${profile.name} · ${formatDuration(profile.durationMs)} · GC ${formatPercent(profile.gcPercent)}`;
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

  private update(): void {
    const { profile, baseline } = this.ctx;
    if (!profile) {
      this.item.hide();
      return;
    }
    this.item.text = statusText(profile);
    const lines = [`Hotframe: ${profile.path}`, profile.unit === 'ms' ? `${profile.samples} samples, ${profile.format}` : profile.format, ...(profile.notes ?? [])];
    if (baseline) lines.push(`Compared with ${baseline.name}`);
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
