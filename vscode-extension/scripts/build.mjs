// Bundles the extension (and vscode-languageclient) into dist/extension.js, and the 3D map
// view's webview script with three.js into dist/map3d.js (a browser script: the webview
// loads nothing from the network), with esbuild.
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
  entryPoints: ["webview/map3d.js"],
  bundle: true,
  outfile: "dist/map3d.js",
  platform: "browser",
  format: "iife",
  target: "chrome114",
  minify: production,
  sourcemap: !production,
  legalComments: "none",
  logLevel: "warning",
});
// three.js is MIT: its licence travels with the copy of it in dist/map3d.js.
fs.copyFileSync("node_modules/three/LICENSE", "dist/map3d.js.LICENSE.txt");
console.log(`built dist/extension.js and dist/map3d.js${production ? " (production)" : ""}`);
