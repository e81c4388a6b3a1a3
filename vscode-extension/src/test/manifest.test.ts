// What VS Code reads from the extension's files without running its code: the T3D language
// configuration's folding markers (which also feed the minimap's section headers).

import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "node:test";

const root = path.resolve(__dirname, "../..");

/** VS Code reads language configurations as JSON with comments; these have whole-line ones. */
function readJsonWithComments(file: string): any {
  const text = fs.readFileSync(file, "utf8");
  return JSON.parse(
    text
      .split("\n")
      .filter((line) => !/^\s*\/\//.test(line))
      .join("\n"),
  );
}

const t3dConfiguration = readJsonWithComments(path.join(root, "language-configuration", "t3d.json"));
const markers = t3dConfiguration.folding.markers;
const start = new RegExp(markers.start.pattern, markers.start.flags);
const end = new RegExp(markers.end.pattern, markers.end.flags);

const map = [
  "Begin Map",
  "Begin Actor Class=Light Name=Light0",
  "    LightBrightness=128",
  "End Actor",
  "Begin Actor Class=Brush Name=Brush0",
  "    Begin Brush Name=Model1",
  "       begin polylist",
  "          Begin Polygon Texture=Wall Flags=264",
  "          End Polygon",
  "       End PolyList",
  "    End Brush",
  "End Actor",
  "End Map",
];

test("folding markers: every Begin line starts a region, every End line ends one", () => {
  const starts = map.filter((line) => start.test(line)).length;
  const ends = map.filter((line) => end.test(line)).length;
  assert.equal(starts, 6);
  assert.equal(ends, 6);
  assert.ok(!start.test("    LightBrightness=128"));
});

test("the minimap shows no section header for Begin lines", () => {
  // VS Code's region section headers (editor.minimap.showRegionSectionHeaders, on by
  // default): on each line the start marker matches, the text after the match, when there
  // is any, is drawn as a label in the minimap.
  const labels = map
    .map((line) => {
      const match = line.match(start);
      return match ? line.substring(match[0].length).trim() : "";
    })
    .filter((label) => label !== "");
  assert.deepEqual(labels, []);
});
