// Packages the .vsix for this platform with the release `unreal-ls` binary inside
// (server/unreal-ls[.exe]). The binary comes from UNREAL_LS_BUNDLE when set, else from
// `cargo build --release -p unreal-ls` (CARGO_TARGET_DIR when set, else ../target).
// VSCE_TARGET overrides the platform target (linux-x64, darwin-arm64, win32-x64...).
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const repo = path.dirname(here);
const exe = process.platform === "win32" ? "unreal-ls.exe" : "unreal-ls";
const targetDir = process.env.CARGO_TARGET_DIR
  ? path.resolve(repo, process.env.CARGO_TARGET_DIR)
  : path.join(repo, "target");
const binary = process.env.UNREAL_LS_BUNDLE || path.join(targetDir, "release", exe);
if (!fs.existsSync(binary)) {
  console.error(
    `package: no server binary at ${binary}.\n` +
      "Build it first: `cargo build --release -p unreal-ls` (or run scripts/build-vscode, which does both), " +
      "or point UNREAL_LS_BUNDLE at a built unreal-ls.",
  );
  process.exit(1);
}

const arch = { x64: "x64", arm64: "arm64", arm: "armhf" }[process.arch] ?? process.arch;
const target = process.env.VSCE_TARGET || `${process.platform}-${arch}`;

const serverDir = path.join(here, "server");
fs.rmSync(serverDir, { recursive: true, force: true });
fs.mkdirSync(serverDir, { recursive: true });
fs.copyFileSync(binary, path.join(serverDir, exe));
fs.chmodSync(path.join(serverDir, exe), 0o755);
// The release profile keeps line tables (33 MB); the shipped copy does not need them (5 MB).
if (process.platform !== "win32") {
  try {
    execFileSync("strip", [path.join(serverDir, exe)], { stdio: "ignore" });
  } catch {
    console.warn("package: `strip` is not available; shipping the binary with its debug line tables");
  }
}
const version = execFileSync(path.join(serverDir, exe), ["--version"], { encoding: "utf8" }).trim();

const manifest = JSON.parse(fs.readFileSync(path.join(here, "package.json"), "utf8"));
const out = path.join(here, `${manifest.name}-${target}-${manifest.version}.vsix`);
const vsce = path.join(here, "node_modules", "@vscode", "vsce", "vsce");
execFileSync(
  process.execPath,
  [vsce, "package", "--target", target, "--no-dependencies", "--allow-missing-repository", "--skip-license", "--out", out],
  { cwd: here, stdio: "inherit" },
);
console.log(`packaged ${path.relative(process.cwd(), out)} (${target}, ${version}, ${(fs.statSync(out).size / 1024 / 1024).toFixed(1)} MiB)`);
