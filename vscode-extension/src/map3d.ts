// The "Map in 3D" view: the built level of the active T3D map (`unrealLs/levelScene`,
// docs/protocol.md: the `.glb` of `unreal-ls export MAP --to glb`, textured from the game
// folder's packages) in a panel beside the text, drawn by three.js (bundled into
// dist/map3d.js, webview/map3d.js) under a fly camera. It follows the active map and its edits
// (rebuilt a moment after typing stops, keeping the camera), and a click on a surface reveals
// its polygon's `Begin Polygon` line, a click on an actor's marker its `Begin Actor` line.

import * as path from "node:path";
import * as vscode from "vscode";
import { LEVEL_SCENE, LevelSceneParams, LevelSceneResult } from "./protocol";
import { ServerManager } from "./server";
import { threeViewHtml } from "./threeViewHtml";

export const MAP_3D_VIEW_TYPE = "unrealLs.map3d";
/** How long after the last edit the level is rebuilt. */
const REBUILD_DELAY_MS = 600;

type FromWebview = { type: "ready" } | { type: "reveal"; line: number };

export class Map3dView {
  private panel: vscode.WebviewPanel | undefined;
  private document: vscode.TextDocument | undefined;
  private timer: NodeJS.Timeout | undefined;
  private generation = 0;
  /** The document the level on screen was built from (a rebuild of it keeps the camera). */
  private shown: vscode.TextDocument | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly server: ServerManager,
  ) {}

  register(): vscode.Disposable[] {
    return [
      vscode.commands.registerCommand("unrealLs.showMap3D", (arg?: vscode.Uri) => this.show(arg)),
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (this.panel !== undefined && event.document === this.document && event.contentChanges.length > 0) this.scheduleRebuild();
      }),
      vscode.window.onDidChangeActiveTextEditor((editor) => {
        const document = editor?.document;
        if (this.panel === undefined || document === undefined || document.languageId !== "t3d") return;
        if (document === this.document) return;
        this.document = document;
        this.panel.title = viewTitle(document);
        void this.rebuild();
      }),
      this.server.onDidChangeServer(() => this.scheduleRebuild()),
      { dispose: () => this.panel?.dispose() },
    ];
  }

  async show(arg?: vscode.Uri): Promise<void> {
    let document: vscode.TextDocument | undefined;
    if (arg instanceof vscode.Uri) document = await vscode.workspace.openTextDocument(arg);
    else document = vscode.window.activeTextEditor?.document;
    if (document === undefined || document.languageId !== "t3d") {
      void vscode.window.showWarningMessage("Open a T3D map first: the 3D view shows the active map.");
      return;
    }
    this.document = document;
    const title = viewTitle(document);
    if (this.panel === undefined) {
      const dist = vscode.Uri.joinPath(this.context.extensionUri, "dist");
      const media = vscode.Uri.joinPath(this.context.extensionUri, "media");
      this.panel = vscode.window.createWebviewPanel(
        MAP_3D_VIEW_TYPE,
        title,
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
        { enableScripts: true, retainContextWhenHidden: true, localResourceRoots: [dist, media] },
      );
      this.panel.webview.html = viewHtml(this.panel.webview, dist, media);
      this.panel.onDidDispose(() => {
        this.panel = undefined;
        this.document = undefined;
        this.shown = undefined;
      });
      this.panel.webview.onDidReceiveMessage((message: FromWebview) => void this.received(message));
    } else {
      this.panel.title = title;
      this.panel.reveal(vscode.ViewColumn.Beside, true);
      await this.rebuild();
    }
  }

  private scheduleRebuild(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.rebuild(), REBUILD_DELAY_MS);
  }

  private post(message: unknown): void {
    void this.panel?.webview.postMessage(message);
  }

  private async rebuild(): Promise<void> {
    const document = this.document;
    if (this.panel === undefined || document === undefined) return;
    const mine = ++this.generation;
    const client = this.server.languageClient;
    const unavailable = this.server.unavailableReason;
    if (unavailable !== undefined) {
      this.post({ type: "error", message: unavailable });
      return;
    }
    if (client === undefined || this.server.features.levelScene !== true) {
      this.post({ type: "error", message: `The server does not build levels for the 3D view (no ${LEVEL_SCENE}); it may still be starting, or update unreal-ls.` });
      return;
    }
    this.post({ type: "loading", message: `Building the level of ${path.basename(document.uri.fsPath)}…` });
    try {
      const started = Date.now();
      const params: LevelSceneParams = { uri: document.uri.toString() };
      const result = await client.sendRequest<LevelSceneResult>(LEVEL_SCENE, params);
      const serverMs = Date.now() - started;
      if (mine !== this.generation) return;
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
        serverMs,
        status: `${path.basename(document.uri.fsPath)}: ${result.brushes} brushes, ${result.surfaces} surfaces, ${result.materials} materials (${result.textured} textured), ${result.actors.length} actors, ${(glb.byteLength / 1_048_576).toFixed(1)} MB${notes}`,
      });
    } catch (error) {
      if (mine === this.generation) this.post({ type: "error", message: error instanceof Error ? error.message : String(error) });
    }
  }

  private async received(message: FromWebview): Promise<void> {
    switch (message.type) {
      case "ready":
        await this.rebuild();
        break;
      case "reveal": {
        const document = this.document;
        if (document === undefined || !Number.isInteger(message.line) || message.line < 0 || message.line >= document.lineCount) return;
        // The whole line selected, in the middle of the editor.
        const line = document.lineAt(message.line);
        const selection = new vscode.Selection(line.range.start, line.range.end);
        const shown = vscode.window.visibleTextEditors.find((e) => e.document === document);
        const editor = await vscode.window.showTextDocument(document, {
          viewColumn: shown?.viewColumn ?? vscode.ViewColumn.One,
          selection,
          preserveFocus: false,
        });
        editor.revealRange(line.range, vscode.TextEditorRevealType.InCenter);
        break;
      }
    }
  }
}

function viewTitle(document: vscode.TextDocument): string {
  return `Map in 3D: ${path.basename(document.uri.fsPath)}`;
}

function viewHtml(webview: vscode.Webview, dist: vscode.Uri, media: vscode.Uri): string {
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
