// The one HTML escaper, for text from profiles and paths put into the extension's HTML pages
// (the profile summary, the flame graph page's attributes). Our pages quote every attribute with
// double quotes, so `&`, `<`, `>` and `"` are what could end a text run or an attribute value;
// they become numeric character references. `'` stays (a CSP's 'none' reads as written).

/** `<img src=x>` -> `&#60;img src=x&#62;`; `"` -> `&#34;`, `&` -> `&#38;`. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}
