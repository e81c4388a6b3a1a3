// Where the unreal-ls binary comes from. Plain Node code (no `vscode` import) so that the
// unit tests can run it under `node --test`.
//
// Order: the UNREAL_LS_PATH environment variable, then the `unrealLs.server.path` setting,
// then the binary bundled in the .vsix (`server/unreal-ls[.exe]`), then `unreal-ls` on the
// PATH (a .vsix without a server of its own, or one built for another platform; `cargo
// install` puts it there). The first candidate that
// runs (`unreal-ls --version` exits 0) is used; a candidate that is set but does not run is
// reported and the next one is tried, so a stale setting never leaves the user without a
// server when the bundled one works.

import { spawnSync } from "node:child_process";
import * as os from "node:os";
import * as path from "node:path";

export type CandidateSource = "UNREAL_LS_PATH" | "unrealLs.server.path" | "bundled" | "PATH";

export interface Candidate {
  source: CandidateSource;
  path: string;
}

export interface ResolveInput {
  env: Record<string, string | undefined>;
  /** The `unrealLs.server.path` setting as the user wrote it ("" when unset). */
  setting: string | undefined;
  /** The extension's own folder (where `server/` is packaged). */
  extensionPath: string;
  /** The first workspace folder, for `${workspaceFolder}` and relative settings. */
  workspaceFolder?: string;
  platform: NodeJS.Platform;
  homedir?: string;
}

export function bundledBinaryName(platform: NodeJS.Platform): string {
  return platform === "win32" ? "unreal-ls.exe" : "unreal-ls";
}

/** Expands `~`, `${workspaceFolder}`, `${userHome}` and `${env:NAME}`, and resolves a relative
 * path against the workspace folder. A bare command name (`unreal-ls`) is left for the PATH
 * lookup of the spawn unless `bareNameIsCommand` is false (a folder setting). */
export function expandPath(
  raw: string,
  options: {
    env: Record<string, string | undefined>;
    workspaceFolder?: string;
    homedir: string;
    bareNameIsCommand?: boolean;
  },
): string {
  let value = raw.trim();
  value = value.replace(/\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => options.env[name] ?? "");
  value = value.replace(/\$\{userHome\}/g, options.homedir);
  if (options.workspaceFolder !== undefined) {
    value = value.replace(/\$\{workspaceFolder\}/g, options.workspaceFolder);
  }
  if (value === "~") {
    value = options.homedir;
  } else if (value.startsWith("~/") || value.startsWith("~\\")) {
    value = path.join(options.homedir, value.slice(2));
  }
  const bareName = !value.includes("/") && !value.includes("\\");
  if (!(bareName && options.bareNameIsCommand !== false) && !path.isAbsolute(value) && options.workspaceFolder !== undefined) {
    value = path.resolve(options.workspaceFolder, value);
  }
  return value;
}

/** The candidates in the order they are tried; unset sources are left out. */
export function serverCandidates(input: ResolveInput): Candidate[] {
  const homedir = input.homedir ?? os.homedir();
  const expand = (raw: string) =>
    expandPath(raw, { env: input.env, workspaceFolder: input.workspaceFolder, homedir });
  const candidates: Candidate[] = [];
  const fromEnv = input.env.UNREAL_LS_PATH;
  if (fromEnv !== undefined && fromEnv.trim() !== "") {
    candidates.push({ source: "UNREAL_LS_PATH", path: expand(fromEnv) });
  }
  if (input.setting !== undefined && input.setting.trim() !== "") {
    candidates.push({ source: "unrealLs.server.path", path: expand(input.setting) });
  }
  candidates.push({
    source: "bundled",
    path: path.join(input.extensionPath, "server", bundledBinaryName(input.platform)),
  });
  // A bare name: the spawn looks it up on the PATH (Windows adds `.exe`).
  candidates.push({ source: "PATH", path: "unreal-ls" });
  return candidates;
}

export interface ProbeResult {
  ok: boolean;
  /** `unreal-ls 0.1.0` when it ran, else why it did not. */
  detail: string;
}

export type Probe = (binary: string) => ProbeResult;

/** Runs `BINARY --version` with a short timeout. */
export const probeBinary: Probe = (binary) => {
  const result = spawnSync(binary, ["--version"], { encoding: "utf8", timeout: 10_000, windowsHide: true });
  if (result.error) {
    const code = (result.error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { ok: false, detail: "no such file" };
    if (code === "EACCES") return { ok: false, detail: "not executable (permission denied)" };
    return { ok: false, detail: result.error.message };
  }
  if (result.status !== 0) {
    const stderr = (result.stderr ?? "").trim().split("\n")[0] ?? "";
    return { ok: false, detail: `\`--version\` exited with ${result.status ?? result.signal}${stderr ? `: ${stderr}` : ""}` };
  }
  const version = (result.stdout ?? "").trim();
  if (!/unreal-ls/i.test(version)) {
    return { ok: false, detail: `not unreal-ls (\`--version\` printed ${JSON.stringify(version.slice(0, 80))})` };
  }
  return { ok: true, detail: version };
};

export interface Resolution {
  /** The first candidate that ran, if any. */
  chosen?: Candidate & { version: string };
  /** Every candidate that was tried and did not run, with the reason. */
  failures: { candidate: Candidate; detail: string }[];
}

export function resolveServer(input: ResolveInput, probe: Probe = probeBinary): Resolution {
  const failures: Resolution["failures"] = [];
  for (const candidate of serverCandidates(input)) {
    const result = probe(candidate.path);
    if (result.ok) return { chosen: { ...candidate, version: result.detail }, failures };
    failures.push({ candidate, detail: result.detail });
  }
  return { failures };
}

/** The message shown when no candidate runs: what was tried, and what to do about it. */
export function notFoundMessage(resolution: Resolution): string {
  const tried = resolution.failures
    .map(({ candidate, detail }) => `${describeSource(candidate.source)} ${candidate.path}: ${detail}`)
    .join("; ");
  return (
    `unreal-ls: no language server could be started (tried ${tried}). ` +
    "Install it with `cargo install --path server/ls` from the unreal-ls sources and set " +
    "`unrealLs.server.path` to the binary (or the UNREAL_LS_PATH environment variable), " +
    "or install the .vsix built for your platform, which bundles it."
  );
}

/** One line for the log about a candidate that was set but did not run. */
export function skippedMessage(candidate: Candidate, detail: string): string {
  return `${describeSource(candidate.source)} ${candidate.path} does not run (${detail}); trying the next candidate`;
}

function describeSource(source: CandidateSource): string {
  switch (source) {
    case "UNREAL_LS_PATH":
      return "UNREAL_LS_PATH=";
    case "unrealLs.server.path":
      return "setting unrealLs.server.path =";
    case "bundled":
      return "bundled binary";
    case "PATH":
      return "on the PATH:";
  }
}
