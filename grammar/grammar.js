/**
 * @file tree-sitter grammar for T3D, UnrealEd's text export of maps, brushes and actors
 *       (Unreal Engine 1 and 2).
 * @license MIT
 *
 * The format is line-oriented: `Begin <Kind> [Attr=Value ...]` opens a block that the matching
 * `End <Kind>` closes, and every other line is either a property (`Key=Value`, `Key(3)=Value`)
 * or a statement (`Vertex +00128.000000,-00064.000000,+00000.000000`, `Pan U=57 V=0`).
 * Newlines are tokens, so a broken line stays one broken line and a broken block stays local.
 *
 * Keywords are case-insensitive (`Begin Map`, `BEGIN MAP`), CRLF and LF both work, and a UTF-8
 * byte-order mark is skipped. Known block kinds get their own node (`actor_block`,
 * `polygon_block`, ...) so that queries need no case-insensitive text predicates; any other
 * `Begin X ... End X` is a generic `block`. Every block has the fields `begin` (a `begin_line`
 * whose `kind` field is the `block_kind`), an optional `body` and `end` (an `end_line`).
 */

/// <reference types="tree-sitter-cli/dsl" />
// @ts-check

/** A case-insensitive keyword that shows in the tree (and in queries) as `text`. */
function keyword(text) {
  return alias(new RegExp(text, 'i'), text);
}


/**
 * The block kinds that get a node of their own: [node name prefix, keyword token].
 * `Terrain*` covers every kind that starts with Terrain (Terrain, TerrainInfo, ...).
 */
const BLOCK_KINDS = [
  ['map', 'Map'],
  ['level', 'Level'],
  ['actor', 'Actor'],
  ['brush', 'Brush'],
  ['polylist', 'PolyList'],
  ['polygon', 'Polygon'],
  ['object', 'Object'],
  ['surface', 'Surface'],
  ['terrain', 'Terrain', /terrain[a-z0-9_]*/i],
  ['static_mesh', 'StaticMesh'],
  ['triangle', 'Triangle'],
];

/**
 * A block: its begin line, the lines inside (`body`) and its end line. Begin and end lines
 * come from the external scanner (src/scanner.c), which keeps the stack of open blocks: an
 * `End <Kind>` that closes an enclosing block instead of the innermost one first closes the
 * innermost with a zero-width `missing_end`, so a block whose end line is missing stays the
 * only damaged node instead of turning the whole file into an error. The same happens at the
 * end of the file.
 */
function blockRule($, begin, end) {
  return seq(
    field('begin', begin),
    optional(field('body', $.block_body)),
    choice(field('end', end), $.missing_end),
  );
}

