// The textures of an asset search, as the quick pick of "Replace a missing texture
// everywhere" lists them (pickTexture.ts). Plain data, no `vscode` import (unit-tested).

import type { FindAssetsResult } from "./protocol";

export interface TextureItem {
  label: string;
  description: string;
  /** `Package.Group.Name`: what replaces the missing texture. */
  name: string;
}

/** The textures of an asset search, as quick pick items (meshes, sounds and classes left out). */
export function textureItems(result: FindAssetsResult): TextureItem[] {
  return result.assets
    .filter((asset) => asset.kind === "texture")
    .map((asset) => ({ label: asset.name, description: asset.class, name: asset.name }));
}
