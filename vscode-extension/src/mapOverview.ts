// The "Map overview" view: the picture of the active T3D map that the server draws
// (`unrealLs/mapPreview`, docs/protocol.md) in a panel beside the text, fitted to the panel,
// with zoom and pan, and the actors drawn over it by kind (media/map.js). It follows the
// active map (switching editors switches the picture) and its edits (redrawn a moment after
// typing stops, keeping the zoom), and a click on an actor's mark reveals its `Begin Actor`
// line in the editor.

import * as path from "node:path";
import * as vscode from "vscode";
import { MAP_PREVIEW, MapPreviewParams, MapPreviewResult, markAt } from "./protocol";
import { ServerManager } from "./server";
import { newNonce } from "./nonce";

export const MAP_VIEW_TYPE = "unrealLs.mapOverview";
/** How long after the last edit the picture is redrawn. */
const REDRAW_DELAY_MS = 400;
/** Big enough to zoom in a few times before the brushes' lines blur. */
const PICTURE_SIZE = 2048;

type ToWebview =
  | {
      type: "picture";
      pngBase64: string;
      width: number;
      height: number;
      view: string;
      /** Keep the zoom and pan (a redraw of the same map after an edit). */
      keepZoom: boolean;
      status: string;
      marks: { x: number; y: number; line: number; name: string; kind: string }[];
    }
  | { type: "error"; message: string };

type FromWebview = { type: "ready" } | { type: "view"; view: string } | { type: "click"; x: number; y: number; radius?: number };

export class MapOverview {
  private panel: vscode.WebviewPanel | undefined;
  private document: vscode.TextDocument | undefined;
  private view: MapPreviewParams["view"] = "top";
  private actors: MapPreviewResult["actors"] = [];
  private timer: NodeJS.Timeout | undefined;
  private generation = 0;
  /** The document the picture on screen was drawn from (a redraw of it keeps the zoom). */
  private drawn: vscode.TextDocument | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly server: ServerManager,
  ) {}

  register(): vscode.Disposable[] {
    return [
      vscode.commands.registerCommand("unrealLs.showMapOverview", (arg?: vscode.Uri) => this.show(arg)),
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (this.panel !== undefined && event.document === this.document) this.scheduleRedraw();
      }),
      // The overview follows the active map.
      vscode.window.onDidChangeActiveTextEditor((editor) => {
        const document = editor?.document;
        if (this.panel === undefined || document === undefined || document.languageId !== "t3d") return;
        if (document === this.document) return;
        this.document = document;
        this.panel.title = overviewTitle(document);
        void this.redraw();
      }),
      this.server.onDidChangeServer(() => this.scheduleRedraw()),
      { dispose: () => this.panel?.dispose() },
    ];
  }

  async show(arg?: vscode.Uri): Promise<void> {
    let document: vscode.TextDocument | undefined;
    if (arg instanceof vscode.Uri) document = await vscode.workspace.openTextDocument(arg);
    else document = vscode.window.activeTextEditor?.document;
    if (document === undefined || document.languageId !== "t3d") {
      void vscode.window.showWarningMessage("Open a T3D map first: the overview draws the active map.");
      return;
    }
    this.document = document;
    const title = overviewTitle(document);
    if (this.panel === undefined) {
      const media = vscode.Uri.joinPath(this.context.extensionUri, "media");
      this.panel = vscode.window.createWebviewPanel(
        MAP_VIEW_TYPE,
        title,
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
        { enableScripts: true, localResourceRoots: [media] },
      );
      this.panel.webview.html = overviewHtml(this.panel.webview, media);
      this.panel.onDidDispose(() => {
        this.panel = undefined;
        this.document = undefined;
        this.drawn = undefined;
      });
      this.panel.webview.onDidReceiveMessage((message: FromWebview) => void this.received(message));
    } else {
      this.panel.title = title;
      this.panel.reveal(vscode.ViewColumn.Beside, true);
    }
    await this.redraw();
  }

  private scheduleRedraw(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.redraw(), REDRAW_DELAY_MS);
  }

  private post(message: ToWebview): void {
    void this.panel?.webview.postMessage(message);
  }

  private async redraw(): Promise<void> {
    const document = this.document;
    if (this.panel === undefined || document === undefined) return;
    const mine = ++this.generation;
    const client = this.server.languageClient;
    const unavailable = this.server.unavailableReason;
    if (unavailable !== undefined) {
      this.post({ type: "error", message: unavailable });
      return;
    }
    if (client === undefined || this.server.features.mapPreview !== true) {
      this.post({ type: "error", message: `The server does not draw map overviews (no ${MAP_PREVIEW}); it may still be starting, or update unreal-ls.` });
      return;
    }
    try {
      const params: MapPreviewParams = { uri: document.uri.toString(), view: this.view, maxSize: PICTURE_SIZE, actorSymbols: false };
      const result = await client.sendRequest<MapPreviewResult>(MAP_PREVIEW, params);
      if (mine !== this.generation) return;
      this.actors = result.actors;
      const keepZoom = this.drawn === document;
      this.drawn = document;
      const scale = Math.round(result.unitsPerPixel * 10) / 10;
      this.post({
        type: "picture",
        pngBase64: result.pngBase64,
        width: result.width,
        height: result.height,
        view: this.view ?? "top",
        keepZoom,
        status: `${path.basename(document.uri.fsPath)}: ${this.view} view, ${result.brushes} brushes, ${result.actors.length} actors marked, ${scale} units a pixel${outsideNote(result.outside ?? [])}`,
        marks: result.actors.map((a) => ({ x: a.x, y: a.y, line: a.line, name: a.name, kind: a.kind })),
      });
    } catch (error) {
      if (mine === this.generation) this.post({ type: "error", message: error instanceof Error ? error.message : String(error) });
    }
  }

  private async received(message: FromWebview): Promise<void> {
    switch (message.type) {
      case "ready":
        await this.redraw();
        break;
      case "view":
        if (message.view === "top" || message.view === "side" || message.view === "front" || message.view === "iso") {
          this.view = message.view;
          // Another view is another picture: fitted anew.
          this.drawn = undefined;
          await this.redraw();
        }
        break;
      case "click": {
        // The radius is 10 screen pixels, in the picture's pixels at the current zoom.
        const radius = typeof message.radius === "number" && message.radius > 0 ? Math.min(message.radius, 200) : 10;
        const actor = markAt(this.actors, message.x, message.y, radius);
        if (actor === undefined || this.document === undefined) return;
        const position = new vscode.Position(actor.line, 0);
        const shown = vscode.window.visibleTextEditors.find((e) => e.document === this.document);
        await vscode.window.showTextDocument(this.document, {
          viewColumn: shown?.viewColumn ?? vscode.ViewColumn.One,
          selection: new vscode.Range(position, position),
        });
        break;
      }
    }
  }
}

