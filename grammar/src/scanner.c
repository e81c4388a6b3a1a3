/*
 * External scanner for tree-sitter-t3d: begin and end lines.
 *
 * It keeps the stack of open blocks (their kinds) so that a missing `End <Kind>` line damages
 * only its own block: when an end line closes an enclosing block rather than the innermost
 * one, the scanner first closes the innermost with a zero-width MISSING_END token (the
 * `missing_end` node), and does the same for every block still open at the end of the file.
 * An end line that closes no open block is left to the internal lexer, where `End` is a
 * reserved word, so it becomes a one-line error. Actors never nest, as in the semantic
 * parser: before a `Begin Actor` line, every block still open inside the innermost map (or
 * actor list, or every open block, without one) is closed the same way. The token before a begin line is
 * empty, so that the scanner can read the kind first; the grammar lexes `Begin` itself.
 *
 * Hand-written (not generated); the state is the stack, serialized into tree-sitter's buffer.
 */

#include "tree_sitter/alloc.h"
#include "tree_sitter/parser.h"

#include <stdint.h>
#include <string.h>

/* Same order as `externals` in grammar.js. */
enum TokenType {
  BEGIN,
  MISSING_END,
  MAP_END,
  LEVEL_END,
  ACTOR_END,
  BRUSH_END,
  POLYLIST_END,
  POLYGON_END,
  OBJECT_END,
  SURFACE_END,
  TERRAIN_END,
  STATIC_MESH_END,
  TRIANGLE_END,
  GENERIC_END,
  EOF_LINE_END,
  ERROR_SENTINEL,
};

/* Block kinds, in the order of their end tokens (kind k ends with MAP_END + k). */
enum Kind {
  KIND_MAP,
  KIND_LEVEL,
  KIND_ACTOR,
  KIND_BRUSH,
  KIND_POLYLIST,
  KIND_POLYGON,
  KIND_OBJECT,
  KIND_SURFACE,
  KIND_TERRAIN,
  KIND_STATIC_MESH,
  KIND_TRIANGLE,
  KIND_GENERIC,
};

static const char *const KIND_NAMES[] = {
    "map",     "level",   "actor",   "brush",      "polylist", "polygon",
    "object",  "surface", "terrain", "staticmesh", "triangle",
};

/* One open block: its kind, and for a generic block a hash of its lower-cased name. */
typedef struct {
  uint8_t kind;
  uint32_t hash;
} Entry;

#define ENTRY_BYTES 5
#define HEADER_BYTES 4
#define MAX_DEPTH ((TREE_SITTER_SERIALIZATION_BUFFER_SIZE - HEADER_BYTES) / ENTRY_BYTES)
#define MAX_WORD 64

typedef struct {
  Entry stack[MAX_DEPTH];
  uint16_t depth;
  /* Blocks opened beyond MAX_DEPTH: their kinds are not kept, any end line closes them. */
  uint16_t overflow;
} Scanner;

typedef struct {
  char text[MAX_WORD + 1];
  uint32_t length; /* may exceed MAX_WORD; text then holds the first MAX_WORD characters */
  uint32_t hash;
} Word;

