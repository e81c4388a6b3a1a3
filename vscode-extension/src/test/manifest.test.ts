// What VS Code reads from the extension's files without running its code: the Restricted Mode
// declaration in package.json, and the T3D language configuration's folding markers (which
// also feed the minimap's section headers).

import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "node:test";
import { RESTRICTED_CONFIGURATIONS } from "../trust";

const root = path.resolve(__dirname, "../..");
const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));

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

test("Restricted Mode: limited support, saying what is off, the game folder setting restricted", () => {
  const untrusted = manifest.capabilities?.untrustedWorkspaces;
  assert.equal(untrusted?.supported, "limited");
  assert.match(untrusted.description, /highlighting/);
  assert.match(untrusted.description, /language server/);
  assert.match(untrusted.description, /unreal-ls\.toml/);
  assert.deepEqual(untrusted.restrictedConfigurations, RESTRICTED_CONFIGURATIONS);
  const properties = manifest.contributes.configuration.properties;
  for (const key of untrusted.restrictedConfigurations) assert.ok(properties[key], `${key} is not a setting`);
  // The binary's path can never come from a workspace, trusted or not.
  assert.equal(properties["unrealLs.server.path"].scope, "machine");
});

test("the extension waits for trust before starting the server", () => {
  // server.ts is not loadable outside VS Code; check the two calls it must make.
  const source = fs.readFileSync(path.join(root, "src", "server.ts"), "utf8");
  assert.match(source, /if \(!vscode\.workspace\.isTrusted\)/);
  assert.match(source, /vscode\.workspace\.onDidGrantWorkspaceTrust\(/);
});

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

test("the ucc problem matcher reads UCC's messages as UCC writes them", () => {
  const matchers = manifest.contributes.problemMatchers;
  const ucc = matchers.find((m: { name: string }) => m.name === "ucc");
  assert.ok(ucc, "no ucc problem matcher");
  const pattern = new RegExp(ucc.pattern.regexp);
  const read = (line: string) => {
    const m = pattern.exec(line);
    return m && [m[ucc.pattern.file], m[ucc.pattern.line], m[ucc.pattern.severity], m[ucc.pattern.message]];
  };
  // UCC.log starts each line with its event's name; the console does not.
  assert.deepEqual(read("Error: C:\\UT\\MyMod\\Classes\\MyGun.uc(27) : Error, Bad or missing expression in '='"), [
    "C:\\UT\\MyMod\\Classes\\MyGun.uc",
    "27",
    "Error",
    "Bad or missing expression in '='",
  ]);
  assert.deepEqual(read("C:\\UT\\MyMod\\Classes\\MyGun.uc(4) : ExecWarning, Import texture Skin from Textures\\Skin.pcx failed"), [
    "C:\\UT\\MyMod\\Classes\\MyGun.uc",
    "4",
    "Warning",
    "Import texture Skin from Textures\\Skin.pcx failed",
  ]);
  assert.deepEqual(read("C:\\UT\\MyMod\\Classes\\MyGun.uc(1) : defaultproperties : Warning, Unknown property"), [
    "C:\\UT\\MyMod\\Classes\\MyGun.uc",
    "1",
    "Warning",
    "Unknown property",
  ]);
  assert.equal(read("Log: Compiling MyGun"), null);
});