function overviewTitle(document: vscode.TextDocument): string {
  return `Map overview: ${path.basename(document.uri.fsPath)}`;
}

function overviewHtml(webview: vscode.Webview, media: vscode.Uri): string {
  const nonce = newNonce();
  const script = webview.asWebviewUri(vscode.Uri.joinPath(media, "map.js"));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(media, "preview.css"));
  const csp = [
    "default-src 'none'",
    `img-src ${webview.cspSource} data:`,
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
<title>Map overview</title>
</head>
<body class="map-overview">
<header class="toolbar">
<label for="view">View</label>
<select id="view"><option value="top">Top</option><option value="side">Side</option><option value="front">Front</option><option value="iso">Iso</option></select>
<button id="fit" title="Fit the map to the panel (or double-click the map)">Fit</button>
<span id="status" class="muted">Loading…</span>
</header>
<div id="legend" class="legend"></div>
<main><div id="viewport"><div id="stage"><img id="map" class="map" alt="map overview" draggable="false"></div><canvas id="overlay"></canvas></div><ul id="marks" hidden></ul></main>
<div id="thinned" class="muted"></div>
<script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
}

/** The status line's note on what the picture left out, far from the rest of the map. */
function outsideNote(outside: string[]): string {
  if (outside.length === 0) return "";
  const named = outside.slice(0, 3).join(", ");
  const more = outside.length > 3 ? ` and ${outside.length - 3} more` : "";
  return `; outside the picture (far from the rest of the map): ${named}${more}`;
}
