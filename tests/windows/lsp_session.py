#!/usr/bin/env python3
"""One language-server session with the Windows binary over stdio, as an editor on Windows
holds it: initialize with a drive-letter workspace URI, open a T3D map with a known defect
and a .uc class whose #exec lines use backslashes, wait for their diagnostics, hover, ask for
a map preview and a package preview, shut down, exit, and check the exit code.

usage: lsp_session.py WINDOWS_ROOT [--package] -- COMMAND...
  WINDOWS_ROOT: the run folder as the Windows program sees it (Z:\\w\\run)
  --package: pkg\\Tex.utx is there (from the corpus): preview it too
  COMMAND: what starts `unreal-ls.exe lsp` (chroot ... wine unreal-ls.exe lsp)
Prints one line per check; exits 1 on the first failure, naming what was expected.
"""

import base64
import json
import os
import queue
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
HANG = 60.0  # seconds any one answer may take: only a hang reaches it


def uri_of(windows_path, style="plain"):
    """A file URI of a Windows path: file:///Z:/w/run/x (plain), or as VS Code writes it on
    Windows, the drive lower-cased and its colon percent-encoded (file:///z%3A/w/run/x)."""
    drive, rest = windows_path[0], windows_path[2:].replace("\\", "/")
    rest = "/".join(part.replace("%", "%25").replace(" ", "%20") for part in rest.split("/"))
    if style == "vscode":
        return f"file:///{drive.lower()}%3A{rest}"
    return f"file:///{drive}:{rest}"


class Server:
    def __init__(self, command):
        self.proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        self.messages = queue.Queue()
        self.next_id = 0
        self.stderr = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self):
        for line in self.proc.stderr:
            self.stderr.append(line.decode("utf-8", "replace"))

    def _read(self):
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.messages.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.partition(b":")
                if name.lower() == b"content-length":
                    length = int(value)
            if length is None:
                self.messages.put(None)
                return
            self.messages.put(json.loads(out.read(length)))

    def send(self, message):
        body = json.dumps(message).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return self.wait(lambda m: m.get("id") == self.next_id and "method" not in m, method)

    def wait(self, predicate, what):
        deadline = time.monotonic() + HANG
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                fail(f"no answer to {what} within {HANG:.0f}s")
            try:
                message = self.messages.get(timeout=left)
            except queue.Empty:
                continue
            if message is None:
                fail(f"the server closed its output while waiting for {what}")
            if "method" in message and "id" in message:
                # A request from the server (configuration, registration): answer it.
                result = None
                if message["method"] == "workspace/configuration":
                    result = [None for _ in message["params"].get("items", [])]
                self.send({"jsonrpc": "2.0", "id": message["id"], "result": result})
                continue
            if predicate(message):
                return message


server = None


def fail(message):
    print(f"FAIL lsp: {message}")
    if server is not None:
        tail = "".join(server.stderr[-20:])
        if tail:
            print("server stderr (last lines):\n" + tail)
        server.proc.kill()
    sys.exit(1)


def ok(message):
    print(f"  lsp: {message}")


