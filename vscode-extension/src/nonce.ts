// The nonce a webview page's content security policy lets its own script run with: fresh for
// every page, so that nothing injected into the page can run.
export function newNonce(): string {
  return Array.from({ length: 32 }, () => Math.floor(Math.random() * 36).toString(36)).join("");
}
