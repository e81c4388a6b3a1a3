// What the 3D map view (map3d.js) and the 3D mesh view (mesh3d.js) set up alike: a WebGL
// renderer filling the page's `#viewport`, a scene on the views' background, a camera with a
// sky light and a lamp riding on it, a glTF reader, the page's messages turned into a shown
// model or an error on the status line, and the end-to-end test's coverage count.
import * as THREE from "three";
import { GLTFLoader } from "three/examples/jsm/loaders/GLTFLoader.js";

export const BACKGROUND = new THREE.Color(0x1b1f24);

/**
 * The renderer, scene and camera (field of view `fov`, depth `near`..`far`) in `viewport`;
 * `status` says why when WebGL cannot start. `onResize` runs after the canvas takes the
 * viewport's new size.
 */
export function createStage({ viewport, status, fov, near, far, lamp, onResize }) {
  let renderer;
  try {
    renderer = new THREE.WebGLRenderer({ antialias: true });
  } catch (error) {
    status.textContent = `WebGL is not available here, so the 3D view cannot draw: ${error instanceof Error ? error.message : String(error)}`;
    status.className = "error";
    throw error;
  }
  renderer.setPixelRatio(window.devicePixelRatio || 1);
  viewport.appendChild(renderer.domElement);
  renderer.domElement.id = "canvas";
  renderer.domElement.tabIndex = 0;

  const scene = new THREE.Scene();
  scene.background = BACKGROUND;
  const camera = new THREE.PerspectiveCamera(fov, 1, near, far);
  // Unreal content is lit by its own lights only in the engine; here a sky light and a lamp
  // on the camera give every face a shade of its own.
  scene.add(new THREE.HemisphereLight(0xffffff, 0x505060, 2.2));
  const headlamp = new THREE.DirectionalLight(0xffffff, lamp);
  headlamp.position.set(0.3, 0.5, 1);
  camera.add(headlamp);
  scene.add(camera);

  function resize() {
    const box = viewport.getBoundingClientRect();
    const width = Math.max(1, Math.floor(box.width));
    const height = Math.max(1, Math.floor(box.height));
    renderer.setSize(width, height, false);
    renderer.domElement.style.width = `${width}px`;
    renderer.domElement.style.height = `${height}px`;
    camera.aspect = width / height;
    camera.updateProjectionMatrix();
    onResize?.();
  }
  new ResizeObserver(() => resize()).observe(viewport);

  return {
    renderer,
    scene,
    camera,
    resize,
    /** The share of the picture's pixels that are not the background, and how many colours
     * (read back right after drawing, so the drawing buffer need not be kept). */
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
  };
}

/** The glTF in a message's `glb` bytes. */
export function readGlb(message) {
  const bytes = message.glb instanceof Uint8Array ? message.glb : new Uint8Array(message.glb);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  return new GLTFLoader().parseAsync(buffer, "");
}

/** Frees the GPU side of everything under `object`. */
export function dispose(object) {
  object.traverse((o) => {
    if (o.geometry) o.geometry.dispose();
    const materials = Array.isArray(o.material) ? o.material : o.material ? [o.material] : [];
    for (const material of materials) {
      if (material.map) material.map.dispose();
      material.dispose();
    }
  });
}

/**
 * Listens to the extension: a message of type `kind` goes to `show` (its failure is put on
 * the status line as "The `what` could not be shown"), "error" and "loading" to the status
 * line.
 */
export function listen(status, kind, what, show) {
  window.addEventListener("message", (event) => {
    const message = event.data;
    if (message.type === kind) {
      status.dataset.ready = "false";
      show(message).catch((error) => {
        status.textContent = `The ${what} could not be shown: ${error instanceof Error ? error.message : String(error)}`;
        status.className = "error";
      });
    } else if (message.type === "error") {
      status.textContent = message.message;
      status.className = "error";
    } else if (message.type === "loading") {
      status.textContent = message.message;
      status.className = "muted";
    }
  });
}