def main():
    global server
    args = sys.argv[1:]
    split = args.index("--")
    root, command = args[0], args[split + 1 :]
    with_package = "--package" in args[1:split]
    started = time.monotonic()
    server = Server(command)

    root_uri = uri_of(root)
    answer = server.request(
        "initialize",
        {
            "processId": None,
            "rootUri": root_uri,
            "workspaceFolders": [{"uri": root_uri, "name": "run"}],
            "capabilities": {
                "textDocument": {
                    "hover": {"contentFormat": ["markdown", "plaintext"]},
                    "publishDiagnostics": {"relatedInformation": True},
                },
                "workspace": {"workspaceFolders": True, "configuration": True},
            },
            "initializationOptions": {},
        },
    )
    if "result" not in answer:
        fail(f"initialize: {answer}")
    caps = answer["result"].get("capabilities", {})
    ok(f"initialize ({time.monotonic() - started:.1f}s, {len(caps)} capabilities)")
    server.notify("initialized", {})

    # The T3D map with a known defect, under a plain drive-letter URI.
    map_path = root + "\\ex\\defects\\Defects.t3d"
    map_uri = uri_of(map_path)
    with open(os.path.join(HERE, "../../examples/defects/Defects.t3d"), "rb") as f:
        map_text = f.read().decode("utf-8")
    server.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": map_uri, "languageId": "t3d", "version": 1, "text": map_text}},
    )
    published = server.wait(
        lambda m: m.get("method") == "textDocument/publishDiagnostics"
        and m["params"]["uri"] == map_uri,
        "the map's diagnostics",
    )
    codes = sorted({d.get("code") for d in published["params"]["diagnostics"]})
    if "t3d-too-few-vertices" not in codes:
        fail(f"Defects.t3d: expected t3d-too-few-vertices among the diagnostics, got {codes}")
    ok(f"didOpen Defects.t3d: {len(published['params']['diagnostics'])} diagnostics ({len(codes)} rules)")

    # Hover on `Begin Map`'s keyword (line 0) and on the first polygon flag line.
    hover = server.request(
        "textDocument/hover",
        {"textDocument": {"uri": map_uri}, "position": {"line": 0, "character": 2}},
    )
    if "result" not in hover or hover["result"] is None:
        fail(f"hover on Defects.t3d 1:3: {hover}")
    ok("hover on Defects.t3d answers")

    # The .uc class under VS Code's Windows spelling of the URI (c%3A), #exec with backslashes.
    uc_path = root + "\\pkg\\WinPaths\\Classes\\WinPaths.uc"
    uc_uri = uri_of(uc_path, "vscode")
    with open(os.path.join(HERE, "fixtures/WinPaths.uc"), "rb") as f:
        uc_text = f.read().decode("utf-8")
    server.notify(
        "textDocument/didOpen",
        {
            "textDocument": {
                "uri": uc_uri,
                "languageId": "unrealscript",
                "version": 1,
                "text": uc_text,
            }
        },
    )
    published = server.wait(
        lambda m: m.get("method") == "textDocument/publishDiagnostics"
        and m["params"]["uri"] == uc_uri,
        "the class's diagnostics",
    )
    diags = published["params"]["diagnostics"]
    missing = [d for d in diags if d.get("code") == "exec-missing-file"]
    lines = sorted(d["range"]["start"]["line"] for d in missing)
    # Only Textures\Missing.bmp is missing: the folders and files of the other lines exist
    # (one of them spelt in another case, which Windows does not mind).
    expected_line = next(i for i, l in enumerate(uc_text.splitlines()) if "Missing.bmp" in l)
    if lines != [expected_line]:
        fail(
            f"WinPaths.uc: expected exec-missing-file on line {expected_line + 1} only, got "
            + json.dumps([(d["range"]["start"]["line"] + 1, d["message"]) for d in missing])
        )
    ok(f"didOpen WinPaths.uc ({uc_uri[:16]}...): exec-missing-file only for Missing.bmp ({len(diags)} diagnostics)")

    # Hover on the found file's path: the server resolved it through the real folders.
    hover_line = next(i for i, l in enumerate(uc_text.splitlines()) if "Stone.bmp" in l)
    column = uc_text.splitlines()[hover_line].index("Stone.bmp")
    hover = server.request(
        "textDocument/hover",
        {"textDocument": {"uri": uc_uri}, "position": {"line": hover_line, "character": column}},
    )
    text = json.dumps(hover.get("result"))
    if hover.get("result") is None or "Stone" not in text:
        fail(f"hover on the #exec path Textures\\Sub\\Stone.bmp: {hover}")
    ok("hover on an #exec path (backslashes) names the file")

    # A map preview of the open map.
    preview = server.request(
        "unrealLs/mapPreview", {"uri": map_uri, "view": "top", "maxSize": 256}
    )
    result = preview.get("result") or {}
    png = base64.b64decode(result.get("pngBase64", ""))
    if not png.startswith(b"\x89PNG") or result.get("width", 0) > 256:
        fail(f"unrealLs/mapPreview: {str(preview)[:300]}")
    ok(f"unrealLs/mapPreview: {result['width']}x{result['height']} PNG, {result.get('brushes')} brushes")

    # A map on drive C: (the Wine prefix's drive_c), not open: read from disk through a
    # file:///C:/ URI and through VS Code's file:///c%3A/ spelling of it.
    for uri in ("file:///C:/unreal-ls-run/Room.t3d", "file:///c%3A/unreal-ls-run/Room.t3d"):
        preview = server.request("unrealLs/mapPreview", {"uri": uri, "maxSize": 128})
        result = preview.get("result") or {}
        if not base64.b64decode(result.get("pngBase64", "")).startswith(b"\x89PNG"):
            fail(f"unrealLs/mapPreview of {uri} (read from disk): {str(preview)[:300]}")
    ok(f"unrealLs/mapPreview of C:\\unreal-ls-run\\Room.t3d from disk, as file:///C:/ and file:///c%3A/ ({result.get('brushes')} brushes)")

    # A package preview from a file on disk: the texture package, URI with %3A.
    package_uri = uri_of(root + "\\pkg\\Tex.utx", "vscode")
    tree = with_package and server.request("unrealLs/packageTree", {"uri": package_uri})
    if not with_package:
        ok("unrealLs/packageTree, objectPreview: skipped (no package: the corpus is absent)")
    elif "result" not in tree:
        fail(f"unrealLs/packageTree {package_uri}: {tree}")
    else:
        objects = tree["result"]["objects"]
        first = next((o for o in objects if o["class"] == "Texture"), None)
        if first is None:
            fail(f"unrealLs/packageTree: no Texture in {objects[:5]}")
        preview = server.request(
            "unrealLs/objectPreview",
            {"uri": package_uri, "export": first["export"], "maxSize": 64},
        )
        result = preview.get("result") or {}
        if result.get("kind") != "texture" or not base64.b64decode(
            result.get("pngBase64", "")
        ).startswith(b"\x89PNG"):
            fail(f"unrealLs/objectPreview: {str(preview)[:300]}")
        ok(f"unrealLs/packageTree + objectPreview: {len(objects)} objects, {first['path']} as PNG")

    answer = server.request("shutdown", None)
    if "error" in answer:
        fail(f"shutdown: {answer}")
    server.notify("exit", None)
    try:
        code = server.proc.wait(timeout=HANG)
    except subprocess.TimeoutExpired:
        fail("the server did not exit after exit")
    if code != 0:
        fail(f"exit code {code} after shutdown and exit, expected 0")
    ok(f"shutdown, exit: exit code 0 (session {time.monotonic() - started:.1f}s)")


main()
