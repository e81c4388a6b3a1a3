// End-to-end test of the packaged extension in a real VS Code: code-server serves it to
// headless Chromium, which playwright-core drives. Usage (tests/vscode/run does all this):
//
//   node tests/vscode/e2e.mjs VSIX CODE_SERVER_BIN
//
// Five VS Code sessions, each with fresh user data and extensions folders:
//  1. the .vsix alone, on tests/vscode/fixtures (plus corpus files when ../shared/corpus is
//     there): the server starts from the bundled binary; the T3D grammar colours a map; first-
//     line detection; the #exec grammar colours a .uc; the Problems panel lists what the server
//     finds (checked against `unreal-ls lint`), a map never opened included; hovers (the Flags= one SKIPPED while the server
//     advertises no hoverProvider); the tessellate quick fix on a non-planar polygon; the map
//     overview beside a map, a click on an actor's mark
//     revealing its line; the 3D map view (WebGL on SwiftShader) drawing the built level, a click
//     on a surface revealing its `Begin Polygon` line and one on an actor its `Begin Actor`
//     line, following an edit, and the big map's level timed; the Map Changes tree of two
//     versions of a map (a click reveals the actor); package previews with texture thumbnails,
//     a TextBuffer opened as a document, a mesh preview and the glTF export command, a corpus
//     vertex mesh in the 3D mesh view (textured, a sequence played), Copy #exec Lines on a
//     corpus package's LodMesh (its row's context menu and its detail's button);
//  2. beside a stand-in UnrealScript extension (tests/vscode/stub-unrealscript): its grammar
//     stays, #exec lines are still coloured, the server attaches;
//  3. with a mock server (tests/vscode/mock-server, via UNREAL_LS_PATH) that answers the
//     preview requests of docs/protocol.md: the client's side of them;
//  4. a game folder (corpus packages copied in): Find Unreal Asset finds a texture by a fragment
//     of its name and opens it in the package preview; the 3D map view textures a room from it,
//     and a real map exported by UnrealEd (the corpus's blender_t3d test map);
//  5. Workspace Trust on, the folder untrusted (Restricted Mode): the grammar colours a map,
//     the server does not start and a notification says what is off; trusting the folder
//     starts the server without a reload.
// Screenshots, logs and results.json go to tests/output/vscode/. Every process it starts is
// stopped by its own id (code-server by its process group).

import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const outDir = path.join(root, "tests/output/vscode");
const corpusUtx = path.resolve(root, "../shared/corpus/packages/utx/blender_t3d_Checkers.utx");
const corpusU = path.resolve(root, "../shared/corpus/packages/u/Ut99Mods_DeveloperMutator.u");
const corpusPsk = path.resolve(root, "../shared/corpus/psk/psk_psa_py/Suzanne.psk");
// A map UnrealEd built (blender_t3d's test map): its Level stores the level as built.
const corpusUnr = path.resolve(root, "../shared/corpus/packages/unr/blender_t3d_test_map.unr");
// A UT99 mod's package folder: a vertex mesh (Models/DogTags/Tags_d.3d, with its _a.3d), the
// class whose #exec lines import it and its skin.
const corpusMeshPackage = path.resolve(root, "../shared/corpus/uc/Ut99Mods/KillConfirmed");
// The same mod compiled: its LodMesh `dogTag` is that mesh, inside a package.
const corpusMeshU = path.resolve(root, "../shared/corpus/packages/u/Ut99Mods_KillConfirmed.u");
// A real map exported by UnrealEd (blender_t3d's test map), textured from the corpus's
// Checkers.utx: the 3D view of a map nobody here made.
const corpusMap = path.resolve(root, "../shared/corpus/t3d/ue1/blender_t3d_test_map.t3d");
const [vsix, codeServer] = process.argv.slice(2);
const TOTAL_TIMEOUT_MS = 10 * 60 * 1000;

if (!vsix || !codeServer) {
  console.error("usage: node tests/vscode/e2e.mjs VSIX CODE_SERVER_BIN");
  process.exit(2);
}

/** @type {{name: string, status: "passed"|"failed"|"skipped", detail: string}[]} */
const results = [];
function record(name, status, detail) {
  results.push({ name, status, detail });
  const label = status === "passed" ? "PASS" : status === "failed" ? "FAIL" : "SKIPPED";
  console.log(`${label}: ${name}${detail ? ` - ${detail}` : ""}`);
}

/** Runs one check; an exception is a failure with its message. */
async function check(name, body) {
  try {
    const outcome = await body();
    if (outcome && outcome.skip) record(name, "skipped", outcome.skip);
    else record(name, "passed", outcome?.detail ?? "");
  } catch (error) {
    record(name, "failed", error instanceof Error ? error.message : String(error));
  }
}

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what, timeoutMs, probe) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    try {
      last = await probe();
      if (last) return last;
    } catch (error) {
      last = error;
    }
    await sleep(250);
  }
  throw new Error(`timed out after ${timeoutMs / 1000}s waiting for ${what}${last instanceof Error ? ` (${last.message})` : ""}`);
}

/** The first frame of `page` (a webview's) that holds an element matching `selector`. */
/** Chooses the action whose title holds `title` in the open code action menu: the menu
 * takes keys (a pointer guard lies over it), so the focus moves to the action, then Enter. */
async function chooseCodeAction(page, title) {
  const rows = page.locator(".action-widget .monaco-list-row.action");
  const titles = await rows.evaluateAll((all) => all.map((row) => row.getAttribute("aria-label") ?? ""));
  const focused = await rows.evaluateAll((all) => all.findIndex((row) => row.classList.contains("focused")));
  const wanted = titles.findIndex((t) => t.includes(title));
  for (let i = Math.max(focused, 0); i < wanted; i += 1) await page.keyboard.press("ArrowDown");
  for (let i = Math.max(focused, 0); i > wanted; i -= 1) await page.keyboard.press("ArrowUp");
  await page.keyboard.press("Enter");
}

function frameWith(page, what, selector, timeoutMs = 60_000) {
  return until(what, timeoutMs, async () => {
    for (const candidate of page.frames()) {
      if ((await candidate.locator(selector).count().catch(() => 0)) > 0) return candidate;
    }
    return null;
  });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Asks the binary what it advertises: initialize, then shutdown and exit. */
async function serverCapabilities(binary) {
  const child = spawn(binary, ["lsp"], { stdio: ["pipe", "pipe", "ignore"] });
  const send = (message) => {
    const body = Buffer.from(JSON.stringify({ jsonrpc: "2.0", ...message }), "utf8");
    child.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
    child.stdin.write(body);
  };
  let buffer = Buffer.alloc(0);
  const response = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no initialize response in 20s")), 20_000);
    child.stdout.on("data", (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const headerEnd = buffer.indexOf("\r\n\r\n");
        if (headerEnd < 0) return;
        const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, headerEnd).toString())?.[1]);
        if (buffer.length < headerEnd + 4 + length) return;
        const message = JSON.parse(buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString("utf8"));
        buffer = buffer.subarray(headerEnd + 4 + length);
        if (message.id === 1) {
          clearTimeout(timer);
          resolve(message.result?.capabilities ?? {});
        }
      }
    });
    child.on("error", reject);
  });
  send({ id: 1, method: "initialize", params: { processId: process.pid, rootUri: null, capabilities: {} } });
  try {
    return await response;
  } finally {
    send({ id: 2, method: "shutdown" });
    send({ method: "exit" });
    setTimeout(() => child.exitCode === null && child.kill("SIGKILL"), 3000).unref();
  }
}


const children = [];
const browsers = [];

/** Stops what this test started: browsers, then each code-server by its process group. */
async function cleanup() {
  for (const browser of browsers.splice(0)) await browser.close().catch(() => undefined);
  for (const child of children.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {}
    const exited = await Promise.race([
      new Promise((resolve) => child.once("exit", () => resolve(true))),
      sleep(10_000).then(() => false),
    ]);
    if (!exited) {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {}
    }
  }
}

/** A fresh VS Code: its own user data and extensions folders with `vsixes` installed,
 * code-server on a free loopback port (with `extraEnv` added to its environment), and a
 * Chromium page on the workspace. With `trusted: false`, Workspace Trust is on and the
 * workspace opens in Restricted Mode (no prompt). */
