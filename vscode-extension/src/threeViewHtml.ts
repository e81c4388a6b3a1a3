// The page of a three.js webview (the 3D map and mesh views): its bundled script from dist/,
// the shared stylesheet and policy of every page (webviewPage.ts).
import * as vscode from "vscode";
import { webviewPage } from "./webviewPage";

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
  return webviewPage(webview, media, {
    title: view.title,
    bodyClass: view.bodyClass,
    script: webview.asWebviewUri(vscode.Uri.joinPath(dist, view.script)),
    blobs: true,
    body: `<header class="toolbar">
${view.toolbar}
</header>
<div id="status" class="muted">${view.status}</div>
<main>${view.main}</main>`,
  });
}
