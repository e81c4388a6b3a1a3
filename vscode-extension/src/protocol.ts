// The custom requests between this client and `unreal-ls lsp`, as documented in
// docs/protocol.md. A request is used only when the server advertises it in
// `ServerCapabilities.experimental.unrealLs`; until then the client falls back to
// `unreal-ls info --json FILE` (see info.ts). Plain data, no `vscode` import (unit-tested).

export interface PackageTreeParams {
  /** The package file, as a `file:` URI. */
  uri: string;
}

export interface PackageObject {
  /** `Group.Name` inside the package (`Name` when it has no group). Not unique: a `.ukx` holds
   * a SkeletalMesh and a MeshAnimation of the same name. */
  path: string;
  class: string;
  /** Serialised size in bytes. */
  size: number;
  /** The object's index in the export table: the unique key (absent from older servers and
   * from `unreal-ls info --json`). */
  export?: number;
}

/** How an object is told apart from others of its path: `Class'Group.Name'`. */
export function objectReference(object: { path: string; class?: string }): string {
  return object.class !== undefined && /^\w+$/.test(object.class) ? `${object.class}'${object.path}'` : object.path;
}

/** The key a client keeps an object under: its export index when the server gave one, else
 * `Class'Path'`. */
export function objectKey(object: { path: string; class?: string; export?: number }): string {
  return object.export !== undefined ? `#${object.export}` : objectReference(object);
}

export interface PackageTreeResult {
  /** Version, licensee and other header facts, shown above the table (optional). */
  header?: Record<string, string | number>;
  objects: PackageObject[];
}

export const PACKAGE_TREE = "unrealLs/packageTree";

export interface ObjectPreviewParams {
  uri: string;
  /** An object's `path` from `unrealLs/packageTree` (or `Class'Path'`); absent for a file
   * that is one object (a .psk, .psa, _d.3d or .u3d). */
  object?: string;
  /** The object's `export` index from `unrealLs/packageTree`, which tells apart objects that
   * share a path. */
  export?: number;
  /** The object's class, when it is named by path alone. */
  class?: string;
  /** The longest side of a thumbnail the client wants, in pixels (the server may send less). */
  maxSize?: number;
}

export interface ObjectPreviewResult {
  kind: "texture" | "text" | "summary";
  /** A PNG (texture thumbnail, or a rendered mesh) as base64, for `texture` and `summary`. */
  pngBase64?: string;
  /** The text of a TextBuffer (UnrealScript source) for `text`. */
  text?: string;
  /** Key facts (dimensions, format, vertex and triangle counts...) for every kind. */
  summary?: Record<string, string | number | boolean>;
}

export const OBJECT_PREVIEW = "unrealLs/objectPreview";

/** `unrealLs/execLines` (docs/protocol.md): the `#exec` block that imports a package's UE1
 * vertex mesh (Mesh or LodMesh) again, and the files its lines name. */
export const EXEC_LINES = "unrealLs/execLines";

export interface ExecLinesParams {
  /** The package, as a `file:` URI. */
  uri: string;
  /** The mesh's `path` (or `Class'Path'`). */
  object?: string;
  /** The mesh's `export` index from `unrealLs/packageTree`. */
  export?: number;
}

export interface ExecLinesFile {
  /** Under the package's folder, with the backslashes the lines use (`Models\X_d.3d`). */
  path: string;
  /** The file's bytes, base64. */
  data: string;
}

export interface ExecLinesResult {
  /** The lines for a class, each starting with `#exec` (or `//` for a note). */
  lines: string[];
  files: ExecLinesFile[];
}

export interface ExportGltfParams {
  uri: string;
  object?: string;
  /** Where to write the `.gltf` (or `.glb`), as a `file:` URI. */
  target: string;
}

export interface ExportGltfResult {
  /** The files written, as `file:` URIs (the .gltf and its .bin, or one .glb). */
  written: string[];
}

export const EXPORT_GLTF = "unrealLs/exportGltf";

export interface MapPreviewParams {
  /** The T3D map, as a `file:` URI (the open document's text is drawn when it is open). */
  uri: string;
  view?: "top" | "side" | "front" | "iso";
  maxSize?: number;
  /** `false`: the picture without the actors' symbols (the client draws them). */
  actorSymbols?: boolean;
}

export interface MapActorMark {
  name: string;
  class: string;
  kind: string;
  /** 0-based line of the actor's `Begin Actor`. */
  line: number;
  /** Its mark on the picture, in pixels. */
  x: number;
  y: number;
}

