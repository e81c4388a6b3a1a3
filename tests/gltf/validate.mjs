// Validates every .glb given on the command line with the Khronos glTF validator and exits
// non-zero when any file has an error. Warnings and infos are counted, not fatal.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import validator from 'gltf-validator';

let failed = 0;
for (const file of process.argv.slice(2)) {
  const bytes = new Uint8Array(await readFile(file));
  const report = await validator.validateBytes(bytes, { uri: basename(file), maxIssues: 0 });
  const { numErrors, numWarnings, numInfos } = report.issues;
  console.log(`${file}: ${numErrors} errors, ${numWarnings} warnings, ${numInfos} infos`);
  if (numErrors > 0) {
    failed += 1;
    for (const m of report.issues.messages.filter((m) => m.severity === 0).slice(0, 20)) {
      console.log(`  ${m.code} ${m.pointer ?? ''}: ${m.message}`);
    }
  }
}
const total = process.argv.length - 2;
console.log(`${total - failed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
