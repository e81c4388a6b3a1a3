// What the #exec commands of the package preview decide without VS Code (unit-tested): which
// objects have a block, where a file the block names goes, which workspace folder is the
// package's, and what the user is told. `unrealLs/execLines` (docs/protocol.md) answers the
// lines and files.

import * as path from "node:path";

/** UE1 vertex meshes, the objects `unrealLs/execLines` writes a block for. */
export function isVertexMeshClass(className: string): boolean {
  return /^(Mesh|LodMesh)$/i.test(className);
}

/** The folders and name of a file the block names (`Models\dogTag_d.3d` -> `Models`,
 * `dogTag_d.3d`), or undefined for a path that would leave the chosen folder (absolute, a
 * drive, `..`, empty parts). */
export function blockFileSegments(file: string): string[] | undefined {
  const segments = file.split(/[\\/]/);
  const bad = (segment: string) => segment === "" || segment === "." || segment === ".." || /[:*?"<>|\0]/.test(segment);
  return segments.length > 0 && !segments.some(bad) ? segments : undefined;
}

/** The path of an object named `Class'Path'` or by its path alone: what the user reads. */
export function objectPath(named: string): string {
  return /^\w+'(.+)'$/.exec(named.trim())?.[1] ?? named.trim();
}

/** The lines as the clipboard gets them: one a line, each ended. */
export function execLinesText(lines: string[]): string {
  return lines.map((line) => `${line}\n`).join("");
}

/** The status message after copying: how many lines, and that the files are not written. */
export function copiedMessage(mesh: string, lines: string[], files: { path: string }[]): string {
  const count = lines.filter((line) => line.startsWith("#exec")).length;
  const n = files.length;
  return (
    `Copied ${count} #exec line${count === 1 ? "" : "s"} for ${mesh}` +
    (n > 0 ? ` (the ${n} file${n === 1 ? "" : "s"} they name ${n === 1 ? "is" : "are"} not written: use Export Mesh for #exec...)` : "")
  );
}

/** The name of a package file (`KillConfirmed.u`, `Rocks.utx.uz` -> `KillConfirmed`, `Rocks`). */
export function packageName(file: string): string {
  const base = path.basename(file);
  return base.replace(/\.(uz2?|uz3)$/i, "").replace(/\.[^.]*$/, "");
}

/** A package folder of the workspace from its classes' paths (`.../MyMod/Classes/A.uc`): the
 * one named as the package when there is one, else the first in order; undefined when no
 * class is in a `Classes` folder. */
export function packageFolderFor(classFiles: string[], name: string): string | undefined {
  const folders = new Set<string>();
  for (const file of classFiles) {
    const classes = path.dirname(file);
    if (path.basename(classes).toLowerCase() === "classes") folders.add(path.dirname(classes));
  }
  const sorted = [...folders].sort();
  return sorted.find((folder) => path.basename(folder).toLowerCase() === name.toLowerCase()) ?? sorted[0];
}
