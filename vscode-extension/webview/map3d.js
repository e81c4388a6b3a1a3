// The 3D map view's webview (src/map3d.ts), bundled with three.js into dist/map3d.js by
// scripts/build.mjs: nothing is loaded from the network. It shows the level that
// `unrealLs/levelScene` builds (the `.glb` of `unreal-ls export MAP --to glb`) with actors as
// small markers and its static meshes in place, under a fly camera: drag to look, W A S D to
// move, Q and E (or Space and C) down and up, Shift to go faster, the wheel to change the
// speed, F (or the Frame button) to frame the whole level. A click on a surface sends its
// polygon's `Begin Polygon` line, a click on a marker or a static mesh its actor's
// `Begin Actor` line; the extension reveals it.
//
// `window.unrealLsMap3d` is a small hook for the end-to-end test and for tools: where on the
// canvas a surface of a given line or an actor shows, and how much of the picture is not
// background.
import * as THREE from "three";
import { lineOfTriangle } from "../src/protocol";
import { createStage, dispose, listen, readGlb } from "./stage.js";

const vscode = acquireVsCodeApi();
const viewport = document.getElementById("viewport");
const status = document.getElementById("status");
const frameButton = document.getElementById("frame");
const speedLabel = document.getElementById("speed");

/** Marker colours by what the actor is. */
const MARKER_COLORS = { light: 0xf0c419, PlayerStart: 0x28b43c, other: 0x8fa3b8 };

const stage = createStage({ viewport, status, fov: 70, near: 1, far: 100000, lamp: 1.2, onResize: () => render() });
const { renderer, scene, camera } = stage;

/** What is on screen: the level's meshes (with their pick tables) and the actors' markers. */
let level = new THREE.Group();
let markers = new THREE.Group();
scene.add(level, markers);
let pickMeshes = [];
let bounds = new THREE.Box3();
let shownDocument;
let speed = 600;
let yaw = 0;
let pitch = 0;

function setSpeed(value) {
  speed = Math.min(20000, Math.max(20, value));
  speedLabel.textContent = `speed ${Math.round(speed)} u/s`;
}

function applyLook() {
  camera.quaternion.setFromEuler(new THREE.Euler(pitch, yaw, 0, "YXZ"));
}

/** Looks at `target` from `position`. */
function lookFrom(position, target) {
  camera.position.copy(position);
  const direction = new THREE.Vector3().subVectors(target, position).normalize();
  yaw = Math.atan2(-direction.x, -direction.z);
  pitch = Math.asin(Math.max(-1, Math.min(1, direction.y)));
  applyLook();
}

/** The whole level in view, from above and to one side, as a mapper first looks at a map. */
function frameLevel() {
  if (bounds.isEmpty()) return;
  const center = bounds.getCenter(new THREE.Vector3());
  const size = bounds.getSize(new THREE.Vector3());
  const radius = Math.max(64, size.length() / 2);
  const distance = radius / Math.sin(THREE.MathUtils.degToRad(camera.fov / 2)) * 0.9;
  const direction = new THREE.Vector3(0.55, 0.6, 0.6).normalize();
  camera.near = Math.max(0.5, radius / 2000);
  camera.far = distance + radius * 4;
  camera.updateProjectionMatrix();
  lookFrom(center.clone().addScaledVector(direction, distance), center);
  setSpeed(radius / 2);
  render();
}

function render() {
  renderer.render(scene, camera);
}

/** A glTF material as a lit, non-metallic one: the level's textures carry no PBR data. */
function lambertOf(material) {
  const lambert = new THREE.MeshLambertMaterial({
    map: material.map ?? null,
    color: material.color ? material.color.clone() : new THREE.Color(0xffffff),
    transparent: material.transparent,
    opacity: material.opacity,
    alphaTest: material.alphaTest,
    side: material.side,
    depthWrite: material.depthWrite,
    // A terrain's layers, blended by their alpha maps, are its vertices' colours.
    vertexColors: material.vertexColors,
  });
  lambert.name = material.name;
  return lambert;
}

function markerFor(actor, size) {
  const color = actor.light ? MARKER_COLORS.light : /PlayerStart$/i.test(actor.class) ? MARKER_COLORS.PlayerStart : MARKER_COLORS.other;
  const geometry = actor.light ? new THREE.SphereGeometry(size * 0.6, 12, 8) : new THREE.OctahedronGeometry(size);
  const marker = new THREE.Mesh(geometry, new THREE.MeshBasicMaterial({ color }));
  marker.position.set(actor.position[0], actor.position[1], actor.position[2]);
  marker.userData = { actor };
  return marker;
}

