// Read-only custom editors for binary content: packages (.u .utx .unr .uax .umx .usx .ukx)
// and meshes (.psk .psa _d.3d .u3d). The data comes from the server's custom requests when it
// advertises them (docs/protocol.md), else from `unreal-ls info --json FILE`, so a preview
// always shows something. A TextBuffer (UnrealScript source in a .u) opens as a read-only
// document through the `unreal-ls-object:` scheme.

import * as path from "node:path";
import * as vscode from "vscode";
import { exportToBuffer, FileView, hasExport, runInfo } from "./info";
import {
  OBJECT_PREVIEW,
  ObjectPreviewParams,
  ObjectPreviewResult,
  PACKAGE_TREE,
  PackageTreeParams,
  PackageTreeResult,
} from "./protocol";
import { ServerManager } from "./server";

export const PACKAGE_VIEW_TYPE = "unrealLs.packagePreview";
export const MODEL_VIEW_TYPE = "unrealLs.modelPreview";
export const OBJECT_SCHEME = "unreal-ls-object";
export const PACKAGE_EXTENSIONS = ["u", "utx", "unr", "uax", "umx", "usx", "ukx"];
export const MODEL_PATTERNS = [".psk", ".psa", "_d.3d", ".u3d"];
const THUMBNAIL_SIZE = 128;

/** Classes whose objects get a thumbnail request. */
function isTextureClass(className: string): boolean {
  return /texture$/i.test(className) || /^(Material|Shader|Combiner|FinalBlend|TexModifier)/i.test(className);
}

/** Messages between the extension and the webview (media/preview.js). */
type ToWebview =
  | {
      type: "package";
      file: string;
      source: string;
      header: Record<string, string | number>;
      objects: { path: string; class: string; size: number; detail?: string; thumbnail: boolean }[];
      problems: string[];
      note?: string;
    }
  | {
      type: "summary";
      file: string;
      source: string;
      format: string;
      summary: Record<string, string | number | boolean>;
      pngBase64?: string;
      problems: string[];
      note?: string;
    }
  | { type: "error"; file: string; message: string }
  | { type: "thumbnail"; path: string; pngBase64?: string }
  | { type: "detail"; path: string; summary: Record<string, string | number | boolean>; pngBase64?: string; note?: string };

type FromWebview =
  | { type: "ready" }
  | { type: "reload" }
  | { type: "thumbnails"; paths: string[] }
  | { type: "open"; path: string };

class PreviewDocument implements vscode.CustomDocument {
  constructor(readonly uri: vscode.Uri) {}
  dispose(): void {}
}

