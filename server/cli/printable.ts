// Re-exported from server/shared/printable.ts: the CLI and the language server (the comparison's
// text summary, server/profile/analysis/diffText.ts) escape text the same way.
export { printable, printableAsUnicode } from '../shared/printable';
