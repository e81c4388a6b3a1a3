// The TextMate grammars, tokenised with the same engine VS Code uses (vscode-textmate and its
// Oniguruma build), including the coexistence cases: another extension's UnrealScript grammar
// (`source.uc`, whose `#` lines are plain preprocessor text) with this extension's injection,
// and this extension's fallback grammar with and without that other grammar installed.

import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "node:test";
import * as oniguruma from "vscode-oniguruma";
import * as textmate from "vscode-textmate";

const root = path.resolve(__dirname, "../..");
const syntaxes = path.join(root, "syntaxes");
const INJECTION = "unreal-ls.exec.injection";

/** Stands in for the UnrealScript extension's grammar. */
const otherExtensionGrammar = {
  scopeName: "source.uc",
  patterns: [
    { match: "^\\s*#.*$", name: "meta.preprocessor.other" },
    { match: "\\b(?i:class|extends)\\b", name: "keyword.other.other-extension" },
  ],
};

const grammarFiles: Record<string, string> = {
  "source.t3d": "t3d.tmLanguage.json",
  "source.unrealscript.unreal-ls": "unrealscript-fallback.tmLanguage.json",
  [INJECTION]: "exec.injection.tmLanguage.json",
};

let onigLoaded: Promise<void> | undefined;
function loadOnig(): Promise<void> {
  onigLoaded ??= oniguruma.loadWASM(fs.readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm")).buffer as ArrayBuffer);
  return onigLoaded;
}

async function grammar(scopeName: string, options: { otherExtension: boolean }): Promise<textmate.IGrammar> {
  await loadOnig();
  // Mirrors package.json: the injection goes into both UnrealScript scope names.
  const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
  const injectTo: string[] = manifest.contributes.grammars.find((g: { scopeName: string }) => g.scopeName === INJECTION).injectTo;
  const registry = new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (sources: string[]) => new oniguruma.OnigScanner(sources),
      createOnigString: (text: string) => new oniguruma.OnigString(text),
    }),
    loadGrammar: async (name: string) => {
      if (name === "source.uc") {
        return options.otherExtension ? textmate.parseRawGrammar(JSON.stringify(otherExtensionGrammar), "other.json") : null;
      }
      const file = grammarFiles[name];
      if (file === undefined) return null;
      return textmate.parseRawGrammar(fs.readFileSync(path.join(syntaxes, file), "utf8"), path.join(syntaxes, file));
    },
    getInjections: (name: string) => (injectTo.includes(name) ? [INJECTION] : undefined),
  });
  const loaded = await registry.loadGrammar(scopeName);
  assert.ok(loaded, `grammar ${scopeName} loads`);
  return loaded;
}

/** `[text, last scope]` for each token of each line (the first scope, the grammar's own, is left out). */
function tokenize(g: textmate.IGrammar, text: string): [string, string][][] {
  let state = textmate.INITIAL;
  return text.split("\n").map((line) => {
    const result = g.tokenizeLine(line, state);
    state = result.ruleStack;
    return result.tokens
      .map((token): [string, string] => [line.slice(token.startIndex, token.endIndex), token.scopes[token.scopes.length - 1]])
      .filter(([piece]) => piece.trim() !== "");
  });
}

/** The scope of the token that is exactly `piece` on line `line`. */
function scopeOf(tokens: [string, string][][], line: number, piece: string): string | undefined {
  return tokens[line].find(([text]) => text.trim() === piece)?.[1];
}

test("T3D: blocks, keywords, attributes, numbers, vectors and object references", async () => {
  const g = await grammar("source.t3d", { otherExtension: false });
  const t = tokenize(
    g,
    [
      "BEGIN MAP",
      "   Begin Actor Class=Brush Name=Brush0",
      "         Begin Polygon Item=OUTSIDE Texture=Engine.Wall Flags=264 Link=0",
      "            Origin   +00128.000000,-00064.000000,+00000.000000",
      "            Pan      U=16 V=-8",
      "         End Polygon",
      "      Brush=Model'MyLevel.Model5'",
      "      Location=(X=1.500000,Y=-2.000000,Z=3.000000)",
      "      bHidden=True",
      "      Skins(0)=Texture'UMenu.Wood'",
      "   end actor",
    ].join("\n"),
  );
  assert.equal(scopeOf(t, 0, "BEGIN"), "keyword.control.block.begin.t3d");
  assert.equal(scopeOf(t, 0, "MAP"), "entity.name.type.block.t3d");
  assert.equal(scopeOf(t, 1, "Class"), "entity.other.attribute-name.t3d");
  assert.equal(scopeOf(t, 1, "Brush"), "entity.name.reference.t3d");
  assert.equal(scopeOf(t, 2, "Flags"), "entity.other.attribute-name.t3d");
  assert.equal(scopeOf(t, 2, "264"), "constant.numeric.integer.t3d");
  assert.equal(scopeOf(t, 2, "Engine.Wall"), "entity.name.reference.t3d");
  assert.equal(scopeOf(t, 3, "Origin"), "keyword.other.polygon-line.t3d");
  assert.equal(scopeOf(t, 3, "+00128.000000"), "constant.numeric.float.t3d");
  assert.equal(scopeOf(t, 3, "-00064.000000"), "constant.numeric.float.t3d");
  assert.equal(scopeOf(t, 4, "U"), "entity.other.attribute-name.t3d");
  assert.equal(scopeOf(t, 4, "-8"), "constant.numeric.integer.t3d");
  assert.equal(scopeOf(t, 5, "End"), "keyword.control.block.end.t3d");
  assert.equal(scopeOf(t, 6, "Brush"), "variable.other.property.t3d");
  assert.equal(scopeOf(t, 6, "Model"), "entity.name.class.t3d");
  assert.equal(scopeOf(t, 6, "MyLevel.Model5"), "string.quoted.single.reference.t3d");
  assert.equal(scopeOf(t, 7, "X"), "entity.other.attribute-name.t3d");
  assert.equal(scopeOf(t, 7, "1.500000"), "constant.numeric.float.t3d");
  assert.equal(scopeOf(t, 8, "True"), "constant.language.t3d");
  assert.equal(scopeOf(t, 9, "0"), "constant.numeric.integer.index.t3d");
  assert.equal(scopeOf(t, 10, "end"), "keyword.control.block.end.t3d");
  assert.equal(scopeOf(t, 10, "actor"), "entity.name.type.block.t3d");
});

