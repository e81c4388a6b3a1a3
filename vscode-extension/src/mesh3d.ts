// The "Mesh in 3D" view: a vertex mesh (`_d.3d`), PSK or u3d model, or a mesh of a package,
// as `unreal-ls export ... --to glb` writes it (textured and posed as its class's `#exec`
// lines import it, its animation sequences as glTF animations), in a panel drawn by three.js
// (bundled into dist/mesh3d.js, webview/mesh3d.js) with its sequences listed and playable.
// The server has no request that answers a mesh as glTF, so this runs the binary's `export`
// command, as "Export Mesh to glTF" does without the server's request.

import * as path from "node:path";
import * as vscode from "vscode";
import { exportToBuffer, hasExport } from "./info";
import { isModelFile } from "./previews";
import { ServerManager } from "./server";
import { threeViewHtml } from "./threeViewHtml";

export const MESH_3D_VIEW_TYPE = "unrealLs.mesh3d";

type Source = { uri: vscode.Uri; object?: string };

export class Mesh3dView {
  private panel: vscode.WebviewPanel | undefined;
  private source: Source | undefined;
  private generation = 0;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly server: ServerManager,
  ) {}

  register(): vscode.Disposable[] {
    return [
      vscode.commands.registerCommand("unrealLs.showMesh3D", (arg?: vscode.Uri | { uri: string; object?: string }) => this.show(arg)),
      { dispose: () => this.panel?.dispose() },
    ];
  }

  async show(arg?: vscode.Uri | { uri: string; object?: string }): Promise<void> {
    let source: Source | undefined;
    if (arg instanceof vscode.Uri) source = { uri: arg };
    else if (arg !== undefined) source = { uri: vscode.Uri.parse(arg.uri), object: arg.object };
    else {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      const uri = input instanceof vscode.TabInputCustom || input instanceof vscode.TabInputText ? input.uri : undefined;
      if (uri !== undefined && uri.scheme === "file" && isModelFile(uri)) source = { uri };
    }
    if (source === undefined) {
      void vscode.window.showWarningMessage("Open a mesh first (a .psk, _d.3d or .u3d file): the 3D view shows the active mesh.");
      return;
    }
    this.source = source;
    const title = `Mesh in 3D: ${path.basename(source.uri.fsPath)}${source.object !== undefined ? ` ${source.object}` : ""}`;
    if (this.panel === undefined) {
      const dist = vscode.Uri.joinPath(this.context.extensionUri, "dist");
      const media = vscode.Uri.joinPath(this.context.extensionUri, "media");
      this.panel = vscode.window.createWebviewPanel(
        MESH_3D_VIEW_TYPE,
        title,
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
        { enableScripts: true, localResourceRoots: [dist, media] },
      );
      this.panel.webview.html = viewHtml(this.panel.webview, dist, media);
      this.panel.onDidDispose(() => {
        this.panel = undefined;
        this.source = undefined;
      });
      this.panel.webview.onDidReceiveMessage((message: { type: string }) => {
        if (message.type === "ready") void this.load();
      });
    } else {
      this.panel.title = title;
      this.panel.reveal(vscode.ViewColumn.Beside, true);
      await this.load();
    }
  }

  private async load(): Promise<void> {
    const source = this.source;
    if (this.panel === undefined || source === undefined) return;
    const mine = ++this.generation;
    const post = (message: unknown) => void this.panel?.webview.postMessage(message);
    const unavailable = this.server.unavailableReason;
    const binary = this.server.serverBinary;
    if (unavailable !== undefined || binary === undefined || !hasExport(binary)) {
      post({ type: "error", message: unavailable ?? "This unreal-ls has no export command: update it to see meshes in 3D." });
      return;
    }
    const started = Date.now();
    const result = await exportToBuffer(binary, source.uri.fsPath, source.object, "glb");
    if (mine !== this.generation) return;
    if (result.bytes === undefined) {
      post({ type: "error", message: `The mesh could not be exported: ${result.error ?? "no output"}` });
      return;
    }
    const glb = result.bytes;
    post({
      type: "mesh",
      glb: new Uint8Array(glb.buffer, glb.byteOffset, glb.byteLength),
      status: `${path.basename(source.uri.fsPath)}${source.object !== undefined ? ` ${source.object}` : ""}: ${(glb.byteLength / 1024).toFixed(0)} KB exported in ${Date.now() - started} ms`,
    });
  }
}

function viewHtml(webview: vscode.Webview, dist: vscode.Uri, media: vscode.Uri): string {
  return threeViewHtml(webview, dist, media, {
    script: "mesh3d.js",
    title: "Mesh in 3D",
    bodyClass: "map-3d mesh-3d",
    toolbar: `<button id="frame" title="Frame the mesh (F)">Frame</button>
<button id="pause">Pause</button>
<span class="muted">drag: turn · wheel: zoom · click a sequence to play it</span>`,
    status: "Exporting…",
    main: `<div id="viewport"></div><ul id="sequences" class="sequences"></ul>`,
  });
}
