// The "Map overview" view: the picture of the active T3D map that the server draws
// (`unrealLs/mapPreview`, docs/protocol.md) in a panel beside the text, fitted to the panel,
// with zoom and pan, and the actors drawn over it by kind (media/map.js). It follows the
// active map (switching editors switches the picture) and its edits (redrawn a moment after
// typing stops, keeping the zoom), and a click on an actor's mark reveals its `Begin Actor`
// line in the editor.

import * as path from "node:path";
import * as vscode from "vscode";
import { ActiveMapPanel } from "./activeMapPanel";
import { MAP_PREVIEW, MapPreviewParams, MapPreviewResult, markAt } from "./protocol";
import { ServerManager } from "./server";
import { webviewPage } from "./webviewPage";

export const MAP_VIEW_TYPE = "unrealLs.mapOverview";
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

type FromWebview = { type: "view"; view: string } | { type: "click"; x: number; y: number; radius?: number };

export class MapOverview extends ActiveMapPanel<FromWebview> {
  private view: MapPreviewParams["view"] = "top";
  private actors: MapPreviewResult["actors"] = [];

  constructor(context: vscode.ExtensionContext, server: ServerManager) {
    super(context, server, {
      viewType: MAP_VIEW_TYPE,
      command: "unrealLs.showMapOverview",
      title: "Map overview",
      refreshDelayMs: 400,
      noMapMessage: "Open a T3D map first: the overview draws the active map.",
      resourceFolders: ["media"],
      retainContextWhenHidden: false,
    });
  }

  protected override post(message: ToWebview): void {
    super.post(message);
  }

  protected async refresh(): Promise<void> {
    const document = this.document;
    if (this.panel === undefined || document === undefined) return;
    const request = this.startRequest(this.server.features.mapPreview, MAP_PREVIEW, "draw map overviews");
    if (request === undefined) return;
    try {
      const params: MapPreviewParams = { uri: document.uri.toString(), view: this.view, maxSize: PICTURE_SIZE, actorSymbols: false };
      const result = await request.client.sendRequest<MapPreviewResult>(MAP_PREVIEW, params);
      if (!request.current()) return;
      this.actors = result.actors;
      const keepZoom = this.shown === document;
      this.shown = document;
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
      this.failed(request.current, error);
    }
  }

  protected async received(message: FromWebview): Promise<void> {
    switch (message.type) {
      case "view":
        if (message.view === "top" || message.view === "side" || message.view === "front" || message.view === "iso") {
          this.view = message.view;
          // Another view is another picture: fitted anew.
          this.shown = undefined;
          await this.refresh();
        }
        break;
      case "click": {
        // The radius is 10 screen pixels, in the picture's pixels at the current zoom.
        const radius = typeof message.radius === "number" && message.radius > 0 ? Math.min(message.radius, 200) : 10;
        const actor = markAt(this.actors, message.x, message.y, radius);
        if (actor !== undefined) await this.revealLine(actor.line, false);
        break;
      }
    }
  }

  protected html(webview: vscode.Webview, [media]: vscode.Uri[]): string {
    return overviewHtml(webview, media);
  }
}

function overviewHtml(webview: vscode.Webview, media: vscode.Uri): string {
  return webviewPage(webview, media, {
    title: "Map overview",
    bodyClass: "map-overview",
    script: webview.asWebviewUri(vscode.Uri.joinPath(media, "map.js")),
    body: `<header class="toolbar">
<label for="view">View</label>
<select id="view"><option value="top">Top</option><option value="side">Side</option><option value="front">Front</option><option value="iso">Iso</option></select>
<button id="fit" title="Fit the map to the panel (or double-click the map)">Fit</button>
<span id="status" class="muted">Loading…</span>
</header>
<div id="legend" class="legend"></div>
<main><div id="viewport"><div id="stage"><img id="map" class="map" alt="map overview" draggable="false"></div><canvas id="overlay"></canvas></div><ul id="marks" hidden></ul></main>
<div id="thinned" class="muted"></div>`,
  });
}

/** The status line's note on what the picture left out, far from the rest of the map. */
function outsideNote(outside: string[]): string {
  if (outside.length === 0) return "";
  const named = outside.slice(0, 3).join(", ");
  const more = outside.length > 3 ? ` and ${outside.length - 3} more` : "";
  return `; outside the picture (far from the rest of the map): ${named}${more}`;
}
