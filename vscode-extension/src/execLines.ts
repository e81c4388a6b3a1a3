// "Copy #exec Lines" and "Export Mesh for #exec..." on a UE1 vertex mesh (Mesh, LodMesh) of a
// package: the `#exec` block that imports it again, and the files its lines name, from the
// server's `unrealLs/execLines` (docs/protocol.md). Offered in the package preview (a mesh's
// detail and the context menu of its row) and in the command palette, only when the server
// advertises the request (the `unrealLs.execLines` context key).

import * as path from "node:path";
import * as vscode from "vscode";
import {
  blockFileSegments,
  copiedMessage,
  execLinesText,
  isVertexMeshClass,
  objectPath,
  packageFolderFor,
  packageName,
} from "./execBlock";
import { EXEC_LINES, ExecLinesParams, ExecLinesResult, objectReference } from "./protocol";
import { isPackageFile, PACKAGE_EXTENSIONS, Previews } from "./previews";
import { ServerManager } from "./server";

export const COPY_EXEC_LINES = "unrealLs.copyExecLines";
export const EXPORT_EXEC_FILES = "unrealLs.exportMeshForExec";
const CONTEXT_KEY = "unrealLs.execLines";

/** A mesh as the commands take it: from the preview (`{ uri, object, export }`), from the
 * context menu of a preview's row (the row's `data-vscode-context`, with `webview`), or
 * nothing (the active package, and a pick of its meshes). */
type MeshArg =
  | { uri: string; object?: string; export?: number }
  | { webview: string; unrealLsPackage: string; unrealLsPath?: string; unrealLsExport?: number };

interface Mesh {
  packageUri: vscode.Uri;
  params: ExecLinesParams;
  /** What the user reads: the mesh's path. */
  name: string;
}

export function registerExecLines(server: ServerManager, previews: Previews): vscode.Disposable[] {
  const update = () => void vscode.commands.executeCommand("setContext", CONTEXT_KEY, server.features.execLines === true);
  update();
  return [
    server.onDidChangeServer(update),
    vscode.commands.registerCommand(COPY_EXEC_LINES, async (arg?: MeshArg) => {
      const mesh = await meshOf(server, previews, arg);
      if (mesh === undefined) return undefined;
      const result = await request(server, mesh);
      if (result === undefined) return undefined;
      const text = execLinesText(result.lines);
      const message = copiedMessage(mesh.name, result.lines, result.files);
      server.output.info(`${message}, from ${mesh.packageUri.fsPath}`);
      await vscode.env.clipboard.writeText(text);
      vscode.window.setStatusBarMessage(message, 15_000);
      return text;
    }),
    vscode.commands.registerCommand(EXPORT_EXEC_FILES, async (arg?: MeshArg) => {
      const mesh = await meshOf(server, previews, arg);
      if (mesh === undefined) return undefined;
      const result = await request(server, mesh);
      if (result === undefined) return undefined;
      return exportFiles(mesh, result);
    }),
  ];
}

