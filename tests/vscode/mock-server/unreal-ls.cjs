// A stand-in `unreal-ls` for the VS Code test of the preview requests (docs/protocol.md) that
// the real server does not answer yet. `lsp` runs the real server (MOCK_REAL_UNREAL_LS) behind
// a proxy that adds `experimental.unrealLs` to its capabilities and answers
// `unrealLs/packageTree` and `unrealLs/objectPreview` itself, with made-up objects, a
// generated PNG and a made-up TextBuffer; every other command goes to the real binary.
// The client is reached through UNREAL_LS_PATH, so this also checks that path.
"use strict";
const { spawn, spawnSync } = require("node:child_process");
const zlib = require("node:zlib");

const real = process.env.MOCK_REAL_UNREAL_LS;
const args = process.argv.slice(2);
if (args[0] === "--version") {
  console.log("unreal-ls 0.0.0-mock (preview requests)");
  process.exit(0);
}
if (!real) {
  console.error("mock unreal-ls: set MOCK_REAL_UNREAL_LS to the real binary");
  process.exit(2);
}
if (args[0] !== "lsp") {
  const result = spawnSync(real, args, { stdio: "inherit" });
  process.exit(result.status ?? 1);
}

const OBJECTS = [
  { path: "Skins.MockSkin", class: "Texture", size: 4242 },
  { path: "MockClass.ScriptText", class: "TextBuffer", size: 77 },
  { path: "MockSound", class: "Sound", size: 1234 },
];

/** A 32x32 two-colour checkerboard PNG, base64. */
function checkerPng() {
  const size = 32;
  const table = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes) => {
    let c = 0xffffffff;
    for (const b of bytes) c = table[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type, data) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const rows = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3);
    for (let x = 0; x < size; x++) {
      const on = ((x >> 3) + (y >> 3)) % 2 === 0;
      row.set(on ? [230, 120, 20] : [20, 60, 200], 1 + x * 3);
    }
    rows.push(row);
  }
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", zlib.deflateSync(Buffer.concat(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
  return png.toString("base64");
}

function answer(method, params) {
  if (method === "unrealLs/packageTree") return { header: { version: 69, mock: "yes" }, objects: OBJECTS };
  const object = params.object;
  if (object === undefined) {
    return { kind: "summary", pngBase64: checkerPng(), summary: { triangles: 12, vertices: 8, mock: true } };
  }
  const found = OBJECTS.find((o) => o.path === object);
  if (found?.class === "Texture") return { kind: "texture", pngBase64: checkerPng(), summary: { format: "RGBA8", width: 32, height: 32 } };
  if (found?.class === "TextBuffer") return { kind: "text", text: "class MockClass extends Actor;\n// made up by the mock server\n", summary: {} };
  return { kind: "summary", summary: { class: found?.class ?? "?", note: "mock" } };
}

/** Splits an LSP byte stream into messages. */
function reader(onMessage) {
  let buffer = Buffer.alloc(0);
  return (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const end = buffer.indexOf("\r\n\r\n");
      if (end < 0) return;
      const length = Number(/Content-Length:\s*(\d+)/i.exec(buffer.subarray(0, end).toString("ascii"))?.[1]);
      if (buffer.length < end + 4 + length) return;
      const body = buffer.subarray(end + 4, end + 4 + length).toString("utf8");
      buffer = buffer.subarray(end + 4 + length);
      onMessage(JSON.parse(body));
    }
  };
}
const frame = (message) => {
  const body = Buffer.from(JSON.stringify(message), "utf8");
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, "ascii"), body]);
};

const child = spawn(real, ["lsp"], { stdio: ["pipe", "pipe", "inherit"] });
let initializeId;
process.stdin.on(
  "data",
  reader((message) => {
    if (message.method === "initialize") initializeId = message.id;
    if (message.method === "unrealLs/packageTree" || message.method === "unrealLs/objectPreview") {
      process.stdout.write(frame({ jsonrpc: "2.0", id: message.id, result: answer(message.method, message.params ?? {}) }));
      return;
    }
    child.stdin.write(frame(message));
  }),
);
process.stdin.on("end", () => child.stdin.end());
child.stdout.on(
  "data",
  reader((message) => {
    if (initializeId !== undefined && message.id === initializeId && message.result) {
      const caps = message.result.capabilities;
      caps.experimental = { ...(caps.experimental ?? {}), unrealLs: { packageTree: true, objectPreview: true } };
    }
    process.stdout.write(frame(message));
  }),
);
child.on("exit", (code) => process.exit(code ?? 0));
