import assert from "node:assert/strict";
import { test } from "node:test";
import { parseInfoJson } from "../info";
import { advertised, lineOfTriangle, markAt, objectKey, objectReference } from "../protocol";

test("a package becomes a tree with header, objects and details", () => {
  const view = parseInfoJson(
    JSON.stringify([
      {
        kind: "package",
        file: "Checkers.utx",
        version: 69,
        licensee: 0,
        flags: 1,
        names: 30,
        imports: 3,
        exports: 2,
        objects: [
          { name: "Palette0", path: "Palette0", class: "Palette", size: 1027, detail: "256 colours" },
          { name: "checkers", path: "Skins.checkers", class: "Texture", size: 87654 },
        ],
        problems: ["object 3: truncated"],
      },
    ]),
  );
  assert.deepEqual(view, {
    kind: "package",
    tree: {
      header: { version: 69, licensee: 0, flags: "0x00000001", names: 30, imports: 3, exports: 2 },
      objects: [
        { path: "Palette0", class: "Palette", size: 1027 },
        { path: "Skins.checkers", class: "Texture", size: 87654 },
      ],
    },
    details: { Palette0: "256 colours" },
    problems: ["object 3: truncated"],
  });
});

test("a mesh becomes a flat summary", () => {
  const view = parseInfoJson(
    JSON.stringify([
      {
        kind: "psa",
        file: "a.psa",
        bones: 3,
        keys: 30,
        scale_keys: null,
        sequences: [{ name: "Idle", frames: 10, rate: 30 }],
        unknown_chunks: [],
      },
    ]),
  );
  assert.deepEqual(view, {
    kind: "summary",
    format: "psa",
    summary: { bones: 3, keys: 30, scale_keys: "-", sequences: "Idle (frames 10 rate 30)", unknown_chunks: "none" },
    problems: [],
  });
});

test("errors: an entry with an error, and output that is not JSON", () => {
  assert.deepEqual(parseInfoJson('[{"file":"x.psk","error":"psk: chunk ACTRHEAD missing"}]'), {
    kind: "error",
    message: "psk: chunk ACTRHEAD missing",
  });
  const garbage = parseInfoJson("Segmentation fault");
  assert.equal(garbage.kind, "error");
  assert.equal(parseInfoJson("[]").kind, "error");
});

test("advertised: only explicit true flags under experimental.unrealLs count", () => {
  assert.deepEqual(advertised(undefined), {});
  assert.deepEqual(advertised({ other: true }), {});
  assert.deepEqual(advertised({ unrealLs: { packageTree: true, objectPreview: "yes", mapPreview: true } }), {
    packageTree: true,
    objectPreview: false,
    mapPreview: true,
    exportGltf: false,
    findAssets: false,
    levelScene: false,
    execLines: false,
  });
  assert.equal(advertised({ unrealLs: { findAssets: true } }).findAssets, true);
  assert.equal(advertised({ unrealLs: { execLines: true } }).execLines, true);
});

test("markAt: the nearest actor mark within the radius, else none", () => {
  const actors = [
    { name: "PlayerStart0", class: "PlayerStart", kind: "PlayerStart", line: 14, x: 40, y: 64 },
    { name: "Light0", class: "Light", kind: "Light", line: 17, x: 48, y: 64 },
  ];
  assert.equal(markAt(actors, 41, 65)?.name, "PlayerStart0");
  assert.equal(markAt(actors, 47, 62)?.name, "Light0");
  assert.equal(markAt(actors, 100, 100), undefined);
});

test("exportArgs: one object, or the whole file", async () => {
  const { exportArgs } = await import("../info");
  assert.deepEqual(exportArgs("/p/Skins.utx", "Group.Wall", "png", "/tmp/o.png"), [
    "export", "/p/Skins.utx", "--object", "Group.Wall", "--to", "png", "--output", "/tmp/o.png",
  ]);
  assert.deepEqual(exportArgs("/p/Mesh.psk", undefined, "glb", "/p/Mesh.glb"), ["export", "/p/Mesh.psk", "--to", "glb", "--output", "/p/Mesh.glb"]);
});

test("objects are keyed by export index, and named Class'Path' where a path is shared", () => {
  const mesh = { path: "AssaultRifle_1st", class: "SkeletalMesh", size: 10, export: 1 };
  const animation = { path: "AssaultRifle_1st", class: "MeshAnimation", size: 10, export: 0 };
  assert.equal(objectKey(mesh), "#1");
  assert.notEqual(objectKey(mesh), objectKey(animation));
  assert.equal(objectReference(mesh), "SkeletalMesh'AssaultRifle_1st'");
  assert.equal(objectKey({ path: "Skins.Wood", class: "Texture" }), "Texture'Skins.Wood'");
  const view = parseInfoJson(
    JSON.stringify([
      {
        kind: "package",
        objects: [
          { name: "AssaultRifle_1st", path: "AssaultRifle_1st", class: "MeshAnimation", size: 5, export: 0, detail: "12 sequences" },
          { name: "AssaultRifle_1st", path: "AssaultRifle_1st", class: "SkeletalMesh", size: 9, export: 1, detail: "3 LODs" },
        ],
      },
    ]),
  );
  assert.equal(view.kind, "package");
  if (view.kind !== "package") return;
  assert.deepEqual(view.tree.objects.map(objectKey), ["#0", "#1"]);
  assert.deepEqual(view.details, { "#0": "12 sequences", "#1": "3 LODs" });
});

test("lineOfTriangle: the run a triangle falls in", () => {
  const mesh = { name: "Wall", firstTriangles: [0, 2, 6], lines: [9, 19, null] };
  assert.equal(lineOfTriangle(mesh, 0), 9);
  assert.equal(lineOfTriangle(mesh, 1), 9);
  assert.equal(lineOfTriangle(mesh, 2), 19);
  assert.equal(lineOfTriangle(mesh, 5), 19);
  assert.equal(lineOfTriangle(mesh, 6), null);
  assert.equal(lineOfTriangle(mesh, 600), null);
  assert.equal(lineOfTriangle({ name: "", firstTriangles: [], lines: [] }, 0), null);
});
