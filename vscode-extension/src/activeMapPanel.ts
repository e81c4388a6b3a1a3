// A panel beside the editor that shows the active T3D map: the map overview (mapOverview.ts)
// and the 3D view (map3d.ts). What both do alike lives here: the command that opens the
// panel, following the active map and its edits (refreshed a moment after typing stops),
// asking whether the server is there and answers the request, dropping an answer a newer
// request overtook, and revealing a line the webview points at.

import * as path from "node:path";
import * as vscode from "vscode";
import { ServerManager } from "./server";
import type { LanguageClient } from "vscode-languageclient/node";

/** JSON-RPC codes of a request the server gave up (LSP 3.17): not failures to show. */
const CONTENT_MODIFIED = -32801;
const REQUEST_CANCELLED = -32800;

export interface ActiveMapPanelOptions {
  viewType: string;
  /** The command that opens the panel (with a map's URI, or on the active editor). */
  command: string;
  /** The panel's title before the map's file name ("Map overview"). */
  title: string;
  /** How long after the last edit the panel is refreshed. */
  refreshDelayMs: number;
  /** Shown when the command runs without a T3D map. */
  noMapMessage: string;
  /** Folders of the extension (`dist`, `media`) the page may load from. */
  resourceFolders: string[];
  /** Keep the page alive while the panel is hidden (a WebGL scene is costly to rebuild). */
  retainContextWhenHidden: boolean;
}

export abstract class ActiveMapPanel<FromWebview extends { type: string }> {
  protected panel: vscode.WebviewPanel | undefined;
  /** The map the panel follows. */
  protected document: vscode.TextDocument | undefined;
  /** The map whose answer is on screen: a refresh of the same map keeps the camera or zoom. */
  protected shown: vscode.TextDocument | undefined;
  private timer: NodeJS.Timeout | undefined;
  private generation = 0;

  constructor(
    protected readonly context: vscode.ExtensionContext,
    protected readonly server: ServerManager,
    private readonly options: ActiveMapPanelOptions,
  ) {}

  /** Fills the panel for `this.document`. */
  protected abstract refresh(): Promise<void>;
  /** The page, with its scripts from `folders` (the `resourceFolders`, as URIs). */
  protected abstract html(webview: vscode.Webview, folders: vscode.Uri[]): string;
  /** A message from the page other than "ready". */
  protected abstract received(message: FromWebview): Promise<void>;

  register(): vscode.Disposable[] {
    return [
      vscode.commands.registerCommand(this.options.command, (arg?: vscode.Uri) => this.show(arg)),
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (this.panel !== undefined && event.document === this.document && event.contentChanges.length > 0) this.scheduleRefresh();
      }),
      // The panel follows the active map.
      vscode.window.onDidChangeActiveTextEditor((editor) => {
        const document = editor?.document;
        if (this.panel === undefined || document === undefined || document.languageId !== "t3d") return;
        if (document === this.document) return;
        this.document = document;
        this.panel.title = this.titleOf(document);
        void this.refresh();
      }),
      this.server.onDidChangeServer(() => this.scheduleRefresh()),
      { dispose: () => this.panel?.dispose() },
    ];
  }

  async show(arg?: vscode.Uri): Promise<void> {
    let document: vscode.TextDocument | undefined;
    if (arg instanceof vscode.Uri) document = await vscode.workspace.openTextDocument(arg);
    else document = vscode.window.activeTextEditor?.document;
    if (document === undefined || document.languageId !== "t3d") {
      void vscode.window.showWarningMessage(this.options.noMapMessage);
      return;
    }
    this.document = document;
    const title = this.titleOf(document);
    if (this.panel !== undefined) {
      this.panel.title = title;
      this.panel.reveal(vscode.ViewColumn.Beside, true);
      await this.refresh();
      return;
    }
    const folders = this.options.resourceFolders.map((folder) => vscode.Uri.joinPath(this.context.extensionUri, folder));
    this.panel = vscode.window.createWebviewPanel(
      this.options.viewType,
      title,
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      { enableScripts: true, retainContextWhenHidden: this.options.retainContextWhenHidden, localResourceRoots: folders },
    );
    this.panel.webview.html = this.html(this.panel.webview, folders);
    this.panel.onDidDispose(() => {
      this.panel = undefined;
      this.document = undefined;
      this.shown = undefined;
    });
    // The page says "ready" once its script listens; the first refresh waits for it.
    this.panel.webview.onDidReceiveMessage((message: FromWebview | { type: "ready" }) =>
      void (message.type === "ready" ? this.refresh() : this.received(message as FromWebview)),
    );
  }

  protected scheduleRefresh(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.refresh(), this.options.refreshDelayMs);
  }

  protected post(message: unknown): void {
    void this.panel?.webview.postMessage(message);
  }

  /**
   * Starts a request for `feature` (a flag of the server's capabilities, `method` its name):
   * the client and a check that no newer request has started since, or undefined after
   * telling the page why there is no server to ask.
   */
  protected startRequest(feature: boolean | undefined, method: string, what: string): { client: LanguageClient; current: () => boolean } | undefined {
    const mine = ++this.generation;
    const unavailable = this.server.unavailableReason;
    if (unavailable !== undefined) {
      this.post({ type: "error", message: unavailable });
      return undefined;
    }
    const client = this.server.languageClient;
    if (client === undefined || feature !== true) {
      this.post({ type: "error", message: `The server does not ${what} (no ${method}); it may still be starting, or update unreal-ls.` });
      return undefined;
    }
    return { client, current: () => mine === this.generation };
  }

  /** Tells the page a request failed, unless a newer one overtook it, or the server gave the
   * request up because the map changed under it (ContentModified) or it was cancelled: the
   * refresh that follows every edit asks again. */
  protected failed(current: () => boolean, error: unknown): void {
    const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
    if (code === CONTENT_MODIFIED || code === REQUEST_CANCELLED) return;
    if (current()) this.post({ type: "error", message: error instanceof Error ? error.message : String(error) });
  }

  /** Shows the followed map at `line` in its editor, the line selected when `select`. */
  protected async revealLine(line: number, select: boolean): Promise<void> {
    const document = this.document;
    if (document === undefined || !Number.isInteger(line) || line < 0 || line >= document.lineCount) return;
    const range = select ? document.lineAt(line).range : new vscode.Range(line, 0, line, 0);
    const shown = vscode.window.visibleTextEditors.find((e) => e.document === document);
    const editor = await vscode.window.showTextDocument(document, {
      viewColumn: shown?.viewColumn ?? vscode.ViewColumn.One,
      selection: new vscode.Selection(range.start, range.end),
      preserveFocus: false,
    });
    editor.revealRange(range, vscode.TextEditorRevealType.InCenter);
  }

  private titleOf(document: vscode.TextDocument): string {
    return `${this.options.title}: ${path.basename(document.uri.fsPath)}`;
  }
}
