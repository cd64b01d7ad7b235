// The panel's HTML: a strict CSP, the nonce on the one script, nothing inline or remote.
import assert from 'node:assert/strict';
import { createNonce, flameCsp, flameHtml } from '../../client/flameHtml';

const parts = {
  cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
  nonce: 'abc123+/=',
  scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview.js',
  styleUris: ['https://file+.vscode-resource.vscode-cdn.net/ext/dist/d3-flamegraph.css', 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/flame.css'],
};

describe('flame panel HTML', () => {
  it('has exactly the CSP of the brief', () => {
    assert.equal(
      flameCsp(parts.cspSource, 'N'),
      `default-src 'none'; img-src ${parts.cspSource} data:; style-src ${parts.cspSource}; script-src 'nonce-N'; font-src ${parts.cspSource};`,
    );
  });

  it('puts the CSP in a meta tag and the nonce on the only script', () => {
    const html = flameHtml(parts);
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
    assert.ok(meta);
    assert.equal(meta[1], flameCsp(parts.cspSource, parts.nonce));
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    assert.deepEqual(scripts, [`<script nonce="${parts.nonce}" src="${parts.scriptUri}">`]);
  });

  it('has no inline style, inline handler, or remote resource', () => {
    const html = flameHtml(parts);
    assert.doesNotMatch(html, /<style|style=|\son[a-z]+=|unsafe-inline|unsafe-eval/i);
    const urls = [...html.matchAll(/(?:src|href)="([^"]*)"/g)].map((m) => m[1]);
    assert.deepEqual(urls, [...parts.styleUris, parts.scriptUri]);
  });

  it('escapes attribute values', () => {
    const html = flameHtml({ ...parts, scriptUri: 'x" onload="alert(1)' });
    assert.match(html, /src="x&#34; onload=&#34;alert\(1\)"/);
    assert.doesNotMatch(html, /onload="/);
  });

  it('makes a fresh 128-bit nonce each time', () => {
    const a = createNonce();
    const b = createNonce();
    assert.notEqual(a, b);
    assert.equal(Buffer.from(a, 'base64').length, 16);
    assert.match(a, /^[A-Za-z0-9+/]+=*$/);
  });
});
