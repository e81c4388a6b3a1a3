// The 3D mesh view's webview (src/mesh3d.ts), bundled with three.js into dist/mesh3d.js by
// scripts/build.mjs: nothing is loaded from the network. It shows the `.glb` that
// `unreal-ls export MESH --to glb` writes (the mesh textured and posed as its class imports
// it, its animation sequences as glTF animations) under an orbit camera: drag to turn, the
// wheel to zoom, F (or Frame) to frame the mesh. The sequences are listed; a click plays one,
// Pause stops and resumes.
//
// `window.unrealLsMesh3d` is a small hook for the end-to-end test: how much of the picture is
// not background, and which sequence plays at which time.
import * as THREE from "three";
import { createStage, dispose, listen, readGlb } from "./stage.js";

const vscode = acquireVsCodeApi();
const viewport = document.getElementById("viewport");
const status = document.getElementById("status");
const list = document.getElementById("sequences");
const frameButton = document.getElementById("frame");
const pauseButton = document.getElementById("pause");

const stage = createStage({ viewport, status, fov: 45, near: 0.1, far: 10000, lamp: 1.5 });
const { renderer, scene, camera } = stage;

let model;
let mixer;
let playing;
let paused = false;
let centre = new THREE.Vector3();
let radius = 1;
// The orbit: angles around the mesh's centre and the distance from it.
let azimuth = 0.6;
let elevation = 0.3;
let distance = 3;

function placeCamera() {
  const offset = new THREE.Vector3(
    Math.cos(elevation) * Math.sin(azimuth),
    Math.sin(elevation),
    Math.cos(elevation) * Math.cos(azimuth),
  ).multiplyScalar(distance);
  camera.position.copy(centre).add(offset);
  camera.near = Math.max(0.01, distance / 1000);
  camera.far = distance + radius * 10;
  camera.updateProjectionMatrix();
  camera.lookAt(centre);
}

function frameMesh() {
  if (!model) return;
  const box = new THREE.Box3().setFromObject(model);
  if (box.isEmpty()) return;
  centre = box.getCenter(new THREE.Vector3());
  radius = Math.max(0.01, box.getSize(new THREE.Vector3()).length() / 2);
  distance = (radius / Math.sin(THREE.MathUtils.degToRad(camera.fov / 2))) * 1.05;
  placeCamera();
}

function play(clip) {
  if (!mixer) return;
  mixer.stopAllAction();
  playing = clip;
  paused = false;
  pauseButton.textContent = "Pause";
  mixer.clipAction(clip).reset().play();
  for (const item of list.children) item.classList.toggle("playing", item.dataset.name === clip.name);
}

async function show(message) {
  const gltf = await readGlb(message);
  if (model) {
    scene.remove(model);
    dispose(model);
  }
  model = gltf.scene;
  scene.add(model);
  mixer = new THREE.AnimationMixer(model);
  playing = undefined;
  list.replaceChildren(
    ...gltf.animations.map((clip) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.textContent = `${clip.name} (${clip.duration.toFixed(2)} s)`;
      button.addEventListener("click", () => play(clip));
      item.dataset.name = clip.name;
      item.append(button);
      return item;
    }),
  );
  frameMesh();
  status.textContent = `${message.status}; ${gltf.animations.length} sequences`;
  status.className = "muted";
  status.dataset.ready = "true";
}

let drag;
renderer.domElement.addEventListener("pointerdown", (event) => {
  drag = { x: event.clientX, y: event.clientY, azimuth, elevation };
  renderer.domElement.setPointerCapture(event.pointerId);
});
renderer.domElement.addEventListener("pointermove", (event) => {
  if (!drag) return;
  azimuth = drag.azimuth - (event.clientX - drag.x) * 0.01;
  elevation = Math.max(-1.5, Math.min(1.5, drag.elevation + (event.clientY - drag.y) * 0.01));
  placeCamera();
});
renderer.domElement.addEventListener("pointerup", () => (drag = undefined));
renderer.domElement.addEventListener(
  "wheel",
  (event) => {
    event.preventDefault();
    distance = Math.min(radius * 50, Math.max(radius * 0.1, distance * Math.exp(event.deltaY * 0.001)));
    placeCamera();
  },
  { passive: false },
);
window.addEventListener("keydown", (event) => {
  if (event.key.toLowerCase() === "f" && !(event.target instanceof HTMLButtonElement)) frameMesh();
});
frameButton.addEventListener("click", () => frameMesh());
pauseButton.addEventListener("click", () => {
  paused = !paused;
  pauseButton.textContent = paused ? "Play" : "Pause";
});

const clock = new THREE.Clock();
function tick() {
  const dt = clock.getDelta();
  if (mixer && !paused) mixer.update(dt);
  renderer.render(scene, camera);
  requestAnimationFrame(tick);
}
requestAnimationFrame(tick);

listen(status, "mesh", "mesh", show);

window.unrealLsMesh3d = {
  /** The share of the picture's pixels that are not the background, and how many colours. */
  coverage: () => stage.coverage(),
  /** The sequence playing and its time, in seconds. */
  playing() {
    if (!mixer || !playing) return undefined;
    return { name: playing.name, time: mixer.clipAction(playing).time, paused };
  },
};

stage.resize();
vscode.postMessage({ type: "ready" });
