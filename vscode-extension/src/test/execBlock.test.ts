import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "node:test";
import { blockFileSegments, copiedMessage, execLinesText, isVertexMeshClass, objectPath, packageFolderFor, packageName } from "../execBlock";

test("only UE1 vertex meshes have a block", () => {
  assert.ok(isVertexMeshClass("LodMesh"));
  assert.ok(isVertexMeshClass("mesh"));
  for (const other of ["SkeletalMesh", "StaticMesh", "Texture", "MeshAnimation", "LodMeshX"]) assert.ok(!isVertexMeshClass(other), other);
});

test("a file the block names stays under the chosen folder", () => {
  assert.deepEqual(blockFileSegments("Models\\dogTag_d.3d"), ["Models", "dogTag_d.3d"]);
  assert.deepEqual(blockFileSegments("Textures/Skins/Gem.bmp"), ["Textures", "Skins", "Gem.bmp"]);
  for (const bad of ["..\\System\\x.u", "\\abs.3d", "C:\\x.3d", "Models\\\\x.3d", "Models\\.", ""]) {
    assert.equal(blockFileSegments(bad), undefined, bad);
  }
});

test("the clipboard gets one line a line; the message counts #exec lines and says the files are not written", () => {
  const lines = ["#exec MESH IMPORT MESH=dogTag", "// a note", "#exec MESHMAP SCALE MESHMAP=dogTag X=1"];
  assert.equal(execLinesText(lines), "#exec MESH IMPORT MESH=dogTag\n// a note\n#exec MESHMAP SCALE MESHMAP=dogTag X=1\n");
  assert.equal(
    copiedMessage("dogTag", lines, [{ path: "Models\\dogTag_d.3d" }, { path: "Models\\dogTag_a.3d" }]),
    "Copied 2 #exec lines for dogTag (the 2 files they name are not written: use Export Mesh for #exec...)",
  );
  assert.equal(copiedMessage("Gem", ["#exec MESH IMPORT MESH=Gem"], []), "Copied 1 #exec line for Gem");
  assert.equal(objectPath("LodMesh'Skins.dogTag'"), "Skins.dogTag");
  assert.equal(objectPath(" dogTag "), "dogTag");
});

test("the package folder proposed is the one named as the package, else the first", () => {
  const classes = ["/w/Other/Classes/A.uc", "/w/KillConfirmed/Classes/DogTag.uc", "/w/Loose/B.uc"];
  assert.equal(packageName("/game/System/KillConfirmed.u"), "KillConfirmed");
  assert.equal(packageName("/game/Textures/Rocks.utx.uz"), "Rocks");
  assert.equal(packageFolderFor(classes, "killconfirmed"), "/w/KillConfirmed");
  assert.equal(packageFolderFor(classes, "Botpack"), "/w/KillConfirmed");
  assert.equal(packageFolderFor(["/w/Loose/B.uc"], "Botpack"), undefined);
});

test("the #exec commands are declared, in the palette and on a mesh row's context menu, only with the server's flag", () => {
  const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, "../../package.json"), "utf8"));
  const commands = manifest.contributes.commands.map((c: { command: string }) => c.command);
  const context = manifest.contributes.menus["webview/context"];
  for (const command of ["unrealLs.copyExecLines", "unrealLs.exportMeshForExec"]) {
    assert.ok(commands.includes(command), command);
    const entry = context.find((m: { command: string }) => m.command === command);
    assert.match(entry.when, /webviewId == 'unrealLs.packagePreview'/);
    assert.match(entry.when, /unrealLs\.execLines/);
    assert.match(entry.when, /unrealLsVertexMesh/);
    const palette = manifest.contributes.menus.commandPalette.find((m: { command: string }) => m.command === command);
    assert.equal(palette.when, "unrealLs.execLines");
  }
});
