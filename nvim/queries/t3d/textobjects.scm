; Text objects (nvim-treesitter-textobjects): a polygon, an actor and any block, each with its
; begin and end lines (outer) or only the lines between them (inner).
(polygon_block) @polygon.outer

(polygon_block
  body: (block_body) @polygon.inner)

(triangle_block) @polygon.outer

(triangle_block
  body: (block_body) @polygon.inner)

(actor_block) @actor.outer

(actor_block
  body: (block_body) @actor.inner)

; The usual names, so that default key maps (af/if, ac/ic) work too: an actor is a class, a
; polygon a function.
(actor_block) @class.outer

(actor_block
  body: (block_body) @class.inner)

(polygon_block) @function.outer

(polygon_block
  body: (block_body) @function.inner)

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
] @block.outer

(_
  body: (block_body) @block.inner)

; A property or a statement line.
[
  (property)
  (statement)
] @statement.outer

(property
  value: (_) @assignment.rhs) @assignment.outer

(property
  key: (_) @assignment.lhs)

(struct
  (attribute) @parameter.inner)

(statement
  argument: (_) @parameter.inner)

(comment) @comment.outer
