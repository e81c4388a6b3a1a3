// Entry point: the language client (server.ts), the previews (previews.ts), the map overview
// (mapOverview.ts), the 3D map and mesh views (map3d.ts, mesh3d.ts) and the commands.

import * as path from "node:path";
import * as vscode from "vscode";
import { exportArgs, hasExport, runExport } from "./info";
import { EXPORT_GLTF, ExportGltfParams, ExportGltfResult } from "./protocol";
import {
  isModelFile,
  isPackageFile,
  PACKAGE_EXTENSIONS,
  PACKAGE_VIEW_TYPE,
  Previews,
} from "./previews";
import { registerExecLines } from "./execLines";
import { registerFindAsset } from "./findAsset";
import { registerPickTexture } from "./pickTexture";
import { MapDependencies } from "./mapDeps";
import { MapChanges } from "./mapDiff";
import { Map3dView } from "./map3d";
import { Mesh3dView } from "./mesh3d";
import { MapOverview } from "./mapOverview";
import { ServerManager } from "./server";

let manager: ServerManager | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel("unreal-ls", { log: true });
  const server = new ServerManager(context, output);
  manager = server;
  const previews = new Previews(context, server);
  const mapOverview = new MapOverview(context, server);
  const map3d = new Map3dView(context, server);
  const mesh3d = new Mesh3dView(context, server);
  const mapChanges = new MapChanges(server);
  const mapDependencies = new MapDependencies(server, output);

  context.subscriptions.push(
    output,
    server,
    ...previews.register(),
    ...mapOverview.register(),
    ...map3d.register(),
    ...mesh3d.register(),
    ...mapChanges.register(),
    ...mapDependencies.register(),
    registerFindAsset(server, previews),
    registerPickTexture(server),
    ...registerExecLines(server, previews),
    vscode.commands.registerCommand("unrealLs.restartServer", () => server.restart()),
    vscode.commands.registerCommand("unrealLs.showOutput", () => output.show(true)),
    vscode.commands.registerCommand("unrealLs.showPackageContents", async (arg?: vscode.Uri) => {
      const uri = arg ?? activeResource(isPackageFile) ?? (await pickFile("Package", PACKAGE_EXTENSIONS));
      if (uri !== undefined) await vscode.commands.executeCommand("vscode.openWith", uri, PACKAGE_VIEW_TYPE);
    }),
    vscode.commands.registerCommand(
      "unrealLs.openObjectPreview",
      async (arg?: vscode.Uri | { uri: string; object: string }) => {
        let packageUri: vscode.Uri | undefined;
        let objectPath: string | undefined;
        if (arg instanceof vscode.Uri) packageUri = arg;
        else if (arg !== undefined) {
          packageUri = vscode.Uri.parse(arg.uri);
          objectPath = arg.object;
        }
        packageUri ??= activeResource(isPackageFile) ?? (await pickFile("Package", PACKAGE_EXTENSIONS));
        if (packageUri === undefined) return;
        if (objectPath === undefined) {
          const objects = await previews.packageObjects(packageUri);
          const picked = await vscode.window.showQuickPick(
            objects.map((object) => ({ label: object.path, description: object.class, detail: `${object.size} bytes`, key: object.key })),
            { title: `Objects in ${path.basename(packageUri.fsPath)}`, matchOnDescription: true },
          );
          objectPath = picked?.key;
        }
        if (objectPath !== undefined) await previews.openObject(packageUri, objectPath);
      },
    ),
    vscode.commands.registerCommand("unrealLs.exportGltf", (arg?: vscode.Uri | { uri: string; object?: string }) =>
      exportGltf(server, arg),
    ),
  );

  await server.start();
}

export async function deactivate(): Promise<void> {
  await manager?.stop();
  manager = undefined;
}

/** The file behind the active editor or custom editor, if `accept` says it is one we want. */
function activeResource(accept: (uri: vscode.Uri) => boolean): vscode.Uri | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  let uri: vscode.Uri | undefined;
  if (input instanceof vscode.TabInputCustom || input instanceof vscode.TabInputText) uri = input.uri;
  return uri !== undefined && uri.scheme === "file" && accept(uri) ? uri : undefined;
}

async function pickFile(label: string, extensions: string[]): Promise<vscode.Uri | undefined> {
  const picked = await vscode.window.showOpenDialog({
    canSelectMany: false,
    openLabel: "Open",
    filters: { [label]: extensions },
  });
  return picked?.[0];
}

async function exportGltf(server: ServerManager, arg?: vscode.Uri | { uri: string; object?: string }): Promise<void> {
  const unavailable = server.unavailableReason;
  if (unavailable !== undefined) {
    void vscode.window.showWarningMessage(unavailable);
    return;
  }
  let source: vscode.Uri | undefined;
  let object: string | undefined;
  if (arg instanceof vscode.Uri) source = arg;
  else if (arg !== undefined) {
    source = vscode.Uri.parse(arg.uri);
    object = arg.object;
  }
  source ??=
    activeResource((uri) => isModelFile(uri) || isPackageFile(uri)) ??
    (await pickFile("Mesh", ["psk", "psa", "3d", "u3d", ...PACKAGE_EXTENSIONS]));
  if (source === undefined) return;
  const client = server.languageClient;
  const binary = server.serverBinary;
  // The server's request when it advertises it; else the binary's `export` command (.glb only).
  const viaServer = client !== undefined && server.features.exportGltf === true;
  if (!viaServer && (binary === undefined || !hasExport(binary))) {
    void vscode.window.showWarningMessage(
      `This unreal-ls cannot export glTF: the server does not advertise ${EXPORT_GLTF} and the binary has no export command. Update unreal-ls.`,
    );
    return;
  }
  const base = source.fsPath.replace(/(_[da])?\.[^./\\]+$/i, "");
  const target = await vscode.window.showSaveDialog({
    defaultUri: vscode.Uri.file(`${base}${object !== undefined ? `_${object}` : ""}.glb`),
    filters: viaServer ? { glTF: ["glb", "gltf"] } : { "glTF (binary)": ["glb"] },
    title: "Export mesh to glTF",
  });
  if (target === undefined) return;
  try {
    let written: string[];
    if (viaServer && client !== undefined) {
      const params: ExportGltfParams = { uri: source.toString(), object, target: target.toString() };
      const result = await client.sendRequest<ExportGltfResult>(EXPORT_GLTF, params);
      written = result.written.map((uri) => vscode.Uri.parse(uri).fsPath);
    } else {
      const error = await runExport(binary as string, exportArgs(source.fsPath, object, "glb", target.fsPath));
      if (error !== undefined) throw new Error(error);
      written = [target.fsPath];
    }
    void vscode.window.showInformationMessage(`Exported ${written.map((file) => path.basename(file)).join(", ")}`);
  } catch (error) {
    void vscode.window.showErrorMessage(`glTF export failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
