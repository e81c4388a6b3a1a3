// "Find Unreal Asset": a quick pick over every texture, mesh, sound and class of the game
// folder's packages, fed as the user types by the server's `unrealLs/findAssets` (or, from a
// server without it, `workspace/symbol`); the chosen asset opens in its package's preview.

import * as vscode from "vscode";
import { FIND_ASSETS, FindAssetsParams, FindAssetsResult, FoundAsset } from "./protocol";
import { isPackageFile, Previews } from "./previews";
import { ServerManager } from "./server";

export const FIND_ASSET_COMMAND = "unrealLs.findAsset";

/** How many hits one query lists. */
const LIMIT = 100;

interface AssetItem extends vscode.QuickPickItem {
  uri?: string;
  key?: string;
}

/** What one query finds, as quick pick items. */
async function search(server: ServerManager, query: string): Promise<AssetItem[]> {
  const client = server.languageClient;
  if (client === undefined) return [];
  let assets: { name: string; class: string; uri: string; key: string }[];
  let indexed = true;
  if (server.features.findAssets) {
    const result = await client.sendRequest<FindAssetsResult>(FIND_ASSETS, { query, limit: LIMIT } satisfies FindAssetsParams);
    indexed = result.indexed;
    assets = result.assets.map((asset: FoundAsset) => ({ name: asset.name, class: asset.class, uri: asset.uri, key: `#${asset.export}` }));
  } else {
    const symbols = await client.sendRequest<vscode.SymbolInformation[] | null>("workspace/symbol", { query });
    assets = (symbols ?? [])
      .map((symbol) => {
        const raw = symbol as unknown as { name: string; containerName?: string; location: { uri: string } };
        return { name: raw.name, class: (raw.containerName ?? "").split(" in ")[0] ?? "", uri: raw.location.uri, key: raw.name.split(".").slice(1).join(".") };
      })
      .filter((asset) => isPackageFile(vscode.Uri.parse(asset.uri)));
  }
  if (assets.length === 0) {
    const label = indexed ? `No asset matches '${query}'` : "The packages are still being indexed (or no game folder is set)";
    return [{ label, alwaysShow: true }];
  }
  return assets.map((asset) => ({
    label: asset.name,
    description: asset.class,
    detail: vscode.workspace.asRelativePath(vscode.Uri.parse(asset.uri)),
    // The server ranks fragments and scattered letters that VS Code's own filter would hide.
    alwaysShow: true,
    uri: asset.uri,
    key: asset.key,
  }));
}

export function registerFindAsset(server: ServerManager, previews: Previews): vscode.Disposable {
  return vscode.commands.registerCommand(FIND_ASSET_COMMAND, (initial?: string) => {
    if (server.languageClient === undefined) {
      void vscode.window.showWarningMessage(server.unavailableReason ?? "Find Unreal Asset needs the unreal-ls server, which is not running.");
      return;
    }
    const pick = vscode.window.createQuickPick<AssetItem>();
    pick.title = "Find Unreal Asset";
    pick.placeholder = "A texture, mesh, sound or class: its name or part of it (Walls.Granite, granite, rwgran)";
    pick.matchOnDescription = true;
    pick.matchOnDetail = true;
    let generation = 0;
    const update = async (value: string) => {
      const mine = ++generation;
      if (value.trim() === "") {
        pick.items = [];
        return;
      }
      pick.busy = true;
      let items: AssetItem[];
      try {
        items = await search(server, value);
      } catch (error) {
        items = [{ label: `The search failed: ${error instanceof Error ? error.message : String(error)}`, alwaysShow: true }];
      }
      if (mine !== generation) return;
      pick.items = items;
      pick.busy = false;
    };
    pick.onDidChangeValue((value) => void update(value));
    pick.onDidAccept(async () => {
      const item = pick.selectedItems[0];
      pick.hide();
      if (item?.uri !== undefined && item.key !== undefined) await previews.showObjectInPackage(vscode.Uri.parse(item.uri), item.key);
    });
    pick.onDidHide(() => pick.dispose());
    pick.show();
    if (typeof initial === "string" && initial !== "") {
      pick.value = initial;
      void update(initial);
    }
  });
}
