// The preview fallback: until the server answers `unrealLs/packageTree` and
// `unrealLs/objectPreview`, previews show what `unreal-ls info --json FILE` prints, and
// thumbnails and sources come from `unreal-ls export` (the same binary the client runs).
// Parsing is plain code, unit-tested; `runInfo` and `exportToBuffer` spawn the binary.

import { execFile, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { objectKey, PackageObject, PackageTreeResult } from "./protocol";

export type SummaryValue = string | number | boolean;

/** What a preview shows for one file. */
export type FileView =
  | { kind: "package"; tree: PackageTreeResult; details: Record<string, string>; problems: string[] }
  | { kind: "summary"; format: string; summary: Record<string, SummaryValue>; problems: string[] }
  | { kind: "error"; message: string };

/** Reads the JSON array `unreal-ls info --json FILE` prints (one entry: the file's). */
export function parseInfoJson(stdout: string): FileView {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout);
  } catch (error) {
    return { kind: "error", message: `unreal-ls info printed no JSON (${String(error)}): ${stdout.slice(0, 200)}` };
  }
  const entry = Array.isArray(parsed) ? parsed[0] : parsed;
  if (entry === null || typeof entry !== "object") {
    return { kind: "error", message: "unreal-ls info printed an empty answer" };
  }
  const record = entry as Record<string, unknown>;
  if (typeof record.error === "string") {
    return { kind: "error", message: record.error };
  }
  const problems = Array.isArray(record.problems) ? record.problems.map(String) : [];
  if (record.kind === "package") {
    const objects: PackageObject[] = [];
    const details: Record<string, string> = {};
    for (const raw of Array.isArray(record.objects) ? record.objects : []) {
      if (raw === null || typeof raw !== "object") continue;
      const object = raw as Record<string, unknown>;
      const path = typeof object.path === "string" ? object.path : String(object.name ?? "");
      const entry: PackageObject = {
        path,
        class: typeof object.class === "string" ? object.class : "?",
        size: typeof object.size === "number" ? object.size : 0,
      };
      if (typeof object.export === "number") entry.export = object.export;
      objects.push(entry);
      // Details by the object's key (a path may be shared), and by path for older binaries.
      if (typeof object.detail === "string") details[entry.export !== undefined ? objectKey(entry) : path] = object.detail;
    }
    const header: Record<string, string | number> = {};
    for (const key of ["version", "licensee", "flags", "names", "imports", "exports"]) {
      const value = record[key];
      if (typeof value === "number") header[key] = key === "flags" ? `0x${value.toString(16).padStart(8, "0")}` : value;
    }
    return { kind: "package", tree: { header, objects }, details, problems };
  }
  const summary: Record<string, SummaryValue> = {};
  for (const [key, value] of Object.entries(record)) {
    if (key === "kind" || key === "file" || key === "problems") continue;
    summary[key] = flatten(value);
  }
  return { kind: "summary", format: typeof record.kind === "string" ? record.kind : "file", summary, problems };
}

function flatten(value: unknown): SummaryValue {
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return value;
  if (value === null || value === undefined) return "-";
  if (Array.isArray(value)) {
    if (value.length === 0) return "none";
    return value
      .map((item) => (item !== null && typeof item === "object" ? compact(item as Record<string, unknown>) : String(item)))
      .join(", ");
  }
  return compact(value as Record<string, unknown>);
}

function compact(record: Record<string, unknown>): string {
  const name = record.name;
  const rest = Object.entries(record)
    .filter(([key]) => key !== "name")
    .map(([key, value]) => `${key} ${String(value)}`)
    .join(" ");
  return typeof name === "string" ? `${name} (${rest})` : rest;
}

/** Runs `BINARY info --json FILE`. Exit code 1 (a problem inside the file) still prints the
 * JSON, so the output is read whatever the exit code. */
export function runInfo(binary: string, file: string, timeoutMs = 60_000): Promise<FileView> {
  return new Promise((resolve) => {
    execFile(
      binary,
      ["info", "--json", file],
      { encoding: "utf8", timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, windowsHide: true },
      (error, stdout, stderr) => {
        if (stdout.trim() !== "") {
          resolve(parseInfoJson(stdout));
          return;
        }
        const reason = stderr.trim() || (error ? error.message : "no output");
        resolve({ kind: "error", message: `unreal-ls info failed: ${reason}` });
      },
    );
  });
}

/** Whether BINARY has the `export` command (`unreal-ls export --help` exits 0); cached. */
const exportSupport = new Map<string, boolean>();
export function hasExport(binary: string): boolean {
  let known = exportSupport.get(binary);
  if (known === undefined) {
    const result = spawnSync(binary, ["export", "--help"], { encoding: "utf8", timeout: 10_000, windowsHide: true });
    known = result.status === 0;
    exportSupport.set(binary, known);
  }
  return known;
}

/** The `unreal-ls export` arguments that write one object (or the whole file) as `to`. */
export function exportArgs(file: string, object: string | undefined, to: "png" | "txt" | "glb", output: string): string[] {
  return ["export", file, ...(object !== undefined ? ["--object", object] : []), "--to", to, "--output", output];
}

/** Runs `BINARY export ...` into a temporary file and returns its bytes, or the error. */
export async function exportToBuffer(
  binary: string,
  file: string,
  object: string | undefined,
  to: "png" | "txt" | "glb",
): Promise<{ bytes?: Buffer; error?: string }> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "unreal-ls-export-"));
  const output = path.join(dir, `object.${to}`);
  try {
    const error = await runExport(binary, exportArgs(file, object, to, output));
    if (error !== undefined) return { error };
    return { bytes: await fs.promises.readFile(output) };
  } catch (error) {
    return { error: String(error) };
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

/** Runs `BINARY ARGS`; resolves to undefined on success, else the reason. */
export function runExport(binary: string, args: string[], timeoutMs = 120_000): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(binary, args, { encoding: "utf8", timeout: timeoutMs, windowsHide: true }, (error, _stdout, stderr) => {
      resolve(error ? stderr.trim() || error.message : undefined);
    });
  });
}
