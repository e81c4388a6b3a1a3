; Highlights for T3D. Capture names follow Neovim's (:h treesitter-highlight-groups); the
; tree-sitter CLI reads the same names. No two patterns capture the same node, because the
; CLI lets the first pattern win and Neovim the last.

"Begin" @keyword

(end_line) @keyword

(block_kind) @type

(missing_end) @error

; The keyword of a polygon, surface, brush or triangle line: Origin, Normal, TextureU, TextureV,
; Pan, Vertex, BASE, PrePivot, Settings, SmoothingMask...
(statement
  keyword: (keyword) @function.builtin)

; Begin line attributes. Name= names the object the block makes; Class= types it.
(name_attribute
  key: _ @attribute.builtin
  value: (word)? @label)

(class_attribute
  key: _ @attribute.builtin
  value: (word)? @type)

(begin_line
  (attribute
    key: (_) @attribute))

; Properties, and the further assignments of a line such as `Version=2 BoundingBox.Min.X=-32`.
(property
  key: (_) @property)

(block_body
  (attribute
    key: (_) @property))

(source_file
  (attribute
    key: (_) @property))

; Struct fields (`X=`) and statement arguments (`U=`, `CSG=`).
(struct
  (attribute
    key: (_) @variable.member))

(statement
  argument: (attribute
    key: (_) @variable.member))

(index
  [
    (number)
    (identifier)
  ] @number)

(object_reference
  class: (class_name) @type)

(object_reference
  path: (object_path) @string.special.path)

; Bare words: enum values (CSG_Subtract), names (LevelInfo0), packages (Engine.DefaultTexture).
([
  (property
    value: (word) @boolean)
  (attribute
    value: (word) @boolean)
  (struct
    (word) @boolean)
  (statement
    argument: (word) @boolean)
]
  (#any-of? @boolean "True" "False" "true" "false" "TRUE" "FALSE"))

([
  (property
    value: (word) @constant)
  (attribute
    value: (word) @constant)
  (struct
    (word) @constant)
  (statement
    argument: (word) @constant)
]
  (#not-any-of? @constant "True" "False" "true" "false" "TRUE" "FALSE"))

(number) @number

(string) @string

(comment) @comment @spell

"=" @operator

[
  ","
  "."
] @punctuation.delimiter

"'" @punctuation.special

[
  "("
  ")"
  "["
  "]"
] @punctuation.bracket
