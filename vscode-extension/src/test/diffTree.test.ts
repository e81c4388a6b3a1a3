import assert from "node:assert/strict";
import { test } from "node:test";
import { changeTree, DiffResult, summaryLine } from "../diffTree";

const light = (name: string, line: number, x: number) => ({ class: "Light", name, line, location: [x, 0, 128] as [number, number, number] });

const result: DiffResult = {
  version: 1,
  old: "base.t3d",
  new: "moved.t3d",
  same: false,
  summary: { added: 1, removed: 0, renamed: 0, moved: 1, properties_changed: 1, brushes_reshaped: 0, brush_order_changed: false },
  added: [light("Light9", 40, 512)],
  removed: [],
  changed: [
    {
      old: light("Light0", 20, 0),
      new: light("Light0", 21, 16),
      renamed: false,
      moved: [16, 0, 0],
      turned: null,
      properties: [{ key: "LightHue", old: "24", new: "30" }],
      brush: null,
    },
  ],
  brush_order: null,
  unparsed: { old: [], new: [] },
};

test("a comparison becomes groups of actors, each with what changed", () => {
  const tree = changeTree(result);
  assert.deepEqual(
    tree.map((g) => [g.label, g.description]),
    [
      ["Added", "1"],
      ["Changed", "1"],
    ],
  );
  const changed = tree[1].children[0];
  assert.equal(changed.label, "Light0 (Light)");
  assert.deepEqual(changed.reveal, { side: "new", line: 20 });
  assert.deepEqual(
    changed.children.map((c) => [c.label, c.description]),
    [
      ["moved", "by (16, 0, 0)"],
      ["LightHue", "24 -> 30"],
    ],
  );
  assert.deepEqual(tree[0].children[0].reveal, { side: "new", line: 39 });
  assert.equal(summaryLine(result), "1 added, 1 moved, 1 with changed properties");
});

test("no changes is one line and an empty tree", () => {
  const same: DiffResult = {
    ...result,
    same: true,
    summary: { added: 0, removed: 0, renamed: 0, moved: 0, properties_changed: 0, brushes_reshaped: 0, brush_order_changed: false },
    added: [],
    changed: [],
  };
  assert.deepEqual(changeTree(same), []);
  assert.equal(summaryLine(same), "no changes");
});

test("a changed CSG order lists only the brushes that changed places", () => {
  const reordered: DiffResult = {
    ...result,
    summary: { added: 0, removed: 0, renamed: 0, moved: 0, properties_changed: 0, brushes_reshaped: 0, brush_order_changed: true },
    added: [],
    changed: [],
    brush_order: {
      old: ["Brush1", "Brush2", "Brush3", "Brush4"],
      new: ["Brush4", "Brush1", "Brush2", "Brush3"],
      moved: [{ name: "Brush4", old: 4, new: 1 }],
    },
  };
  const tree = changeTree(reordered);
  assert.deepEqual(
    tree.map((g) => [g.label, g.children.map((c) => [c.label, c.description])]),
    [["CSG order of brushes", [["Brush4", "place 4 -> 1 of 4"]]]],
  );
});