const EXEC_SOURCE = [
  "class MyMesh extends Actor;",
  '#exec TEXTURE IMPORT NAME=Skin1 FILE="Textures\\My Skin.pcx" GROUP=Skins MIPS=OFF // first skin',
  "#EXEC MESH SEQUENCE MESH=MyMesh SEQ=All STARTFRAME=0 NUMFRAMES=12",
  "#exec OBJ LOAD FILE=..\\Textures\\Stuff.utx PACKAGE=MyPkg.Stuff",
].join("\n");

function checkExecLines(t: [string, string][][]): void {
  assert.equal(scopeOf(t, 1, "exec"), "keyword.control.directive.exec.unrealscript");
  assert.equal(scopeOf(t, 1, "TEXTURE"), "support.class.exec-command.unrealscript");
  assert.equal(scopeOf(t, 1, "IMPORT"), "support.function.exec-verb.unrealscript");
  assert.equal(scopeOf(t, 1, "NAME"), "variable.parameter.exec-key.unrealscript");
  assert.equal(scopeOf(t, 1, "Skin1"), "string.unquoted.exec-value.unrealscript");
  assert.equal(scopeOf(t, 1, "Textures\\My Skin.pcx"), "string.quoted.double.exec-value.unrealscript");
  assert.equal(scopeOf(t, 1, "OFF"), "constant.language.exec-value.unrealscript");
  assert.equal(scopeOf(t, 1, "// first skin"), "comment.line.double-slash.unrealscript");
  assert.equal(scopeOf(t, 2, "EXEC"), "keyword.control.directive.exec.unrealscript");
  assert.equal(scopeOf(t, 2, "SEQUENCE"), "support.function.exec-verb.unrealscript");
  assert.equal(scopeOf(t, 2, "12"), "constant.numeric.exec-value.unrealscript");
  assert.equal(scopeOf(t, 3, "..\\Textures\\Stuff.utx"), "string.unquoted.exec-value.unrealscript");
  assert.equal(scopeOf(t, 3, "MyPkg.Stuff"), "string.unquoted.exec-value.unrealscript");
}

test("#exec with the UnrealScript extension's grammar: the injection colours #exec, the rest stays theirs", async () => {
  const t = tokenize(await grammar("source.uc", { otherExtension: true }), EXEC_SOURCE);
  checkExecLines(t);
  assert.equal(scopeOf(t, 0, "class"), "keyword.other.other-extension");
});

test("#exec with only this extension: the fallback grammar colours #exec and basic UnrealScript", async () => {
  const t = tokenize(await grammar("source.unrealscript.unreal-ls", { otherExtension: false }), EXEC_SOURCE);
  checkExecLines(t);
  assert.equal(scopeOf(t, 0, "class"), "storage.modifier.unrealscript");
});

test("#exec when VS Code picks the fallback over the other extension: theirs still colours the rest", async () => {
  const t = tokenize(await grammar("source.unrealscript.unreal-ls", { otherExtension: true }), EXEC_SOURCE);
  checkExecLines(t);
  assert.equal(scopeOf(t, 0, "class"), "keyword.other.other-extension");
});

test("a // inside quotes ends an #exec line, as in the engine", async () => {
  const t = tokenize(await grammar("source.unrealscript.unreal-ls", { otherExtension: false }), '#exec AUDIO IMPORT FILE="a//b.wav"');
  assert.equal(scopeOf(t, 0, '//b.wav"'), "comment.line.double-slash.unrealscript");
});
