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
// layout differs or the tree has more nodes than `ts_node_descendant_count` said.

#include <stdint.h>
#include <stdlib.h>

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

// The children of one subtree being visited.
typedef struct {
  const Subtree *children;
  uint32_t count;
  uint32_t index;
  // The index among the children that are not extras (what alias sequences and field maps count).
  uint32_t structural;
  // The start (after padding) of the child at `index`.
  Length position;
  const TSSymbol *alias_sequence;
  const TSFieldMapEntry *field_map;
  const TSFieldMapEntry *field_map_end;
  // The entry of the nearest visible node at or above this subtree: the parent of the visible
  // nodes found among these children.
  uint32_t visible_parent;
  // Whether the subtree itself is hidden (its children belong to `visible_parent`).
  bool hidden;
  // For a hidden subtree: the field by which its visible children are held when the subtree's
  // own field map gives them none (`ts_tree_cursor_current_field_id` walks up through hidden
  // ancestors until one is held by a field, stopping at an extra or a visible ancestor).
  TSFieldId hidden_field;
} Frame;

size_t mongolint_flat_entry_size(void) { return sizeof(MongolintEntry); }

static inline bool push(Frame **frames, uint32_t *size, uint32_t *capacity, const TSLanguage *language,
                        const Subtree *subtree, Length position, uint32_t visible_parent, bool hidden,
                        TSFieldId hidden_field) {
  if (*size == *capacity) {
    uint32_t grown = *capacity ? *capacity * 2 : 64;
    Frame *more = realloc(*frames, grown * sizeof(Frame));
    if (!more) return false;
    *frames = more;
    *capacity = grown;
  }
  uint32_t production_id = subtree->ptr->production_id;
  Frame *frame = &(*frames)[(*size)++];
  frame->children = ts_subtree_children(*subtree);
  frame->count = subtree->ptr->child_count;
  frame->index = 0;
  frame->structural = 0;
  frame->position = position;
  frame->alias_sequence = ts_language_alias_sequence(language, production_id);
  ts_language_field_map(language, production_id, &frame->field_map, &frame->field_map_end);
  frame->visible_parent = visible_parent;
  frame->hidden = hidden;
  frame->hidden_field = hidden_field;
  return true;
}

// Writes the nodes below and including `root` in preorder to `out` (at most `capacity`): the
// node, its parent's index (UINT32_MAX for the root), one past the index of its subtree's last
// node, and the field by which its parent holds it (0 for none). Unless `all`, the anonymous
// leaves that no field holds (punctuation, keywords, operators outside fields: about 40% of a
// tree's nodes) are left out, but for the children of nodes of kind `keep_under` (Rust's token
// trees, read token by token). Returns the number of entries, or -1 if they do not fit or memory
// runs out.
int64_t mongolint_flatten(TSNode root, MongolintEntry *out, uint32_t capacity, bool all,
                          TSSymbol keep_under) {
  if (capacity == 0) return -1;
  const TSTree *tree = root.tree;
  const TSLanguage *language = tree->language;
  const Subtree *top = (const Subtree *)root.id;
  out[0] = (MongolintEntry){root, UINT32_MAX, 1, 0, ts_node_symbol(root)};
  uint32_t count = 1;
  if (ts_subtree_child_count(*top) == 0) return count;

  Frame *frames = NULL;
  uint32_t size = 0, frames_capacity = 0;
  Length start = {ts_node_start_byte(root), ts_node_start_point(root)};
  if (!push(&frames, &size, &frames_capacity, language, top, start, 0, false, 0)) {
    free(frames);
    return -1;
  }
  while (size > 0) {
    Frame *frame = &frames[size - 1];
    if (frame->index == frame->count) {
      if (!frame->hidden) out[frame->visible_parent].end = count;
      size--;
      continue;
    }
    // As `ts_tree_cursor_child_iterator_next`.
    const Subtree *child = &frame->children[frame->index];
    Length position = frame->position;
    bool visible = ts_subtree_visible(*child);
    bool extra = ts_subtree_extra(*child);
    TSSymbol alias = 0;
    TSFieldId field = 0;
    if (!extra) {
      if (frame->alias_sequence) {
        alias = frame->alias_sequence[frame->structural];
        visible |= alias != 0;
      }
      // As `ts_tree_cursor_current_field_id`: an inherited entry is not the child's own field.
      for (const TSFieldMapEntry *map = frame->field_map; map < frame->field_map_end; map++) {
        if (!map->inherited && map->child_index == frame->structural) {
          field = map->field_id;
          break;
        }
      }
      frame->structural++;
    }
    frame->position = length_add(frame->position, ts_subtree_size(*child));
    frame->index++;
    if (frame->index < frame->count) {
      frame->position =
          length_add(frame->position, ts_subtree_padding(frame->children[frame->index]));
    }
    uint32_t visible_parent = frame->visible_parent;
    if (!extra && field == 0 && frame->hidden) field = frame->hidden_field;
    if (visible && !all && field == 0 && ts_subtree_child_count(*child) == 0 &&
        !(alias ? ts_language_symbol_metadata(language, alias).named : ts_subtree_named(*child)) &&
        out[visible_parent].kind != keep_under) {
      // An anonymous leaf outside any field: as `ts_node_is_named` is false for it.
      continue;
    }
    if (visible) {
      if (count == capacity) {
        free(frames);
        return -1;
      }
      uint32_t index = count++;
      // As `ts_node_symbol`.
      TSSymbol kind = ts_language_public_symbol(language, alias ? alias : ts_subtree_symbol(*child));
      // As `ts_tree_cursor_current_node`: an extra has no alias.
      out[index] = (MongolintEntry){ts_node_new(tree, child, position, alias), visible_parent,
                                    index + 1, field, kind};
      if (ts_subtree_child_count(*child) > 0 &&
          !push(&frames, &size, &frames_capacity, language, child, position, index, false, 0)) {
        free(frames);
        return -1;
      }
    } else if (ts_subtree_visible_child_count(*child) > 0) {
      // A hidden subtree with visible nodes below: the cursor steps through it.
      if (!push(&frames, &size, &frames_capacity, language, child, position, visible_parent,
                true, extra ? 0 : field)) {
        free(frames);
        return -1;
      }
    }
  }
  free(frames);
  return count;
}
