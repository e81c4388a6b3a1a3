import assert from "node:assert/strict";
import { test } from "node:test";
import { leavesSemanticTokensFor, UNREALSCRIPT_EXTENSIONS } from "../coexistence";

test("UnrealScript files' semantic tokens are left to EliotVU's extension or ucx when installed", () => {
  for (const other of UNREALSCRIPT_EXTENSIONS) {
    const installed = (id: string) => id === other;
    assert.equal(leavesSemanticTokensFor("unrealscript", installed), true, other);
    assert.equal(leavesSemanticTokensFor("unrealscript-pp", installed), true, other);
    // T3D is ours alone.
    assert.equal(leavesSemanticTokensFor("t3d", installed), false, other);
  }
});

test("without another UnrealScript extension the client keeps its own tokens", () => {
  const none = () => false;
  assert.equal(leavesSemanticTokensFor("unrealscript", none), false);
  assert.equal(leavesSemanticTokensFor("t3d", none), false);
  // An unrelated extension changes nothing.
  assert.equal(leavesSemanticTokensFor("unrealscript", (id) => id === "ms-python.python"), false);
});
