// The flame graph webview's HTML and its Content-Security-Policy: scripts only with the
// per-load nonce, styles/images/fonts only from the extension's own resources, nothing remote,
// no inline styles. Pure, so the headless-browser tests load the very same page.
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

function attribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function flameHtml(parts: FlameHtmlParts): string {
  const styles = parts.styleUris.map((uri) => `  <link rel="stylesheet" href="${attribute(uri)}">`).join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${attribute(flameCsp(parts.cspSource, parts.nonce))}">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
${styles}
  <title>Hotframe Flame Graph</title>
</head>
<body>
  <div id="app"></div>
  <script nonce="${attribute(parts.nonce)}" src="${attribute(parts.scriptUri)}"></script>
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
