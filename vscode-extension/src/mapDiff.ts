// The "Map Changes" view: what changed between two versions of a T3D map, as the server's
// `unrealLs.diff` command reports it (docs/diff.md): a tree of added, removed, renamed,
// moved and changed actors, each expandable to its properties; a click reveals the actor's
// `Begin Actor` line in the new map (or the old one for a removed actor). "Compare Map
// With..." picks the other map; "Compare Map with HEAD" takes the committed version through
// VS Code's git extension.

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import { changeTree, ChangeNode, DIFF_COMMAND, DiffResult, summaryLine } from "./diffTree";
import { ServerManager } from "./server";
import { ResultTree } from "./treeProvider";

export const CHANGES_VIEW = "unrealLs.mapChanges";

interface GitApi {
  getRepository(uri: vscode.Uri): { show(ref: string, path: string): Promise<string> } | null;
}

/** The picker's entry that opens a file dialog. */
export const BROWSE_LABEL = "$(folder-opened) Browse...";

export class MapChanges {
  /** The maps of the comparison shown: a click reveals a line in one of them. */
  private uris: { old: vscode.Uri; new: vscode.Uri } | undefined;
  private readonly provider = new ResultTree<ChangeNode>((node, item) => {
    if (node.reveal && this.uris) {
      item.command = { command: "unrealLs.revealChange", title: "Reveal", arguments: [this.uris[node.reveal.side], node.reveal.line] };
    }
  });
  private view: vscode.TreeView<ChangeNode> | undefined;

  constructor(private readonly server: ServerManager) {}

  register(): vscode.Disposable[] {
    this.view = vscode.window.createTreeView(CHANGES_VIEW, { treeDataProvider: this.provider, showCollapseAll: true });
    return [
      this.view,
      vscode.commands.registerCommand("unrealLs.compareMapWith", (arg?: vscode.Uri) => this.compareWith(arg)),
      vscode.commands.registerCommand("unrealLs.compareMapWithHead", (arg?: vscode.Uri) => this.compareWithHead(arg)),
      vscode.commands.registerCommand("unrealLs.revealChange", async (uri: vscode.Uri, line: number) => {
        const position = new vscode.Position(Math.max(0, line), 0);
        await vscode.window.showTextDocument(uri, { selection: new vscode.Range(position, position), preview: true });
      }),
    ];
  }

  private current(arg?: vscode.Uri): vscode.Uri | undefined {
    if (arg instanceof vscode.Uri) return arg;
    const document = vscode.window.activeTextEditor?.document;
    if (document?.languageId === "t3d") return document.uri;
    void vscode.window.showWarningMessage("Open a T3D map first: the comparison is of the active map.");
    return undefined;
  }

  /** Compares another map (the old one) with the active map (the new one). */
  async compareWith(arg?: vscode.Uri): Promise<void> {
    const current = this.current(arg);
    if (current === undefined) return;
    const others = (await vscode.workspace.findFiles("**/*.t3d", "**/node_modules/**", 500)).filter((u) => u.toString() !== current.toString());
    // The first entry opens a file dialog: the older version may be anywhere (a backup, a
    // download, another checkout), under any name (a clipboard dump saved as .txt).
    const browse = { label: BROWSE_LABEL, description: "any file, inside the workspace or not", uri: undefined };
    const picked = await vscode.window.showQuickPick(
      [browse, ...others.map((uri) => ({ label: vscode.workspace.asRelativePath(uri), description: undefined, uri }))],
      { title: `Compare ${path.basename(current.fsPath)} with...`, placeHolder: "the older version of the map" },
    );
    if (picked === undefined) return;
    let older = picked.uri;
    if (older === undefined) {
      const chosen = await vscode.window.showOpenDialog({
        canSelectFiles: true,
        canSelectFolders: false,
        canSelectMany: false,
        defaultUri: vscode.Uri.joinPath(current, ".."),
        openLabel: "Compare",
        title: `The older version of ${path.basename(current.fsPath)}`,
        filters: { "T3D maps": ["t3d", "T3D", "txt"], "All files": ["*"] },
      });
      older = chosen?.[0];
    }
    if (older !== undefined) await this.compare(older, current);
  }

  /** Compares the committed version of the active map with it, through the git extension. */
  async compareWithHead(arg?: vscode.Uri): Promise<void> {
    const current = this.current(arg);
    if (current === undefined) return;
    const git = vscode.extensions.getExtension<{ getAPI(version: 1): GitApi }>("vscode.git");
    const api = git === undefined ? undefined : (await git.activate()).getAPI(1);
    const repository = api?.getRepository(current);
    if (repository === undefined || repository === null) {
      void vscode.window.showWarningMessage(`${path.basename(current.fsPath)} is not in a git repository that VS Code's git extension knows.`);
      return;
    }
    let committed: string;
    try {
      committed = await repository.show("HEAD", current.fsPath);
    } catch (error) {
      void vscode.window.showWarningMessage(`No committed version of ${path.basename(current.fsPath)}: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "unreal-ls-head-"));
    const old = path.join(dir, `HEAD-${path.basename(current.fsPath)}`);
    fs.writeFileSync(old, committed);
    await this.compare(vscode.Uri.file(old), current);
  }

  async compare(old: vscode.Uri, current: vscode.Uri): Promise<void> {
    const client = this.server.languageClient;
    const unavailable = this.server.unavailableReason;
    if (client === undefined || unavailable !== undefined) {
      void vscode.window.showWarningMessage(unavailable ?? "The unreal-ls server is not running.");
      return;
    }
    try {
      const result = await client.sendRequest<DiffResult>("workspace/executeCommand", { command: DIFF_COMMAND, arguments: [old.toString(), current.toString()] });
      this.uris = { old, new: current };
      this.provider.show(changeTree(result));
      // The view is listed once there is a comparison to show.
      await vscode.commands.executeCommand("setContext", "unrealLs.mapChangesShown", true);
      if (this.view !== undefined) {
        this.view.message = `${path.basename(old.fsPath)} -> ${path.basename(current.fsPath)}: ${summaryLine(result)}`;
        await vscode.commands.executeCommand(`${CHANGES_VIEW}.focus`);
      }
    } catch (error) {
      void vscode.window.showErrorMessage(`Map comparison failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
