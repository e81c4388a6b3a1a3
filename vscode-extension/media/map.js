// The map overview webview (src/mapOverview.ts). The picture (brushes, drawn by the server
// without the actors' symbols) is fitted to the panel; the wheel zooms around the pointer, a
// drag pans, a double click fits again. The actors are drawn over it on a canvas, by kind,
// with a legend whose entries show or hide a kind; at low zoom, marks closer than a few
// pixels to one of their kind already drawn are left out (the status line says how many).
// A click sends the point in the picture's own pixels; the extension reveals the nearest
// actor's line.
(function () {
  const vscode = acquireVsCodeApi();
  const viewport = document.getElementById("viewport");
  const stage = document.getElementById("stage");
  const img = document.getElementById("map");
  const canvas = document.getElementById("overlay");
  const status = document.getElementById("status");
  const thinned = document.getElementById("thinned");
  const marksList = document.getElementById("marks");
  const legend = document.getElementById("legend");
  const view = document.getElementById("view");
  const fitButton = document.getElementById("fit");

  /** How each kind is drawn: the server's symbols, in the same colours. */
  const KINDS = {
    PlayerStart: { label: "Player starts", color: "#28b43c", shape: "triangle", size: 7 },
    Light: { label: "Lights", color: "#f0c419", shape: "circle", size: 5 },
    Pickup: { label: "Pickups", color: "#fad21e", shape: "diamond", size: 6 },
    Mover: { label: "Movers", color: "#aa3cc8", shape: "square", size: 5 },
    Trigger: { label: "Triggers", color: "#dc2828", shape: "square", size: 4 },
    PathNode: { label: "Path nodes", color: "#828282", shape: "dot", size: 2 },
  };
  /** Marks of one kind closer than this (screen pixels) to one already drawn are left out. */
  const THIN_PX = 9;

  let marks = [];
  const hidden = new Set(JSON.parse(localStorage.getItem("unrealLs.map.hiddenKinds") || "[]"));
  // The picture's transform: screen = picture * scale + (tx, ty).
  let scale = 1;
  let tx = 0;
  let ty = 0;
  let fitted = true;

  function fit() {
    const w = img.naturalWidth;
    const h = img.naturalHeight;
    if (!w || !h) return;
    const box = viewport.getBoundingClientRect();
    scale = Math.min(box.width / w, box.height / h);
    tx = (box.width - w * scale) / 2;
    ty = (box.height - h * scale) / 2;
    fitted = true;
    apply();
  }

  function apply() {
    stage.style.transform = `translate(${tx}px, ${ty}px) scale(${scale})`;
    drawMarks();
  }

  function drawMarks() {
    const box = viewport.getBoundingClientRect();
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.max(1, Math.round(box.width * ratio));
    canvas.height = Math.max(1, Math.round(box.height * ratio));
    canvas.style.width = `${box.width}px`;
    canvas.style.height = `${box.height}px`;
    const ctx = canvas.getContext("2d");
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, box.width, box.height);
    let left = 0;
    for (const [kind, style] of Object.entries(KINDS)) {
      if (hidden.has(kind)) continue;
      const taken = new Set();
      for (const m of marks) {
        if (m.kind !== kind) continue;
        const x = m.x * scale + tx;
        const y = m.y * scale + ty;
        if (x < -10 || y < -10 || x > box.width + 10 || y > box.height + 10) continue;
        const cell = `${Math.floor(x / THIN_PX)},${Math.floor(y / THIN_PX)}`;
        if (taken.has(cell)) {
          left += 1;
          continue;
        }
        taken.add(cell);
        symbol(ctx, style, x, y);
      }
    }
    thinned.textContent = left > 0 ? `${left} marks left out at this zoom: zoom in to see them` : "";
  }

  function symbol(ctx, style, x, y) {
    const s = style.size;
    ctx.beginPath();
    switch (style.shape) {
      case "triangle":
        ctx.moveTo(x, y - s);
        ctx.lineTo(x + s * 0.85, y + s * 0.7);
        ctx.lineTo(x - s * 0.85, y + s * 0.7);
        ctx.closePath();
        break;
      case "diamond":
        ctx.moveTo(x, y - s);
        ctx.lineTo(x + s, y);
        ctx.lineTo(x, y + s);
        ctx.lineTo(x - s, y);
        ctx.closePath();
        break;
      case "square":
        ctx.rect(x - s, y - s, 2 * s, 2 * s);
        break;
      default:
        ctx.arc(x, y, s, 0, 2 * Math.PI);
    }
    ctx.fillStyle = style.color;
    ctx.fill();
    if (style.shape !== "dot") {
      ctx.lineWidth = 1;
      ctx.strokeStyle = "#141414";
      ctx.stroke();
    }
  }

  function renderLegend() {
    const counts = {};
    for (const m of marks) counts[m.kind] = (counts[m.kind] || 0) + 1;
    legend.replaceChildren(
      ...Object.entries(KINDS)
        .filter(([kind]) => counts[kind])
        .map(([kind, style]) => {
          const label = document.createElement("label");
          label.className = "legend-entry";
          label.dataset.kind = kind;
          const box = document.createElement("input");
          box.type = "checkbox";
          box.checked = !hidden.has(kind);
          box.addEventListener("change", () => {
            if (box.checked) hidden.delete(kind);
            else hidden.add(kind);
            localStorage.setItem("unrealLs.map.hiddenKinds", JSON.stringify([...hidden]));
            drawMarks();
          });
          const swatch = document.createElement("span");
          swatch.className = `swatch ${style.shape}`;
          swatch.style.background = style.color;
          label.append(box, swatch, document.createTextNode(` ${style.label} (${counts[kind]})`));
          return label;
        }),
    );
  }

  viewport.addEventListener(
    "wheel",
    (event) => {
      event.preventDefault();
      const box = viewport.getBoundingClientRect();
      const px = event.clientX - box.left;
      const py = event.clientY - box.top;
      const factor = Math.exp(-event.deltaY * 0.0015);
      const next = Math.min(64, Math.max(0.05, scale * factor));
      tx = px - ((px - tx) * next) / scale;
      ty = py - ((py - ty) * next) / scale;
      scale = next;
      fitted = false;
      apply();
    },
    { passive: false },
  );

  let drag;
  viewport.addEventListener("pointerdown", (event) => {
    drag = { x: event.clientX, y: event.clientY, tx, ty, moved: false };
  });
  window.addEventListener("pointermove", (event) => {
    if (!drag) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
    if (!drag.moved) return;
    viewport.classList.add("panning");
    tx = drag.tx + dx;
    ty = drag.ty + dy;
    fitted = false;
    apply();
  });
  window.addEventListener("pointerup", () => {
    viewport.classList.remove("panning");
    // A drag is not a click; the click event that follows checks this.
    setTimeout(() => (drag = undefined), 0);
  });
  viewport.addEventListener("click", (event) => {
    if (drag?.moved) return;
    const box = img.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) return;
    const x = ((event.clientX - box.left) * img.naturalWidth) / box.width;
    const y = ((event.clientY - box.top) * img.naturalHeight) / box.height;
    vscode.postMessage({ type: "click", x, y, radius: 10 / (box.width / img.naturalWidth) });
  });
  viewport.addEventListener("dblclick", () => fit());
  fitButton.addEventListener("click", () => fit());
  new ResizeObserver(() => (fitted ? fit() : drawMarks())).observe(viewport);
  view.addEventListener("change", () => vscode.postMessage({ type: "view", view: view.value }));

  window.addEventListener("message", (event) => {
    const message = event.data;
    if (message.type === "picture") {
      const same = message.keepZoom && img.naturalWidth === message.width && img.naturalHeight === message.height;
      img.onload = () => (same && !fitted ? apply() : fit());
      img.src = `data:image/png;base64,${message.pngBase64}`;
      img.width = message.width;
      img.height = message.height;
      if (message.view) view.value = message.view;
      status.textContent = message.status;
      status.className = "muted";
      marks = message.marks;
      renderLegend();
      // The marks, for tests and assistive tools: each actor's place and line.
      marksList.replaceChildren(
        ...marks.map((m) => {
          const li = document.createElement("li");
          li.dataset.x = String(m.x);
          li.dataset.y = String(m.y);
          li.dataset.line = String(m.line);
          li.dataset.kind = m.kind;
          li.textContent = m.name;
          return li;
        }),
      );
    } else if (message.type === "error") {
      status.textContent = message.message;
      status.className = "error";
    }
  });
  vscode.postMessage({ type: "ready" });
})();
