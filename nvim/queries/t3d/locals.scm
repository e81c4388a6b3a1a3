; Locals: a map or a level is the scope of the object names that its actors define
; (`Begin Actor ... Name=Brush0`), and object references use those names
; (`Brush'MyLevel.Brush0'`, whose last component is the name).
[
  (map_block)
  (level_block)
] @local.scope

(name_attribute
  value: (_) @local.definition)

(object_reference
  path: (object_path) @local.reference)
