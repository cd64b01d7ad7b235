// The profile summary page of the custom editor (Open With… > Hotframe Profile Summary): the
// profile's figures, its warnings, a link to the flame graph, or the error that stopped the load.
// Runs no script; every profile string is escaped. No vscode import (unit-tested).
import type { ProfileSummary } from '../../server/protocol/wire';
import { formatMs, formatShare, formatWeight } from '../../server/shared/format';
import { escapeHtml } from '../../server/shared/html';

export function summaryHtml(file: string, summary: ProfileSummary | null, error: string | null): string {
  const rows: [string, string][] = summary
    ? [
        ['Format', summary.format],
        ...(summary.unit === 'ms'
          ? ([
              ['Samples', String(summary.samples)],
              ['Duration', formatMs(summary.durationMs)],
              ['CPU time (idle excluded)', formatMs(summary.cpuMs)],
              ['GC', formatShare(summary.gcPercent, summary.shareBasis)],
            ] as [string, string][])
          : ([['Allocated (sampled)', formatWeight(summary.cpuMs, summary.unit)]] as [string, string][])),
        ...(summary.notes ?? []).map((note): [string, string] => ['Recording', note]),
        ['Files not found locally', String(summary.unresolvedCount)],
      ]
    : [];
  const warnings = summary?.warnings ?? [];
  const body = summary
    ? `<table>${rows.map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join('')}</table>
       <p><a class="button" href="command:hotframe.showFlameGraph">Show Flame Graph</a></p>
       ${warnings.length ? `<h2>Warnings</h2><ul>${warnings.map((w) => `<li>${escapeHtml(w)}</li>`).join('')}</ul>` : ''}`
    : `<p class="error">${escapeHtml(error ?? 'Not loaded.')}</p>`;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline';">
<style>
body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); padding: 1em 2em; }
th { text-align: left; padding-right: 2em; font-weight: normal; color: var(--vscode-descriptionForeground); }
.button { display: inline-block; padding: 4px 12px; background: var(--vscode-button-background); color: var(--vscode-button-foreground); text-decoration: none; }
.error { color: var(--vscode-errorForeground); }
</style></head>
<body><h1>${escapeHtml(summary?.name ?? file)}</h1>${body}</body></html>`;
}
