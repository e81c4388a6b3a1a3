// The map overview webview (src/mapOverview.ts): shows the picture, sends clicks in the
// picture's own pixels (whatever size it is displayed at) and view changes.
(function () {
  const vscode = acquireVsCodeApi();
  const img = document.getElementById("map");
  const status = document.getElementById("status");
  const marks = document.getElementById("marks");
  const view = document.getElementById("view");

  view.addEventListener("change", () => vscode.postMessage({ type: "view", view: view.value }));
  img.addEventListener("click", (event) => {
    const box = img.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) return;
    const x = ((event.clientX - box.left) * img.naturalWidth) / box.width;
    const y = ((event.clientY - box.top) * img.naturalHeight) / box.height;
    vscode.postMessage({ type: "click", x, y });
  });

  window.addEventListener("message", (event) => {
    const message = event.data;
    if (message.type === "picture") {
      img.src = `data:image/png;base64,${message.pngBase64}`;
      img.dataset.width = String(message.width);
      img.dataset.height = String(message.height);
      status.textContent = message.status;
      status.className = "muted";
      // The marks, for tests and assistive tools: each actor's place and line.
      marks.replaceChildren(
        ...message.marks.map((m) => {
          const li = document.createElement("li");
          li.dataset.x = String(m.x);
          li.dataset.y = String(m.y);
          li.dataset.line = String(m.line);
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
