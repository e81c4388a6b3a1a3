// The "Map Dependencies" view: what the active T3D map needs to load, as the server's
// `unrealLs.mapDependencies` command reports it (docs/protocol.md): one row per package with
// where it was found (the game folder, outside it, the game folder's sources) or that it is
// missing, the classes, textures and objects the map names in it below; a click on a name
// reveals its first use.

import * as path from "node:path";
import * as vscode from "vscode";
import { DEPS_COMMAND, DepsNode, DepsResult, depsSummary, depsTree, noGameFolder } from "./depsTree";
import { CHOOSE_GAME_FOLDER, chooseGameFolder } from "./gameFolder";
import { ServerManager } from "./server";
import { ResultTree } from "./treeProvider";

export const DEPS_VIEW = "unrealLs.mapDependencies";

export class MapDependencies {
  /** The map shown: a click reveals a line of it. */
  private map: vscode.Uri | undefined;
  private readonly provider = new ResultTree<DepsNode>((node, item) => {
    if (node.missing) item.iconPath = new vscode.ThemeIcon("warning", new vscode.ThemeColor("problemsWarningIcon.foreground"));
    if (node.line !== undefined && this.map) {
      item.command = { command: "unrealLs.revealChange", title: "Reveal", arguments: [this.map, node.line] };
    }
  });
  private view: vscode.TreeView<DepsNode> | undefined;

  constructor(
    private readonly server: ServerManager,
    private readonly output: vscode.LogOutputChannel,
  ) {}

  register(): vscode.Disposable[] {
    this.view = vscode.window.createTreeView(DEPS_VIEW, { treeDataProvider: this.provider, showCollapseAll: true });
    return [this.view, vscode.commands.registerCommand("unrealLs.showMapDependencies", (arg?: vscode.Uri) => this.show(arg))];
  }

  async show(arg?: vscode.Uri): Promise<void> {
    const map = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.languageId === "t3d" ? vscode.window.activeTextEditor.document.uri : undefined;
    if (map === undefined) {
      void vscode.window.showWarningMessage("Open a T3D map first: the dependencies are those of the active map.");
      return;
    }
    const client = this.server.languageClient;
    const unavailable = this.server.unavailableReason;
    if (client === undefined || unavailable !== undefined) {
      void vscode.window.showWarningMessage(unavailable ?? "The unreal-ls server is not running.");
      return;
    }
    try {
      const result = await client.sendRequest<DepsResult>("workspace/executeCommand", { command: DEPS_COMMAND, arguments: [map.toString()] });
      this.map = map;
      this.provider.show(depsTree(result));
      // The view is listed once there is something to show.
      await vscode.commands.executeCommand("setContext", "unrealLs.mapDependenciesShown", true);
      if (this.view !== undefined) {
        this.view.message = `${path.basename(map.fsPath)}: ${depsSummary(result)}`;
        await vscode.commands.executeCommand(`${DEPS_VIEW}.focus`);
      }
      // Without a game folder the view lists the names, not checked: offer the way on.
      if (noGameFolder(result)) {
        void vscode.window
          .showWarningMessage(
            "No game folder: the map's names are listed, not checked. Choose the game's folder (the one that holds System/) to check them.",
            CHOOSE_GAME_FOLDER,
          )
          .then((choice) => (choice === CHOOSE_GAME_FOLDER ? chooseGameFolder(this.output) : undefined));
      }
    } catch (error) {
      void vscode.window.showErrorMessage(`Map dependencies failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
