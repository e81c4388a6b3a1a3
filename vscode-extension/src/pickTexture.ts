// "Replace a missing texture everywhere": the server's code action on a polygon whose texture
// no package of the game folder holds runs `unrealLs.pickTexture` with [map URI, name]; the
// user picks a texture (the server's `unrealLs/findAssets` as they type), and the server's
// `unrealLs.replaceTexture` command gives the edit of every polygon that names the missing
// one, applied here. The server offers the action only to a client that announces
// `experimental.unrealLs.pickTexture` (docs/protocol.md).

import * as vscode from "vscode";
import type { ClientCapabilities, StaticFeature } from "vscode-languageclient";
import { FIND_ASSETS, FindAssetsParams, FindAssetsResult } from "./protocol";
import { TextureItem, textureItems } from "./textureItems";
import type { ServerManager } from "./server";

export const PICK_TEXTURE_COMMAND = "unrealLs.pickTexture";
export const REPLACE_TEXTURE_COMMAND = "unrealLs.replaceTexture";

/** Announces `experimental.unrealLs.pickTexture` in the client's capabilities. */
export class PickTextureFeature implements StaticFeature {
  fillClientCapabilities(capabilities: ClientCapabilities): void {
    const experimental = (capabilities.experimental ?? {}) as Record<string, unknown>;
    const unrealLs = (experimental.unrealLs ?? {}) as Record<string, unknown>;
    capabilities.experimental = { ...experimental, unrealLs: { ...unrealLs, pickTexture: true } };
  }
  getState(): { kind: "static" } {
    return { kind: "static" };
  }
  initialize(): void {}
  clear(): void {}
}

export function registerPickTexture(server: ServerManager): vscode.Disposable {
  return vscode.commands.registerCommand(PICK_TEXTURE_COMMAND, (uri: string, missing: string) => {
    const client = server.languageClient;
    if (client === undefined || !server.features.findAssets) {
      void vscode.window.showWarningMessage("Replacing a texture needs the unreal-ls server with its asset search.");
      return;
    }
    const pick = vscode.window.createQuickPick<TextureItem>();
    pick.title = `Replace '${missing}' everywhere in the map with`;
    pick.placeholder = "A texture of the game folder: its name or part of it (Walls.Granite, granite)";
    let generation = 0;
    const update = async (value: string) => {
      const mine = ++generation;
      if (value.trim() === "") {
        pick.items = [];
        return;
      }
      pick.busy = true;
      const result = await client.sendRequest<FindAssetsResult>(FIND_ASSETS, { query: value, limit: 100 } satisfies FindAssetsParams);
      if (mine !== generation) return;
      // The server ranks fragments and scattered letters that VS Code's own filter would hide.
      pick.items = textureItems(result).map((item) => ({ ...item, alwaysShow: true }));
      pick.busy = false;
    };
    pick.onDidChangeValue((value) => void update(value));
    pick.onDidAccept(async () => {
      const item = pick.selectedItems[0];
      pick.hide();
      if (item === undefined) return;
      try {
        const edit = await client.sendRequest("workspace/executeCommand", {
          command: REPLACE_TEXTURE_COMMAND,
          arguments: [uri, missing, item.name],
        });
        const workspaceEdit = await client.protocol2CodeConverter.asWorkspaceEdit(edit as never);
        if (workspaceEdit !== undefined) await vscode.workspace.applyEdit(workspaceEdit);
      } catch (error) {
        void vscode.window.showErrorMessage(`Replacing '${missing}' failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
    pick.onDidHide(() => pick.dispose());
    pick.show();
  });
}
