import assert from "node:assert/strict";
import { test } from "node:test";
import { depsSummary, depsTree, DepsResult, noGameFolder } from "../depsTree";

const result: DepsResult = {
  file: "file:///game/Maps/Quarry.t3d",
  missing: true,
  packages: [
    { name: "Engine", place: "game folder", file: "/game/System/Engine.u", found: [{ kind: "class", class: null, name: "Light", found_as: "Engine.Light", line: 5, uses: 2 }], missing: [] },
    { name: "Tunes", place: "missing", file: null, found: [], missing: [{ kind: "object", class: "Music", name: "Tunes.Theme", found_as: null, line: 3, uses: 1 }] },
    { name: "Wind", place: "outside the game folder", file: "/extra/Wind.uax", found: [{ kind: "object", class: "Sound", name: "Wind.Howl", found_as: "Wind.Howl", line: 10, uses: 1 }], missing: [] },
  ],
  not_found: [{ kind: "texture", class: null, name: "Marble", found_as: null, line: 21, uses: 1 }],
  unchecked: [],
  send: ["Wind"],
};

test("a map's needs become one row per package, missing names first, then what no package holds", () => {
  const tree = depsTree(result);
  assert.deepEqual(
    tree.map((row) => [row.label, row.description, row.missing]),
    [
      ["Engine", "game folder - /game/System/Engine.u", false],
      ["Tunes", "missing", true],
      ["Wind", "outside the game folder, sent with the map - /extra/Wind.uax", false],
      ["In no indexed package", "1", true],
    ],
  );
  assert.deepEqual(
    [tree[0].children[0].label, tree[0].children[0].description, tree[0].children[0].line],
    ["Light", "class = Engine.Light (line 5, 2 uses)", 4],
  );
  assert.equal(tree[1].children[0].label, "missing: Music'Tunes.Theme'");
  assert.equal(tree[3].children[0].label, "missing: Marble");
  assert.equal(depsSummary(result), "3 packages; 2 with something missing; a server sends Wind");
});

test("without a game folder the names are listed, not checked, and the summary says why", () => {
  const bare: DepsResult = {
    file: "file:///mod/Maps/Test.t3d",
    missing: false,
    packages: [],
    not_found: [],
    unchecked: [
      { kind: "class", class: null, name: "Light", found_as: null, line: 2, uses: 1 },
      { kind: "texture", class: null, name: "Rocks.Marble", found_as: null, line: 7, uses: 3 },
    ],
    unchecked_reason: "no-game-folder",
    send: [],
  };
  assert.equal(noGameFolder(bare), true);
  assert.equal(noGameFolder(result), false);
  const tree = depsTree(bare);
  assert.deepEqual(
    tree.map((row) => [row.label, row.description, row.children.length]),
    [["Not checked", "no game folder to look them up in", 2]],
  );
  assert.equal(tree[0].children[1].description, "texture (line 7, 3 uses)");
  assert.equal(depsSummary(bare), "2 names, not checked: no game folder");
});
