// The page of a three.js webview (the 3D map and mesh views): its bundled script from dist/,
// the shared stylesheet, and a strict content security policy with a fresh nonce.
import * as vscode from "vscode";
import { newNonce } from "./nonce";

/** What differs between the views: the script, the title and the page's parts. */
export interface ThreeView {
  /** The bundled script in dist/ (`map3d.js`). */
  script: string;
  title: string;
  bodyClass: string;
  /** The toolbar's inner HTML. */
  toolbar: string;
  /** The status line's text until the view reports. */
  status: string;
  /** The main area's inner HTML (always holds `<div id="viewport">`). */
  main: string;
}

export function threeViewHtml(webview: vscode.Webview, dist: vscode.Uri, media: vscode.Uri, view: ThreeView): string {
  const nonce = newNonce();
  const script = webview.asWebviewUri(vscode.Uri.joinPath(dist, view.script));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(media, "preview.css"));
  // GLTFLoader reads the .glb's embedded textures through blob: URLs (fetched, then decoded).
  const csp = [
    "default-src 'none'",
    `img-src ${webview.cspSource} blob: data:`,
    "connect-src blob: data:",
    `style-src ${webview.cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join("; ");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style.toString()}">
<title>${view.title}</title>
</head>
<body class="${view.bodyClass}">
<header class="toolbar">
${view.toolbar}
</header>
<div id="status" class="muted">${view.status}</div>
<main>${view.main}</main>
<script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
}
