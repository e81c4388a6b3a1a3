// The page every webview of the extension shows (the package preview, the map overview, the
// 3D views): the shared stylesheet, one script, and a strict content security policy whose
// nonce is fresh for every page, so that nothing injected into the page can run.
import * as vscode from "vscode";

export interface WebviewPage {
  /** The page's title (escaped here). */
  title: string;
  /** The `<body>`'s class, when the stylesheet styles the page by it. */
  bodyClass?: string;
  /** The body's HTML before the script. */
  body: string;
  /** The page's one script. */
  script: vscode.Uri;
  /** Let the script read blob: and data: URLs (GLTFLoader reads a .glb's embedded textures
   * through blob: URLs: fetched, then decoded). */
  blobs?: boolean;
}

/** The HTML of `page`, with the stylesheet `media/preview.css`. */
export function webviewPage(webview: vscode.Webview, media: vscode.Uri, page: WebviewPage): string {
  const nonce = Array.from({ length: 32 }, () => Math.floor(Math.random() * 36).toString(36)).join("");
  const style = webview.asWebviewUri(vscode.Uri.joinPath(media, "preview.css"));
  const csp = [
    "default-src 'none'",
    page.blobs ? `img-src ${webview.cspSource} blob: data:` : `img-src ${webview.cspSource} data:`,
    ...(page.blobs ? ["connect-src blob: data:"] : []),
    `style-src ${webview.cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join("; ");
  const title = escapeHtml(page.title);
  const bodyClass = page.bodyClass === undefined ? "" : ` class="${escapeHtml(page.bodyClass)}"`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style.toString()}">
<title>${title}</title>
</head>
<body${bodyClass}>
${page.body}
<script nonce="${nonce}" src="${page.script.toString()}"></script>
</body>
</html>`;
}

/** `text` safe inside HTML text and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}
