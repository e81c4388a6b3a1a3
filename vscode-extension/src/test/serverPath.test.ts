import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "node:test";
import { expandPath, notFoundMessage, probeBinary, Probe, resolveServer, serverCandidates } from "../serverPath";

const base = { extensionPath: "/ext", platform: "linux" as NodeJS.Platform, homedir: "/home/me" };

test("candidates: UNREAL_LS_PATH, then the setting, then the bundled binary, then the PATH", () => {
  const candidates = serverCandidates({
    ...base,
    env: { UNREAL_LS_PATH: "/opt/unreal-ls" },
    setting: "~/bin/unreal-ls",
  });
  assert.deepEqual(candidates, [
    { source: "UNREAL_LS_PATH", path: "/opt/unreal-ls" },
    { source: "unrealLs.server.path", path: "/home/me/bin/unreal-ls" },
    { source: "bundled", path: "/ext/server/unreal-ls" },
    { source: "PATH", path: "unreal-ls" },
  ]);
});

test("candidates: blank sources are left out; Windows bundles unreal-ls.exe", () => {
  assert.deepEqual(serverCandidates({ ...base, env: { UNREAL_LS_PATH: "  " }, setting: "" }), [
    { source: "bundled", path: "/ext/server/unreal-ls" },
    { source: "PATH", path: "unreal-ls" },
  ]);
  const windows = serverCandidates({ ...base, platform: "win32", env: {}, setting: undefined });
  assert.equal(path.basename(windows[0].path), "unreal-ls.exe");
});

test("expandPath: ~, ${workspaceFolder}, ${env:X}, relative paths and bare names", () => {
  const options = { env: { TOOLS: "/tools" }, workspaceFolder: "/ws", homedir: "/home/me" };
  assert.equal(expandPath("~", options), "/home/me");
  assert.equal(expandPath("${workspaceFolder}/bin/unreal-ls", options), "/ws/bin/unreal-ls");
  assert.equal(expandPath("${env:TOOLS}/unreal-ls", options), "/tools/unreal-ls");
  assert.equal(expandPath("${userHome}/x", options), "/home/me/x");
  assert.equal(expandPath("target/release/unreal-ls", options), "/ws/target/release/unreal-ls");
  // A bare name is left for the PATH lookup of the process spawn.
  assert.equal(expandPath("unreal-ls", options), "unreal-ls");
  assert.equal(expandPath(" /abs/unreal-ls ", options), "/abs/unreal-ls");
});

test("resolveServer: without a bundled binary, unreal-ls on the PATH", () => {
  const probe: Probe = (binary) =>
    binary === "unreal-ls" ? { ok: true, detail: "unreal-ls 0.1.0" } : { ok: false, detail: "no such file" };
  const resolution = resolveServer({ ...base, env: {}, setting: "" }, probe);
  assert.deepEqual(resolution.chosen, { source: "PATH", path: "unreal-ls", version: "unreal-ls 0.1.0" });
  assert.deepEqual(
    resolution.failures.map((f) => f.candidate.source),
    ["bundled"],
  );
});

test("resolveServer: the first candidate that runs wins; failures are kept in order", () => {
  const probe: Probe = (binary) =>
    binary === "/ext/server/unreal-ls"
      ? { ok: true, detail: "unreal-ls 0.1.0" }
      : { ok: false, detail: "no such file" };
  const resolution = resolveServer({ ...base, env: { UNREAL_LS_PATH: "/gone" }, setting: "/also-gone" }, probe);
  assert.deepEqual(resolution.chosen, { source: "bundled", path: "/ext/server/unreal-ls", version: "unreal-ls 0.1.0" });
  assert.deepEqual(
    resolution.failures.map((f) => f.candidate.source),
    ["UNREAL_LS_PATH", "unrealLs.server.path"],
  );
});

test("resolveServer: nothing runs, and the message says what was tried and what to do", () => {
  const resolution = resolveServer({ ...base, env: {}, setting: "/x/unreal-ls" }, () => ({
    ok: false,
    detail: "no such file",
  }));
  assert.equal(resolution.chosen, undefined);
  const message = notFoundMessage(resolution);
  assert.match(message, /setting unrealLs\.server\.path = \/x\/unreal-ls: no such file/);
  assert.match(message, /bundled binary \/ext\/server\/unreal-ls: no such file/);
  assert.match(message, /on the PATH: unreal-ls: no such file/);
  assert.match(message, /cargo install --path server\/ls/);
  assert.match(message, /UNREAL_LS_PATH/);
});

test("probeBinary: missing, not executable, not unreal-ls, and a real one", (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "unreal-ls-probe-"));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  assert.deepEqual(probeBinary(path.join(dir, "missing")), { ok: false, detail: "no such file" });
  if (process.platform === "win32") return;
  const plain = path.join(dir, "plain");
  fs.writeFileSync(plain, "#!/bin/sh\necho hi\n", { mode: 0o644 });
  assert.equal(probeBinary(plain).detail, "not executable (permission denied)");
  const other = path.join(dir, "other");
  fs.writeFileSync(other, "#!/bin/sh\necho something-else 1.0\n", { mode: 0o755 });
  assert.match(probeBinary(other).detail, /^not unreal-ls/);
  const failing = path.join(dir, "failing");
  fs.writeFileSync(failing, "#!/bin/sh\necho broken >&2\nexit 3\n", { mode: 0o755 });
  assert.equal(probeBinary(failing).detail, "`--version` exited with 3: broken");
  const fake = path.join(dir, "unreal-ls");
  fs.writeFileSync(fake, "#!/bin/sh\necho unreal-ls 9.9.9\n", { mode: 0o755 });
  assert.deepEqual(probeBinary(fake), { ok: true, detail: "unreal-ls 9.9.9" });
});
