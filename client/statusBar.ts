// The status bar entry for the loaded profile: name, duration and GC share; click -> flame graph.
import * as vscode from 'vscode';
import type { HotframeContext } from './ctx';
import { statusText, statusTooltip } from './presentation/statusBar';
import { noLinks } from './presentation/plainText';

export class ProfileStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('hotframe.profile', vscode.StatusBarAlignment.Left, 10);
  private readonly subscription: vscode.Disposable;

  constructor(private readonly ctx: HotframeContext) {
    this.item.name = 'Hotframe Profile';
    this.item.command = 'hotframe.showFlameGraph';
    this.subscription = ctx.onDidChangeProfile(() => this.update());
    this.update();
  }

  /** What the item shows; null while hidden (read by the extension's API, client/api.ts). */
  get text(): string | null {
    return this.ctx.profile ? this.item.text : null;
  }

  get tooltip(): string | null {
    return this.ctx.profile && typeof this.item.tooltip === 'string' ? this.item.tooltip : null;
  }

  private update(): void {
    const { profile, baseline, allocation } = this.ctx;
    if (!profile) {
      this.item.hide();
      return;
    }
    this.item.text = noLinks(statusText(profile));
    this.item.tooltip = noLinks(statusTooltip(profile, baseline, allocation));
    this.item.show();
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}
