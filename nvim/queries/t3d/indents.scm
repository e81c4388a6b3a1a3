; Indentation (nvim-treesitter): the lines of a block are indented one level, the end line goes
; back to the begin line's level. UnrealEd itself writes three spaces a level.
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
] @indent.begin

(end_line) @indent.branch @indent.end
