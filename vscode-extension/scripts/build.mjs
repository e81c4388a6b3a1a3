// Bundles the extension (and vscode-languageclient) into dist/extension.js with esbuild.
// `--production`: minified, no source map (what the .vsix ships).
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
console.log(`built dist/extension.js${production ? " (production)" : ""}`);