async function openSession(label, tmp, workspace, vsixes, extraEnv = {}, { trusted = true, settings = {} } = {}) {
  const userData = path.join(tmp, label, "user-data");
  const extensions = path.join(tmp, label, "extensions");
  fs.mkdirSync(path.join(userData, "User"), { recursive: true });
  fs.writeFileSync(
    path.join(userData, "User", "settings.json"),
    JSON.stringify(
      {
        "workbench.startupEditor": "none",
        "workbench.tips.enabled": false,
        "workbench.welcomePage.walkthroughs.openOnInstall": false,
        "security.workspace.trust.enabled": !trusted,
        // Untrusted, without the modal that asks: the folder opens in Restricted Mode.
        "security.workspace.trust.startupPrompt": "never",
        "extensions.autoCheckUpdates": false,
        "extensions.autoUpdate": false,
        "extensions.ignoreRecommendations": true,
        "telemetry.telemetryLevel": "off",
        "update.mode": "none",
        "editor.hover.delay": 150,
        "editor.minimap.enabled": false,
        "window.commandCenter": false,
        "workbench.colorTheme": "Default Dark Modern",
        // The colour checks are about the TextMate grammars, not the server's semantic tokens.
        "editor.semanticHighlighting.enabled": false,
        // The fixture's Flags=536870912 is only a defect for UE1: this checks that the
        // setting reaches the server.
        "unrealLs.engine": "ue1",
        ...settings,
      },
      null,
      2,
    ),
  );


  // The bundled binary is what this test is about: no environment override.
  const env = { ...process.env };
  delete env.UNREAL_LS_PATH;
  Object.assign(env, extraEnv);
  const csArgs = ["--user-data-dir", userData, "--extensions-dir", extensions, "--config", path.join(tmp, label, "config.yaml")];
  for (const file of vsixes) {
    const install = spawnSync(codeServer, [...csArgs, "--install-extension", file], { encoding: "utf8", env, timeout: 120_000 });
    fs.appendFileSync(path.join(outDir, `install-extension-${label}.log`), `${install.stdout}\n${install.stderr}`);
    assert(install.status === 0, `code-server --install-extension ${file} failed (${install.status}): ${install.stderr}`);
  }
  const installed = fs.readdirSync(extensions).find((name) => name.startsWith("unreal-ls.unreal-ls-"));
  assert(installed, `the extension is not in ${extensions}: ${fs.readdirSync(extensions).join(", ")}`);
  const bundled = path.join(extensions, installed, "server", "unreal-ls");

  const port = await freePort();
  const log = fs.openSync(path.join(outDir, `code-server-${label}.log`), "w");
  const server = spawn(
    codeServer,
    [
      ...csArgs,
      "--auth", "none",
      "--bind-addr", `127.0.0.1:${port}`,
      "--disable-telemetry",
      "--disable-update-check",
      ...(trusted ? ["--disable-workspace-trust"] : []),
      "--disable-getting-started-override",
      workspace,
    ],
    { detached: true, stdio: ["ignore", log, log], env },
  );
  children.push(server);
  const base = `http://127.0.0.1:${port}`;
  await until("code-server to answer /healthz", 60_000, async () => (await fetch(`${base}/healthz`)).ok);

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    // No GPU here: WebGL (the 3D map view) runs on SwiftShader, which Chromium only falls back
    // to when allowed.
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", "--use-angle=swiftshader", "--enable-unsafe-swiftshader"],
  });
  browsers.push(browser);
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  const pageErrors = [];
  page.on("pageerror", (error) => pageErrors.push(String(error)));
  await page.goto(`${base}/?folder=${encodeURIComponent(workspace)}`);
  await page.locator(".monaco-workbench").waitFor({ timeout: 90_000 });
  await page.locator(".explorer-folders-view, .explorer-viewlet").first().waitFor({ timeout: 60_000 });
  const shot = (name) => page.screenshot({ path: path.join(outDir, `${name}.png`) });

  const runCommand = async (title) => {
    await page.keyboard.press("F1");
    const input = page.locator(".quick-input-widget input");
    await input.waitFor({ timeout: 10_000 });
    await input.fill(`>${title}`);
    await page.locator(".quick-input-list .monaco-list-row").first().waitFor({ timeout: 10_000 });
    await sleep(300);
    await page.keyboard.press("Enter");
  };
  /** Opens `name` through Quick Open; `onEnter` runs just before the Enter that opens it. */
  const openFile = async (name, { onEnter } = {}) => {
    // Quick Open lists a file written a moment ago (a corpus folder copied in by a check) only
    // once its file search has seen it: ask again until it does.
    await until(`Quick Open to list ${name}`, 60_000, async () => {
      await page.keyboard.press("Control+P");
      const input = page.locator(".quick-input-widget input");
      await input.waitFor({ timeout: 10_000 });
      await input.fill(name);
      const row = page.locator(".quick-input-list .monaco-list-row", { hasText: name }).first();
      const listed = await row.waitFor({ timeout: 15_000 }).then(() => true, () => false);
      if (!listed) await page.keyboard.press("Escape");
      return listed;
    });
    await sleep(300);
    onEnter?.();
    await page.keyboard.press("Enter");
    await page.locator(`.tab[aria-label*="${name}"], .tab:has-text("${name}")`).first().waitFor({ timeout: 20_000 });
  };
  /** Colour and class of the first token of the visible editor whose text is `text`. */
  const token = (text, lineIncludes) =>
    page.evaluate(
      ({ text, lineIncludes }) => {
        const editor = document.querySelector(".editor-group-container.active .monaco-editor .view-lines");
        if (!editor) return null;
        for (const line of editor.querySelectorAll(".view-line")) {
          // VS Code renders spaces as U+00A0.
          if (lineIncludes && !line.textContent.replace(/\u00a0/g, " ").includes(lineIncludes)) continue;
          for (const span of line.querySelectorAll("span > span")) {
            if (span.textContent.replace(/\u00a0/g, " ").trim() === text) {
              return { color: getComputedStyle(span).color, className: span.className };
            }
          }
        }
        return null;
      },
      { text, lineIncludes },
    );


  const close = async () => {
    if (pageErrors.length > 0) fs.writeFileSync(path.join(outDir, `page-errors-${label}.txt`), pageErrors.join("\n"));
    await cleanup();
    // Keep the extension host's logs (the unreal-ls output channel among them) for the record.
    const logs = path.join(userData, "logs");
    if (fs.existsSync(logs)) fs.cpSync(logs, path.join(outDir, `logs-${label}`), { recursive: true });
  };
  return { page, shot, runCommand, openFile, token, installed, bundled, close };
}

/** Packages tests/vscode/stub-unrealscript with the extension's own vsce. */
function buildStubVsix(tmp) {
  const dir = path.join(tmp, "stub-unrealscript");
  fs.cpSync(path.join(here, "stub-unrealscript"), dir, { recursive: true });
  const out = path.join(tmp, "stub-unrealscript.vsix");
  const vsce = path.join(root, "vscode-extension/node_modules/@vscode/vsce/vsce");
  const result = spawnSync(process.execPath, [vsce, "package", "--allow-missing-repository", "--skip-license", "--out", out], {
    cwd: dir,
    encoding: "utf8",
  });
  assert(result.status === 0, `packaging the stand-in extension failed: ${result.stderr}${result.stdout}`);
  return out;
}

