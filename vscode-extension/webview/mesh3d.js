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
import { GLTFLoader } from "three/examples/jsm/loaders/GLTFLoader.js";

const vscode = acquireVsCodeApi();
const viewport = document.getElementById("viewport");
const status = document.getElementById("status");
const list = document.getElementById("sequences");
const frameButton = document.getElementById("frame");
const pauseButton = document.getElementById("pause");

const BACKGROUND = new THREE.Color(0x1b1f24);

const renderer = new THREE.WebGLRenderer({ antialias: true });
renderer.setPixelRatio(window.devicePixelRatio || 1);
viewport.appendChild(renderer.domElement);
renderer.domElement.tabIndex = 0;

const scene = new THREE.Scene();
scene.background = BACKGROUND;
const camera = new THREE.PerspectiveCamera(45, 1, 0.1, 10000);
scene.add(new THREE.HemisphereLight(0xffffff, 0x505060, 2.2));
const headlamp = new THREE.DirectionalLight(0xffffff, 1.5);
headlamp.position.set(0.3, 0.5, 1);
camera.add(headlamp);
scene.add(camera);

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

function resize() {
  const box = viewport.getBoundingClientRect();
  const width = Math.max(1, Math.floor(box.width));
  const height = Math.max(1, Math.floor(box.height));
  renderer.setSize(width, height, false);
  renderer.domElement.style.width = `${width}px`;
  renderer.domElement.style.height = `${height}px`;
  camera.aspect = width / height;
  camera.updateProjectionMatrix();
}

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

function dispose(object) {
  object.traverse((o) => {
    if (o.geometry) o.geometry.dispose();
    const materials = Array.isArray(o.material) ? o.material : o.material ? [o.material] : [];
    for (const material of materials) {
      if (material.map) material.map.dispose();
      material.dispose();
    }
  });
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
  const bytes = message.glb instanceof Uint8Array ? message.glb : new Uint8Array(message.glb);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const gltf = await new GLTFLoader().parseAsync(buffer, "");
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
new ResizeObserver(() => resize()).observe(viewport);

window.addEventListener("message", (event) => {
  const message = event.data;
  if (message.type === "mesh") {
    status.dataset.ready = "false";
    show(message).catch((error) => {
      status.textContent = `The mesh could not be shown: ${error instanceof Error ? error.message : String(error)}`;
      status.className = "error";
    });
  } else if (message.type === "error") {
    status.textContent = message.message;
    status.className = "error";
  }
});

window.unrealLsMesh3d = {
  /** The share of the picture's pixels that are not the background, and how many colours. */
  coverage() {
    renderer.render(scene, camera);
    const gl = renderer.getContext();
    const width = gl.drawingBufferWidth;
    const height = gl.drawingBufferHeight;
    const pixels = new Uint8Array(width * height * 4);
    gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
    const background = BACKGROUND.clone().convertLinearToSRGB();
    const bg = [background.r, background.g, background.b].map((c) => Math.round(c * 255));
    let drawn = 0;
    const colours = new Set();
    for (let i = 0; i < pixels.length; i += 4) {
      if (Math.abs(pixels[i] - bg[0]) + Math.abs(pixels[i + 1] - bg[1]) + Math.abs(pixels[i + 2] - bg[2]) > 12) {
        drawn += 1;
        if (colours.size < 4096) colours.add((pixels[i] << 16) | (pixels[i + 1] << 8) | pixels[i + 2]);
      }
    }
    return { width, height, drawn, share: drawn / (width * height), colours: colours.size };
  },
  /** The sequence playing and its time, in seconds. */
  playing() {
    if (!mixer || !playing) return undefined;
    return { name: playing.name, time: mixer.clipAction(playing).time, paused };
  },
};

resize();
vscode.postMessage({ type: "ready" });