export interface MapPreviewResult {
  pngBase64: string;
  width: number;
  height: number;
  unitsPerPixel: number;
  brushes: number;
  actors: MapActorMark[];
  /** Brushes and actors far from the rest of the map, left outside the picture (older servers: absent). */
  outside?: string[];
}

export const MAP_PREVIEW = "unrealLs/mapPreview";

/** The actor whose mark is nearest to the picture point (x, y), within `radius` pixels. */
export function markAt(actors: MapActorMark[], x: number, y: number, radius = 10): MapActorMark | undefined {
  let best: MapActorMark | undefined;
  let bestDistance = radius * radius;
  for (const actor of actors) {
    const d = (actor.x - x) ** 2 + (actor.y - y) ** 2;
    if (d <= bestDistance) {
      best = actor;
      bestDistance = d;
    }
  }
  return best;
}

export const LEVEL_SCENE = "unrealLs/levelScene";

export interface LevelSceneParams {
  /** The T3D map, as a `file:` URI (the open document's text is built when it is open). */
  uri: string;
}

/** One glTF mesh of the level's `.glb`, in the document's mesh order: the lines its
 * triangles came from, in runs. */
export interface LevelSceneMesh {
  name: string;
  /** The first triangle of each run (ascending). */
  firstTriangles: number[];
  /** The 0-based line of the run's `Begin Polygon` (`null`: no source line). */
  lines: (number | null)[];
}

export interface LevelSceneActor {
  name: string;
  class: string;
  /** 0-based line of its `Begin Actor`. */
  line: number | null;
  /** glTF axes (Y up), world units. */
  position: [number, number, number];
  light: boolean;
}

export interface LevelSceneResult {
  name: string;
  /** The built level as the `.glb` that `unreal-ls export MAP --to glb` writes. */
  glbBase64: string;
  brushes: number;
  surfaces: number;
  leftOut: number;
  materials: number;
  textured: number;
  meshes: LevelSceneMesh[];
  actors: LevelSceneActor[];
  /** The actors drawn as a static mesh (or a box in place of one that cannot be read), in the
   * order of the children of the `.glb`'s node "StaticMeshes". */
  placed: LevelSceneActor[];
  /** Textures drawn in a flat colour, static meshes drawn as boxes, and why. */
  notes: string[];
  /** Answered from the answer the server kept for this document version (not built again). */
  reused?: boolean;
}

/** The line of the triangle `triangle` of a level mesh: the run it falls in. */
export function lineOfTriangle(mesh: LevelSceneMesh, triangle: number): number | null {
  let low = 0;
  let high = mesh.firstTriangles.length - 1;
  if (high < 0 || triangle < (mesh.firstTriangles[0] ?? 0)) return null;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((mesh.firstTriangles[middle] ?? 0) <= triangle) low = middle;
    else high = middle - 1;
  }
  return mesh.lines[low] ?? null;
}

/** `initializeResult.capabilities.experimental.unrealLs`: which requests the server answers. */
export interface UnrealLsExperimental {
  packageTree?: boolean;
  objectPreview?: boolean;
  mapPreview?: boolean;
  exportGltf?: boolean;
  findAssets?: boolean;
  levelScene?: boolean;
  execLines?: boolean;
}

export function advertised(experimental: unknown): UnrealLsExperimental {
  if (experimental === null || typeof experimental !== "object") return {};
  const section = (experimental as Record<string, unknown>).unrealLs;
  if (section === null || typeof section !== "object") return {};
  const flags = section as Record<string, unknown>;
  return {
    packageTree: flags.packageTree === true,
    objectPreview: flags.objectPreview === true,
    mapPreview: flags.mapPreview === true,
    exportGltf: flags.exportGltf === true,
    findAssets: flags.findAssets === true,
    levelScene: flags.levelScene === true,
    execLines: flags.execLines === true,
  };
}

/** `unrealLs/findAssets` (docs/protocol.md): the package index's asset search. */
export const FIND_ASSETS = "unrealLs/findAssets";

export interface FindAssetsParams {
  query: string;
  limit?: number;
}

export interface FoundAsset {
  /** `Package.Group.Name`. */
  name: string;
  package: string;
  /** `Group.Name` inside the package. */
  path: string;
  class: string;
  /** `texture`, `mesh`, `static mesh`, `animation`, `sound`, `music`, `font` or `class`. */
  kind: string;
  /** The package file. */
  uri: string;
  export: number;
}

export interface FindAssetsResult {
  /** False while the index is being built, or without a game folder. */
  indexed: boolean;
  assets: FoundAsset[];
}
