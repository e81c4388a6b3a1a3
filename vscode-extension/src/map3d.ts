// The "Map in 3D" view: the built level of the active T3D map (`unrealLs/levelScene`,
// docs/protocol.md: the `.glb` of `unreal-ls export MAP --to glb`, textured from the game
// folder's packages) in a panel beside the text, drawn by three.js (bundled into
// dist/map3d.js, webview/map3d.js) under a fly camera. It follows the active map and its edits
// (rebuilt a moment after typing stops, keeping the camera), and a click on a surface reveals
// its polygon's `Begin Polygon` line, a click on an actor's marker its `Begin Actor` line.

import * as path from "node:path";
import * as vscode from "vscode";
import { ActiveMapPanel } from "./activeMapPanel";
import { LEVEL_SCENE, LevelSceneParams, LevelSceneResult } from "./protocol";
import { ServerManager } from "./server";
import { threeViewHtml } from "./threeViewHtml";

export const MAP_3D_VIEW_TYPE = "unrealLs.map3d";

type FromWebview = { type: "reveal"; line: number };

export class Map3dView extends ActiveMapPanel<FromWebview> {
  constructor(context: vscode.ExtensionContext, server: ServerManager) {
    super(context, server, {
      viewType: MAP_3D_VIEW_TYPE,
      command: "unrealLs.showMap3D",
      title: "Map in 3D",
      refreshDelayMs: 600,
      noMapMessage: "Open a T3D map first: the 3D view shows the active map.",
      resourceFolders: ["dist", "media"],
      retainContextWhenHidden: true,
    });
  }

  protected async refresh(): Promise<void> {
    const document = this.document;
    if (this.panel === undefined || document === undefined) return;
    const request = this.startRequest(this.server.features.levelScene, LEVEL_SCENE, "build levels for the 3D view");
    if (request === undefined) return;
    this.post({ type: "loading", message: `Building the level of ${path.basename(document.uri.fsPath)}…` });
    try {
      const started = Date.now();
      const params: LevelSceneParams = { uri: document.uri.toString() };
      const result = await request.client.sendRequest<LevelSceneResult>(LEVEL_SCENE, params);
      const serverMs = Date.now() - started;
      if (!request.current()) return;
      const keepCamera = this.shown === document;
      this.shown = document;
      const glb = Buffer.from(result.glbBase64, "base64");
      const notes = result.notes.length > 0 ? `; ${result.notes.length} textures in a flat colour (not found)` : "";
      this.post({
        type: "level",
        document: document.uri.toString(),
        keepCamera,
        glb: new Uint8Array(glb.buffer, glb.byteOffset, glb.byteLength),
        meshes: result.meshes,
        actors: result.actors,
        placed: result.placed,
        serverMs,
        status: `${path.basename(document.uri.fsPath)}: ${result.brushes} brushes, ${result.surfaces} surfaces, ${result.materials} materials (${result.textured} textured), ${result.placed.length} ${result.placed.length === 1 ? "mesh" : "meshes"} placed, ${result.actors.length} actors, ${(glb.byteLength / 1_048_576).toFixed(1)} MB${notes}`,
      });
    } catch (error) {
      this.failed(request.current, error);
    }
  }

  protected async received(message: FromWebview): Promise<void> {
    // A click on a surface or an actor: its whole line selected, in the middle of the editor.
    if (message.type === "reveal") await this.revealLine(message.line, true);
  }

  protected html(webview: vscode.Webview, [dist, media]: vscode.Uri[]): string {
    return threeViewHtml(webview, dist, media, {
      script: "map3d.js",
      title: "Map in 3D",
      bodyClass: "map-3d",
      toolbar: `<button id="frame" title="Frame the whole level (F)">Frame</button>
<span id="speed" class="muted"></span>
<span class="muted" title="Drag to look; W A S D to move, Q/E (or C/Space) down and up, Shift faster; the wheel changes the speed; a click reveals the line">drag: look · WASD QE: fly · wheel: speed · click: reveal line</span>`,
      status: "Loading…",
      main: `<div id="viewport"></div>`,
    });
  }
}