export class Previews implements vscode.CustomReadonlyEditorProvider<PreviewDocument>, vscode.TextDocumentContentProvider {
  private readonly changeEmitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changeEmitter.event;
  /** Webviews of open previews, reloaded when the server restarts. */
  private readonly panels = new Set<{ reload: () => void }>();
  /** Package URI -> object path -> class, from the last tree shown (the export fallback needs
   * the class to choose PNG or text). */
  private readonly classes = new Map<string, Map<string, string>>();

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly server: ServerManager,
  ) {
    context.subscriptions.push(
      this.changeEmitter,
      // A preview opened while the server was starting showed the fallback; show the server's
      // answer once it runs. Other state changes leave open previews alone.
      server.onDidChangeServer(() => {
        if (server.languageClient === undefined) return;
        for (const panel of this.panels) panel.reload();
      }),
    );
  }

  register(): vscode.Disposable[] {
    const options = { webviewOptions: { retainContextWhenHidden: false }, supportsMultipleEditorsPerDocument: true };
    return [
      vscode.window.registerCustomEditorProvider(PACKAGE_VIEW_TYPE, this, options),
      vscode.window.registerCustomEditorProvider(MODEL_VIEW_TYPE, this, options),
      vscode.workspace.registerTextDocumentContentProvider(OBJECT_SCHEME, this),
    ];
  }

  openCustomDocument(uri: vscode.Uri): PreviewDocument {
    return new PreviewDocument(uri);
  }

  resolveCustomEditor(document: PreviewDocument, panel: vscode.WebviewPanel): void {
    const webview = panel.webview;
    const media = vscode.Uri.joinPath(this.context.extensionUri, "media");
    webview.options = { enableScripts: true, localResourceRoots: [media] };
    webview.html = previewHtml(webview, media, path.basename(document.uri.fsPath));
    const isPackage = isPackageFile(document.uri);
    const post = (message: ToWebview) => void webview.postMessage(message);
    // Loads can overlap (the fallback started while the server was starting, then the
    // server's answer): only the latest one is shown.
    let generation = 0;
    const load = async () => {
      const mine = ++generation;
      let message: ToWebview;
      try {
        message = isPackage ? await this.packageView(document.uri) : await this.modelView(document.uri);
      } catch (error) {
        message = { type: "error", file: document.uri.fsPath, message: String(error) };
      }
      if (mine === generation) post(message);
    };
    const entry = { reload: () => void load() };
    this.panels.add(entry);
    panel.onDidDispose(() => this.panels.delete(entry));
    webview.onDidReceiveMessage(async (message: FromWebview) => {
      switch (message.type) {
        case "ready":
        case "reload":
          await load();
          break;
        case "thumbnails":
          for (const objectPath of message.paths) {
            const result = await this.objectPreview(document.uri, objectPath).catch(() => undefined);
            post({ type: "thumbnail", path: objectPath, pngBase64: result?.pngBase64 });
          }
          break;
        case "open":
          await this.openObject(document.uri, message.path, post);
          break;
      }
    });
  }

  /** Opens one object of a package: a TextBuffer as a read-only document, anything else as a
   * detail pane in the preview (or, without a preview, a message). */
  async openObject(packageUri: vscode.Uri, objectPath: string, post?: (message: ToWebview) => void): Promise<void> {
    if (!this.server.features.objectPreview && !this.canExport()) {
      const message = this.server.unavailableReason ?? `Opening '${objectPath}' needs a server that answers ${OBJECT_PREVIEW} or has the export command (this one has neither).`;
      if (post !== undefined) post({ type: "detail", path: objectPath, summary: {}, note: message });
      else void vscode.window.showInformationMessage(message);
      return;
    }
    if (!this.classes.has(packageUri.toString())) await this.packageView(packageUri);
    const result = await this.objectPreview(packageUri, objectPath);
    if (result === undefined) {
      const message = `'${objectPath}' has no preview (neither ${OBJECT_PREVIEW} nor unreal-ls export can show a ${this.classOf(packageUri, objectPath) ?? "object of this class"}).`;
      if (post !== undefined) post({ type: "detail", path: objectPath, summary: {}, note: message });
      else void vscode.window.showInformationMessage(message);
      return;
    }
    if (result.kind === "text") {
      const document = await vscode.workspace.openTextDocument(objectUri(packageUri, objectPath));
      await vscode.window.showTextDocument(document, { preview: true, preserveFocus: false });
      return;
    }
    if (post !== undefined) {
      post({ type: "detail", path: objectPath, summary: result.summary ?? {}, pngBase64: result.pngBase64 });
    } else {
      showObjectPanel(this.context, packageUri, objectPath, result);
    }
  }

  /** The object paths of a package, for the Open Object Preview command's quick pick. */
  async packageObjects(uri: vscode.Uri): Promise<{ path: string; class: string; size: number }[]> {
    const unavailable = this.server.unavailableReason;
    if (unavailable !== undefined) {
      void vscode.window.showWarningMessage(unavailable);
      return [];
    }
    const view = await this.packageView(uri);
    return view.type === "package" ? view.objects : [];
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const { packageUri, objectPath } = parseObjectUri(uri);
    const result = await this.objectPreview(packageUri, objectPath);
    if (result?.kind === "text" && typeof result.text === "string") return result.text;
    return `// ${objectPath} in ${packageUri.fsPath} has no text (the server answered ${result?.kind ?? "nothing"})\n`;
  }

  /** The server's `unrealLs/objectPreview` when it advertises it; else, for a texture or a
   * TextBuffer in a package, `unreal-ls export` to PNG or text. */
  private async objectPreview(uri: vscode.Uri, objectPath?: string): Promise<ObjectPreviewResult | undefined> {
    const client = this.server.languageClient;
    if (client !== undefined && this.server.features.objectPreview) {
      const params: ObjectPreviewParams = { uri: uri.toString(), object: objectPath, maxSize: THUMBNAIL_SIZE };
      return client.sendRequest<ObjectPreviewResult>(OBJECT_PREVIEW, params);
    }
    const binary = this.server.serverBinary;
    const className = objectPath !== undefined ? this.classOf(uri, objectPath) : undefined;
    if (binary === undefined || className === undefined || !this.canExport()) return undefined;
    if (/^TextBuffer$/i.test(className)) {
      const { bytes, error } = await exportToBuffer(binary, uri.fsPath, objectPath, "txt");
      if (bytes === undefined) throw new Error(error);
      return { kind: "text", text: bytes.toString("utf8"), summary: {} };
    }
    if (isTextureClass(className) || /^Palette$/i.test(className)) {
      const { bytes, error } = await exportToBuffer(binary, uri.fsPath, objectPath, "png");
      if (bytes === undefined) throw new Error(error);
      return { kind: "texture", pngBase64: bytes.toString("base64"), summary: { source: "unreal-ls export" } };
    }
    return undefined;
  }

  private canExport(): boolean {
    const binary = this.server.serverBinary;
    return binary !== undefined && hasExport(binary);
  }

  private classOf(uri: vscode.Uri, objectPath: string): string | undefined {
    return this.classes.get(uri.toString())?.get(objectPath);
  }

  private remember(uri: vscode.Uri, objects: { path: string; class: string }[]): void {
    this.classes.set(uri.toString(), new Map(objects.map((object) => [object.path, object.class])));
  }

  private async packageView(uri: vscode.Uri): Promise<ToWebview> {
    const file = uri.fsPath;
    const client = this.server.languageClient;
    const serverThumbnails = this.server.features.objectPreview === true;
    const thumbnails = serverThumbnails || this.canExport();
    let failure: string | undefined;
    if (client !== undefined && this.server.features.packageTree) {
      const params: PackageTreeParams = { uri: uri.toString() };
      try {
        const tree = await client.sendRequest<PackageTreeResult>(PACKAGE_TREE, params);
        this.remember(uri, tree.objects);
        return {
          type: "package",
          file,
          source: `server (${PACKAGE_TREE})`,
          header: tree.header ?? {},
          objects: tree.objects.map((object) => ({ ...object, thumbnail: thumbnails && isTextureClass(object.class) })),
          problems: [],
        };
      } catch (error) {
        failure = `The server's ${PACKAGE_TREE} failed (${error instanceof Error ? error.message : String(error)}); showing unreal-ls info instead.`;
        this.server.output.warn(`${file}: ${failure}`);
      }
    }
    const view = await this.infoView(file);
    if (view.kind === "error") return { type: "error", file, message: view.message };
    if (view.kind === "summary") {
      return { type: "summary", file, source: "unreal-ls info --json", format: view.format, summary: view.summary, problems: view.problems };
    }
    this.remember(uri, view.tree.objects);
    return {
      type: "package",
      file,
      source: thumbnails && !serverThumbnails ? "unreal-ls info --json and export" : "unreal-ls info --json",
      header: view.tree.header ?? {},
      objects: view.tree.objects.map((object) => ({
        ...object,
        detail: view.details[object.path],
        thumbnail: thumbnails && isTextureClass(object.class),
      })),
      problems: view.problems,
      note: failure ?? (thumbnails ? undefined : `Thumbnails and sources appear when the server answers ${OBJECT_PREVIEW}.`),
    };
  }

  private async modelView(uri: vscode.Uri): Promise<ToWebview> {
    const file = uri.fsPath;
    if (this.server.features.objectPreview) {
      const result = await this.objectPreview(uri);
      if (result !== undefined) {
        return {
          type: "summary",
          file,
          source: `server (${OBJECT_PREVIEW})`,
          format: result.kind,
          summary: result.summary ?? {},
          pngBase64: result.pngBase64,
          problems: [],
        };
      }
    }
    const view = await this.infoView(file);
    if (view.kind === "error") return { type: "error", file, message: view.message };
    if (view.kind === "package") {
      return { type: "error", file, message: "this file is a package; open it with the package preview" };
    }
    return {
      type: "summary",
      file,
      source: "unreal-ls info --json",
      format: view.format,
      summary: view.summary,
      problems: view.problems,
      note: `A rendered thumbnail appears when the server answers ${OBJECT_PREVIEW}.`,
    };
  }

  private async infoView(file: string): Promise<FileView> {
    const binary = this.server.serverBinary;
    const unavailable = this.server.unavailableReason;
    if (unavailable !== undefined) return { kind: "error", message: unavailable };
    if (binary === undefined) {
      return { kind: "error", message: "no unreal-ls binary was found; set unrealLs.server.path (see the unreal-ls output)" };
    }
    return runInfo(binary, file);
  }
}

