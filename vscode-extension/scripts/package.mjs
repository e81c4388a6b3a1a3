// Packages the .vsix with the `unreal-ls` binary inside (server/unreal-ls, or
// server/unreal-ls.exe for a win32 target), stripped of its line tables where `strip` can.
//
// VSCE_TARGET is the platform target (linux-x64, darwin-arm64, win32-x64...; default: this
// machine's). UNREAL_LS_BUNDLE is the binary to put inside; without it, the one that
// `cargo build --release -p unreal-ls` wrote for this machine (in $CARGO_TARGET_DIR/release, else
// ../target/release). So packaging for another platform needs both: a binary built for that
// platform (`cargo build --release --target x86_64-pc-windows-gnu`, say) in UNREAL_LS_BUNDLE,
// and VSCE_TARGET naming the platform. Such a binary cannot run here: its `--version` is not
// checked, and it is stripped only if this machine's `strip` reads its format.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const repo = path.dirname(here);

const arch = { x64: "x64", arm64: "arm64", arm: "armhf" }[process.arch] ?? process.arch;
const hostTarget = `${process.platform}-${arch}`;
const target = process.env.VSCE_TARGET || hostTarget;
const native = target === hostTarget;
// The name the extension looks for (src/serverPath.ts, bundledBinaryName) on the target.
const exe = target.startsWith("win32-") ? "unreal-ls.exe" : "unreal-ls";

const targetDir = process.env.CARGO_TARGET_DIR
  ? path.resolve(repo, process.env.CARGO_TARGET_DIR)
  : path.join(repo, "target");
const bundle = process.env.UNREAL_LS_BUNDLE;
if (!bundle && !native) {
  console.error(
    `package: packaging for ${target} on ${hostTarget} needs UNREAL_LS_BUNDLE: the path of an unreal-ls built for ${target}.`,
  );
  process.exit(1);
}
const binary = bundle || path.join(targetDir, "release", exe);
if (!fs.existsSync(binary)) {
  console.error(
    `package: no server binary at ${binary}.\n` +
      "Build it first: `cargo build --release -p unreal-ls` (or run scripts/build-vscode, which does both), " +
      "or point UNREAL_LS_BUNDLE at a built unreal-ls.",
  );
  process.exit(1);
}

const serverDir = path.join(here, "server");
fs.rmSync(serverDir, { recursive: true, force: true });
fs.mkdirSync(serverDir, { recursive: true });
fs.copyFileSync(binary, path.join(serverDir, exe));
fs.chmodSync(path.join(serverDir, exe), 0o755);
// The release profile keeps line tables for readable crash reports (Cargo.toml); the shipped
// copy does without them. Measured 2026-11-24 on linux-x64: 62.5 MiB as built, 9.0 MiB
// stripped, and the .vsix (zip-compressed) 3.8 MiB; the last line printed gives the size of
// each new .vsix.
if (process.platform !== "win32") {
  // A Windows binary packaged here is stripped by MinGW-w64's strip (the host's reads ELF).
  const strip = target.startsWith("win32-") && !native ? "x86_64-w64-mingw32-strip" : "strip";
  try {
    execFileSync(strip, [path.join(serverDir, exe)], { stdio: "ignore" });
  } catch {
    console.warn(`package: \`${strip}\` failed or is not available; shipping ${binary} as it is`);
  }
}
// A binary for another platform cannot run here.
const version = native
  ? execFileSync(path.join(serverDir, exe), ["--version"], { encoding: "utf8" }).trim()
  : `a binary for ${target}, not run here`;

const manifest = JSON.parse(fs.readFileSync(path.join(here, "package.json"), "utf8"));
const out = path.join(here, `${manifest.name}-${target}-${manifest.version}.vsix`);
const vsce = path.join(here, "node_modules", "@vscode", "vsce", "vsce");
execFileSync(
  process.execPath,
  [vsce, "package", "--target", target, "--no-dependencies", "--allow-missing-repository", "--skip-license", "--out", out],
  { cwd: here, stdio: "inherit" },
);
console.log(`packaged ${path.relative(process.cwd(), out)} (${target}, ${version}, ${(fs.statSync(out).size / 1024 / 1024).toFixed(1)} MiB)`);
