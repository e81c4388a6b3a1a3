import assert from "node:assert/strict";
import { test } from "node:test";
import { serverSettings } from "../settings";

function from(values: Record<string, unknown>) {
  return serverSettings({ get: (key) => values[key], workspaceFolder: "/ws", env: {}, homedir: "/home/me" });
}

test("defaults: no game directory, auto engine, no rule overrides", () => {
  assert.deepEqual(from({}), {
    settings: { gameDirectory: null, engine: "auto", rules: {}, workspaceDiagnostics: true },
    problems: [],
  });
  assert.deepEqual(from({ gameDirectory: "", engine: "auto", rules: {} }).settings, {
    gameDirectory: null,
    engine: "auto",
    rules: {},
    workspaceDiagnostics: true,
  });
});

test("the server's keys only: client-only settings are never sent", () => {
  const { settings } = from({
    gameDirectory: "~/UnrealTournament",
    engine: "UE1",
    rules: { "t3d-non-planar-polygon": "off", "exec-unknown-key": "Error" },
    workspaceDiagnostics: false,
    "server.path": "/x",
    "trace.server": "verbose",
  });
  assert.deepEqual(settings, {
    gameDirectory: "/home/me/UnrealTournament",
    engine: "ue1",
    rules: { "t3d-non-planar-polygon": "off", "exec-unknown-key": "error" },
    workspaceDiagnostics: false,
  });
  assert.deepEqual(Object.keys(settings).sort(), ["engine", "gameDirectory", "rules", "workspaceDiagnostics"]);
});

test("a relative game directory is resolved against the workspace folder", () => {
  assert.equal(from({ gameDirectory: "game" }).settings.gameDirectory, "/ws/game");
  assert.equal(from({ gameDirectory: "${workspaceFolder}/../UT" }).settings.gameDirectory, "/ws/../UT");
});

test("bad values are dropped with a message each", () => {
  const { settings, problems } = from({
    gameDirectory: 3,
    engine: "ue3",
    rules: { a: "loud", b: "hint", c: 2 },
    workspaceDiagnostics: "yes",
  });
  assert.deepEqual(settings, { gameDirectory: null, engine: "auto", rules: { b: "hint" }, workspaceDiagnostics: true });
  assert.deepEqual(problems, [
    "unrealLs.gameDirectory: expected a path, found 3",
    'unrealLs.engine: expected "auto", "ue1" or "ue2", found "ue3"; using "auto"',
    'unrealLs.rules.a: expected off, hint, info, warning or error, found "loud"',
    "unrealLs.rules.c: expected off, hint, info, warning or error, found 2",
    'unrealLs.workspaceDiagnostics: expected true or false, found "yes"; using true',
  ]);
  assert.deepEqual(from({ rules: ["x"] }).problems, ['unrealLs.rules: expected an object of rule levels, found ["x"]']);
});
