// Bundles the extension (and vscode-languageclient) into dist/extension.js, and the 3D map
// and mesh views' webview scripts, each with three.js, into dist/map3d.js and dist/mesh3d.js
// (browser scripts: the webviews load nothing from the network), with esbuild.
// `--production`: minified, no source map (what the .vsix ships).
import * as fs from "node:fs";
import * as esbuild from "esbuild";

const production = process.argv.includes("--production");
await esbuild.build({
  entryPoints: ["src/extension.ts"],
  bundle: true,
  outfile: "dist/extension.js",
  platform: "node",
  format: "cjs",
  target: "node18",
  external: ["vscode"],
  minify: production,
  sourcemap: !production,
  logLevel: "warning",
});
await esbuild.build({
  entryPoints: { map3d: "webview/map3d.js", mesh3d: "webview/mesh3d.js" },
  bundle: true,
  outdir: "dist",
  platform: "browser",
  format: "iife",
  target: "chrome114",
  minify: production,
  sourcemap: !production,
  legalComments: "none",
  logLevel: "warning",
});
// three.js is MIT: its licence travels with the copies of it in dist/map3d.js and mesh3d.js.
fs.copyFileSync("node_modules/three/LICENSE", "dist/three.LICENSE.txt");
console.log(`built dist/extension.js, dist/map3d.js and dist/mesh3d.js${production ? " (production)" : ""}`);
