import assert from "node:assert/strict";
import { test } from "node:test";
import { textureItems } from "../textureItems";

test("only textures are offered to replace a missing texture", () => {
  const asset = (name: string, kind: string, cls: string) => ({
    name,
    package: name.split(".")[0] ?? "",
    path: name.split(".").slice(1).join("."),
    class: cls,
    kind,
    uri: `file:///game/${name.split(".")[0]}.utx`,
    export: 1,
  });
  const items = textureItems({
    indexed: true,
    assets: [asset("Rock.Walls.Granite", "texture", "Texture"), asset("Rock.Crash", "sound", "Sound"), asset("Metal.Shiny", "texture", "Shader")],
  });
  assert.deepEqual(items, [
    { label: "Rock.Walls.Granite", description: "Texture", name: "Rock.Walls.Granite" },
    { label: "Metal.Shiny", description: "Shader", name: "Metal.Shiny" },
  ]);
});
