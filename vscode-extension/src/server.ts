// The language client's lifetime: find the binary, start `unreal-ls lsp`, keep the status bar
// in step, restart on demand or when `unrealLs.server.path` changes. In an untrusted workspace
// (Restricted Mode) nothing is started until the user trusts it (see trust.ts).

import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import {
  DidChangeConfigurationNotification,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  State,
  TransportKind,
} from "vscode-languageclient/node";
import { gameDirectoryMissing, GameDirectoryMissingFeature, GAME_DIRECTORY_MISSING } from "./gameFolder";
import { PickTextureFeature } from "./pickTexture";
import { leavesSemanticTokensFor } from "./coexistence";
import { advertised, UnrealLsExperimental } from "./protocol";
import { bundledBinaryName, Candidate, notFoundMessage, resolveServer, skippedMessage } from "./serverPath";
import { serverSettings, ServerSettings } from "./settings";
import { MANAGE_TRUST_COMMAND, RESTRICTED_FEATURE_MESSAGE, RESTRICTED_MODE_MESSAGE } from "./trust";

export const CLIENT_ID = "unrealLs";

function leavesSemanticTokens(languageId: string): boolean {
  return leavesSemanticTokensFor(languageId, (id) => vscode.extensions.getExtension(id) !== undefined);
}
const CLIENT_NAME = "unreal-ls";

type ServerState = "starting" | "running" | "stopped" | "not-found" | "restricted";