module.exports = grammar({
  name: 't3d',

  // Horizontal space and a byte-order mark anywhere; newlines are real tokens.
  extras: $ => [/[ \t\f\uFEFF]+/, $.comment],

  // The order matches `enum TokenType` in src/scanner.c.
  externals: $ => [
    $._begin,
    $.missing_end,
    ...BLOCK_KINDS.map(([name]) => $[`_${name}_end`]),
    $._generic_end,
    $._eof,
    $._error_sentinel,
  ],

  word: $ => $.identifier,

  // `Begin` and `End` never start a property or a statement, so a stray `End Foo` line is an
  // error rather than a statement named End. Values may still be any word (`Tag=End`).
  reserved: {
    global: $ => [$.kw_begin, $.kw_end],
    values: _ => [],
  },

  rules: {
    source_file: $ => repeat($._item),

    // The scanner makes the end lines and an empty token before each begin line (having
    // read its kind: `Begin Actor` first closes what is still open inside the map); `Begin`
    // itself is this keyword. Listed before `identifier` so that they win a tie (`Begin` is the
    // keyword, `BeginPlay` the longer identifier).
    kw_begin: _ => /begin/i,
    kw_end: _ => /end/i,

    // A block's end line takes its newline along; any other line ends with a newline or with
    // the end of the file.
    _item: $ => choice($._newline, seq($._line, $._line_end), $._block),
    _line_end: $ => choice($._newline, $._eof),
    _line: $ => choice($._property_line, $.statement),

    _block: $ => choice(
      ...BLOCK_KINDS.map(([name]) => $[`${name}_block`]),
      $.block,
    ),

    // Everything between a begin line and its end line, as whole lines.
    block_body: $ => repeat1($._item),

    ...Object.assign({}, ...BLOCK_KINDS.map(([name, text, pattern]) => {
      const kind = pattern ?? new RegExp(text, 'i');
      return {
        [`${name}_block`]: $ => blockRule(
          $,
          alias($[`_${name}_begin`], $.begin_line),
          alias($[`_${name}_end`], $.end_line),
        ),
        [`_${name}_begin`]: $ => seq(
          $._begin,
          alias($.kw_begin, 'Begin'),
          field('kind', alias(alias(kind, text), $.block_kind)),
          repeat($._begin_attribute),
          $._line_end,
        ),
      };
    })),

    // Any other `Begin X ... End X`. The scanner closes it with `End X` (names compared
    // without case), as the semantic parser does.
    block: $ => blockRule(
      $,
      alias($._generic_begin, $.begin_line),
      alias($._generic_end, $.end_line),
    ),
    _generic_begin: $ => seq(
      $._begin,
          alias($.kw_begin, 'Begin'),
      field('kind', alias($.identifier, $.block_kind)),
      repeat($._begin_attribute),
      $._line_end,
    ),

    // `Name=` and `Class=` get nodes of their own: they name and type the object a block makes.
    _begin_attribute: $ => choice($.name_attribute, $.class_attribute, $.attribute),
    name_attribute: $ => prec.right(seq(
      field('key', keyword('Name')), '=', optional(field('value', $._value)),
    )),
    class_attribute: $ => prec.right(seq(
      field('key', keyword('Class')), '=', optional(field('value', $._value)),
    )),

    // `Key=Value`, `Key(3)=Value`, `Key[3]=Value`; a static mesh header puts several on a line.
    _property_line: $ => seq($.property, repeat($.attribute)),
    // An empty value (`Key=`) is allowed; when a word follows, it is the value.
    property: $ => prec.right(seq(
      field('key', $._key),
      optional(field('index', $.index)),
      '=',
      optional(field('value', $._value)),
    )),
    attribute: $ => prec.right(seq(
      field('key', $._key),
      optional(field('index', $.index)),
      '=',
      optional(field('value', $._value)),
    )),
    index: $ => choice(
      seq(token.immediate('('), choice($.number, $.identifier), ')'),
      seq(token.immediate('['), choice($.number, $.identifier), ']'),
    ),

    // Dotted keys appear in static mesh headers: `BoundingBox.Min.X=-32.000000`.
    _key: $ => choice($.identifier, $.dotted_identifier),
    dotted_identifier: $ => seq(
      $.identifier,
      repeat1(seq(token.immediate('.'), alias(token.immediate(/[A-Za-z0-9_]+/), $.identifier))),
    ),

    // A keyword followed by arguments: polygon lines (`Origin`, `Normal`, `TextureU`,
    // `TextureV`, `Pan U= V=`, `Vertex`), surface lines (`BASE`, `TEXTUREU`, `NORMAL`, `PAN`),
    // brush settings (`PrePivot`, `Location`, `Rotation`, `Scale`, `PostScale`,
    // `Settings CSG= PolyFlags=`) and triangle lines (`Texture`, `SmoothingMask`,
    // `Vertex N X,Y,Z U,V`). Which keywords are valid where is the semantic parser's business.
    statement: $ => seq(
      field('keyword', alias($.identifier, $.keyword)),
      repeat(field('argument', $._argument)),
    ),
    _argument: $ => reserved('values', choice(
      $.vector,
      $.number,
      $.string,
      $.object_reference,
      $.attribute,
      alias($.identifier, $.word),
      alias($._bare_word, $.word),
    )),

    // `+00128.000000,-00064.000000,+00000.000000`, or `U,V` in a triangle's vertex line.
    vector: $ => seq($.number, repeat1(seq(',', $.number))),

    _value: $ => reserved('values', choice(
      $.number,
      $.string,
      $.object_reference,
      $.struct,
      alias($.identifier, $.word),
      alias($._bare_word, $.word),
    )),

    // `(X=1.0,Y=2.0)`, nested `(Scale=(Y=3.0),SheerAxis=SHEER_ZX)`, or a list `(1,2,,4)`.
    struct: $ => seq(
      '(',
      optional($._element),
      repeat(seq(',', optional($._element))),
      ')',
    ),
    _element: $ => choice($.attribute, $._value),

    // `Texture'Engine.DefaultTexture'`, `LevelInfo'MyLevel.LevelInfo0'`.
    object_reference: $ => seq(
      field('class', choice(
        alias($.identifier, $.class_name),
        alias($._bare_word, $.class_name),
      )),
      token.immediate("'"),
      optional(field('path', alias(token.immediate(/[^'\r\n]+/), $.object_path))),
      "'",
    ),

    // Numbers before words: `-00128.000000` is a number, `2DLoftSIDE` a (longer) word.
    number: _ => /[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?/,
    string: _ => /"([^"\\\r\n]|\\[^\r\n])*"/,
    identifier: _ => /[A-Za-z_][A-Za-z0-9_]*/,
    // Anything else up to a separator: `Engine.DefaultTexture`, `2DLoftSIDE`, `1.#INF00`.
    _bare_word: _ => /[^\s=(),"'\[\]\/][^\s=(),"'\[\]]*/,

    // UnrealEd never writes comments; `//` notes are accepted for hand-written files (and
    // carry the highlight tests' assertions).
    comment: _ => token(seq('//', /[^\r\n]*/)),

    _newline: _ => /\r?\n|\r/,

  },
});
