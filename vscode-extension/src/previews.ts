// Read-only custom editors for binary content: packages (.u .utx .unr .uax .umx .usx .ukx,
// and compressed .uz .uz2 ones, which the server decompresses)
// and meshes (.psk .psa _d.3d .u3d). The data comes from the server's custom requests when it
// advertises them (docs/protocol.md), else from `unreal-ls info --json FILE`, so a preview
// always shows something. A TextBuffer (UnrealScript source in a .u) opens as a read-only
// document through the `unreal-ls-object:` scheme.

import * as path from "node:path";
import * as vscode from "vscode";
import { isVertexMeshClass } from "./execBlock";
import { exportToBuffer, FileView, hasExport, runInfo } from "./info";
import {
  OBJECT_PREVIEW,
  objectKey,
  ObjectPreviewParams,
  ObjectPreviewResult,
  objectReference,
  PACKAGE_TREE,
  PackageObject,
  PackageTreeParams,
  PackageTreeResult,
} from "./protocol";
import { ServerManager } from "./server";
import { escapeHtml, webviewPage } from "./webviewPage";

export const PACKAGE_VIEW_TYPE = "unrealLs.packagePreview";
export const MODEL_VIEW_TYPE = "unrealLs.modelPreview";
export const OBJECT_SCHEME = "unreal-ls-object";
export const PACKAGE_EXTENSIONS = ["u", "utx", "unr", "uax", "umx", "usx", "ukx", "uz", "uz2"];
export const MODEL_PATTERNS = [".psk", ".psa", "_d.3d", ".u3d"];
const THUMBNAIL_SIZE = 128;
/** The size of the picture in an object's detail pane (a mesh rendered for the panel, not a
 * thumbnail scaled up). */
const DETAIL_SIZE = 512;

/** One object of a package as the previews keep it: `key` is unique in the package (the
 * export index when the server gave one), `path` is what is shown. */
type ObjectEntry = PackageObject & { key: string };

/** Classes whose objects get a thumbnail request. */
function isTextureClass(className: string): boolean {
  return /texture$/i.test(className) || /^(Material|Shader|Combiner|FinalBlend|TexModifier)/i.test(className);
}

/** Meshes, which the server renders (the export fallback cannot). */
function isMeshClass(className: string): boolean {
  return /^(Mesh|LodMesh|SkeletalMesh|StaticMesh)$/i.test(className);
}

function hasThumbnail(className: string, serverThumbnails: boolean, thumbnails: boolean): boolean {
  return (thumbnails && isTextureClass(className)) || (serverThumbnails && isMeshClass(className));
}

