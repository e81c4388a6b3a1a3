; Every block folds, from its begin line to its end line.
[
  (map_block)
  (level_block)
  (actor_block)
  (brush_block)
  (polylist_block)
  (polygon_block)
  (object_block)
  (surface_block)
  (terrain_block)
  (static_mesh_block)
  (triangle_block)
  (block)
] @fold