export class ServerManager implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private binary: (Candidate & { version: string }) | undefined;
  private state: ServerState = "stopped";
  /** Restricted Mode was explained to the user in this window already. */
  private restrictedExplained = false;
  private readonly statusItem: vscode.StatusBarItem;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly stateEmitter = new vscode.EventEmitter<void>();
  /** Fires when the server (re)starts or stops, so that open previews can reload. */
  readonly onDidChangeServer = this.stateEmitter.event;

  constructor(
    private readonly context: vscode.ExtensionContext,
    readonly output: vscode.LogOutputChannel,
  ) {
    this.statusItem = vscode.window.createStatusBarItem("unrealLs.status", vscode.StatusBarAlignment.Left, 0);
    this.statusItem.name = "unreal-ls";
    this.statusItem.command = "unrealLs.showOutput";
    this.render();
    this.statusItem.show();
    this.disposables.push(
      this.statusItem,
      this.stateEmitter,
      vscode.workspace.onDidChangeConfiguration((event) => this.configurationChanged(event)),
      // Trust granted while the window is open: start now, no reload needed. (Trust is never
      // taken back without a reload, so there is no matching stop.)
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        if (this.state === "restricted") void this.start();
      }),
    );
  }

  /** Why the binary cannot be used now (Restricted Mode), for previews and commands to show. */
  get unavailableReason(): string | undefined {
    return this.state === "restricted" ? RESTRICTED_FEATURE_MESSAGE : undefined;
  }

  /** The binary in use (for the `info --json` fallback), whether or not the server runs. */
  get serverBinary(): string | undefined {
    return this.binary?.path;
  }

  /** What the running server advertises under `experimental.unrealLs`. */
  get features(): UnrealLsExperimental {
    if (this.client === undefined || this.state !== "running") return {};
    return advertised(this.client.initializeResult?.capabilities.experimental);
  }

  get languageClient(): LanguageClient | undefined {
    return this.state === "running" ? this.client : undefined;
  }

  async start(): Promise<void> {
    if (!vscode.workspace.isTrusted) {
      // The server reads the workspace's unreal-ls.toml and the game folder it names, and
      // parses their packages: not in Restricted Mode. Not even the `--version` probe runs.
      this.binary = undefined;
      this.setState("restricted");
      this.explainRestricted();
      return;
    }
    ensureExecutable(path.join(this.context.extensionPath, "server", bundledBinaryName(process.platform)));
    const workspaceFolder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const resolution = resolveServer({
      env: process.env,
      setting: vscode.workspace.getConfiguration("unrealLs").get<string>("server.path"),
      extensionPath: this.context.extensionPath,
      workspaceFolder,
      platform: process.platform,
    });
    const chosen = resolution.chosen;
    for (const failure of resolution.failures) {
      if (chosen !== undefined || failure.candidate.source !== "bundled") {
        this.output.warn(skippedMessage(failure.candidate, failure.detail));
      }
    }
    if (chosen === undefined) {
      this.binary = undefined;
      this.setState("not-found");
      const message = notFoundMessage(resolution);
      this.output.error(message);
      void vscode.window.showErrorMessage(message, "Open Settings", "Show Output").then((choice) => {
        if (choice === "Open Settings") {
          void vscode.commands.executeCommand("workbench.action.openSettings", "unrealLs.server.path");
        } else if (choice === "Show Output") {
          this.output.show(true);
        }
      });
      return;
    }
    this.binary = chosen;
    this.output.info(`using ${chosen.version} from ${chosen.source === "bundled" ? "the bundled binary" : chosen.source === "PATH" ? "the PATH" : chosen.source} (${chosen.path})`);

    const run = { command: chosen.path, args: ["lsp"], transport: TransportKind.stdio };
    const serverOptions: ServerOptions = { run, debug: run };
    const clientOptions: LanguageClientOptions = {
      documentSelector: [
        { scheme: "file", language: "t3d" },
        { scheme: "untitled", language: "t3d" },
        { scheme: "file", language: "unrealscript" },
        { scheme: "untitled", language: "unrealscript" },
        // .uc files claimed by an UnrealScript extension under another language id.
        { scheme: "file", pattern: "**/*.{uc,uci,UC,UCI}" },
      ],
      outputChannel: this.output,
      initializationOptions: { unrealLs: this.currentSettings() },
      diagnosticCollectionName: CLIENT_NAME,
      middleware: {
        // Semantic tokens of an UnrealScript file are left to another UnrealScript extension
        // when one is installed: VS Code shows one provider's tokens a document, the newest
        // registered that returns any, and ours colour only the #exec lines (which the
        // injection grammar colours anyway) where theirs colour the whole file.
        provideDocumentSemanticTokens: (document, token, next) =>
          leavesSemanticTokens(document.languageId) ? undefined : next(document, token),
        provideDocumentSemanticTokensEdits: (document, previousResultId, token, next) =>
          leavesSemanticTokens(document.languageId) ? undefined : next(document, previousResultId, token),
        provideDocumentRangeSemanticTokens: (document, range, token, next) =>
          leavesSemanticTokens(document.languageId) ? undefined : next(document, range, token),
        workspace: {
          // The server asks for the `unrealLs` section; answer with the keys it reads.
          configuration: async (params, token, next) => {
            const values = await next(params, token);
            if (!Array.isArray(values)) return values;
            return params.items.map((item, index) =>
              item.section === "unrealLs" ? this.currentSettings(item.scopeUri) : values[index],
            );
          },
        },
      },
    };
    const client = new LanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions, clientOptions);
    client.registerFeature(new GameDirectoryMissingFeature());
    client.registerFeature(new PickTextureFeature());
    client.onNotification(GAME_DIRECTORY_MISSING, (params: { message?: string }) => {
      void gameDirectoryMissing(this.context, this.output, params.message ?? "no game folder found");
    });
    this.client = client;
    client.onDidChangeState((event) => {
      if (this.client !== client) return;
      if (event.newState === State.Running) this.setState("running");
      else if (event.newState === State.Starting) this.setState("starting");
      else this.setState("stopped");
    });
    this.setState("starting");
    try {
      await client.start();
      const caps = client.initializeResult?.capabilities ?? {};
      const provided = Object.entries(caps)
        .filter(([, value]) => value !== undefined && value !== null && value !== false)
        .map(([key]) => key)
        .sort();
      this.output.info(`server capabilities: ${provided.join(", ")}`);
      this.setState("running");
    } catch (error) {
      this.output.error(`the server did not start: ${String(error)}`);
      this.setState("stopped");
    }
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client !== undefined) {
      try {
        if (client.isRunning()) await client.stop(5000);
      } catch (error) {
        this.output.warn(`stopping the server: ${String(error)}`);
      }
      await client.dispose().catch(() => undefined);
    }
    this.setState("stopped");
  }

  /** Says once per window what Restricted Mode turns off, with a way to trust the workspace. */
  private explainRestricted(): void {
    if (this.restrictedExplained) return;
    this.restrictedExplained = true;
    this.output.info(RESTRICTED_MODE_MESSAGE);
    void vscode.window.showInformationMessage(RESTRICTED_MODE_MESSAGE, "Manage Workspace Trust").then((choice) => {
      if (choice !== undefined) void vscode.commands.executeCommand(MANAGE_TRUST_COMMAND);
    });
  }

  async restart(): Promise<void> {
    this.output.info("restarting the server");
    await this.stop();
    await this.start();
  }

  currentSettings(scopeUri?: string): ServerSettings {
    const scope = scopeUri !== undefined ? vscode.Uri.parse(scopeUri) : undefined;
    const config = vscode.workspace.getConfiguration("unrealLs", scope);
    const folder = scope !== undefined ? vscode.workspace.getWorkspaceFolder(scope) : vscode.workspace.workspaceFolders?.[0];
    const { settings, problems } = serverSettings({
      get: (key) => config.get(key),
      workspaceFolder: folder?.uri.fsPath,
    });
    for (const problem of problems) this.output.warn(problem);
    return settings;
  }

  private configurationChanged(event: vscode.ConfigurationChangeEvent): void {
    if (event.affectsConfiguration("unrealLs.server.path")) {
      void this.restart();
      return;
    }
    const relevant = ["unrealLs.gameDirectory", "unrealLs.engine", "unrealLs.rules", "unrealLs.workspaceDiagnostics"].some((key) =>
      event.affectsConfiguration(key),
    );
    const client = this.languageClient;
    if (relevant && client !== undefined) {
      void client.sendNotification(DidChangeConfigurationNotification.type, {
        settings: { unrealLs: this.currentSettings() },
      });
    }
  }

  private setState(state: ServerState): void {
    if (this.state === state) return;
    this.state = state;
    this.render();
    this.stateEmitter.fire();
  }

  private render(): void {
    const item = this.statusItem;
    const where = this.binary !== undefined ? `\n${this.binary.path} (${this.binary.source})` : "";
    item.backgroundColor = undefined;
    item.command = "unrealLs.showOutput";
    switch (this.state) {
      case "starting":
        item.text = "$(sync~spin) unreal-ls";
        item.tooltip = `unreal-ls: starting${where}`;
        break;
      case "running":
        item.text = "$(check) unreal-ls";
        item.tooltip = `${this.binary?.version ?? "unreal-ls"}: running${where}\nClick for the server output`;
        break;
      case "stopped":
        item.text = "$(debug-stop) unreal-ls";
        item.tooltip = `unreal-ls: stopped${where}\nRun 'unreal-ls: Restart Server'`;
        item.backgroundColor = new vscode.ThemeColor("statusBarItem.warningBackground");
        break;
      case "not-found":
        item.text = "$(error) unreal-ls";
        item.tooltip = "unreal-ls: no server binary found; set unrealLs.server.path";
        item.backgroundColor = new vscode.ThemeColor("statusBarItem.errorBackground");
        break;
      case "restricted":
        item.text = "$(shield) unreal-ls";
        item.tooltip = `${RESTRICTED_MODE_MESSAGE}\nClick to manage workspace trust`;
        item.command = MANAGE_TRUST_COMMAND;
        break;
    }
    item.accessibilityInformation = { label: `unreal-ls ${this.state}` };
  }

  dispose(): void {
    void this.stop();
    for (const disposable of this.disposables) disposable.dispose();
  }
}

/** An install that lost the executable bit (an unzip without modes) still starts. */
function ensureExecutable(file: string): void {
  if (process.platform === "win32") return;
  try {
    fs.accessSync(file, fs.constants.X_OK);
  } catch {
    try {
      if (fs.existsSync(file)) fs.chmodSync(file, 0o755);
    } catch {
      // Reported by the probe that follows.
    }
  }
}