/** Messages between the extension and the webview (media/preview.js). */
type ToWebview =
  | {
      type: "package";
      file: string;
      /** The package's URI, which a row's context menu hands to its commands. */
      uri: string;
      source: string;
      header: Record<string, string | number>;
      objects: {
        key: string;
        path: string;
        class: string;
        size: number;
        export?: number;
        detail?: string;
        thumbnail: boolean;
        /** A vertex mesh whose #exec block the server writes: its row's context menu offers the
         * #exec commands. */
        execLines?: boolean;
      }[];
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
  | { type: "thumbnail"; key: string; pngBase64?: string }
  | {
      type: "detail";
      key: string;
      title: string;
      summary: Record<string, string | number | boolean>;
      pngBase64?: string;
      note?: string;
      /** A mesh: the detail offers "Show in 3D" (unrealLs.showMesh3D). */
      mesh?: boolean;
      /** A vertex mesh: the detail offers "Copy #exec Lines" and "Export for #exec...". */
      execLines?: boolean;
    };

type FromWebview =
  | { type: "ready" }
  | { type: "reload" }
  | { type: "thumbnails"; keys: string[] }
  | { type: "open"; key: string }
  | { type: "show3d"; key: string }
  | { type: "execLines"; key: string; action: "copy" | "export" };

/** The classes "Show Mesh in 3D" can show (what `unreal-ls export --to glb` writes as a mesh). */
const MESH_CLASSES = new Set(["Mesh", "LodMesh", "SkeletalMesh", "StaticMesh"]);

class PreviewDocument implements vscode.CustomDocument {
  constructor(readonly uri: vscode.Uri) {}
  dispose(): void {}
}

export class Previews implements vscode.CustomReadonlyEditorProvider<PreviewDocument>, vscode.TextDocumentContentProvider {
  private readonly changeEmitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changeEmitter.event;
  /** Webviews of open previews, reloaded when the server restarts. */
  private readonly panels = new Set<{ reload: () => void }>();
  /** Package URI -> object key -> object, from the last tree shown: requests name an object by
   * its key's export index (or class and path), and the export fallback needs the class to
   * choose PNG or text. */
  private readonly objects = new Map<string, Map<string, ObjectEntry>>();
  /** Package URI -> the object to open once its preview has shown the package (Find Unreal
   * Asset opening a package that was not open). */
  private readonly pendingOpen = new Map<string, string>();
  /** Package URI -> opens an object in that open preview. */
  private readonly openers = new Map<string, (key: string) => void>();

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
      const pending = this.pendingOpen.get(document.uri.toString());
      if (mine === generation && pending !== undefined && message.type === "package") {
        this.pendingOpen.delete(document.uri.toString());
        await this.openObject(document.uri, pending, post);
      }
    };
    const entry = { reload: () => void load() };
    this.panels.add(entry);
    const opener = (key: string) => void this.openObject(document.uri, key, post);
    this.openers.set(document.uri.toString(), opener);
    panel.onDidDispose(() => {
      this.panels.delete(entry);
      if (this.openers.get(document.uri.toString()) === opener) this.openers.delete(document.uri.toString());
    });
    webview.onDidReceiveMessage(async (message: FromWebview) => {
      switch (message.type) {
        case "ready":
        case "reload":
          await load();
          break;
        case "thumbnails":
          for (const key of message.keys) {
            const object = this.objectOf(document.uri, key);
            const result = object === undefined ? undefined : await this.objectPreview(document.uri, object).catch(() => undefined);
            post({ type: "thumbnail", key, pngBase64: result?.pngBase64 });
          }
          break;
        case "open":
          await this.openObject(document.uri, message.key, post);
          break;
        case "execLines": {
          const object = this.objectOf(document.uri, message.key);
          if (object !== undefined) {
            const command = message.action === "copy" ? "unrealLs.copyExecLines" : "unrealLs.exportMeshForExec";
            await vscode.commands.executeCommand(command, {
              uri: document.uri.toString(),
              object: objectReference(object),
              export: object.export,
            });
          }
          break;
        }
        case "show3d": {
          const object = this.objectOf(document.uri, message.key);
          if (object !== undefined) {
            await vscode.commands.executeCommand("unrealLs.showMesh3D", { uri: document.uri.toString(), object: objectReference(object) });
          }
          break;
        }
      }
    });
  }

  /** Opens one object of a package: a TextBuffer as a read-only document, anything else as a
   * detail pane in the preview (or, without a preview, a message). `wanted` is an object's key
   * (from the tree), or as a user or command writes it: `Class'Path'` or a path. */
  async openObject(packageUri: vscode.Uri, wanted: string, post?: (message: ToWebview) => void): Promise<void> {
    const tell = (title: string, message: string) => {
      if (post !== undefined) post({ type: "detail", key: wanted, title, summary: {}, note: message });
      else void vscode.window.showInformationMessage(message);
    };
    if (!this.server.features.objectPreview && !this.canExport()) {
      tell(wanted, this.server.unavailableReason ?? `Opening '${wanted}' needs a server that answers ${OBJECT_PREVIEW} or has the export command (this one has neither).`);
      return;
    }
    if (!this.objects.has(packageUri.toString())) await this.packageView(packageUri);
    const object = this.objectOf(packageUri, wanted);
    if (object === undefined) {
      const sharing = this.objectsAt(packageUri, wanted).map(objectReference);
      tell(
        wanted,
        sharing.length > 1
          ? `'${wanted}' names ${sharing.length} objects (${sharing.join(", ")}); name one as Class'Path'.`
          : `'${wanted}' is not an object of ${path.basename(packageUri.fsPath)}.`,
      );
      return;
    }
    const title = objectReference(object);
    const result = await this.objectPreview(packageUri, object, DETAIL_SIZE);
    if (result === undefined) {
      tell(title, `'${title}' has no preview (neither ${OBJECT_PREVIEW} nor unreal-ls export can show a ${object.class}).`);
      return;
    }
    if (result.kind === "text") {
      const document = await vscode.workspace.openTextDocument(objectUri(packageUri, object));
      await vscode.window.showTextDocument(document, { preview: true, preserveFocus: false });
      return;
    }
    if (post !== undefined) {
      post({
        type: "detail",
        key: object.key,
        title,
        summary: result.summary ?? {},
        pngBase64: result.pngBase64,
        mesh: MESH_CLASSES.has(object.class),
        execLines: this.offersExecLines(object.class),
      });
    } else {
      showObjectPanel(this.context, packageUri, title, result);
    }
  }

  /** Opens the package's preview and, in it, the object `key` (`#<export>`, `Class'Path'` or a
   * path): Find Unreal Asset's destination. */
  async showObjectInPackage(packageUri: vscode.Uri, key: string): Promise<void> {
    const open = this.openers.get(packageUri.toString());
    if (open === undefined) this.pendingOpen.set(packageUri.toString(), key);
    await vscode.commands.executeCommand("vscode.openWith", packageUri, PACKAGE_VIEW_TYPE);
    if (open !== undefined) open(key);
  }

  /** The object paths of a package, for the Open Object Preview command's quick pick. */
  async packageObjects(uri: vscode.Uri): Promise<ObjectEntry[]> {
    const unavailable = this.server.unavailableReason;
    if (unavailable !== undefined) {
      void vscode.window.showWarningMessage(unavailable);
      return [];
    }
    const view = await this.packageView(uri);
    return view.type === "package" ? [...(this.objects.get(uri.toString())?.values() ?? [])] : [];
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const { packageUri, object } = parseObjectUri(uri);
    const result = await this.objectPreview(packageUri, object);
    if (result?.kind === "text" && typeof result.text === "string") return result.text;
    return `// ${object.path} in ${packageUri.fsPath} has no text (the server answered ${result?.kind ?? "nothing"})\n`;
  }

  /** The server's `unrealLs/objectPreview` when it advertises it; else, for a texture or a
   * TextBuffer in a package, `unreal-ls export` to PNG or text. */
  private async objectPreview(
    uri: vscode.Uri,
    object?: { path: string; class?: string; export?: number },
    maxSize = THUMBNAIL_SIZE,
  ): Promise<ObjectPreviewResult | undefined> {
    const client = this.server.languageClient;
    if (client !== undefined && this.server.features.objectPreview) {
      const params: ObjectPreviewParams = { uri: uri.toString(), maxSize };
      if (object !== undefined) {
        params.object = object.path;
        if (object.export !== undefined) params.export = object.export;
        if (object.class !== undefined) params.class = object.class;
      }
      return client.sendRequest<ObjectPreviewResult>(OBJECT_PREVIEW, params);
    }
    const binary = this.server.serverBinary;
    const className = object?.class;
    if (binary === undefined || object === undefined || className === undefined || !this.canExport()) return undefined;
    const named = objectReference(object);
    if (/^TextBuffer$/i.test(className)) {
      const { bytes, error } = await exportToBuffer(binary, uri.fsPath, named, "txt");
      if (bytes === undefined) throw new Error(error);
      return { kind: "text", text: bytes.toString("utf8"), summary: {} };
    }
    if (isTextureClass(className) || /^Palette$/i.test(className)) {
      const { bytes, error } = await exportToBuffer(binary, uri.fsPath, named, "png");
      if (bytes === undefined) throw new Error(error);
      return { kind: "texture", pngBase64: bytes.toString("base64"), summary: { source: "unreal-ls export" } };
    }
    return undefined;
  }

  /** Whether the #exec commands apply to an object of `className` (a vertex mesh, and a server
   * that answers `unrealLs/execLines`). */
  private offersExecLines(className: string): boolean {
    return this.server.features.execLines === true && isVertexMeshClass(className);
  }

  private canExport(): boolean {
    const binary = this.server.serverBinary;
    return binary !== undefined && hasExport(binary);
  }

  /** The object `wanted` names: a key from the tree, or `Class'Path'`, or a path that one
   * object alone has (any case). */
  private objectOf(uri: vscode.Uri, wanted: string): ObjectEntry | undefined {
    const known = this.objects.get(uri.toString());
    const byKey = known?.get(wanted);
    if (byKey !== undefined) return byKey;
    const sharing = this.objectsAt(uri, wanted);
    return sharing.length === 1 ? sharing[0] : undefined;
  }

  /** The objects at the path `wanted` names (with its class, when written `Class'Path'`). */
  private objectsAt(uri: vscode.Uri, wanted: string): ObjectEntry[] {
    const quoted = /^(\w+)'(.+)'$/.exec(wanted.trim());
    const wantedPath = (quoted ? quoted[2] : wanted.trim()).toLowerCase();
    const wantedClass = quoted?.[1].toLowerCase();
    return [...(this.objects.get(uri.toString())?.values() ?? [])].filter(
      (object) =>
        object.path.toLowerCase() === wantedPath && (wantedClass === undefined || object.class.toLowerCase() === wantedClass),
    );
  }

  private remember(uri: vscode.Uri, objects: PackageObject[]): ObjectEntry[] {
    const entries = objects.map((object) => ({ ...object, key: objectKey(object) }));
    this.objects.set(uri.toString(), new Map(entries.map((entry) => [entry.key, entry])));
    return entries;
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
        const entries = this.remember(uri, tree.objects);
        return {
          type: "package",
          file,
          uri: uri.toString(),
          source: `server (${PACKAGE_TREE})`,
          header: tree.header ?? {},
          objects: entries.map((object) => ({
            ...object,
            thumbnail: hasThumbnail(object.class, serverThumbnails, thumbnails),
            execLines: this.offersExecLines(object.class),
          })),
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
    const entries = this.remember(uri, view.tree.objects);
    return {
      type: "package",
      file,
      uri: uri.toString(),
      source: thumbnails && !serverThumbnails ? "unreal-ls info --json and export" : "unreal-ls info --json",
      header: view.tree.header ?? {},
      objects: entries.map((object) => ({
        ...object,
        detail: view.details[object.key] ?? view.details[object.path],
        thumbnail: hasThumbnail(object.class, serverThumbnails, thumbnails),
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

/** `unreal-ls-object:/Package/Group.Name.uc?<package uri>#<class>:<export>`: the `.uc`
 * suffix gives the document the UnrealScript language; the fragment keeps the object's class
 * and export index (a path is not unique in a package). */
export function objectUri(packageUri: vscode.Uri, object: { path: string; class?: string; export?: number }): vscode.Uri {
  const packageName = path.basename(packageUri.fsPath);
  return vscode.Uri.from({
    scheme: OBJECT_SCHEME,
    path: `/${packageName}/${object.path}.uc`,
    query: packageUri.toString(),
    fragment: `${object.class ?? ""}:${object.export ?? ""}`,
  });
}

function parseObjectUri(uri: vscode.Uri): { packageUri: vscode.Uri; object: { path: string; class?: string; export?: number } } {
  const segments = uri.path.split("/");
  const last = segments[segments.length - 1] ?? "";
  const [className, exportIndex] = uri.fragment.split(":");
  const index = Number.parseInt(exportIndex ?? "", 10);
  return {
    packageUri: vscode.Uri.parse(uri.query),
    object: {
      path: last.replace(/\.uc$/, ""),
      class: className ? className : undefined,
      export: Number.isInteger(index) ? index : undefined,
    },
  };
}

function showObjectPanel(
  context: vscode.ExtensionContext,
  packageUri: vscode.Uri,
  objectTitle: string,
  result: ObjectPreviewResult,
): void {
  const media = vscode.Uri.joinPath(context.extensionUri, "media");
  const panel = vscode.window.createWebviewPanel(
    "unrealLs.objectPreview",
    `${objectTitle} (${path.basename(packageUri.fsPath)})`,
    vscode.ViewColumn.Active,
    { enableScripts: true, localResourceRoots: [media] },
  );
  panel.webview.html = previewHtml(panel.webview, media, objectTitle);
  panel.webview.onDidReceiveMessage((message: FromWebview) => {
    if (message.type === "ready") {
      void panel.webview.postMessage({
        type: "summary",
        file: `${packageUri.fsPath} : ${objectTitle}`,
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
  return webviewPage(webview, media, {
    title,
    script: webview.asWebviewUri(vscode.Uri.joinPath(media, "preview.js")),
    body: `<header><h1 id="title">${escapeHtml(title)}</h1><p id="status" class="muted">Loading…</p></header>
<main id="content"></main>`,
  });
}