async function show(message) {
  const started = performance.now();
  const gltf = await readGlb(message);
  const nextLevel = new THREE.Group();
  const nextPick = [];
  const root = gltf.scene.getObjectByName("Level") ?? gltf.scene;
  root.updateMatrixWorld(true);
  root.traverse((object) => {
    if (!object.isMesh) return;
    const association = gltf.parser.associations.get(object);
    const mesh = association?.meshes !== undefined ? message.meshes[association.meshes] : undefined;
    object.material = Array.isArray(object.material) ? object.material.map(lambertOf) : lambertOf(object.material);
    object.userData = { mesh };
    nextPick.push(object);
  });
  nextLevel.add(root);
  // The static meshes: the k-th child of "StaticMeshes" is `placed[k]`'s actor.
  const placedGroup = gltf.scene.getObjectByName("StaticMeshes");
  if (placedGroup && placedGroup !== root) {
    placedGroup.children.forEach((child, k) => {
      const actor = message.placed?.[k];
      child.traverse((object) => {
        if (!object.isMesh) return;
        object.material = Array.isArray(object.material) ? object.material.map(lambertOf) : lambertOf(object.material);
        object.userData = { actor, placed: true };
        if (actor) nextPick.push(object);
      });
    });
    nextLevel.add(placedGroup);
  }
  // The glTF's actor nodes are empty; the markers below stand for them. The level's surfaces
  // and static meshes decide the frame (actors only when there are none): maps park actors
  // far outside.
  const box = new THREE.Box3().setFromObject(nextLevel);
  if (box.isEmpty()) for (const actor of message.actors) box.expandByPoint(new THREE.Vector3(...actor.position));
  const markerSize = Math.min(64, Math.max(8, box.getSize(new THREE.Vector3()).length() / 80));
  const nextMarkers = new THREE.Group();
  for (const actor of message.actors) nextMarkers.add(markerFor(actor, markerSize));

  scene.remove(level, markers);
  dispose(level);
  dispose(markers);
  level = nextLevel;
  markers = nextMarkers;
  scene.add(level, markers);
  pickMeshes = [...nextPick, ...nextMarkers.children];
  bounds = box;
  const sameDocument = message.keepCamera && shownDocument === message.document;
  shownDocument = message.document;
  if (!sameDocument) frameLevel();
  else render();
  const viewMs = Math.round(performance.now() - started);
  status.textContent = `${message.status}; shown in ${message.serverMs + viewMs} ms (server ${message.serverMs} ms, view ${viewMs} ms)`;
  status.className = "muted";
  status.dataset.ready = "true";
  status.dataset.serverMs = String(message.serverMs);
  status.dataset.viewMs = String(viewMs);
}

const raycaster = new THREE.Raycaster();

/** What lies under the canvas point (x, y) (CSS pixels from its top left): an actor's
 * marker or a level surface, with the line to reveal. */
function pick(x, y) {
  const canvas = renderer.domElement.getBoundingClientRect();
  const ndc = new THREE.Vector2((x / canvas.width) * 2 - 1, -(y / canvas.height) * 2 + 1);
  raycaster.setFromCamera(ndc, camera);
  for (const hit of raycaster.intersectObjects(pickMeshes, false)) {
    const actor = hit.object.userData.actor;
    if (actor) return { kind: "actor", line: actor.line, name: actor.name, point: hit.point };
    const mesh = hit.object.userData.mesh;
    if (mesh && hit.faceIndex !== undefined && hit.faceIndex !== null) {
      const line = lineOfTriangle(mesh, hit.faceIndex);
      return { kind: "surface", line, name: mesh.name, point: hit.point };
    }
  }
  return undefined;
}

/** Where `point` (world) shows on the canvas, in CSS pixels; `undefined` when behind. */
function toCanvas(point) {
  const canvas = renderer.domElement.getBoundingClientRect();
  const p = point.clone().project(camera);
  if (p.z < -1 || p.z > 1) return undefined;
  return { x: ((p.x + 1) / 2) * canvas.width, y: ((1 - p.y) / 2) * canvas.height };
}

