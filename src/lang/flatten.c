// Flattens a tree-sitter tree into preorder in one pass over its subtrees (see src/lang/flat.rs).
//
// This is what a TSTreeCursor does when it visits every node, without the cursor's per-step
// costs: `goto_next_sibling` rebuilds a child iterator of the parent on every step and climbs
// through hidden grammar nodes, and `current_field_id` walks back up the cursor's stack. Here each
// subtree is visited once, with its parent's alias sequence and field map looked up once.
//
// It reads tree-sitter's private headers (subtree.h, language.h, tree.h), so it is tied to the
// tree-sitter version pinned in Cargo.toml (`=0.25.10`). The rules it follows are the cursor's,
// quoted from tree_cursor.c; `flat.rs`'s tests compare the result with the cursor on every node of
// every corpus file and on syntax errors, and `Flat::new` falls back to the cursor if the entry
// layout differs, the tree has more nodes than `ts_node_descendant_count` said, or it nests deeper
// than `MAX_DEPTH`.

#include <stdint.h>

#include "tree_sitter/api.h"
#include "./language.h"
#include "./length.h"
#include "./subtree.h"
#include "./tree.h"

// One node of the flat tree; the same layout as `Entry` in flat.rs.
typedef struct {
  TSNode node;
  uint32_t parent;
  uint32_t end;
  uint16_t field;
  // The node's kind, as `ts_node_symbol` gives it (its alias if aliased, as the grammar's public
  // symbol): the frontends' passes read it from the entry.
  TSSymbol kind;
} MongolintEntry;

// What the visit of one tree shares.
typedef struct {
  const TSTree *tree;
  const TSLanguage *language;
  MongolintEntry *out;
  uint32_t capacity;
  uint32_t count;
  bool all;
  TSSymbol keep_under;
} Flattening;

// Deeper subtrees (nesting that only generated or hostile code reaches) are not flattened here:
// `mongolint_flatten` fails and flat.rs walks the tree with the cursor, whose stack is on the heap.
#define MAX_DEPTH 2048

size_t mongolint_flat_entry_size(void) { return sizeof(MongolintEntry); }

// As `ts_language_public_symbol` (language.c), inlined.
static inline TSSymbol public_symbol(const TSLanguage *language, TSSymbol symbol) {
  return symbol == ts_builtin_sym_error ? symbol : language->public_symbol_map[symbol];
}

// As `ts_language_symbol_metadata(language, symbol).named` (language.c), inlined.
static inline bool symbol_named(const TSLanguage *language, TSSymbol symbol) {
  if (symbol == ts_builtin_sym_error) return true;
  if (symbol == ts_builtin_sym_error_repeat) return false;
  return language->symbol_metadata[symbol].named;
}

