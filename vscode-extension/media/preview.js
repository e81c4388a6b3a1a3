// The preview webview: renders what the extension posts (see src/previews.ts, ToWebview) and
// asks for thumbnails and object openings. No framework, no network: the page's CSP allows
// only this script and data: images.
// @ts-check
(function () {
  // @ts-ignore acquireVsCodeApi is injected by VS Code
  const vscode = acquireVsCodeApi();
  const content = /** @type {HTMLElement} */ (document.getElementById("content"));
  const status = /** @type {HTMLElement} */ (document.getElementById("status"));
  /** Thumbnail slots on screen, by object key (unique in the package; a path is not: a .ukx
   * holds a SkeletalMesh and a MeshAnimation of one name). @type {Map<string, HTMLElement>} */
  const thumbs = new Map();
  /** Thumbnails received (key -> base64 PNG, "" when the server had none), kept across redraws. */
  const thumbCache = new Map();
  /** Keys asked for and not answered yet. */
  const requested = new Set();
  /** The package shown (its URI), for the context menu of its rows. */
  let packageUri = "";

  function thumbImage(path, png) {
    return el("img", { class: "thumb", alt: path, src: `data:image/png;base64,${png}` });
  }

  /** @param {string} tag @param {Record<string,string>} [attrs] @param {(Node|string)[]} [children] */
  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
    for (const child of children || []) node.append(child);
    return node;
  }

  /** @param {number} bytes */
  function size(bytes) {
    if (bytes < 1024) return `${bytes} B`;
    if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
    return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  }

  /** @param {Record<string, unknown>} summary */
  function summaryTable(summary) {
    const rows = Object.entries(summary).map(([key, value]) =>
      el("tr", {}, [el("th", {}, [key.replace(/_/g, " ")]), el("td", {}, [String(value)])]),
    );
    return el("table", { class: "summary" }, rows);
  }

  /** @param {string[]} problems */
  function problemList(problems) {
    if (!problems || problems.length === 0) return el("div");
    return el("ul", { class: "problems error" }, problems.map((p) => el("li", {}, [p])));
  }

  /** Builds the group tree from `Group.Sub.Name` paths. */
  function buildTree(objects) {
    const root = { groups: new Map(), leaves: [] };
    for (const object of objects) {
      const parts = object.path.split(".");
      let node = root;
      for (const group of parts.slice(0, -1)) {
        if (!node.groups.has(group)) node.groups.set(group, { groups: new Map(), leaves: [] });
        node = node.groups.get(group);
      }
      node.leaves.push({ ...object, name: parts[parts.length - 1] });
    }
    return root;
  }

  function countLeaves(node) {
    let count = node.leaves.length;
    for (const child of node.groups.values()) count += countLeaves(child);
    return count;
  }

  function renderNode(node, withThumbs) {
    const list = el("ul", { class: "tree" });
    for (const [name, child] of [...node.groups.entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
      const details = el("details", { open: "" }, [
        el("summary", {}, [`${name} `, el("span", { class: "muted" }, [`(${countLeaves(child)})`])]),
        renderNode(child, withThumbs),
      ]);
      list.append(el("li", { class: "group" }, [details]));
    }
    for (const leaf of node.leaves.sort((a, b) => a.name.localeCompare(b.name) || a.class.localeCompare(b.class))) {
      // A checkerboard where a thumbnail is on its way, a blank cell in the same column for the rest.
      const cached = thumbCache.get(leaf.key);
      const waiting = leaf.thumbnail && cached === undefined;
      const thumb = cached ? thumbImage(leaf.path, cached) : el("span", { class: waiting ? "thumb pending" : "thumb blank" });
      if (waiting) thumbs.set(leaf.key, thumb);
      const row = el(
        "li",
        { class: "object", "data-key": leaf.key, "data-path": leaf.path, "data-class": leaf.class, title: `${leaf.class}'${leaf.path}', click to open` },
        [
          ...(withThumbs ? [thumb] : []),
          el("span", { class: "name" }, [leaf.name]),
          el("span", { class: "class" }, [leaf.class]),
          el("span", { class: "size" }, [size(leaf.size)]),
          el("span", { class: "detail" }, [leaf.detail || ""]),
        ],
      );
      if (leaf.execLines) {
        // The row's context menu (package.json, webview/context) offers the #exec commands,
        // which get these fields.
        row.setAttribute(
          "data-vscode-context",
          JSON.stringify({
            unrealLsVertexMesh: true,
            unrealLsPackage: packageUri,
            unrealLsPath: leaf.path,
            unrealLsExport: leaf.export,
            preventDefaultContextMenuItems: true,
          }),
        );
      }
      row.addEventListener("click", () => vscode.postMessage({ type: "open", key: leaf.key }));
      list.append(row);
    }
    return list;
  }

  function renderPackage(message) {
    packageUri = message.uri;
    thumbs.clear();
    thumbCache.clear();
    requested.clear();
    const objects = message.objects;
    const byClass = new Map();
    for (const object of objects) byClass.set(object.class, (byClass.get(object.class) || 0) + 1);
    const classes = el(
      "p",
      { class: "classes" },
      [...byClass.entries()].sort((a, b) => b[1] - a[1]).map(([name, count]) => el("span", {}, [`${count} ${name}`])),
    );
    const filter = /** @type {HTMLInputElement} */ (el("input", { type: "search", placeholder: "Filter by name or class", id: "filter" }));
    const reload = el("button", { type: "button" }, ["Reload"]);
    reload.addEventListener("click", () => vscode.postMessage({ type: "reload" }));
    const treeHost = el("div", { id: "tree" });
    const draw = () => {
      const needle = filter.value.trim().toLowerCase();
      const shown = needle
        ? objects.filter((o) => o.path.toLowerCase().includes(needle) || o.class.toLowerCase().includes(needle))
        : objects;
      treeHost.replaceChildren(renderNode(buildTree(shown), objects.some((o) => o.thumbnail)));
      const wanted = [...thumbs.keys()].filter((p) => !requested.has(p));
      for (const p of wanted) requested.add(p);
      if (wanted.length > 0) vscode.postMessage({ type: "thumbnails", keys: wanted });
    };
    filter.addEventListener("input", draw);
    content.replaceChildren(
      summaryTable(message.header),
      classes,
      message.note ? el("p", { class: "note muted" }, [message.note]) : el("div"),
      problemList(message.problems),
      el("div", { class: "toolbar" }, [filter, reload]),
      el("div", { id: "detail" }),
      treeHost,
    );
    status.textContent = `${objects.length} objects, from ${message.source}`;
    draw();
  }

  function renderSummary(message) {
    const parts = [];
    if (message.pngBase64) parts.push(el("img", { class: "render", alt: "rendered preview", src: `data:image/png;base64,${message.pngBase64}` }));
    parts.push(summaryTable(message.summary));
    if (message.note) parts.push(el("p", { class: "note muted" }, [message.note]));
    parts.push(problemList(message.problems));
    content.replaceChildren(...parts);
    status.textContent = `${message.format}, from ${message.source}`;
  }

  function renderDetail(message) {
    const host = document.getElementById("detail");
    if (!host) return;
    const parts = [el("h2", {}, [message.title])];
    if (message.mesh) {
      const show = el("button", { id: "show3d", title: "Show the mesh textured, with its sequences, in a 3D panel" }, ["Show in 3D"]);
      show.addEventListener("click", () => vscode.postMessage({ type: "show3d", key: message.key }));
      parts.push(show);
    }
    if (message.execLines) {
      const copy = el("button", { id: "copyExec", title: "The #exec lines that import this mesh again, to the clipboard" }, ["Copy #exec Lines"]);
      copy.addEventListener("click", () => vscode.postMessage({ type: "execLines", key: message.key, action: "copy" }));
      const write = el("button", { id: "exportExec", title: "Write the mesh's _d.3d and _a.3d and its textures under a package folder, where those lines find them" }, ["Export for #exec..."]);
      write.addEventListener("click", () => vscode.postMessage({ type: "execLines", key: message.key, action: "export" }));
      parts.push(copy, write);
    }
    if (message.pngBase64) parts.push(el("img", { class: "render", alt: message.title, src: `data:image/png;base64,${message.pngBase64}` }));
    if (Object.keys(message.summary || {}).length > 0) parts.push(summaryTable(message.summary));
    if (message.note) parts.push(el("p", { class: "note muted" }, [message.note]));
    host.replaceChildren(...parts);
  }

  window.addEventListener("message", (event) => {
    const message = event.data;
    switch (message.type) {
      case "package":
        renderPackage(message);
        break;
      case "summary":
        renderSummary(message);
        break;
      case "error":
        content.replaceChildren(el("p", { class: "error" }, [message.message]));
        status.textContent = "could not be read";
        break;
      case "thumbnail": {
        requested.delete(message.key);
        thumbCache.set(message.key, message.pngBase64 || "");
        const slot = thumbs.get(message.key);
        thumbs.delete(message.key);
        if (slot && message.pngBase64) slot.replaceWith(thumbImage(message.key, message.pngBase64));
        else if (slot) slot.className = "thumb blank";
        break;
      }
      case "detail":
        renderDetail(message);
        break;
    }
  });
  vscode.postMessage({ type: "ready" });
})();
