// The flame graph webview's HTML and its Content-Security-Policy: scripts only with the
// per-load nonce, styles/images/fonts only from the extension's own resources, nothing remote,
// no inline styles. Pure, so the headless-browser tests load the very same page.
import { escapeHtml } from '../server/shared/html';

export interface FlameHtmlParts {
  /** `webview.cspSource`. */
  cspSource: string;
  nonce: string;
  /** dist/webview.js as a webview URI. */
  scriptUri: string;
  /** d3-flamegraph.css then flame.css, as webview URIs. */
  styleUris: readonly string[];
}

export function flameCsp(cspSource: string, nonce: string): string {
  return [
    `default-src 'none'`,
    `img-src ${cspSource} data:`,
    `style-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
    `font-src ${cspSource}`,
  ].join('; ') + ';';
}

export function flameHtml(parts: FlameHtmlParts): string {
  const styles = parts.styleUris.map((uri) => `  <link rel="stylesheet" href="${escapeHtml(uri)}">`).join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${escapeHtml(flameCsp(parts.cspSource, parts.nonce))}">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
${styles}
  <title>Hotframe Flame Graph</title>
</head>
<body>
  <div id="app"></div>
  <script nonce="${escapeHtml(parts.nonce)}" src="${escapeHtml(parts.scriptUri)}"></script>
</body>
</html>
`;
}

/** 128 random bits, base64: a fresh nonce per panel. */
export function createNonce(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}