// Visits the children of `subtree` (a node with children, starting at `position` after its
// padding), as `ts_tree_cursor_child_iterator_next` steps through them, appending the visible
// ones in preorder. `visible_parent` is the entry of the nearest visible node at or above
// `subtree`; `hidden` says whether `subtree` itself is hidden (its visible children then belong to
// `visible_parent`), and `hidden_field` is the field by which a hidden subtree's visible children
// are held when its own field map gives them none (`ts_tree_cursor_current_field_id` walks up
// through hidden ancestors until one is held by a field, stopping at an extra or a visible
// ancestor). A recursive visit keeps each level's state in registers and on the machine stack,
// where the explicit stack of frames it replaced reloaded it from memory for every child.
static bool visit(Flattening *f, Subtree subtree, Length position, uint32_t visible_parent,
                  bool hidden, TSFieldId hidden_field, unsigned depth) {
  if (depth > MAX_DEPTH) return false;
  const TSLanguage *language = f->language;
  const Subtree *children = ts_subtree_children(subtree);
  uint32_t child_count = subtree.ptr->child_count;
  uint32_t production_id = subtree.ptr->production_id;
  const TSSymbol *alias_sequence = ts_language_alias_sequence(language, production_id);
  const TSFieldMapEntry *field_map, *field_map_end;
  ts_language_field_map(language, production_id, &field_map, &field_map_end);
  // The index among the children that are not extras (what alias sequences and field maps count).
  uint32_t structural = 0;
  for (uint32_t i = 0; i < child_count; i++) {
    const Subtree *child = &children[i];
    // The child's fields, read once: an inline subtree (a leaf) holds them in its bits, another
    // behind its pointer (tree-sitter's accessors test which on every call).
    Subtree c = *child;
    bool visible, extra, named;
    uint32_t grandchildren, visible_grandchildren;
    TSSymbol symbol;
    Length padding, size;
    if (c.data.is_inline) {
      visible = c.data.visible;
      extra = c.data.extra;
      named = c.data.named;
      symbol = c.data.symbol;
      grandchildren = 0;
      visible_grandchildren = 0;
      padding = (Length){c.data.padding_bytes, {c.data.padding_rows, c.data.padding_columns}};
      size = (Length){c.data.size_bytes, {0, c.data.size_bytes}};
    } else {
      visible = c.ptr->visible;
      extra = c.ptr->extra;
      named = c.ptr->named;
      symbol = c.ptr->symbol;
      grandchildren = c.ptr->child_count;
      visible_grandchildren = grandchildren > 0 ? c.ptr->visible_child_count : 0;
      padding = c.ptr->padding;
      size = c.ptr->size;
    }
    // The child's start: the parent's for the first child, then past the previous child and this
    // one's padding.
    if (i > 0) position = length_add(position, padding);
    Length start = position;
    position = length_add(position, size);
    TSSymbol alias = 0;
    TSFieldId field = 0;
    if (!extra) {
      if (alias_sequence) {
        alias = alias_sequence[structural];
        visible |= alias != 0;
      }
      // As `ts_tree_cursor_current_field_id`: an inherited entry is not the child's own field.
      for (const TSFieldMapEntry *map = field_map; map < field_map_end; map++) {
        if (!map->inherited && map->child_index == structural) {
          field = map->field_id;
          break;
        }
      }
      structural++;
      if (field == 0 && hidden) field = hidden_field;
    }
    if (visible) {
      if (!f->all && field == 0 && grandchildren == 0 &&
          !(alias ? symbol_named(language, alias) : named) &&
          f->out[visible_parent].kind != f->keep_under) {
        // An anonymous leaf outside any field: as `ts_node_is_named` is false for it.
        continue;
      }
      if (f->count == f->capacity) return false;
      uint32_t index = f->count++;
      // As `ts_node_symbol`, and `ts_node_new` (as `ts_tree_cursor_current_node`: an extra has no
      // alias).
      f->out[index] = (MongolintEntry){
          {{start.bytes, start.extent.row, start.extent.column, alias}, child, f->tree},
          visible_parent,
          index + 1,
          field,
          public_symbol(language, alias ? alias : symbol)};
      if (grandchildren > 0) {
        if (!visit(f, c, start, index, false, 0, depth + 1)) return false;
        f->out[index].end = f->count;
      }
    } else if (visible_grandchildren > 0) {
      // A hidden subtree with visible nodes below: the cursor steps through it.
      if (!visit(f, c, start, visible_parent, true, extra ? 0 : field, depth + 1)) return false;
    }
  }
  return true;
}

// Writes the nodes below and including `root` in preorder to `out` (at most `capacity`): the
// node, its parent's index (UINT32_MAX for the root), one past the index of its subtree's last
// node, and the field by which its parent holds it (0 for none). Unless `all`, the anonymous
// leaves that no field holds (punctuation, keywords, operators outside fields: about 40% of a
// tree's nodes) are left out, but for the children of nodes of kind `keep_under` (Rust's token
// trees, read token by token). Returns the number of entries, or -1 if they do not fit or the
// tree is nested deeper than `MAX_DEPTH`.
int64_t mongolint_flatten(TSNode root, MongolintEntry *out, uint32_t capacity, bool all,
                          TSSymbol keep_under) {
  if (capacity == 0) return -1;
  const TSTree *tree = root.tree;
  const Subtree *top = (const Subtree *)root.id;
  out[0] = (MongolintEntry){root, UINT32_MAX, 1, 0, ts_node_symbol(root)};
  if (ts_subtree_child_count(*top) == 0) return 1;
  Flattening f = {tree, tree->language, out, capacity, 1, all, keep_under};
  Length start = {ts_node_start_byte(root), ts_node_start_point(root)};
  if (!visit(&f, *top, start, 0, false, 0, 0)) return -1;
  out[0].end = f.count;
  return f.count;
}
