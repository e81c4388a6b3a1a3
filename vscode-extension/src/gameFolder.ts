// Says once that references into packages are not checked because no game folder was found,
// with a way to set it: a folder picker that writes `unrealLs.gameDirectory`. The server sends
// `unrealLs/gameDirectoryMissing` (docs/protocol.md) to clients that announce they show it
// themselves; any other client gets a plain message from the server.

import * as vscode from "vscode";
import type { ClientCapabilities, StaticFeature } from "vscode-languageclient";

export const GAME_DIRECTORY_MISSING = "unrealLs/gameDirectoryMissing";
export const CHOOSE_GAME_FOLDER = "Choose Game Folder...";
export const NOT_NOW = "Not Now";
const SUPPRESSED_KEY = "unrealLs.gameDirectoryMissing.suppressed";
export const DONT_ASK_AGAIN = "Don't Ask Again Here";

/** Announces `experimental.unrealLs.gameDirectoryMissing` in the client's capabilities. */
export class GameDirectoryMissingFeature implements StaticFeature {
  fillClientCapabilities(capabilities: ClientCapabilities): void {
    const experimental = (capabilities.experimental ?? {}) as Record<string, unknown>;
    const unrealLs = (experimental.unrealLs ?? {}) as Record<string, unknown>;
    capabilities.experimental = { ...experimental, unrealLs: { ...unrealLs, gameDirectoryMissing: true } };
  }
  getState(): { kind: "static" } {
    return { kind: "static" };
  }
  initialize(): void {}
  clear(): void {}
}

/** Where the chosen folder is written: the workspace's settings when a folder is open. */
export function settingTarget(workspaceOpen: boolean): vscode.ConfigurationTarget {
  return workspaceOpen ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
}

/** Shows the server's notice (unless the user said not to, in this workspace) and sets the
 * game folder when asked. */
export async function gameDirectoryMissing(
  context: vscode.ExtensionContext,
  output: vscode.LogOutputChannel,
  message: string,
): Promise<void> {
  if (context.workspaceState.get<boolean>(SUPPRESSED_KEY)) return;
  const choice = await vscode.window.showWarningMessage(message, CHOOSE_GAME_FOLDER, NOT_NOW, DONT_ASK_AGAIN);
  if (choice === DONT_ASK_AGAIN) {
    await context.workspaceState.update(SUPPRESSED_KEY, true);
    return;
  }
  if (choice !== CHOOSE_GAME_FOLDER) return;
  await chooseGameFolder(output);
}

/** The folder picker that writes `unrealLs.gameDirectory` (the workspace's, else the user's). */
export async function chooseGameFolder(output: vscode.LogOutputChannel): Promise<void> {
  const picked = await vscode.window.showOpenDialog({
    canSelectFolders: true,
    canSelectFiles: false,
    canSelectMany: false,
    openLabel: "Use as Game Folder",
    title: "The game's folder (the one that holds System/)",
  });
  const folder = picked?.[0];
  if (folder === undefined) return;
  const target = settingTarget((vscode.workspace.workspaceFolders?.length ?? 0) > 0);
  await vscode.workspace.getConfiguration("unrealLs").update("gameDirectory", folder.fsPath, target);
  output.info(`unrealLs.gameDirectory set to ${folder.fsPath}`);
}