export function isPackageFile(uri: vscode.Uri): boolean {
  const extension = path.extname(uri.fsPath).slice(1).toLowerCase();
  return PACKAGE_EXTENSIONS.includes(extension);
}

export function isModelFile(uri: vscode.Uri): boolean {
  const name = uri.fsPath.toLowerCase();
  return MODEL_PATTERNS.some((suffix) => name.endsWith(suffix));
}

/** `unreal-ls-object:/Package/Group.Name.uc?<package uri>`: the `.uc` suffix gives the
 * document the UnrealScript language. */
export function objectUri(packageUri: vscode.Uri, objectPath: string): vscode.Uri {
  const packageName = path.basename(packageUri.fsPath);
  return vscode.Uri.from({
    scheme: OBJECT_SCHEME,
    path: `/${packageName}/${objectPath}.uc`,
    query: packageUri.toString(),
  });
}

function parseObjectUri(uri: vscode.Uri): { packageUri: vscode.Uri; objectPath: string } {
  const segments = uri.path.split("/");
  const last = segments[segments.length - 1] ?? "";
  return { packageUri: vscode.Uri.parse(uri.query), objectPath: last.replace(/\.uc$/, "") };
}

function showObjectPanel(
  context: vscode.ExtensionContext,
  packageUri: vscode.Uri,
  objectPath: string,
  result: ObjectPreviewResult,
): void {
  const media = vscode.Uri.joinPath(context.extensionUri, "media");
  const panel = vscode.window.createWebviewPanel(
    "unrealLs.objectPreview",
    `${objectPath} (${path.basename(packageUri.fsPath)})`,
    vscode.ViewColumn.Active,
    { enableScripts: true, localResourceRoots: [media] },
  );
  panel.webview.html = previewHtml(panel.webview, media, objectPath);
  panel.webview.onDidReceiveMessage((message: FromWebview) => {
    if (message.type === "ready") {
      void panel.webview.postMessage({
        type: "summary",
        file: `${packageUri.fsPath} : ${objectPath}`,
        source: `server (${OBJECT_PREVIEW})`,
        format: result.kind,
        summary: result.summary ?? {},
        pngBase64: result.pngBase64,
        problems: [],
      } satisfies ToWebview);
    }
  });
}

function previewHtml(webview: vscode.Webview, media: vscode.Uri, title: string): string {
  const nonce = Array.from({ length: 32 }, () => Math.floor(Math.random() * 36).toString(36)).join("");
  const script = webview.asWebviewUri(vscode.Uri.joinPath(media, "preview.js"));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(media, "preview.css"));
  const csp = [
    "default-src 'none'",
    `img-src ${webview.cspSource} data:`,
    `style-src ${webview.cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join("; ");
  const escaped = title.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style.toString()}">
<title>${escaped}</title>
</head>
<body>
<header><h1 id="title">${escaped}</h1><p id="status" class="muted">Loading…</p></header>
<main id="content"></main>
<script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
}