async function main() {
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "unreal-ls-vscode-"));
  const workspace = path.join(tmp, "workspace");
  fs.cpSync(path.join(here, "fixtures"), workspace, { recursive: true });
  // A map that is never opened: its problems reach the Problems panel from the server's check
  // of the workspace.
  fs.copyFileSync(path.join(workspace, "Defects.t3d"), path.join(workspace, "NeverOpened.t3d"));
  // An older version of Overview.t3d for the map comparison: Light0 stood elsewhere.
  fs.writeFileSync(
    path.join(workspace, "OverviewOld.t3d"),
    fs
      .readFileSync(path.join(workspace, "Overview.t3d"), "latin1")
      .replace("Location=(X=640.000000,Y=256.000000,Z=128.000000)", "Location=(X=512.000000,Y=256.000000,Z=128.000000)"),
    "latin1",
  );
  // A big map: a real one when E2E_BIG_MAP names it (DM-Deck17 for the figures in
  // docs/performance.md), else a generated one of the same size; one brush with a defect
  // (a polygon of two vertices) near its end, so that it has a squiggle to wait for.
  const bigMap = (() => {
    const name = process.env.E2E_BIG_MAP ? path.basename(process.env.E2E_BIG_MAP) : "DM-Generated.t3d";
    const file = path.join(workspace, name);
    if (process.env.E2E_BIG_MAP) fs.copyFileSync(process.env.E2E_BIG_MAP, file);
    else {
      const made = spawnSync("cargo", ["run", "--quiet", "-p", "unreal-mapgen", "--", "--size", "4MB", "--seed", "17", "-o", file], { cwd: root, encoding: "utf8" });
      assert(made.status === 0, `mapgen failed: ${made.stderr}`);
    }
    const text = fs.readFileSync(file, "latin1");
    const end = text.lastIndexOf("End Map");
    assert(end > 0, `${name} has no End Map`);
    const defectActor = "BrushDefect";
    const defect = [
      `Begin Actor Class=Brush Name=${defectActor}`,
      "    CsgOper=CSG_Add",
      "    Begin Brush Name=ModelDefect",
      "       Begin PolyList",
      "          Begin Polygon",
      "             Vertex   +00000.000000,+00000.000000,+00000.000000",
      "             Vertex   +00128.000000,+00000.000000,+00000.000000",
      "          End Polygon",
      "       End PolyList",
      "    End Brush",
      "End Actor",
      "",
    ].join("\r\n");
    const defectLine = text.slice(0, end).split("\n").length; // 1-based line of `Begin Actor`
    fs.writeFileSync(file, text.slice(0, end) + defect + text.slice(end), "latin1");
    return { name, bytes: fs.statSync(file).size, defectActor, defectLine };
  })();
  const haveCorpus = fs.existsSync(corpusUtx);
  if (haveCorpus) {
    // Copied into the throw-away workspace only; corpus files never enter the repository.
    fs.mkdirSync(path.join(workspace, "Textures"));
    fs.copyFileSync(corpusUtx, path.join(workspace, "Textures", "Checkers.utx"));
  }
  const haveCorpusPsk = fs.existsSync(corpusPsk);
  if (haveCorpusPsk) {
    fs.mkdirSync(path.join(workspace, "Models"));
    fs.copyFileSync(corpusPsk, path.join(workspace, "Models", "Suzanne.psk"));
  }
  const haveCorpusUnr = fs.existsSync(corpusUnr);
  if (haveCorpusUnr) {
    fs.mkdirSync(path.join(workspace, "Maps"), { recursive: true });
    fs.copyFileSync(corpusUnr, path.join(workspace, "Maps", "BuiltTestMap.unr"));
  }
  const haveCorpusU = fs.existsSync(corpusU);
  if (haveCorpusU) {
    fs.mkdirSync(path.join(workspace, "System"));
    fs.copyFileSync(corpusU, path.join(workspace, "System", "DeveloperMutator.u"));
  }
  const watchdog = setTimeout(async () => {
    console.error(`e2e: gave up after ${TOTAL_TIMEOUT_MS / 1000}s`);
    await cleanup();
    process.exit(1);
  }, TOTAL_TIMEOUT_MS);

  try {
    const { page, shot, runCommand, openFile, token, installed, bundled, close } = await openSession("main", tmp, workspace, [vsix]);
    record("vsix installs with the server inside", "passed", `${installed}/server/unreal-ls`);
    let keywordControlColour;
    let fallbackClassColour;

    await check("the server starts (status bar)", async () => {
      // The extension activates on the first T3D file; the status item shows its state.
      await openFile("Defects.t3d");
      const item = page.locator('[aria-label="unreal-ls running"]');
      await item.first().waitFor({ timeout: 60_000 });
      return { detail: "status bar reads 'unreal-ls running'" };
    });

    await check("the T3D grammar colours the file", async () => {
      await until("T3D tokens", 30_000, async () => (await token("Flags", "Flags=264")) !== null);
      const plain = await token("=", "Flags=264");
      const samples = {
        Begin: await token("Begin", "Begin Polygon"),
        Polygon: await token("Polygon", "Begin Polygon"),
        Flags: await token("Flags", "Flags=264"),
        "264": await token("264", "Flags=264"),
        Model: await token("Model", "Brush=Model"),
      };
      await shot("01-t3d-grammar");
      for (const [text, found] of Object.entries(samples)) {
        assert(found !== null, `no token '${text}' in the editor`);
      }
      const colours = new Set(Object.values(samples).map((s) => s.color));
      keywordControlColour = samples.Begin.color;
      assert(colours.size >= 3, `expected at least 3 colours among ${JSON.stringify(samples)}`);
      for (const [text, found] of Object.entries(samples)) {
        assert(found.color !== plain?.color || text === "Polygon", `'${text}' has the plain text colour ${found.color}`);
      }
      return { detail: `${colours.size} colours: ${Object.entries(samples).map(([t, s]) => `${t}=${s.color}`).join(" ")}` };
    });

    await check("the #exec injection colours a .uc file", async () => {
      await openFile("MyMesh.uc");
      await until(".uc tokens", 30_000, async () => (await token("MIPZ", "MIPZ")) !== null);
      const samples = {
        exec: await token("exec", "TEXTURE IMPORT"),
        TEXTURE: await token("TEXTURE", "TEXTURE IMPORT"),
        MIPZ: await token("MIPZ", "MIPZ"),
        OFF: await token("OFF", "MIPZ"),
      };
      const plain = await token("defaultproperties");
      fallbackClassColour = (await token("class", "extends Decoration"))?.color;
      await shot("02-uc-exec-grammar");
      for (const [text, found] of Object.entries(samples)) assert(found !== null, `no token '${text}'`);
      const colours = new Set(Object.values(samples).map((s) => s.color));
      assert(colours.size >= 3, `expected at least 3 colours among ${JSON.stringify(samples)}`);
      return { detail: `${colours.size} colours; defaultproperties=${plain?.color}` };
    });

    await check("a file whose first line is Begin PolyList opens as T3D", async () => {
      // An UnrealEd clipboard dump saved under a name VS Code does not know. The active
      // editor before it is the .uc file, so the language indicator has to change.
      await page.locator('.statusbar-item[aria-label*="UnrealScript"], .statusbar-item:has-text("UnrealScript")').first().waitFor({ timeout: 20_000 });
      await openFile("Brush.paste");
      await page.locator('.statusbar-item[aria-label*="T3D (Unreal)"], .statusbar-item:has-text("T3D (Unreal)")').first().waitFor({ timeout: 20_000 });
      return { detail: "language mode T3D (Unreal)" };
    });

    await check("the Problems panel lists the server's diagnostics", async () => {
      // What the panel must show (the fixture's defects; the poly flag one only because the
      // user setting says ue1), and what it may show: anything `unreal-ls lint` reports on the
      // same files (the linter also checks the files that #exec lines name; the server may not yet).
      // The workspace holds System/ and Textures/, so the server takes it for the game folder
      // and indexes its packages; the linter is given the same game directory.
      // NeverOpened.t3d is never opened: the workspace check lists it.
      const required = [
        "Defects.t3d:22:t3d-unknown-poly-flag",
        "Defects.t3d:32:t3d-too-few-vertices",
        "MyMesh.uc:6:exec-misspelt-key",
        "NeverOpened.t3d:22:t3d-unknown-poly-flag",
        "NeverOpened.t3d:32:t3d-too-few-vertices",
      ];
      const lint = spawnSync(bundled, ["lint", "--format", "json", "--engine", "ue1", "--game-dir", ".", "."], { cwd: workspace, encoding: "utf8", maxBuffer: 256 << 20 });
      const allowed = JSON.parse(lint.stdout).diagnostics.map((d) => `${path.basename(d.file)}:${d.line}:${d.code}`).sort();
      for (const must of required) assert(allowed.includes(must), `unreal-ls lint no longer reports ${must} on the fixtures`);
      await page.keyboard.press("Control+Shift+M");
      await page.locator(".markers-panel").first().waitFor({ timeout: 20_000 });
      // The big map's rows (listed by the workspace check too) would push the others out of
      // the panel's virtual list: the panel's filter leaves it out here.
      const filter = page.locator(".viewpane-filter input, .markers-panel-action-filter input").first();
      await filter.fill(`!${bigMap.name}`);
      await runCommand("View: Toggle Maximized Panel");
      let seen = [];
      let rowTexts = [];
      await until("the expected problems", 60_000, async () => {
        // A file row reads "Defects.t3d\n2"; a marker row "message\nunreal-ls\ncode\n[Ln 32, Col 10]".
        rowTexts = await page.locator(".markers-panel .monaco-list-row").allInnerTexts();
        let file = "";
        seen = [];
        for (const row of rowTexts) {
          const marker = /\n([a-z0-9]+(?:-[a-z0-9]+)+)\s*\n\s*\[Ln (\d+), Col \d+\]/.exec(row);
          if (marker) seen.push(`${file}:${marker[2]}:${marker[1]}`);
          else file = /^(\S+?\.(?:t3d|uc))/i.exec(row)?.[1] ?? row.split("\n")[0];
        }
        seen.sort();
        return required.every((r) => seen.includes(r)) && seen.every((s) => allowed.includes(s)) && !seen.some((s) => s.startsWith(`${bigMap.name}:`));
      }).catch((error) => {
        throw new Error(`${error.message}; required ${JSON.stringify(required)}, allowed ${JSON.stringify(allowed)}, saw ${JSON.stringify(seen)} in rows ${JSON.stringify(rowTexts)}`);
      });
      await shot("03-problems");
      await filter.fill("");
      await runCommand("View: Toggle Maximized Panel");
      const lintOnly = allowed.filter((a) => !seen.includes(a));
      const more = lintOnly.length > 8 ? ` and ${lintOnly.length - 8} more` : "";
      return { detail: `${seen.join(", ")}${lintOnly.length ? `; reported by lint but not (yet) by the server: ${lintOnly.slice(0, 8).join(", ")}${more}` : ""}` };
    });

    const capabilities = await serverCapabilities(bundled).catch((error) => ({ error: String(error) }));
    fs.writeFileSync(path.join(outDir, "server-capabilities.json"), JSON.stringify(capabilities, null, 2));

    /** Moves the mouse onto the token `target` of the line containing `lineIncludes` in the
     * active editor and returns the hover's text ("" when none appears). */
    const hoverText = async (lineIncludes, target) => {
      const box = await page.evaluate(
        ({ lineIncludes, target }) => {
          for (const line of document.querySelectorAll(".editor-group-container.active .view-line")) {
            if (!line.textContent.replace(/\u00a0/g, " ").includes(lineIncludes)) continue;
            for (const span of line.querySelectorAll("span > span")) {
              if (span.textContent.trim() === target) {
                const r = span.getBoundingClientRect();
                return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
              }
            }
          }
          return null;
        },
        { lineIncludes, target },
      );
      assert(box, `'${target}' on the line with '${lineIncludes}' is not on screen`);
      await page.mouse.move(box.x, box.y + 60);
      await page.mouse.move(box.x, box.y, { steps: 5 });
      return until("a hover", 10_000, async () => {
        const hover = page.locator(".monaco-hover:not(.hidden)");
        const found = (await hover.allInnerTexts()).join(" ").replace(/\s+/g, " ").trim();
        return found.length > 0 ? found : null;
      }).catch(() => "");
    };

    await page.keyboard.press("Control+J"); // close the panel
    await openFile("Defects.t3d");
    await page.keyboard.press("Control+Home");

    await check("hovering a squiggle shows the server's diagnostic", async () => {
      // Exercises the hover path of the editor with what the server publishes today.
      const text = await hoverText("Flags=536870912", "536870912");
      await shot("04-hover-diagnostic");
      assert(/does not define/.test(text) && /t3d-unknown-poly-flag/.test(text), `hover text: ${JSON.stringify(text)}`);
      return { detail: text.slice(0, 160) };
    });

    await check("hovering Flags= shows the decoded flags", async () => {
      if (!capabilities.hoverProvider) {
        return { skip: "the server does not advertise hoverProvider yet" };
      }
      await page.mouse.move(5, 500);
      await sleep(500);
      let text = "";
      for (const target of ["Flags", "264"]) {
        text = await hoverText("Flags=264", target);
        if (/TwoSided/i.test(text)) break;
      }
      await shot("05-hover-flags");
      // 264 = 0x100 TwoSided | 0x8 NotSolid
      assert(/TwoSided/i.test(text) && /NotSolid/i.test(text), `hover text lacks TwoSided and NotSolid: ${JSON.stringify(text)}`);
      return { detail: text.slice(0, 160) };
    });

    await check("the tessellate quick fix replaces a non-planar polygon with planar triangles", async () => {
      // A brush's polygon list whose quad has its fourth vertex 2.5 units off the plane of the
      // first three (t3d-non-planar-polygon on its `Begin Polygon`, line 2): written for this
      // check and removed after it.
      const file = path.join(workspace, "NonPlanar.t3d");
      fs.writeFileSync(file, [
        "Begin PolyList",
        "   Begin Polygon",
        "      Origin   +00000.000000,+00000.000000,+00000.000000",
        "      Normal   +00000.019524,-00000.019524,-00000.999619",
        "      TextureU +00000.999809,+00000.000381,+00000.019520",
        "      TextureV +00000.000000,-00000.999809,+00000.019528",
        "      Vertex   +00000.000000,+00000.000000,+00000.000000",
        "      Vertex   +00000.000000,+00128.000000,+00000.000000",
        "      Vertex   +00128.000000,+00128.000000,+00000.000000",
        "      Vertex   +00128.000000,+00000.000000,+00005.000000",
        "   End Polygon",
        "End PolyList",
        "",
      ].join("\r\n"));
      try {
      await openFile("NonPlanar.t3d");
      const shown = async () => (await page.locator(".editor-group-container.active .view-lines").innerText()).replace(/\u00a0/g, " ");
      // Into the editor, then to the line (Go to Line's box takes `:2`).
      await until("the cursor on line 2", 60_000, async () => {
        await page.keyboard.press("Escape");
        await page.locator(".editor-group-container.active .monaco-editor .view-lines").first().click();
        await page.keyboard.press("Control+G");
        await page.locator(".quick-input-widget input").first().waitFor({ timeout: 5_000 }).catch(() => {});
        await page.keyboard.type("2");
        await page.keyboard.press("Enter");
        return page.locator('.statusbar-item:has-text("Ln 2,")').first().waitFor({ timeout: 5_000 }).then(() => true, () => null);
      }).catch(async (e) => {
        await shot("05a-go-to-line-failed");
        throw e;
      });
      const title = "Tessellate:";
      const action = page.locator(".action-widget .monaco-list-row", { hasText: title }).first();
      await until("the tessellate quick fix on line 2", 60_000, async () => {
        await page.keyboard.press("Escape");
        await page.keyboard.press("Control+.");
        return action.waitFor({ timeout: 5_000 }).then(() => true, () => null);
      });
      const label = (await action.getAttribute("aria-label")) ?? (await action.innerText());
      const visibleBefore = ((await shown()).match(/Begin Polygon/g) ?? []).length;
      await shot("05b-tessellate-quick-fix");
      await chooseCodeAction(page, title);
      // The lines around the cursor show both triangles where the quad was.
      const text = await until("the polygon tessellated", 20_000, async () => {
        const visible = await shown();
        return (visible.match(/Begin Polygon/g) ?? []).length > visibleBefore ? visible : null;
      });
      const polygonsAfter = (text.match(/Begin Polygon/g) ?? []).length;
      await shot("05c-tessellated");
      for (let i = 0; i < 3; i += 1) await page.keyboard.press("Control+Z");
      return { detail: `${label.trim().slice(0, 90)}; Begin Polygon lines ${visibleBefore} -> ${polygonsAfter}` };
      } finally {
        // The editor closed without saving, the file gone: the checks after this one see
        // the workspace they expect.
        await runCommand("View: Revert and Close Editor").catch(() => {});
        fs.rmSync(file, { force: true });
        await openFile("Defects.t3d").catch(() => {});
      }
    });

    await check("the map overview draws the open map and a click on an actor reveals its line", async () => {
      if (!capabilities.experimental?.unrealLs?.mapPreview) return { skip: "the server does not answer unrealLs/mapPreview" };
      await openFile("Overview.t3d");
      await runCommand("unreal-ls: Show Map Overview");
      const frame = await until("the map overview webview", 60_000, async () => {
        for (const candidate of page.frames()) {
          const marks = await candidate.locator("#marks li").count().catch(() => 0);
          if (marks >= 2) return candidate;
        }
        return null;
      });
      const natural = await until("the picture", 20_000, async () => {
        const size = await frame.locator("#map").evaluate((img) => ({ w: img.naturalWidth, h: img.naturalHeight }));
        return size.w > 0 ? size : null;
      });
      const status = await frame.locator("#status").innerText();
      await shot("05b-map-overview");
      // The light's mark, in the picture's pixels; the picture may be shown smaller.
      const light = await frame.locator("#marks li", { hasText: "Light0" }).evaluate((li) => ({ x: Number(li.dataset.x), y: Number(li.dataset.y), line: Number(li.dataset.line) }));
      const box = await frame.locator("#map").boundingBox();
      assert(box, "the picture is not on screen");
      const scale = box.width / natural.w;
      await frame.locator("#map").click({ position: { x: light.x * scale, y: light.y * scale } });
      // The editor's cursor moves to the actor's `Begin Actor` line (1-based in the status bar).
      await page.locator(`.statusbar-item:has-text("Ln ${light.line + 1},")`).first().waitFor({ timeout: 20_000 });
      await shot("05c-map-overview-reveal");
      // Fitted to the panel, with a legend of the kinds drawn over it.
      const viewport = await frame.locator("#viewport").boundingBox();
      assert(viewport && box.width <= viewport.width + 1 && box.height <= viewport.height + 1, `the picture (${JSON.stringify(box)}) does not fit the panel (${JSON.stringify(viewport)})`);
      const legend = await frame.locator(".legend-entry").allInnerTexts();
      assert(legend.some((l) => /Lights \(\d+\)/.test(l)), `no Lights entry in the legend: ${JSON.stringify(legend)}`);
      // It follows the active map.
      await openFile("Defects.t3d");
      await until("the overview of Defects.t3d", 30_000, async () => /Defects\.t3d/.test(await frame.locator("#status").innerText()));
      await shot("05c2-map-overview-follows");
      return { detail: `${natural.w}x${natural.h} picture shown at ${Math.round(box.width)}x${Math.round(box.height)} in a ${Math.round(viewport.width)}x${Math.round(viewport.height)} panel; legend: ${legend.join(", ")}; ${status}; click on Light0 revealed line ${light.line + 1}; switching to Defects.t3d redrew it` };
    });

    await check("the 3D map view draws the built level, and a click on a surface or an actor reveals its line", async () => {
      if (!capabilities.experimental?.unrealLs?.levelScene) return { skip: "the server does not answer unrealLs/levelScene" };
      await openFile("Overview.t3d");
      await runCommand("unreal-ls: Show Map in 3D");
      const frame = await until("the 3D map view", 90_000, async () => {
        for (const candidate of page.frames()) {
          const ready = await candidate.locator('#status[data-ready="true"]').count().catch(() => 0);
          if (ready > 0) return candidate;
          const error = await candidate.locator("body.map-3d #status.error").innerText({ timeout: 200 }).catch(() => "");
          if (error) throw new Error(`the 3D view says: ${error}`);
        }
        return null;
      });
      const status = await frame.locator("#status").innerText();
      await sleep(500);
      await shot("05c3-map-3d");
      await frame.locator("canvas").screenshot({ path: path.join(outDir, "05c3-map-3d-canvas.png") });
      // The picture is not the empty background: most of the canvas is the level, in shades.
      const coverage = await frame.evaluate(() => window.unrealLsMap3d.coverage());
      assert(coverage.share > 0.1 && coverage.colours > 8, `the 3D view's picture is (nearly) empty: ${JSON.stringify(coverage)}`);
      // The cursor to the top first, so that only the clicks can move it.
      await page.locator(".editor-group-container .monaco-editor .view-lines").first().click();
      await page.keyboard.press("Control+Home");
      await page.locator('.statusbar-item:has-text("Ln 1,")').first().waitFor({ timeout: 10_000 });
      // The room's floor: the polygon whose `Begin Polygon` is line 50 (1-based).
      const floor = await frame.evaluate(() => window.unrealLsMap3d.surfacePoint(49));
      assert(floor, "no point of the canvas shows the floor (Begin Polygon on line 50)");
      await frame.locator("canvas").click({ position: floor });
      await page.locator('.statusbar-item:has-text("Ln 50,")').first().waitFor({ timeout: 20_000 });
      const selected = await page.locator('.statusbar-item:has-text("selected")').first().innerText({ timeout: 5_000 }).catch(() => "");
      await shot("05c4-map-3d-surface-reveal");
      // The light's marker: its `Begin Actor` is line 76.
      const light = await frame.evaluate(() => window.unrealLsMap3d.actorPoint("Light0"));
      assert(light, "the Light0 marker is not on the canvas");
      await frame.locator("canvas").click({ position: light });
      await page.locator('.statusbar-item:has-text("Ln 76,")').first().waitFor({ timeout: 20_000 });
      await shot("05c5-map-3d-actor-reveal");
      // The static mesh actor (line 81), drawn as a box: its package is not in the workspace.
      assert(/1 mesh placed/.test(status), `the status does not count the static mesh: ${status}`);
      const crate = await frame.evaluate(() => window.unrealLsMap3d.placedPoint("StaticMeshActor0"));
      assert(crate, "the box of StaticMeshActor0 is not on the canvas");
      await frame.locator("canvas").click({ position: crate });
      await page.locator('.statusbar-item:has-text("Ln 81,")').first().waitFor({ timeout: 20_000 });
      await shot("05c5b-map-3d-static-mesh-reveal");
      // An edit rebuilds the level: the ceiling polygon (lines 60-69) removed leaves five surfaces.
      const before = Number(/(\d+) surfaces/.exec(status)?.[1]);
      await page.locator('.statusbar-item:has-text("Ln 81,")').first().waitFor({ timeout: 5_000 });
      await runCommand("Go to Line/Column...");
      await page.keyboard.type("60");
      await page.keyboard.press("Enter");
      for (let i = 0; i < 10; i += 1) await page.keyboard.press("Control+Shift+K");
      const rebuilt = await until("the 3D view to rebuild after the edit", 30_000, async () => {
        const text = await frame.locator("#status").innerText();
        return /(\d+) surfaces/.exec(text)?.[1] === String(before - 1) && (await frame.locator('#status[data-ready="true"]').count()) > 0 ? text : null;
      });
      await shot("05c6-map-3d-after-edit");
      // Leave the map as it was (the checks after this one read it), and the focus in the
      // editor: the edit undone, and the view rebuilt once more.
      await page.locator(".editor-group-container.active .monaco-editor .view-lines").first().click();
      for (let i = 0; i < 20; i += 1) await page.keyboard.press("Control+Z");
      await until("the 3D view to rebuild after the undo", 30_000, async () => {
        const text = await frame.locator("#status").innerText();
        return /(\d+) surfaces/.exec(text)?.[1] === String(before) && (await frame.locator('#status[data-ready="true"]').count()) > 0;
      });
      await page.keyboard.press("Escape");
      // Closed, so that it does not follow the big map of the next checks before they time it.
      await page.locator(".tab", { hasText: "Map in 3D" }).locator(".codicon-close").first().click();
      await page.locator(".tab", { hasText: "Map in 3D" }).first().waitFor({ state: "detached", timeout: 10_000 });
      return {
        detail: `${status}; ${Math.round(coverage.share * 100)}% of ${coverage.width}x${coverage.height} pixels drawn, ${coverage.colours} colours; click on the floor revealed line 50 (${selected.trim()}), on Light0 line 76, on the static mesh's box line 81; after deleting the ceiling: ${rebuilt}`,
      };
    });

    await check("comparing two versions of a map shows the Map Changes tree, and a click reveals the actor", async () => {
      if (!capabilities.executeCommandProvider?.commands?.includes("unrealLs.diff")) return { skip: "the server has no unrealLs.diff command" };
      await openFile("Overview.t3d");
      await runCommand("unreal-ls: Compare Map With...");
      const input = page.locator(".quick-input-widget input");
      await input.waitFor({ timeout: 10_000 });
      await input.fill("OverviewOld.t3d");
      await page.locator(".quick-input-list .monaco-list-row", { hasText: "OverviewOld.t3d" }).first().waitFor({ timeout: 20_000 });
      await sleep(300);
      await page.keyboard.press("Enter");
      const row = page.locator(".monaco-list-row", { hasText: "Light0 (Light)" }).first();
      await row.waitFor({ timeout: 30_000 });
      const message = await page.locator(".pane-body .message", { hasText: "moved" }).first().innerText({ timeout: 10_000 });
      const moved = await page.locator(".monaco-list-row", { hasText: "moved" }).first().innerText();
      await shot("05d-map-changes");
      // The cursor to the top first, so that only the click can bring it to the actor's line.
      await page.locator(".editor-group-container.active .monaco-editor .view-lines").first().click();
      await page.keyboard.press("Control+Home");
      await page.locator('.statusbar-item:has-text("Ln 1,")').first().waitFor({ timeout: 10_000 });
      await row.click();
      // The actor's `Begin Actor` line (76, 1-based in the status bar).
      await page.locator('.statusbar-item:has-text("Ln 76,")').first().waitFor({ timeout: 20_000 });
      // Leave the focus in the editor, as the next checks expect.
      await page.locator(".editor-group-container.active .monaco-editor .view-lines").first().click();
      await page.keyboard.press("Escape");
      return { detail: `${message.replace(/\s+/g, " ")}; ${moved.replace(/\s+/g, " ")}; click revealed line 76` };
    });

    await check("a big map: squiggles right after the text shows, an outline of actors that follows the cursor", async () => {
      // The figures are recorded, not asserted (timings belong to benchmarks): from pressing
      // Enter on the file to its text on screen (VS Code's own loading), and to its row in the
      // Problems panel (the squiggles).
      await page.keyboard.press("Control+Shift+M");
      await page.locator(".markers-panel").first().waitFor({ timeout: 20_000 });
      // Checked with the workspace before it is opened: its row is in the Problems panel
      // already, so its squiggles are there as soon as its text is.
      const row = page.locator(".markers-panel .monaco-list-row", { hasText: bigMap.name }).first();
      const waiting = Date.now();
      await row.waitFor({ timeout: 120_000 });
      const listedAfter = Date.now() - waiting;
      let started = 0;
      await openFile(bigMap.name, { onEnter: () => (started = Date.now()) });
      await page.waitForFunction(
        () => (document.querySelector(".editor-group-container.active .view-lines")?.textContent.length ?? 0) > 100,
        undefined,
        { timeout: 60_000, polling: 20 },
      );
      const shown = Date.now() - started;
      await row.waitFor({ timeout: 60_000 });
      const squiggles = Date.now() - started;
      await shot("05e-big-map-problems");
      await page.keyboard.press("Control+J");
      // The outline lists the map's actors, nothing inside them.
      await runCommand("Explorer: Focus on Outline View");
      const rows = await until("the outline's rows", 20_000, async () => {
        const texts = await page.locator(".outline-pane .monaco-list-row").allInnerTexts();
        return texts.length > 3 ? texts : null;
      });
      assert(!rows.some((r) => /^Polygon \d/.test(r.trim()) || /^PolyList/.test(r.trim())), `the outline shows polygons: ${JSON.stringify(rows.slice(0, 20))}`);
      await shot("05f-big-map-outline");
      // The breadcrumbs (the symbols under the cursor) follow it into the defect's actor.
      await page.locator(".editor-group-container.active .monaco-editor .view-lines").first().click();
      await runCommand("Go to Line/Column...");
      await page.keyboard.type(String(bigMap.defectLine + 3));
      await page.keyboard.press("Enter");
      const selected = await until("the breadcrumbs to follow the cursor", 20_000, async () => {
        const crumbs = await page.locator(".editor-group-container.active .breadcrumbs-control .monaco-breadcrumb-item").allInnerTexts();
        return crumbs.some((c) => c.includes(bigMap.defectActor)) ? crumbs.join(" > ") : null;
      });
      await shot("05g-big-map-breadcrumbs");
      return {
        detail: `${bigMap.name} (${(bigMap.bytes / 1_048_576).toFixed(1)} MB): listed in the Problems panel before it was opened (waited ${listedAfter} ms at this point); text shown ${shown} ms after Enter, squiggles ${squiggles} ms (${squiggles - shown} ms after the text); outline rows like ${JSON.stringify(rows.slice(0, 3).map((r) => r.replace(/\s+/g, " ")))}; breadcrumbs at the defect: ${selected.replace(/\s+/g, " ")}`,
      };
    });

    await check("a big map in the 3D view", async () => {
      // Recorded, not asserted (timings belong to benchmarks): from the command to the level on
      // screen, and how that splits between the server (building, the answer) and the view.
      if (!capabilities.experimental?.unrealLs?.levelScene) return { skip: "the server does not answer unrealLs/levelScene" };
      await openFile(bigMap.name);
      const started = Date.now();
      await runCommand("unreal-ls: Show Map in 3D");
      const frame = await until("the 3D view of the big map", 300_000, async () => {
        for (const candidate of page.frames()) {
          const ready = await candidate.locator('#status[data-ready="true"]').innerText({ timeout: 200 }).catch(() => "");
          if (ready.includes(bigMap.name)) return candidate;
          const error = await candidate.locator("body.map-3d #status.error").innerText({ timeout: 200 }).catch(() => "");
          if (error) throw new Error(`the 3D view says: ${error}`);
        }
        return null;
      });
      const shown = Date.now() - started;
      const status = await frame.locator("#status").innerText();
      const coverage = await frame.evaluate(() => window.unrealLsMap3d.coverage());
      await shot("05h-big-map-3d");
      assert(coverage.share > 0.05, `the big map's picture is (nearly) empty: ${JSON.stringify(coverage)}`);
      await page.locator(".tab", { hasText: "Map in 3D" }).locator(".codicon-close").first().click();
      return { detail: `${bigMap.name} (${(bigMap.bytes / 1_048_576).toFixed(1)} MB): on screen ${shown} ms after the command; ${status}; ${Math.round(coverage.share * 100)}% of the canvas drawn` };
    });

    await check("the package preview lists the textures of a corpus .utx", async () => {
      if (!haveCorpus) return { skip: `corpus file ${corpusUtx} is absent` };
      await openFile("Checkers.utx");
      const frame = await frameWith(page, "the preview webview", "li.object");
      const textures = await frame.locator('li.object[data-class="Texture"] .name').allInnerTexts();
      const status = await frame.locator("#status").innerText();
      // With `unreal-ls export` in the binary, every texture gets its thumbnail.
      const exportable = spawnSync(bundled, ["export", "--help"]).status === 0;
      if (exportable) {
        await until("texture thumbnails", 60_000, async () =>
          (await frame.locator('li.object[data-class="Texture"] img.thumb').count()) === textures.length,
        );
      }
      await shot("06-package-preview");
      const info = JSON.parse(spawnSync(bundled, ["info", "--json", path.join(workspace, "Textures", "Checkers.utx")], { encoding: "utf8" }).stdout);
      const expected = info[0].objects.filter((o) => o.class === "Texture").map((o) => o.name).sort();
      assert(expected.length > 0, "the corpus package has no Texture objects");
      assert(JSON.stringify(textures.sort()) === JSON.stringify(expected), `textures shown ${JSON.stringify(textures)}, expected ${JSON.stringify(expected)}`);
      return { detail: `${textures.length} textures (${textures.join(", ")})${exportable ? ", each with its thumbnail" : ""}; ${status}` };
    });

    await check("a corpus built map's Level previews as the picture of the level it stores", async () => {
      if (!haveCorpusUnr) return { skip: `corpus file ${corpusUnr} is absent` };
      if (!capabilities.experimental?.unrealLs?.objectPreview) return { skip: "the server does not answer unrealLs/objectPreview" };
      await openFile("BuiltTestMap.unr");
      const frame = await frameWith(page, "the map package's preview", 'li.object[data-class="Level"]');
      // The preview re-renders once if it opened before the server ran: click until it shows.
      await until("the Level's picture", 60_000, async () => {
        await frame.locator('li.object[data-class="Level"]').first().click({ timeout: 2_000 }).catch(() => undefined);
        return (await frame.locator("#detail img.render").count()) > 0;
      });
      const detail = (await frame.locator("#detail").innerText()).replace(/\s+/g, " ");
      const [width, height] = await frame.locator("#detail img.render").evaluate((img) => [img.naturalWidth, img.naturalHeight]);
      await shot("06b-built-map-level");
      assert(/surfaces 276/.test(detail), `the Level's summary: ${detail}`);
      assert(Math.max(width, height) === 512 && Math.min(width, height) >= 64, `the picture is ${width}x${height}`);
      return { detail: `${width}x${height} picture; ${detail.slice(0, 160)}` };
    });

    await check("a TextBuffer of a corpus .u opens as a read-only UnrealScript document", async () => {
      if (!haveCorpusU) return { skip: `corpus file ${corpusU} is absent` };
      if (spawnSync(bundled, ["export", "--help"]).status !== 0 && !capabilities.experimental?.unrealLs?.objectPreview) {
        return { skip: "the server neither answers unrealLs/objectPreview nor has the export command" };
      }
      await openFile("DeveloperMutator.u");
      const frame = await frameWith(page, "the .u preview", 'li.object[data-path="DeveloperMutator.ScriptText"]');
      await until("the ScriptText tab", 30_000, async () => {
        await frame.locator('li.object[data-path="DeveloperMutator.ScriptText"]').click({ timeout: 2_000 }).catch(() => undefined);
        return (await page.locator('.tab[aria-label*="DeveloperMutator.ScriptText.uc"]').count()) > 0;
      });
      const text = await until("the class source", 20_000, async () => {
        const shown = (await page.locator(".editor-group-container.active .view-lines").innerText()).replace(/\u00a0/g, " ");
        return /class DeveloperMutator/i.test(shown) ? shown : null;
      });
      await shot("06b-textbuffer-source");
      return { detail: `DeveloperMutator.ScriptText.uc: ${text.split("\n").length} lines on screen` };
    });

    await check("a corpus .psk previews as a summary and exports to glTF", async () => {
      if (!haveCorpusPsk) return { skip: `corpus file ${corpusPsk} is absent` };
      if (spawnSync(bundled, ["export", "--help"]).status !== 0 && !capabilities.experimental?.unrealLs?.exportGltf) {
        return { skip: "the server neither answers unrealLs/exportGltf nor has the export command" };
      }
      await openFile("Suzanne.psk");
      const frame = await frameWith(page, "the mesh preview", "table.summary");
      const summary = (await frame.locator("table.summary").innerText()).replace(/\s+/g, " ");
      // The command takes the active preview's file and asks where to write, proposing NAME.glb.
      await runCommand("unreal-ls: Export Mesh to glTF");
      const input = page.locator(".quick-input-widget input");
      await until("the save dialog", 20_000, async () => /Suzanne\.glb$/.test(await input.inputValue()));
      await page.keyboard.press("Enter");
      const written = path.join(workspace, "Models", "Suzanne.glb");
      await until(`${written}`, 60_000, async () => fs.existsSync(written) && fs.statSync(written).size > 0);
      const magic = fs.readFileSync(written).subarray(0, 4).toString("latin1");
      await shot("06c-mesh-preview-export");
      assert(magic === "glTF", `the exported file does not start with glTF: ${JSON.stringify(magic)}`);
      return { detail: `summary: ${summary.slice(0, 100)}; wrote Models/Suzanne.glb (${fs.statSync(written).size} bytes)` };
    });

    await check("a corpus vertex mesh in the 3D mesh view: textured, its sequences listed and playable", async () => {
      if (!fs.existsSync(path.join(corpusMeshPackage, "Models/DogTags/Tags_d.3d"))) return { skip: `corpus folder ${corpusMeshPackage} is absent` };
      if (spawnSync(bundled, ["export", "--help"]).status !== 0) return { skip: "the server has no export command" };
      // Copied in only now, so that the checks above see the workspace they expect.
      fs.cpSync(corpusMeshPackage, path.join(workspace, "KillConfirmed"), { recursive: true });
      await openFile("Tags_d.3d");
      await frameWith(page, "the mesh preview of Tags_d.3d", "table.summary");
      await runCommand("unreal-ls: Show Mesh in 3D");
      const frame = await until("the 3D mesh view", 90_000, async () => {
        for (const candidate of page.frames()) {
          if ((await candidate.locator('body.mesh-3d #status[data-ready="true"]').count().catch(() => 0)) > 0) return candidate;
          const error = await candidate.locator("body.mesh-3d #status.error").innerText({ timeout: 200 }).catch(() => "");
          if (error) throw new Error(`the 3D mesh view says: ${error}`);
        }
        return null;
      });
      const status = await frame.locator("#status").innerText();
      const sequences = await frame.locator("#sequences button").allInnerTexts();
      assert(sequences.length > 0, `no sequence listed: ${status}`);
      await frame.locator("#sequences button").first().click();
      const played = await until("the sequence to play", 20_000, async () => {
        const now = await frame.evaluate(() => window.unrealLsMesh3d.playing());
        return now && now.time > 0 ? now : null;
      });
      const coverage = await frame.evaluate(() => window.unrealLsMesh3d.coverage());
      await shot("06d-mesh-3d");
      await frame.locator("canvas").screenshot({ path: path.join(outDir, "06d-mesh-3d-canvas.png") });
      // Textured: more than the few shades of one flat colour.
      assert(coverage.share > 0.02 && coverage.colours > 32, `the mesh's picture: ${JSON.stringify(coverage)}`);
      // The same mesh inside the compiled package: its detail in the package preview offers
      // "Show in 3D", which shows it in the same panel.
      let fromPackage = "";
      if (fs.existsSync(corpusMeshU)) {
        fs.mkdirSync(path.join(workspace, "KillConfirmed", "System"), { recursive: true });
        fs.copyFileSync(corpusMeshU, path.join(workspace, "KillConfirmed", "System", "KillConfirmed.u"));
        await openFile("KillConfirmed.u");
        const preview = await frameWith(page, "the preview of KillConfirmed.u", 'li.object[data-path="dogTag"]');
        await preview.locator('li.object[data-path="dogTag"]').first().click();
        await preview.locator("#show3d").click({ timeout: 30_000 });
        // The panel may have been hidden behind the package preview and shown again: look for
        // its frame anew.
        const [meshFrame, packaged] = await until("the package mesh in the 3D mesh view", 90_000, async () => {
          for (const candidate of page.frames()) {
            const text = await candidate.locator('body.mesh-3d #status[data-ready="true"]').innerText({ timeout: 200 }).catch(() => "");
            if (text.includes("dogTag")) return [candidate, text];
          }
          return null;
        });
        const listed = await meshFrame.locator("#sequences button").allInnerTexts();
        assert(listed.length > 0, `no sequence listed for the package mesh: ${packaged}`);
        await shot("06e-mesh-3d-from-package");
        fromPackage = `; from KillConfirmed.u's preview: ${packaged}, sequences ${JSON.stringify(listed)}`;
      }
      return { detail: `${status}; sequences ${JSON.stringify(sequences)}; ${played.name} playing at ${played.time.toFixed(2)} s; ${Math.round(coverage.share * 100)}% of the canvas drawn in ${coverage.colours} colours${fromPackage}` };
    });

    await check("Copy #exec Lines on a corpus package's vertex mesh: from its row's context menu and its detail, to the clipboard", async () => {
      if (!fs.existsSync(corpusMeshU)) return { skip: `corpus file ${corpusMeshU} is absent` };
      if (!capabilities.experimental?.unrealLs?.execLines) return { skip: "the server does not answer unrealLs/execLines" };
      const copied = path.join(workspace, "KillConfirmed", "System", "KillConfirmed.u");
      if (!fs.existsSync(copied)) {
        fs.mkdirSync(path.dirname(copied), { recursive: true });
        fs.copyFileSync(corpusMeshU, copied);
      }
      // The extension host writes the clipboard through the page's (code-server's browser side).
      await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(page.url()).origin });
      const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
      await page.evaluate(() => navigator.clipboard.writeText("(nothing copied)"));
      await openFile("KillConfirmed.u");
      const preview = await frameWith(page, "the preview of KillConfirmed.u", 'li.object[data-path="dogTag"]');
      const row = preview.locator('li.object[data-path="dogTag"]').first();
      // The row's context menu (the package preview may render again once the server runs:
      // ask until its entry is there).
      const entry = page.locator(".context-view .action-item", { hasText: "Copy #exec Lines" }).first();
      await until("Copy #exec Lines in the row's context menu", 60_000, async () => {
        await row.click({ button: "right", timeout: 2_000 }).catch(() => undefined);
        if (await entry.isVisible().catch(() => false)) return true;
        await page.keyboard.press("Escape");
        return false;
      });
      await shot("06f-exec-lines-menu");
      await entry.click();
      const fromMenu = await until("the lines on the clipboard", 30_000, async () => {
        const text = await clipboard().catch(() => "");
        return text.startsWith("#exec MESH IMPORT MESH=dogTag") ? text : null;
      });
      // The detail's button: the same lines, and the status bar says what was copied.
      await page.evaluate(() => navigator.clipboard.writeText("(nothing copied)"));
      await until("the mesh's detail with its #exec buttons", 60_000, async () => {
        await row.click({ timeout: 2_000 }).catch(() => undefined);
        return (await preview.locator("#copyExec").count()) > 0;
      });
      await preview.locator("#copyExec").click();
      const fromButton = await until("the lines on the clipboard again", 30_000, async () => {
        const text = await clipboard().catch(() => "");
        return text.startsWith("#exec MESH IMPORT MESH=dogTag") ? text : null;
      });
      let bar = "";
      const status = await until("the status bar message", 15_000, async () => {
        // textContent: an item the bar has no room for is in the page, not drawn.
        bar = await page.locator(".statusbar").first().evaluate((node) => node.textContent).catch((error) => String(error));
        return /Copied \d+ #exec lines for dogTag/.test(bar) ? bar.match(/Copied \d+ #exec lines for dogTag[^)]*\)/)?.[0] ?? bar : null;
      }).catch(async (error) => {
        await shot("06g-exec-lines-copied");
        throw new Error(`${error.message}; the status bar holds: ${bar}`);
      });
      await shot("06g-exec-lines-copied");
      assert(fromButton === fromMenu, `the menu and the button copied different text:\n${fromMenu}\n---\n${fromButton}`);
      const expected = spawnSync(bundled, ["exec-lines", copied, "--object", "dogTag"], { encoding: "utf8" }).stdout;
      assert(fromMenu.replace(/\r\n/g, "\n") === expected, `copied:\n${fromMenu}\nunreal-ls exec-lines printed:\n${expected}`);
      assert(/are not written/.test(status), `status: ${status}`);
      return { detail: `${fromMenu.split("\n").filter(Boolean).length} lines, the same as unreal-ls exec-lines; ${status}` };
    });

    await close();

    // A second VS Code with a stand-in for the UnrealScript extension installed first.
    // Semantic highlighting on here: the stand-in colours the whole file with semantic tokens,
    // as EliotVU's extension and ucx do, and they must stay its.
    const other = await openSession("with-unrealscript-extension", tmp, workspace, [buildStubVsix(tmp), vsix], {}, {
      settings: { "editor.semanticHighlighting.enabled": true },
    });
    await check("beside another UnrealScript extension: its grammar stays, #exec lines are coloured, the server attaches", async () => {
      await other.openFile("MyMesh.uc");
      await until(".uc tokens", 30_000, async () => (await other.token("MIPZ", "MIPZ")) !== null);
      const comment = await other.token("// Two #exec defects for the VS Code test.");
      const samples = {
        class: await other.token("class", "extends Decoration"),
        exec: await other.token("exec", "TEXTURE IMPORT"),
        TEXTURE: await other.token("TEXTURE", "TEXTURE IMPORT"),
        MIPZ: await other.token("MIPZ", "MIPZ"),
      };
      await other.page.locator(".editor-group-container.active .squiggly-warning").first().waitFor({ timeout: 60_000 });
      await other.shot("07-beside-unrealscript-extension");
      for (const [text, found] of Object.entries(samples)) assert(found !== null, `no token '${text}'`);
      assert(comment !== null, `no comment token in ${JSON.stringify(await other.page.evaluate(() => [...document.querySelectorAll(".editor-group-container.active .view-line")].map((l) => [...l.querySelectorAll("span > span")].map((x) => x.textContent))))}`);
      // The stand-in paints `class` as keyword.control, this extension's fallback as storage.modifier.
      assert(
        samples.class.color === keywordControlColour && samples.class.color !== fallbackClassColour,
        `'class' is ${samples.class.color}: not the other extension's keyword colour ${keywordControlColour} (the fallback's is ${fallbackClassColour})`,
      );
      // The stand-in paints # lines as comments; the injection must win on #exec lines.
      for (const text of ["exec", "TEXTURE", "MIPZ"]) {
        assert(samples[text].color !== comment.color, `'${text}' has the comment colour ${comment.color}: the other grammar won the #exec line`);
      }
      return { detail: `class=${samples.class.color} exec=${samples.exec.color} TEXTURE=${samples.TEXTURE.color} comment=${comment.color}; #exec squiggle present` };
    });
    await check("beside another UnrealScript extension: its semantic tokens and its formatter stay the only ones", async () => {
      await other.openFile("MyMesh.uc");
      // The stand-in's semantic tokens paint `Decoration` as a type; its grammar leaves it plain.
      const plain = await other.token("MyMesh", "extends Decoration");
      const painted = await until("the stand-in's semantic tokens", 30_000, async () => {
        const found = await other.token("Decoration", "extends Decoration");
        return found && plain && found.color !== plain.color ? found : null;
      });
      // Trailing spaces on the first line, then Format Document: the stand-in's formatter
      // trims them, and VS Code does not ask which of several formatters to use.
      await other.page.locator(".editor-group-container.active .monaco-editor .view-lines").first().click();
      await other.page.keyboard.press("Control+Home");
      await other.page.keyboard.press("End");
      await other.page.keyboard.type("   ");
      await other.runCommand("Format Document");
      await sleep(2_000);
      const notices = (await other.page.locator(".notifications-toasts .notification-toast").allInnerTexts()).join(" | ");
      assert(!/multiple formatters/i.test(notices), `VS Code asks which formatter to use: ${notices}`);
      const firstLine = await other.page.locator(".editor-group-container.active .view-line").first().innerText();
      await other.shot("07b-beside-unrealscript-extension-tokens-format");
      assert(!/\s$/.test(firstLine.replace(/\u00a0/g, " ")), `the stand-in's formatter did not run: ${JSON.stringify(firstLine)}`);
      await other.runCommand("File: Revert File");
      return { detail: `Decoration=${painted.color} (plain ${plain.color}); Format Document ran the stand-in's formatter, no prompt${notices ? `; notifications: ${notices.slice(0, 120)}` : ""}` };
    });
    await other.close();

    // A third VS Code whose server (tests/vscode/mock-server, through UNREAL_LS_PATH) answers
    // the preview requests that the real one does not yet: the client side of docs/protocol.md.
    const mockWorkspace = path.join(tmp, "mock-workspace");
    fs.mkdirSync(mockWorkspace);
    // The mock answers for any file: these only need the right names.
    fs.writeFileSync(path.join(mockWorkspace, "Mock.u"), "not a package: the mock server makes up its objects\n");
    fs.writeFileSync(path.join(mockWorkspace, "Mock.psk"), "not a mesh: the mock server makes up its preview\n");
    const mock = await openSession("mock-previews", tmp, mockWorkspace, [vsix], {
      UNREAL_LS_PATH: path.join(here, "mock-server", "unreal-ls"),
      MOCK_REAL_UNREAL_LS: bundled,
    });
    const previewFrame = (selector) => frameWith(mock.page, `a preview webview with ${selector}`, selector);
    await check("with a server that answers unrealLs/packageTree and objectPreview, previews show thumbnails and sources", async () => {
      await mock.openFile("Mock.u");
      const frame = await previewFrame("li.object");
      const status = await frame.locator("#status").innerText();
      assert(/unrealLs\/packageTree/.test(status), `the preview did not use the server's tree: ${status}`);
      await frame.locator('li.object[data-path="Skins.MockSkin"] img.thumb').waitFor({ timeout: 30_000 });
      await mock.shot("08-mock-package-preview");
      // The preview re-renders once if it opened before the server ran; click until the tab opens.
      await until("the TextBuffer's tab", 30_000, async () => {
        await frame.locator('li.object[data-path="MockClass.ScriptText"]').click({ timeout: 2_000 }).catch(() => undefined);
        return (await mock.page.locator('.tab[aria-label*="MockClass.ScriptText.uc"]').count()) > 0;
      });
      await until("the TextBuffer's text", 20_000, async () =>
        (await mock.page.locator(".editor-group-container.active .view-lines").innerText()).replace(/\u00a0/g, " ").includes("made up by the mock server"),
      );
      await mock.shot("09-mock-textbuffer");
      return { detail: `${status}; texture thumbnail shown; TextBuffer opened as MockClass.ScriptText.uc` };
    });
    await check("with a server that answers unrealLs/objectPreview, a mesh preview shows the rendered thumbnail", async () => {
      await mock.openFile("Mock.psk");
      const frame = await previewFrame("img.render");
      const status = await frame.locator("#status").innerText();
      await mock.shot("10-mock-mesh-preview");
      assert(/unrealLs\/objectPreview/.test(status), `the preview did not use the server: ${status}`);
      return { detail: status };
    });
    await mock.close();

    // A VS Code on a game folder (System/Core.u and a texture package, both corpus files copied
    // into the throw-away folder): Find Unreal Asset finds a texture by a fragment of its name,
    // through the server's package index, and opens it in its package's preview.
    let finderOpen;
    // Opens `file` of the session, shows it in the 3D map view and waits until the view says
    // it is drawn; screenshots the window and the canvas as `shot`. The view's status line
    // and how much of the canvas is drawn, in how many colours.
    const shownIn3d = async (session, file, shot) => {
      await session.openFile(file);
      await session.runCommand("unreal-ls: Show Map in 3D");
      const frame = await until(`the 3D view of ${file}`, 90_000, async () => {
        for (const candidate of session.page.frames()) {
          const ready = await candidate.locator('#status[data-ready="true"]').innerText({ timeout: 200 }).catch(() => "");
          if (ready.includes(file)) return candidate;
          const error = await candidate.locator("body.map-3d #status.error").innerText({ timeout: 200 }).catch(() => "");
          if (error) throw new Error(`the 3D view says: ${error}`);
        }
        return null;
      });
      const status = await frame.locator("#status").innerText();
      const coverage = await frame.evaluate(() => window.unrealLsMap3d.coverage());
      await sleep(500);
      await session.shot(shot);
      await frame.locator("canvas").screenshot({ path: path.join(outDir, `${shot}-canvas.png`) });
      return { status, coverage };
    };
    await check("Find Unreal Asset finds a texture by a fragment of its name and opens it in the package preview", async () => {
      if (!haveCorpus || !haveCorpusU) return { skip: `corpus files ${corpusUtx} and ${corpusU} are needed` };
      const game = path.join(tmp, "game");
      fs.mkdirSync(path.join(game, "System"), { recursive: true });
      fs.mkdirSync(path.join(game, "Textures"), { recursive: true });
      fs.copyFileSync(corpusU, path.join(game, "System", "Core.u"));
      fs.copyFileSync(corpusUtx, path.join(game, "Textures", "Checkers.utx"));
      // A map for the Map Dependencies check below: one texture of the game's, one its package
      // does not hold.
      fs.mkdirSync(path.join(game, "Maps"), { recursive: true });
      const polygon = (texture) =>
        `   Begin Polygon Texture=${texture}\r\n      Origin   +00000.000000,+00000.000000,+00000.000000\r\n   End Polygon\r\n`;
      fs.writeFileSync(
        path.join(game, "Maps", "Needs.t3d"),
        `Begin Map\r\nBegin Actor Class=Brush Name=Brush0\r\nBegin Brush Name=Brush0\r\nBegin PolyList\r\n${polygon("checkers_base")}${polygon("Checkers.NoSuchMarble")}End PolyList\r\nEnd Brush\r\nEnd Actor\r\nEnd Map\r\n`,
      );
      if (fs.existsSync(corpusMap)) fs.copyFileSync(corpusMap, path.join(game, "Maps", "blender_t3d_test_map.t3d"));
      // A room for the 3D view, each wall in another of the game's textures.
      const textures = ["checkers_abcd", "checkers_circle", "coordinates", "checkers_base", "rectangle_128x64", "checkers_abcd"];
      let wall = 0;
      fs.writeFileSync(
        path.join(game, "Maps", "Textured.t3d"),
        fs
          .readFileSync(path.join(here, "fixtures", "Overview.t3d"), "latin1")
          .replace(/Begin Polygon\r\n/g, () => `Begin Polygon Texture=${textures[wall++ % textures.length]}\r\n`),
        "latin1",
      );
      const finder = await openSession("find-asset", tmp, game, [vsix]);
      try {
        // No map or class here: the command itself activates the extension, which starts the server.
        const input = finder.page.locator(".quick-input-widget input");
        const wanted = "Checkers.checkers_base";
        // The index builds in the background: until it is ready the pick says so; ask again.
        const started = Date.now();
        await until(`${wanted} among the hits for 'kers_ba'`, 60_000, async () => {
          await finder.page.keyboard.press("Escape");
          await finder.runCommand("unreal-ls: Find Unreal Asset");
          await until("the Find Unreal Asset pick", 10_000, async () => ((await input.getAttribute("placeholder")) ?? "").includes("A texture, mesh"));
          await input.fill("kers_ba");
          return finder.page
            .locator(".quick-input-list .monaco-list-row", { hasText: wanted })
            .first()
            .waitFor({ timeout: 5_000 })
            .then(() => true, () => null);
        });
        const found = Date.now() - started;
        const rows = (await finder.page.locator(".quick-input-list .monaco-list-row").allInnerTexts()).map((r) => r.replace(/\s+/g, " "));
        await finder.shot("10b-find-unreal-asset");
        await finder.page.locator(".quick-input-list .monaco-list-row", { hasText: wanted }).first().click();
        const frame = await frameWith(finder.page, "the package preview", "li.object");
        const title = await until("the texture's detail in the preview", 60_000, async () => {
          const text = await frame.locator("#detail h2").innerText().catch(() => "");
          return text.includes("checkers_base") ? text : null;
        });
        const image = await frame.locator("#detail img.render").count();
        await finder.shot("10c-find-unreal-asset-opened");
        return { detail: `'kers_ba' listed ${JSON.stringify(rows.slice(0, 3))} (listed ${found} ms after the first try: the extension starting, the server indexing); opened ${title} in Checkers.utx's preview${image > 0 ? " with its picture" : ""}` };
      } finally {
        finderOpen = finder;
      }
    });
    await check("Show Map Dependencies lists the map's packages, the texture its package lacks, and a click reveals its line", async () => {
      if (finderOpen === undefined) return { skip: "the game-folder session did not open" };
      const finder = finderOpen;
      await finder.openFile("Needs.t3d");
      await finder.runCommand("unreal-ls: Show Map Dependencies");
      // The view's own rows (the Explorer's file tree also has a Checkers.utx row).
      const view = finder.page.locator(".pane", { has: finder.page.locator(".pane-header", { hasText: "Map Dependencies" }) });
      const missing = view.locator(".monaco-list-row", { hasText: "missing: Checkers.NoSuchMarble" }).first();
      await missing.waitFor({ timeout: 60_000 });
      const rows = (await view.locator(".monaco-list-row").allInnerTexts()).map((r) => r.replace(/\s+/g, " "));
      assert(rows.some((r) => /Checkers.*game folder/.test(r)), `no Checkers row from the game folder: ${JSON.stringify(rows)}`);
      await finder.shot("10d-map-dependencies");
      await missing.click();
      // The polygon naming it starts on line 8 (1-based in the status bar).
      await finder.page.locator('.statusbar-item:has-text("Ln 8,")').first().waitFor({ timeout: 20_000 });
      return { detail: `rows ${JSON.stringify(rows.slice(0, 6))}; the missing texture's row revealed line 8` };
    });
    await check("the 3D map view textures the level from the game folder's packages", async () => {
      if (finderOpen === undefined) return { skip: "the game-folder session did not open" };
      const { status, coverage } = await shownIn3d(finderOpen, "Textured.t3d", "10e-map-3d-textured");
      const textured = Number(/\((\d+) textured\)/.exec(status)?.[1]);
      assert(textured >= 4, `fewer than 4 of the room's 5 textures were found: ${status}`);
      // Textures, not flat colours: many colours on screen.
      assert(coverage.share > 0.1 && coverage.colours > 64, `the textured room's picture: ${JSON.stringify(coverage)}`);
      return { detail: `${status}; ${Math.round(coverage.share * 100)}% of the canvas drawn in ${coverage.colours} colours` };
    });
    await check("a real map in the 3D view, textured from the game folder's packages", async () => {
      if (finderOpen === undefined) return { skip: "the game-folder session did not open" };
      if (!fs.existsSync(corpusMap)) return { skip: `corpus file ${corpusMap} is absent` };
      const { status, coverage } = await shownIn3d(finderOpen, "blender_t3d_test_map.t3d", "10f-map-3d-real-map");
      // Its textures: five in Checkers.utx, and `Bkgnd`, UnrealEd's own (not in this game folder).
      const textured = Number(/\((\d+) textured\)/.exec(status)?.[1]);
      assert(textured >= 5, `fewer than 5 of the real map's textures were found: ${status}`);
      assert(coverage.share > 0.05 && coverage.colours > 64, `the real map's picture: ${JSON.stringify(coverage)}`);
      return { detail: `${status}; ${Math.round(coverage.share * 100)}% of the canvas drawn in ${coverage.colours} colours` };
    });
    await check("quick fixes mend the map's textures: a bare name written out with its package, a missing one replaced by a picked texture", async () => {
      if (finderOpen === undefined) return { skip: "the game-folder session did not open" };
      const finder = finderOpen;
      const page = finder.page;
      await finder.openFile("Needs.t3d");
      const shown = async () => (await page.locator(".editor-group-container.active .view-lines").innerText()).replace(/\u00a0/g, " ");
      const quickFix = async (line, title) => {
        await page.locator(".editor-group-container.active .monaco-editor .view-lines").first().click();
        await finder.runCommand("Go to Line/Column...");
        await page.keyboard.type(String(line));
        await page.keyboard.press("Enter");
        await page.locator(`.statusbar-item:has-text("Ln ${line},")`).first().waitFor({ timeout: 20_000 });
        // The lightbulb's menu lists the actions of the cursor's line.
        const action = page.locator(".action-widget .monaco-list-row", { hasText: title }).first();
        await until(`the quick fix '${title}' on line ${line}`, 60_000, async () => {
          await page.keyboard.press("Escape");
          await page.keyboard.press("Control+.");
          return action.waitFor({ timeout: 5_000 }).then(() => true, () => null);
        });
        await finder.shot(`10g-quick-fix-line-${line}`);
        await chooseCodeAction(page, title);
      };
      // Line 5: `Texture=checkers_base`, which Checkers.utx alone holds.
      await quickFix(5, "Write `Checkers.checkers_base`");
      await until("the bare name written out", 20_000, async () => (await shown()).includes("Texture=Checkers.checkers_base"));
      // Line 8: `Texture=Checkers.NoSuchMarble`, which no package holds: pick another.
      await quickFix(8, "Replace `Checkers.NoSuchMarble` everywhere");
      const input = page.locator(".quick-input-widget input");
      await until("the texture pick", 10_000, async () => ((await input.getAttribute("placeholder")) ?? "").includes("A texture of the game folder"));
      await input.fill("circle");
      const row = page.locator(".quick-input-list .monaco-list-row", { hasText: "Checkers.checkers_circle" }).first();
      await row.waitFor({ timeout: 20_000 });
      await finder.shot("10h-pick-texture");
      await row.click();
      await until("the missing texture replaced", 20_000, async () => (await shown()).includes("Texture=Checkers.checkers_circle"));
      const text = await shown();
      assert(!text.includes("NoSuchMarble"), `the missing texture is still there: ${text}`);
      // Leave the file as it was on disk.
      for (let i = 0; i < 10; i += 1) await page.keyboard.press("Control+Z");
      return { detail: "line 5 now Texture=Checkers.checkers_base (Write action), line 8 Texture=Checkers.checkers_circle (picked)" };
    });
    await finderOpen?.close();

    // A fourth VS Code with Workspace Trust on and the folder not trusted.
    const restricted = await openSession("restricted-mode", tmp, workspace, [vsix], {}, { trusted: false });
    await check("Restricted Mode: the grammar works, the server waits and a notification says why", async () => {
      await restricted.openFile("Defects.t3d");
      await restricted.page.locator('[aria-label="unreal-ls restricted"]').first().waitFor({ timeout: 60_000 });
      await until("T3D tokens", 30_000, async () => (await restricted.token("Flags", "Flags=264")) !== null);
      const begin = await restricted.token("Begin", "Begin Polygon");
      const plain = await restricted.token("=", "Flags=264");
      assert(begin && plain && begin.color !== plain.color, `Begin is not coloured: ${JSON.stringify({ begin, plain })}`);
      const toast = restricted.page.locator(".notification-toast, .notifications-toasts .monaco-list-row", { hasText: "Restricted Mode" });
      await toast.first().waitFor({ timeout: 30_000 });
      const message = (await toast.first().innerText()).replace(/\s+/g, " ");
      await restricted.shot("11-restricted-mode");
      // Nothing has been published: no server ran.
      const squiggles = await restricted.page.locator(".editor-group-container.active .squiggly-error, .editor-group-container.active .squiggly-warning").count();
      assert(squiggles === 0, `${squiggles} squiggles in Restricted Mode: something produced diagnostics`);
      return { detail: `Begin=${begin.color} '='=${plain.color}; status 'unreal-ls restricted'; notification: ${message.slice(0, 160)}` };
    });
    await check("trusting the workspace starts the server without a reload", async () => {
      await restricted.runCommand("Workspaces: Manage Workspace Trust");
      // The Workspace Trust editor's "Trust" button (beside "Trust Parent").
      const trust = restricted.page.locator(".monaco-button", { hasText: /^Trust$/ });
      await trust.first().waitFor({ timeout: 30_000 });
      await restricted.shot("12-workspace-trust-editor");
      await trust.first().click();
      await restricted.page.locator('[aria-label="unreal-ls running"]').first().waitFor({ timeout: 60_000 });
      await restricted.openFile("Defects.t3d");
      await restricted.page.locator(".editor-group-container.active .squiggly-warning, .editor-group-container.active .squiggly-error").first().waitFor({ timeout: 60_000 });
      await restricted.shot("13-trusted");
      return { detail: "status 'unreal-ls running' and diagnostics after trust was granted" };
    });
    await restricted.close();
  } catch (error) {
    record("e2e setup", "failed", error instanceof Error ? error.stack ?? error.message : String(error));
  } finally {
    clearTimeout(watchdog);
    await cleanup();
    fs.rmSync(tmp, { recursive: true, force: true });
  }

  fs.writeFileSync(path.join(outDir, "results.json"), JSON.stringify(results, null, 2));
  const count = (status) => results.filter((r) => r.status === status).length;
  console.log(`vscode: ${count("passed")} passed, ${count("failed")} failed, ${count("skipped")} skipped`);
  for (const r of results.filter((r) => r.status === "skipped")) console.log(`SKIPPED: ${r.name}: ${r.detail}`);
  process.exit(count("failed") > 0 ? 1 : 0);
}

await main();