/** The server's block, or undefined after saying why there is none. */
async function request(server: ServerManager, mesh: Mesh): Promise<ExecLinesResult | undefined> {
  const client = server.languageClient;
  if (client === undefined || server.features.execLines !== true) {
    void vscode.window.showWarningMessage(
      server.unavailableReason ?? `This unreal-ls does not answer ${EXEC_LINES}; update it, or run \`unreal-ls exec-lines\`.`,
    );
    return undefined;
  }
  try {
    return await client.sendRequest<ExecLinesResult>(EXEC_LINES, mesh.params);
  } catch (error) {
    void vscode.window.showErrorMessage(`#exec lines of ${mesh.name}: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

async function meshOf(server: ServerManager, previews: Previews, arg?: MeshArg): Promise<Mesh | undefined> {
  if (arg !== undefined && "webview" in arg) {
    const packageUri = vscode.Uri.parse(arg.unrealLsPackage);
    const params: ExecLinesParams = { uri: packageUri.toString(), object: arg.unrealLsPath, export: arg.unrealLsExport };
    return { packageUri, params, name: arg.unrealLsPath ?? path.basename(packageUri.fsPath) };
  }
  if (arg !== undefined && "uri" in arg) {
    const packageUri = vscode.Uri.parse(arg.uri);
    const name = arg.object !== undefined ? objectPath(arg.object) : `export ${arg.export ?? "?"}`;
    return { packageUri, params: { uri: arg.uri, object: arg.object, export: arg.export }, name };
  }
  const unavailable = server.unavailableReason;
  if (unavailable !== undefined) {
    void vscode.window.showWarningMessage(unavailable);
    return undefined;
  }
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  let packageUri = input instanceof vscode.TabInputCustom && isPackageFile(input.uri) ? input.uri : undefined;
  if (packageUri === undefined) {
    const picked = await vscode.window.showOpenDialog({ canSelectMany: false, openLabel: "Open", filters: { Package: PACKAGE_EXTENSIONS } });
    packageUri = picked?.[0];
  }
  if (packageUri === undefined) return undefined;
  const meshes = (await previews.packageObjects(packageUri)).filter((object) => isVertexMeshClass(object.class));
  if (meshes.length === 0) {
    void vscode.window.showInformationMessage(`${path.basename(packageUri.fsPath)} holds no vertex mesh (Mesh or LodMesh).`);
    return undefined;
  }
  const picked =
    meshes.length === 1
      ? meshes[0]
      : await vscode.window.showQuickPick(
          meshes.map((object) => ({ label: object.path, description: object.class, object })),
          { title: `Vertex meshes in ${path.basename(packageUri.fsPath)}` },
        ).then((item) => item?.object);
  if (picked === undefined) return undefined;
  return {
    packageUri,
    params: { uri: packageUri.toString(), object: objectReference(picked), export: picked.export },
    name: picked.path,
  };
}

/** The folder the dialog proposes: the workspace's package folder named as the mesh's package
 * (the one holding `Classes/`), else another package folder, else the first workspace folder,
 * else the package's own folder. */
async function defaultFolder(packageUri: vscode.Uri): Promise<vscode.Uri> {
  const classes = await vscode.workspace.findFiles("**/Classes/*.uc", "**/node_modules/**", 500);
  const folder = packageFolderFor(
    classes.map((uri) => uri.fsPath),
    packageName(packageUri.fsPath),
  );
  if (folder !== undefined) return vscode.Uri.file(folder);
  return vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(path.dirname(packageUri.fsPath));
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

/** Asks for the package folder and writes the files under it (`Models/`, `Textures/`),
 * asking before replacing one. Returns the files written. */
async function exportFiles(mesh: Mesh, result: ExecLinesResult): Promise<string[]> {
  const chosen = await vscode.window.showOpenDialog({
    canSelectFiles: false,
    canSelectFolders: true,
    canSelectMany: false,
    defaultUri: await defaultFolder(mesh.packageUri),
    openLabel: "Write Here",
    title: `The package folder for ${mesh.name}'s #exec lines (they name Models\\ and Textures\\ under it)`,
  });
  const folder = chosen?.[0];
  if (folder === undefined) return [];
  const written: string[] = [];
  let replaceAll = false;
  try {
    for (const file of result.files) {
      const segments = blockFileSegments(file.path);
      if (segments === undefined) throw new Error(`the server named a file outside the folder: ${file.path}`);
      const target = vscode.Uri.joinPath(folder, ...segments);
      const shown = segments.join("/");
      if (!replaceAll && (await exists(target))) {
        const answer = await vscode.window.showWarningMessage(
          `${shown} exists in ${folder.fsPath}. Replace it?`,
          { modal: true },
          "Replace",
          "Replace All",
          "Skip",
        );
        if (answer === undefined) break;
        if (answer === "Skip") continue;
        replaceAll = answer === "Replace All";
      }
      await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(folder, ...segments.slice(0, -1)));
      await vscode.workspace.fs.writeFile(target, Buffer.from(file.data, "base64"));
      written.push(shown);
    }
  } catch (error) {
    void vscode.window.showErrorMessage(
      `Export for #exec: ${error instanceof Error ? error.message : String(error)}${written.length > 0 ? ` (wrote ${written.join(", ")} before)` : ""}`,
    );
    return written;
  }
  const skipped = result.files.length - written.length;
  const message =
    `Wrote ${written.length} file${written.length === 1 ? "" : "s"} for ${mesh.name} under ${folder.fsPath}` +
    (written.length > 0 ? `: ${written.join(", ")}` : "") +
    (skipped > 0 ? ` (${skipped} left as they were)` : "");
  void vscode.window.showInformationMessage(message, "Copy #exec Lines").then((action) => {
    if (action !== undefined) void vscode.commands.executeCommand(COPY_EXEC_LINES, { ...mesh.params });
  });
  return written;
}