static bool is_word_start(int32_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_word_char(int32_t c) { return is_word_start(c) || (c >= '0' && c <= '9'); }

static bool is_blank(int32_t c) { return c == ' ' || c == '\t' || c == '\f'; }

static int32_t lower(int32_t c) { return (c >= 'A' && c <= 'Z') ? c + ('a' - 'A') : c; }

/* Reads an identifier (the internal lexer's `identifier`), lower-cased. */
static bool read_word(TSLexer *lexer, Word *word) {
  word->length = 0;
  word->hash = 2166136261u; /* FNV-1a */
  if (!is_word_start(lexer->lookahead)) return false;
  while (is_word_char(lexer->lookahead)) {
    int32_t c = lower(lexer->lookahead);
    if (word->length < MAX_WORD) word->text[word->length] = (char)c;
    word->length++;
    word->hash = (word->hash ^ (uint32_t)c) * 16777619u;
    lexer->advance(lexer, false);
  }
  word->text[word->length < MAX_WORD ? word->length : MAX_WORD] = '\0';
  return true;
}

static bool word_is(const Word *word, const char *text) {
  return word->length == strlen(text) && strcmp(word->text, text) == 0;
}

/* Mirrors the grammar: the known kind keywords, any `Terrain*`, else a generic block. */
static uint8_t classify(const Word *word) {
  for (uint8_t kind = 0; kind < KIND_GENERIC; kind++) {
    if (kind == KIND_TERRAIN) {
      if (word->length >= 7 && strncmp(word->text, "terrain", 7) == 0) return kind;
    } else if (word_is(word, KIND_NAMES[kind])) {
      return kind;
    }
  }
  return KIND_GENERIC;
}

static bool entry_matches(const Entry *entry, uint8_t kind, uint32_t hash) {
  return entry->kind == kind && (kind != KIND_GENERIC || entry->hash == hash);
}

static void push(Scanner *scanner, uint8_t kind, uint32_t hash) {
  if (scanner->depth < MAX_DEPTH) {
    scanner->stack[scanner->depth].kind = kind;
    scanner->stack[scanner->depth].hash = hash;
    scanner->depth++;
  } else if (scanner->overflow < UINT16_MAX) {
    scanner->overflow++;
  }
}

static void pop(Scanner *scanner) {
  if (scanner->overflow > 0) {
    scanner->overflow--;
  } else if (scanner->depth > 0) {
    scanner->depth--;
  }
}

/* After the kind of an end line: trailing blanks, a `//` comment and the newline. */
static void finish_end_line(TSLexer *lexer) {
  lexer->mark_end(lexer);
  while (is_blank(lexer->lookahead)) lexer->advance(lexer, false);
  if (lexer->lookahead == '/') {
    lexer->advance(lexer, false);
    if (lexer->lookahead != '/') return;
    while (!lexer->eof(lexer) && lexer->lookahead != '\n' && lexer->lookahead != '\r') {
      lexer->advance(lexer, false);
    }
  }
  if (lexer->lookahead == '\r') {
    lexer->advance(lexer, false);
    if (lexer->lookahead == '\n') lexer->advance(lexer, false);
    lexer->mark_end(lexer);
  } else if (lexer->lookahead == '\n') {
    lexer->advance(lexer, false);
    lexer->mark_end(lexer);
  } else if (lexer->eof(lexer)) {
    lexer->mark_end(lexer);
  }
  /* Anything else stays on the line for the parser (the token ends after the kind). */
}

static bool any_end_valid(const bool *valid_symbols) {
  for (int symbol = MISSING_END; symbol <= GENERIC_END; symbol++) {
    if (valid_symbols[symbol]) return true;
  }
  return false;
}

static bool scan_end(Scanner *scanner, TSLexer *lexer, const bool *valid_symbols) {
  if (!is_blank(lexer->lookahead)) return false;
  while (is_blank(lexer->lookahead)) lexer->advance(lexer, false);
  Word kind_word;
  if (!read_word(lexer, &kind_word)) return false;
  uint8_t kind = classify(&kind_word);
  uint32_t hash = kind_word.hash;
  enum TokenType own_end = kind == KIND_GENERIC ? GENERIC_END : (enum TokenType)(MAP_END + kind);

  if (scanner->overflow > 0) {
    if (!valid_symbols[own_end]) return false;
    finish_end_line(lexer);
    pop(scanner);
    lexer->result_symbol = own_end;
    return true;
  }
  if (scanner->depth == 0) return false;

  const Entry *top = &scanner->stack[scanner->depth - 1];
  if (entry_matches(top, kind, hash)) {
    if (!valid_symbols[own_end]) return false;
    finish_end_line(lexer);
    pop(scanner);
    lexer->result_symbol = own_end;
    return true;
  }

  for (int i = (int)scanner->depth - 2; i >= 0; i--) {
    if (entry_matches(&scanner->stack[i], kind, hash)) {
      /* Closes an enclosing block: the innermost one lost its end line. The token is empty
         (mark_end was called before `End`), so this end line is scanned again afterwards. */
      if (!valid_symbols[MISSING_END]) return false;
      pop(scanner);
      lexer->result_symbol = MISSING_END;
      return true;
    }
  }

  /* Closes no open block (a generic block too is closed only by its own name, as in the
     semantic parser): a one-line error, and the block stays open. */
  return false;
}

/* Whether a block is open inside the innermost map or level (or at all, without one). */
/* FNV-1a of a lower-case name, as `read_word` hashes a block's kind word. */
static uint32_t name_hash(const char *name) {
  uint32_t hash = 2166136261u;
  for (const char *c = name; *c; c++) hash = (hash ^ (uint32_t)(uint8_t)*c) * 16777619u;
  return hash;
}

/* Whether blocks are open inside the innermost map, level or actor list (Unreal's pre-release
   editor wrote a map's actors inside `Begin ActorList`, which the released importer reads as
   it reads a map's). */
static bool open_inside_map(const Scanner *scanner) {
  const uint32_t actor_list = name_hash("actorlist");
  int keep = 0;
  for (int i = (int)scanner->depth - 1; i >= 0; i--) {
    const Entry *entry = &scanner->stack[i];
    if (entry->kind == KIND_MAP || entry->kind == KIND_LEVEL ||
        (entry->kind == KIND_GENERIC && entry->hash == actor_list)) {
      keep = i + 1;
      break;
    }
  }
  return (int)scanner->depth > keep;
}

/* After `Begin`: the token ends where it started (mark_end was called before `Begin`), so the
   kind can be read first. */
static bool scan_begin(Scanner *scanner, TSLexer *lexer, const bool *valid_symbols) {
  if (!is_blank(lexer->lookahead)) return false;
  while (is_blank(lexer->lookahead)) lexer->advance(lexer, false);
  Word kind_word;
  if (!read_word(lexer, &kind_word)) return false;
  uint8_t kind = classify(&kind_word);
  if (kind == KIND_ACTOR && scanner->overflow == 0 && open_inside_map(scanner)) {
    /* The open block lost its end line; this begin line is scanned again afterwards. */
    if (!valid_symbols[MISSING_END]) return false;
    pop(scanner);
    lexer->result_symbol = MISSING_END;
    return true;
  }
  if (!valid_symbols[BEGIN]) return false;
  push(scanner, kind, kind_word.hash);
  lexer->result_symbol = BEGIN;
  return true;
}

void *tree_sitter_t3d_external_scanner_create(void) {
  Scanner *scanner = (Scanner *)ts_calloc(1, sizeof(Scanner));
  return scanner;
}

void tree_sitter_t3d_external_scanner_destroy(void *payload) { ts_free(payload); }

unsigned tree_sitter_t3d_external_scanner_serialize(void *payload, char *buffer) {
  Scanner *scanner = (Scanner *)payload;
  buffer[0] = (char)(scanner->depth & 0xff);
  buffer[1] = (char)(scanner->depth >> 8);
  buffer[2] = (char)(scanner->overflow & 0xff);
  buffer[3] = (char)(scanner->overflow >> 8);
  unsigned size = HEADER_BYTES;
  for (uint16_t i = 0; i < scanner->depth; i++) {
    const Entry *entry = &scanner->stack[i];
    buffer[size++] = (char)entry->kind;
    buffer[size++] = (char)(entry->hash & 0xff);
    buffer[size++] = (char)((entry->hash >> 8) & 0xff);
    buffer[size++] = (char)((entry->hash >> 16) & 0xff);
    buffer[size++] = (char)((entry->hash >> 24) & 0xff);
  }
  return size;
}

void tree_sitter_t3d_external_scanner_deserialize(void *payload, const char *buffer,
                                                  unsigned length) {
  Scanner *scanner = (Scanner *)payload;
  scanner->depth = 0;
  scanner->overflow = 0;
  if (length < HEADER_BYTES) return;
  const unsigned char *bytes = (const unsigned char *)buffer;
  uint16_t depth = (uint16_t)(bytes[0] | (bytes[1] << 8));
  scanner->overflow = (uint16_t)(bytes[2] | (bytes[3] << 8));
  unsigned size = HEADER_BYTES;
  for (uint16_t i = 0; i < depth && i < MAX_DEPTH && size + ENTRY_BYTES <= length; i++) {
    Entry *entry = &scanner->stack[i];
    entry->kind = bytes[size];
    entry->hash = (uint32_t)bytes[size + 1] | ((uint32_t)bytes[size + 2] << 8) |
                  ((uint32_t)bytes[size + 3] << 16) | ((uint32_t)bytes[size + 4] << 24);
    size += ENTRY_BYTES;
    scanner->depth = (uint16_t)(i + 1);
  }
}

bool tree_sitter_t3d_external_scanner_scan(void *payload, TSLexer *lexer,
                                           const bool *valid_symbols) {
  Scanner *scanner = (Scanner *)payload;
  /* Error recovery asks for every token at once: leave it to the internal lexer. */
  if (valid_symbols[ERROR_SENTINEL]) return false;

  while (is_blank(lexer->lookahead) || lexer->lookahead == 0xFEFF) {
    lexer->advance(lexer, true);
  }

  if (lexer->eof(lexer)) {
    if (valid_symbols[EOF_LINE_END]) {
      lexer->result_symbol = EOF_LINE_END;
      return true;
    }
    if (valid_symbols[MISSING_END] && (scanner->depth > 0 || scanner->overflow > 0)) {
      pop(scanner);
      lexer->result_symbol = MISSING_END;
      return true;
    }
    return false;
  }

  int32_t first = lower(lexer->lookahead);
  if (first != 'b' && first != 'e') return false;
  lexer->mark_end(lexer);
  Word keyword;
  if (!read_word(lexer, &keyword)) return false;
  if (word_is(&keyword, "begin") && (valid_symbols[BEGIN] || valid_symbols[MISSING_END])) {
    return scan_begin(scanner, lexer, valid_symbols);
  }
  if (word_is(&keyword, "end") && any_end_valid(valid_symbols)) {
    return scan_end(scanner, lexer, valid_symbols);
  }
  return false;
}
