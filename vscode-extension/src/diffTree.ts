// What a map comparison (`unrealLs.diff`, docs/diff.md) looks like, and the tree the "Map
// Changes" view shows for it: plain code, without VS Code, so the unit tests run it.

export const DIFF_COMMAND = "unrealLs.diff";

/** An actor as the comparison names it (docs/diff.md). */
export interface DiffActor {
  class: string;
  name: string;
  line: number;
  location: [number, number, number];
}

export interface DiffResult {
  version: number;
  old: string;
  new: string;
  same: boolean;
  summary: {
    added: number;
    removed: number;
    renamed: number;
    moved: number;
    properties_changed: number;
    brushes_reshaped: number;
    brush_order_changed: boolean;
  };
  added: DiffActor[];
  removed: DiffActor[];
  changed: {
    old: DiffActor;
    new: DiffActor;
    renamed: boolean;
    moved: [number, number, number] | null;
    turned: [number, number, number] | null;
    properties: { key: string; old: string | null; new: string | null }[];
    brush: { old_polygons: number; new_polygons: number; added: number; removed: number; retextured: number; flags_changed: number; realigned: number } | null;
  }[];
  /** `moved`: the brushes that changed places (1-based places); absent from older servers. */
  brush_order: { old: string[]; new: string[]; moved?: { name: string; old: number; new: number }[] } | null;
  unparsed: { old: { line: number; message: string }[]; new: { line: number; message: string }[] };
}

/** One row of the tree: a label, what it expands to, and where a click leads. */
export interface ChangeNode {
  label: string;
  description?: string;
  children: ChangeNode[];
  /** 0-based line to reveal, and in which map. */
  reveal?: { side: "old" | "new"; line: number };
}

const number = (n: number) => (Math.round(n * 1000) / 1000).toString();
const vector = (v: [number, number, number]) => `(${v.map(number).join(", ")})`;

/** The summary line, as `unreal-ls diff` prints it. */
export function summaryLine(result: DiffResult): string {
  const s = result.summary;
  const parts: string[] = [];
  if (s.added) parts.push(`${s.added} added`);
  if (s.removed) parts.push(`${s.removed} removed`);
  if (s.renamed) parts.push(`${s.renamed} renamed`);
  if (s.moved) parts.push(`${s.moved} moved`);
  if (s.properties_changed) parts.push(`${s.properties_changed} with changed properties`);
  if (s.brushes_reshaped) parts.push(`${s.brushes_reshaped} brushes reshaped`);
  if (s.brush_order_changed) parts.push("CSG order changed");
  return parts.length === 0 ? (result.same ? "no changes" : "brushes retextured or realigned") : parts.join(", ");
}

/** The tree for a comparison: one group per kind of change. Pure, for the unit test. */
export function changeTree(result: DiffResult): ChangeNode[] {
  const actor = (a: DiffActor) => `${a.name} (${a.class})`;
  const groups: ChangeNode[] = [];
  const group = (label: string, children: ChangeNode[]) => {
    if (children.length > 0) groups.push({ label, description: `${children.length}`, children });
  };
  group(
    "Added",
    result.added.map((a) => ({ label: actor(a), description: `at ${vector(a.location)}`, children: [], reveal: { side: "new", line: a.line - 1 } })),
  );
  group(
    "Removed",
    result.removed.map((a) => ({ label: actor(a), description: `was at ${vector(a.location)}`, children: [], reveal: { side: "old", line: a.line - 1 } })),
  );
  group(
    "Changed",
    result.changed.map((c) => {
      const children: ChangeNode[] = [];
      if (c.renamed) children.push({ label: "renamed", description: `${c.old.name} -> ${c.new.name}`, children: [] });
      if (c.moved) children.push({ label: "moved", description: `by ${vector(c.moved)}`, children: [] });
      if (c.turned) children.push({ label: "turned", description: `${vector(c.turned)} degrees (pitch, yaw, roll)`, children: [] });
      for (const p of c.properties) children.push({ label: p.key, description: `${p.old ?? "(none)"} -> ${p.new ?? "(none)"}`, children: [] });
      if (c.brush) {
        const b = c.brush;
        const what = [
          [b.added, "added"],
          [b.removed, "removed"],
          [b.retextured, "retextured"],
          [b.flags_changed, "with other flags"],
          [b.realigned, "realigned"],
        ]
          .filter(([n]) => (n as number) > 0)
          .map(([n, w]) => `${n} ${w}`);
        children.push({ label: "polygons", description: `${b.old_polygons} -> ${b.new_polygons}: ${what.join(", ")}`, children: [] });
      }
      for (const child of children) child.reveal = { side: "new", line: c.new.line - 1 };
      return { label: actor(c.new), description: children.map((k) => k.label).join(", "), children, reveal: { side: "new", line: c.new.line - 1 } };
    }),
  );
  if (result.brush_order) {
    const order = result.brush_order;
    group(
      "CSG order of brushes",
      order.moved
        ? order.moved.map((m) => ({ label: m.name, description: `place ${m.old} -> ${m.new} of ${order.new.length}`, children: [] }))
        : [
            { label: "before", description: order.old.join(", "), children: [] },
            { label: "after", description: order.new.join(", "), children: [] },
          ],
    );
  }
  const unparsed = [
    ...result.unparsed.old.map((u) => ({ label: `old line ${u.line}`, description: u.message, children: [], reveal: { side: "old" as const, line: u.line - 1 } })),
    ...result.unparsed.new.map((u) => ({ label: `new line ${u.line}`, description: u.message, children: [], reveal: { side: "new" as const, line: u.line - 1 } })),
  ];
  group("Not compared (could not be read)", unparsed);
  return groups;
}