// Fly camera: drag to look, keys to move.
const held = new Set();
let drag;
renderer.domElement.addEventListener("pointerdown", (event) => {
  renderer.domElement.focus();
  drag = { x: event.clientX, y: event.clientY, yaw, pitch, moved: false };
  renderer.domElement.setPointerCapture(event.pointerId);
});
renderer.domElement.addEventListener("pointermove", (event) => {
  if (!drag) return;
  const dx = event.clientX - drag.x;
  const dy = event.clientY - drag.y;
  if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
  if (!drag.moved) return;
  yaw = drag.yaw - dx * 0.005;
  pitch = Math.max(-1.55, Math.min(1.55, drag.pitch - dy * 0.005));
  applyLook();
  render();
});
renderer.domElement.addEventListener("pointerup", (event) => {
  const wasDrag = drag?.moved;
  drag = undefined;
  if (wasDrag) return;
  const canvas = renderer.domElement.getBoundingClientRect();
  const hit = pick(event.clientX - canvas.left, event.clientY - canvas.top);
  if (hit && hit.line !== null && hit.line !== undefined) {
    status.textContent = `${hit.kind === "actor" ? hit.name : `surface of ${hit.name}`}: line ${hit.line + 1}`;
    vscode.postMessage({ type: "reveal", line: hit.line });
  }
});
renderer.domElement.addEventListener(
  "wheel",
  (event) => {
    event.preventDefault();
    setSpeed(speed * Math.exp(-event.deltaY * 0.002));
  },
  { passive: false },
);
window.addEventListener("keydown", (event) => {
  if (event.target instanceof HTMLButtonElement) return;
  const key = event.key.toLowerCase();
  if (key === "f") frameLevel();
  else held.add(key);
});
window.addEventListener("keyup", (event) => held.delete(event.key.toLowerCase()));
window.addEventListener("blur", () => held.clear());
frameButton.addEventListener("click", () => frameLevel());

let last = performance.now();
function tick(now) {
  const dt = Math.min(0.1, (now - last) / 1000);
  last = now;
  if (held.size > 0) {
    const move = new THREE.Vector3(
      (held.has("d") ? 1 : 0) - (held.has("a") ? 1 : 0),
      (held.has("e") || held.has(" ") ? 1 : 0) - (held.has("q") || held.has("c") ? 1 : 0),
      (held.has("s") ? 1 : 0) - (held.has("w") ? 1 : 0),
    );
    if (move.lengthSq() > 0) {
      const fast = held.has("shift") ? 4 : 1;
      // Forward and sideways along the view, up and down along the world's up.
      const vertical = move.y;
      move.y = 0;
      move.applyQuaternion(camera.quaternion);
      move.y += vertical;
      camera.position.addScaledVector(move.normalize(), speed * fast * dt);
      render();
    }
  }
  requestAnimationFrame(tick);
}
requestAnimationFrame(tick);

listen(status, "level", "level", show);

window.unrealLsMap3d = {
  /** A canvas point where a surface from `line` (0-based) is what a click hits. */
  surfacePoint(line) {
    for (const object of pickMeshes) {
      const mesh = object.userData.mesh;
      if (!mesh) continue;
      const position = object.geometry.getAttribute("position");
      const index = object.geometry.getIndex();
      if (!position || !index) continue;
      for (let t = 0; t < index.count / 3; t += 1) {
        if (lineOfTriangle(mesh, t) !== line) continue;
        const corners = [0, 1, 2].map((k) => new THREE.Vector3().fromBufferAttribute(position, index.getX(t * 3 + k)).applyMatrix4(object.matrixWorld));
        // The centre, then points nearer each corner.
        const centre = corners[0].clone().add(corners[1]).add(corners[2]).divideScalar(3);
        for (const target of [centre, ...corners.map((c) => c.clone().lerp(centre, 0.5))]) {
          const at = toCanvas(target);
          if (!at) continue;
          const hit = pick(at.x, at.y);
          if (hit && hit.kind === "surface" && hit.line === line) return at;
        }
      }
    }
    return undefined;
  },
  /** A canvas point where the static mesh of the actor `name` is what a click hits. */
  placedPoint(name) {
    for (const object of pickMeshes) {
      if (!object.userData.placed || object.userData.actor?.name !== name) continue;
      const box = new THREE.Box3().setFromObject(object);
      const at = toCanvas(box.getCenter(new THREE.Vector3()));
      if (!at) continue;
      const hit = pick(at.x, at.y);
      if (hit && hit.kind === "actor" && hit.name === name) return at;
    }
    return undefined;
  },
  /** A canvas point where the marker of the actor `name` is what a click hits. */
  actorPoint(name) {
    const marker = markers.children.find((m) => m.userData.actor.name === name);
    if (!marker) return undefined;
    const at = toCanvas(marker.position);
    if (!at) return undefined;
    const hit = pick(at.x, at.y);
    return hit && hit.kind === "actor" && hit.name === name ? at : undefined;
  },
  /** The share of the picture's pixels that are not the background. */
  coverage: () => stage.coverage(),
};

setSpeed(speed);
stage.resize();
vscode.postMessage({ type: "ready" });
