// What a map needs (`unrealLs.mapDependencies`, docs/protocol.md), and the tree the "Map
// Dependencies" view shows for it: plain code, without VS Code, so the unit tests run it.

export const DEPS_COMMAND = "unrealLs.mapDependencies";

/** One name the map uses (its first line is 1-based). */
export interface DepsUse {
  kind: "class" | "texture" | "object";
  class: string | null;
  name: string;
  found_as: string | null;
  line: number;
  uses: number;
}

export interface DepsPackage {
  name: string;
  place: string;
  file: string | null;
  found: DepsUse[];
  missing: DepsUse[];
}

export interface DepsResult {
  file: string;
  missing: boolean;
  packages: DepsPackage[];
  not_found: DepsUse[];
  unchecked: DepsUse[];
  /** Why `unchecked` was not judged; "no-game-folder": nothing was, every name is there. */
  unchecked_reason?: "engine-not-indexed" | "no-game-folder";
  send: string[];
}

/** True when the answer lists the map's names unchecked because there is no game folder. */
export function noGameFolder(result: DepsResult): boolean {
  return result.unchecked_reason === "no-game-folder";
}

/** One row of the tree: a label, what it expands to, and the 0-based line a click reveals. */
export interface DepsNode {
  label: string;
  description?: string;
  children: DepsNode[];
  line?: number;
  missing?: boolean;
}

function useNode(used: DepsUse, missing: boolean): DepsNode {
  const written = used.class ? `${used.class}'${used.name}'` : used.name;
  const found = used.found_as && used.found_as.toLowerCase() !== used.name.toLowerCase() ? ` = ${used.found_as}` : "";
  const uses = used.uses > 1 ? `, ${used.uses} uses` : "";
  return {
    label: `${missing ? "missing: " : ""}${written}`,
    description: `${used.kind}${found} (line ${used.line}${uses})`,
    children: [],
    line: used.line - 1,
    missing,
  };
}

/** The summary line of the view. */
export function depsSummary(result: DepsResult): string {
  if (noGameFolder(result)) return `${result.unchecked.length} names, not checked: no game folder`;
  const missing = result.packages.filter((p) => p.place === "missing" || p.missing.length > 0).length + (result.not_found.length > 0 ? 1 : 0);
  const parts = [`${result.packages.length} packages`];
  if (missing > 0) parts.push(`${missing} with something missing`);
  if (result.send.length > 0) parts.push(`a server sends ${result.send.join(", ")}`);
  return parts.join("; ");
}

/** The tree: one row per package (where it was found), its names below; then the names no
 * package holds. Pure, for the unit test. */
export function depsTree(result: DepsResult): DepsNode[] {
  const rows: DepsNode[] = result.packages.map((p) => {
    const missing = p.place === "missing" || p.missing.length > 0;
    const send = result.send.includes(p.name) ? ", sent with the map" : "";
    return {
      label: p.name,
      description: `${p.place}${send}${p.file ? ` - ${p.file}` : ""}`,
      children: [...p.missing.map((u) => useNode(u, true)), ...p.found.map((u) => useNode(u, false))],
      missing,
    };
  });
  if (result.not_found.length > 0) {
    rows.push({ label: "In no indexed package", description: `${result.not_found.length}`, children: result.not_found.map((u) => useNode(u, true)), missing: true });
  }
  if (result.unchecked.length > 0) {
    const why = noGameFolder(result) ? "no game folder to look them up in" : "the engine's packages are not indexed";
    rows.push({ label: "Not checked", description: why, children: result.unchecked.map((u) => useNode(u, false)) });
  }
  return rows;
}
