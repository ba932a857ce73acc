//! A parsed tree flattened once into preorder, for the frontends' many passes.
//!
//! tree-sitter's cursor pays for hidden grammar nodes on every step (`goto_next_sibling` and
//! `goto_first_child` were a third of a run's instructions when each frontend walked every tree
//! three or four times: bindings, operations, schema indexes, parent links). Walking the tree once
//! into an array makes every later pass a loop over that array, and gives parent links, child lists
//! and fields without a cursor: a node's entry is found through a table keyed by its id.
//! `Node::parent()` is no substitute: it re-descends from the root and scans every sibling list on
//! the way, which made the frontends quadratic.
//!
//! The flattening itself is done by `flatten.c` in one pass over tree-sitter's subtrees: the
//! cursor's `goto_next_sibling` rebuilds a child iterator of the parent on every step and its
//! `field_id` walks back up its stack, which made this walk 13% of a run's instructions (callgrind,
//! bench/README.md: 153 M of 1,137 M; the one-pass flattener takes 47 M). The cursor walk stays as
//! the fallback and as the reference the tests compare the flattener with.

use tree_sitter::Node;

const NONE: u32 = u32::MAX;

extern "C" {
    /// `sizeof(MongolintEntry)` in flatten.c.
    fn mongolint_flat_entry_size() -> usize;
    /// Writes the flat entries of the tree below `root` to `out` (at most `capacity`); returns
    /// how many, or -1 if they do not fit. Unless `all`, the anonymous leaves that no field holds
    /// are left out.
    fn mongolint_flatten(
        root: tree_sitter::ffi::TSNode,
        out: *mut Entry<'_>,
        capacity: u32,
        all: bool,
        keep_under: u16,
    ) -> i64;
}

/// The layout of `MongolintEntry` in flatten.c.
#[derive(Clone, Copy)]
#[repr(C)]
struct Entry<'t> {
    node: Node<'t>,
    /// Index of the parent entry, `NONE` for the root.
    parent: u32,
    /// One past the index of the last entry of this node's subtree.
    end: u32,
    /// The field by which the parent holds this node (0: none).
    field: u16,
    /// `node.kind_id()`, read once here for the passes that visit every node.
    kind: u16,
}

pub(crate) struct Flat<'t> {
    entries: Vec<Entry<'t>>,
    /// Open-addressing table from a node's id (unique within a tree) to its entry: the entry's
    /// index + 1, 0 for an empty slot; a power of two at least twice the entries. Four bytes a
    /// slot rather than the id beside the index: the table is allocated zeroed for every file.
    slots: Vec<u32>,
    /// The grammar slot (`lang::grammar_slot`) of the tree, for `field`'s field-id lookups.
    grammar: Option<usize>,
}

/// The home slot of a node id in a table of `mask + 1` slots.
#[inline]
fn home(id: usize, mask: usize) -> usize {
    ((id as u64 >> 3).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & mask
}

/// Which nodes a flat tree holds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Nodes {
    /// Every node, named or not, as a cursor visits them.
    All,
    /// Every node but the anonymous leaves that no field holds: the punctuation, keywords and
    /// operators that are not a field's value, about 40% of a tree's nodes. No frontend reads
    /// them: `children` is only ever filtered to named nodes, the passes look at named kinds,
    /// and an anonymous node a frontend does read (`operator`, say) is a field's value. The
    /// children of nodes of kind `keep_under` are all held (Rust's token trees, whose tokens the
    /// frontend reads one by one); `NO_KIND` for none.
    Sparse { keep_under: u16 },
}

/// No node kind (`Nodes::Sparse`).
const NO_KIND: u16 = u16::MAX;

/// Whether a flat tree of `nodes` holds `node`, held by its parent (of kind `parent_kind`) under
/// `field` (0: none).
fn holds(nodes: Nodes, node: Node<'_>, field: u16, parent_kind: u16) -> bool {
    match nodes {
        Nodes::All => true,
        Nodes::Sparse { keep_under } => {
            field != 0 || node.is_named() || node.child_count() > 0 || parent_kind == keep_under
        }
    }
}

/// The nodes below and including `root` in preorder: the one-pass flattener of flatten.c, or
/// tree-sitter's cursor where it cannot be used.
fn entries<'t>(root: Node<'t>, nodes: Nodes) -> Vec<Entry<'t>> {
    flattened(root, nodes).unwrap_or_else(|| walked(root, nodes))
}

/// Reads every node of the tree below `root` once, its kind and byte range, as `Flat::new` does
/// (the benchmark's floor-walk); returns a sum over the nodes so that the work is not optimised
/// away.
pub(crate) fn read_every_node(root: Node<'_>) -> usize {
    entries(root, Nodes::All).iter().fold(0usize, |sum, e| {
        sum.wrapping_add(usize::from(e.kind) ^ e.node.start_byte() ^ e.node.end_byte())
    })
}

/// The one-pass flattener of flatten.c, or `None` if it cannot be used for this tree.
fn flattened<'t>(root: Node<'t>, nodes: Nodes) -> Option<Vec<Entry<'t>>> {
    if unsafe { mongolint_flat_entry_size() } != std::mem::size_of::<Entry<'static>>() {
        return None;
    }
    let capacity = root.descendant_count();
    let mut entries: Vec<Entry<'t>> = Vec::with_capacity(capacity);
    let written = unsafe {
        mongolint_flatten(
            root.into_raw(),
            entries.as_mut_ptr(),
            u32::try_from(capacity).ok()?,
            nodes == Nodes::All,
            match nodes {
                Nodes::All => NO_KIND,
                Nodes::Sparse { keep_under } => keep_under,
            },
        )
    };
    let written = usize::try_from(written).ok()?;
    // SAFETY: flatten.c initialised the first `written` (at most `capacity`) entries, each a
    // node of `root`'s tree.
    unsafe { entries.set_len(written) };
    Some(entries)
}

/// The same flattening with tree-sitter's cursor.
fn walked<'t>(root: Node<'t>, nodes: Nodes) -> Vec<Entry<'t>> {
    let mut entries: Vec<Entry<'t>> = Vec::with_capacity(root.descendant_count());
    // The open ancestors: (entry index, children still to visit). Knowing how many children
    // are left (`child_count`, a field read) saves the cursor's failing `goto_next_sibling`
    // after each last child, which climbs through hidden grammar nodes before it gives up,
    // and `goto_first_child` on leaves.
    let mut open: Vec<(u32, u32)> = Vec::new();
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        let idx = entries.len() as u32;
        let field = cursor.field_id().map_or(0, |f| f.get());
        let parent_kind = open.last().map_or(NO_KIND, |o| entries[o.0 as usize].kind);
        if idx == 0 || holds(nodes, node, field, parent_kind) {
            entries.push(Entry {
                node,
                parent: open.last().map_or(NONE, |o| o.0),
                end: idx + 1,
                field,
                kind: node.kind_id(),
            });
        }
        let count = node.child_count() as u32;
        if count > 0 && cursor.goto_first_child() {
            open.push((idx, count - 1));
            continue;
        }
        loop {
            let Some(top) = open.last_mut() else {
                return entries;
            };
            if top.1 > 0 && cursor.goto_next_sibling() {
                top.1 -= 1;
                break;
            }
            let (p, _) = open.pop().expect("an open ancestor");
            entries[p as usize].end = entries.len() as u32;
            cursor.goto_parent();
        }
    }
}

impl<'t> Flat<'t> {
    /// Flattens the tree below `root`: every node but the anonymous leaves that no field holds
    /// (`Nodes::Sparse`). The walks and `children` skip those leaves; `of`, `field` and the walks
    /// started from one of them still answer as tree-sitter does.
    pub(crate) fn new(root: Node<'t>) -> Self {
        Flat::indexed(entries(
            root,
            Nodes::Sparse {
                keep_under: NO_KIND,
            },
        ))
    }

    /// `new`, but holding every child of the nodes of kind `kind` (a named kind of the grammar),
    /// anonymous leaves included.
    pub(crate) fn keeping_children_of(root: Node<'t>, kind: &str) -> Self {
        let keep_under = root.language().id_for_node_kind(kind, true);
        Flat::indexed(entries(
            root,
            Nodes::Sparse {
                keep_under: if keep_under == 0 { NO_KIND } else { keep_under },
            },
        ))
    }

    fn indexed(entries: Vec<Entry<'t>>) -> Self {
        let size = (entries.len() * 2).next_power_of_two().max(2);
        let mask = size - 1;
        let mut slots = vec![0u32; size];
        for (i, e) in entries.iter().enumerate() {
            let mut at = home(e.node.id(), mask);
            while slots[at] != 0 {
                at = (at + 1) & mask;
            }
            slots[at] = i as u32 + 1;
        }
        Flat {
            entries,
            slots,
            grammar: super::current_grammar_slot(),
        }
    }

    /// The index of `n` in preorder, if `n` belongs to this tree.
    #[inline]
    fn index(&self, n: Node<'t>) -> Option<usize> {
        let id = n.id();
        let mask = self.slots.len() - 1;
        let mut at = home(id, mask);
        loop {
            match self.slots[at] {
                0 => return None,
                s if self.entries[s as usize - 1].node.id() == id => return Some(s as usize - 1),
                _ => at = (at + 1) & mask,
            }
        }
    }

    /// The tree's root (the node the flat tree was made from).
    pub(crate) fn root(&self) -> Node<'t> {
        self.entries[0].node
    }

    /// The parent of `n` (a node of this tree).
    #[inline]
    pub(crate) fn of(&self, n: Node<'t>) -> Option<Node<'t>> {
        let Some(i) = self.index(n) else {
            // A leaf left out of the flat tree.
            return n.parent();
        };
        let p = self.entries[i].parent;
        (p != NONE).then(|| self.entries[p as usize].node)
    }

    /// The children of `n`, named or not, in order.
    pub(crate) fn children(&self, n: Node<'t>) -> Children<'_, 't> {
        match self.index(n) {
            Some(i) => Children {
                entries: &self.entries,
                next: i + 1,
                end: self.entries[i].end as usize,
            },
            None => Children {
                entries: &self.entries,
                next: 0,
                end: 0,
            },
        }
    }

    /// `n.child_by_field_name(name)` from the recorded field ids: tree-sitter's lookup scans the
    /// node's children and the grammar's field map on every call (5% of a run, bench/README.md).
    #[inline]
    pub(crate) fn field(&self, n: Node<'t>, name: &'static str) -> Option<Node<'t>> {
        let id = super::field_id(self.grammar, n, name)?;
        let Some(i) = self.index(n) else {
            return n.child_by_field_id(id);
        };
        let end = self.entries[i].end as usize;
        let mut next = i + 1;
        while next < end {
            let e = &self.entries[next];
            if e.field == id {
                return Some(e.node);
            }
            next = e.end as usize;
        }
        None
    }

    /// Visits the subtree of `n` depth-first, `visit(node, kind, true)` on entering a node and
    /// `visit(node, kind, false)` on leaving it, `kind` being `node.k()` read from the entry: the
    /// same sequence as `lang::walk`, without the cursor.
    pub(crate) fn walk(&self, n: Node<'t>, mut visit: impl FnMut(Node<'t>, &'static str, bool)) {
        let names = super::kind_names();
        self.walk_ids(n, |m, id, enter| {
            visit(m, super::kind_name(names, id, m), enter)
        });
    }

    /// `walk` restricted to the nodes whose kind has flags in `table` (`lang::KindFlags::table`):
    /// `visit(node, flags, enter)` on entering and on leaving each of them, in the order `walk`
    /// would. The nodes without flags (most of a tree) cost a table lookup each.
    pub(crate) fn walk_flagged(
        &self,
        n: Node<'t>,
        table: &[u16],
        mut visit: impl FnMut(Node<'t>, u16, bool),
    ) {
        let Some(first) = self.index(n) else {
            return self.walk_ids(n, |m, id, enter| {
                let f = super::flags_of(table, id);
                if f != 0 {
                    visit(m, f, enter);
                }
            });
        };
        let last = self.entries[first].end as usize;
        // The flagged nodes entered and not yet left: (entry index, flags).
        let mut open: Vec<(usize, u16)> = Vec::new();
        for j in first..last {
            let e = &self.entries[j];
            let f = super::flags_of(table, e.kind);
            if f == 0 {
                continue;
            }
            while let Some(&(top, tf)) = open.last() {
                if self.entries[top].end as usize > j {
                    break;
                }
                visit(self.entries[top].node, tf, false);
                open.pop();
            }
            visit(e.node, f, true);
            open.push((j, f));
        }
        while let Some((top, tf)) = open.pop() {
            visit(self.entries[top].node, tf, false);
        }
    }

    /// `walk`, handing each visit the node's kind id (`Node::kind_id`) rather than its name.
    pub(crate) fn walk_ids(&self, n: Node<'t>, mut visit: impl FnMut(Node<'t>, u16, bool)) {
        let Some(first) = self.index(n) else {
            return super::walk(n, |m, enter| visit(m, m.kind_id(), enter));
        };
        let last = self.entries[first].end as usize;
        let mut open: Vec<usize> = Vec::new();
        for j in first..last {
            while let Some(&top) = open.last() {
                if self.entries[top].end as usize > j {
                    break;
                }
                let e = &self.entries[top];
                visit(e.node, e.kind, false);
                open.pop();
            }
            let e = &self.entries[j];
            visit(e.node, e.kind, true);
            open.push(j);
        }
        while let Some(top) = open.pop() {
            let e = &self.entries[top];
            visit(e.node, e.kind, false);
        }
    }
}

/// The children of a node (`Flat::children`).
pub(crate) struct Children<'f, 't> {
    entries: &'f [Entry<'t>],
    next: usize,
    end: usize,
}

impl<'t> Iterator for Children<'_, 't> {
    type Item = Node<'t>;
    fn next(&mut self) -> Option<Node<'t>> {
        if self.next >= self.end {
            return None;
        }
        let e = &self.entries[self.next];
        self.next = e.end as usize;
        Some(e.node)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Language;

    /// Compares the flat index with tree-sitter on every node; returns the number of nodes.
    fn check(language: Language, src: &str) -> usize {
        super::super::use_tables_of(language);
        let lang = super::super::grammar(language);
        let mut p = tree_sitter::Parser::new();
        p.set_language(&lang).unwrap();
        let tree = p.parse(src, None).unwrap();
        let root = tree.root_node();
        // Rust's token trees keep their tokens.
        let keep = (language == Language::Rust).then_some("token_tree");
        let flat = match keep {
            Some(kind) => Flat::keeping_children_of(root, kind),
            None => Flat::new(root),
        };
        let keep_under = keep.map_or(NO_KIND, |k| lang.id_for_node_kind(k, true));
        assert_ne!(keep_under, 0);
        let sparse = Nodes::Sparse { keep_under };
        // The one-pass flattener (used here) and the cursor's walk give the same entries, with
        // every node and without the anonymous leaves outside fields.
        let key = |f: &Flat| -> Vec<_> {
            f.entries
                .iter()
                .map(|e| {
                    (
                        e.node.id(),
                        e.node.kind_id(),
                        e.node.byte_range(),
                        e.node.start_position(),
                        e.parent,
                        e.end,
                        e.field,
                        e.kind,
                    )
                })
                .collect()
        };
        for nodes in [Nodes::All, sparse] {
            let walked = Flat::indexed(walked(root, nodes));
            let flattened = Flat::indexed(flattened(root, nodes).expect("flatten.c applies"));
            assert_eq!(key(&walked), key(&flattened), "{nodes:?}");
        }
        let every = flattened(root, Nodes::All).unwrap();
        assert_eq!(root.descendant_count(), every.len());
        // The nodes the sparse tree holds: named, inner, some field's value, or a token of a
        // token tree.
        let held: std::collections::HashSet<usize> = every
            .iter()
            .filter(|e| {
                e.node.is_named()
                    || e.node.child_count() > 0
                    || e.field != 0
                    || (e.parent != NONE && every[e.parent as usize].kind == keep_under)
            })
            .map(|e| e.node.id())
            .collect();
        assert_eq!(flat.entries.len(), held.len());
        // The replayed walk is the cursor's walk over the held nodes, event for event, from the
        // root and from every node.
        let cursor_walk = |from: Node<'_>| {
            let mut events = Vec::new();
            super::super::walk(from, |n, enter| {
                if n.id() == from.id() || held.contains(&n.id()) {
                    events.push((n.id(), enter))
                }
            });
            events
        };
        let mut replay = Vec::new();
        flat.walk(root, |n, k, enter| {
            assert_eq!(k, n.kind(), "{n:?}");
            replay.push((n.id(), enter))
        });
        assert_eq!(cursor_walk(root), replay);
        // The flagged walk is that walk restricted to the kinds with flags, each visit given its
        // kind's flags (here every third kind id is flagged).
        let table: Vec<u16> = (0..lang.node_kind_count() as u16)
            .map(|id| if id % 3 == 0 { id | 0x8000 } else { 0 })
            .collect();
        let mut expected = Vec::new();
        super::super::walk(root, |n, enter| {
            let f = super::super::flags_of(&table, n.kind_id());
            if f != 0 && held.contains(&n.id()) {
                expected.push((n.id(), f, enter));
            }
        });
        let mut flagged = Vec::new();
        flat.walk_flagged(root, &table, |n, f, enter| flagged.push((n.id(), f, enter)));
        assert!(!flagged.is_empty());
        assert_eq!(expected, flagged);
        let mut count = 0;
        super::super::walk(root, |n, enter| {
            if !enter {
                return;
            }
            count += 1;
            // Held or not, every node's parent and fields are tree-sitter's.
            assert_eq!(
                flat.of(n).map(|p| p.id()),
                n.parent().map(|p| p.id()),
                "{n:?}"
            );
            let mut c = n.walk();
            let expected: Vec<usize> = n
                .children(&mut c)
                .map(|c| c.id())
                .filter(|id| held.contains(id))
                .collect();
            let got: Vec<usize> = flat.children(n).map(|c| c.id()).collect();
            assert_eq!(expected, got, "{n:?}");
            let mut c = n.walk();
            let named: Vec<usize> = n.named_children(&mut c).map(|c| c.id()).collect();
            let got_named: Vec<usize> = flat
                .children(n)
                .filter(|c| c.is_named())
                .map(|c| c.id())
                .collect();
            assert_eq!(named, got_named, "{n:?}");
            // Every field of the grammar, present or not.
            for id in 1..=lang.field_count() as u16 {
                let name = lang.field_name_for_id(id).unwrap();
                assert_eq!(
                    flat.field(n, name).map(|c| c.id()),
                    n.child_by_field_name(name).map(|c| c.id()),
                    "{n:?} field {name}"
                );
            }
            let mut sub_replay = Vec::new();
            flat.walk(n, |m, _, e| sub_replay.push((m.id(), e)));
            assert_eq!(cursor_walk(n), sub_replay, "{n:?}");
        });
        count
    }

    #[test]
    fn agrees_with_tree_sitter_javascript() {
        let nodes = check(
            Language::JavaScript,
            "const a = db.collection('x').find({ a: [1, (2)] }).skip(n); function f(x) { return x?.y; } {{ ] ",
        );
        assert!(nodes > 40, "{nodes}");
    }

    #[test]
    fn leaves_out_anonymous_leaves_but_not_fields() {
        super::super::use_tables_of(Language::JavaScript);
        let mut p = tree_sitter::Parser::new();
        p.set_language(&super::super::grammar(Language::JavaScript))
            .unwrap();
        let tree = p.parse("x = a + b; f(1, 2);", None).unwrap();
        let root = tree.root_node();
        let flat = Flat::new(root);
        let kinds: Vec<&str> = flat.entries.iter().map(|e| e.node.kind()).collect();
        // `=`, `;`, `(`, `,`, `)` are gone; `+` stays: it is the `operator` field's value.
        assert_eq!(
            kinds,
            [
                "program",
                "expression_statement",
                "assignment_expression",
                "identifier",
                "binary_expression",
                "identifier",
                "+",
                "identifier",
                "expression_statement",
                "call_expression",
                "identifier",
                "arguments",
                "number",
                "number",
            ]
        );
        assert_eq!(root.descendant_count(), 20);
    }

    #[test]
    fn deep_trees_fall_back_to_the_cursor() {
        // `"a" + "a" + ...` nests one binary expression per term: 500 terms are flattened by
        // flatten.c, 5,000 are deeper than it recurses and are walked with the cursor instead,
        // with the same entries.
        for (terms, flattens) in [(500, true), (5000, false)] {
            let src = format!("x = {};\n", vec!["\"a\""; terms].join(" + "));
            super::super::use_tables_of(Language::JavaScript);
            let mut p = tree_sitter::Parser::new();
            p.set_language(&super::super::grammar(Language::JavaScript))
                .unwrap();
            let tree = p.parse(&src, None).unwrap();
            let root = tree.root_node();
            let sparse = Nodes::Sparse {
                keep_under: NO_KIND,
            };
            assert_eq!(flattened(root, sparse).is_some(), flattens, "{terms} terms");
            let key = |es: &[Entry<'_>]| -> Vec<_> {
                es.iter()
                    .map(|e| (e.node.id(), e.parent, e.end, e.field, e.kind))
                    .collect()
            };
            let flat = Flat::new(root);
            assert_eq!(
                key(&flat.entries),
                key(&walked(root, sparse)),
                "{terms} terms"
            );
            assert!(flat.entries.len() > 2 * terms);
        }
        check(
            Language::JavaScript,
            &format!("x = {};\n", vec!["\"a\""; 500].join(" + ")),
        );
    }

    #[test]
    fn agrees_with_tree_sitter_on_missing_and_zero_width_nodes() {
        // Error recovery inserts zero-width MISSING nodes that share a start with their siblings.
        check(
            Language::JavaScript,
            "if (a { b( } while x) f(;; let = ; a.b.c.d.e.f(g)(h)(i)",
        );
        check(
            Language::Python,
            "def f(:\n  x = [1, 2\nclass A(B:\n    pass\nprint(a.b.c(d)[e])\n",
        );
    }

    #[test]
    fn agrees_with_tree_sitter_on_every_corpus_file() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
        let mut files = 0;
        for entry in ignore::WalkBuilder::new(&root).build() {
            let path = entry.unwrap().into_path();
            let Some(lang) = super::super::language_for(&path) else {
                continue;
            };
            let src = std::fs::read_to_string(&path).unwrap();
            assert!(check(lang, &src) > 0);
            files += 1;
        }
        assert!(files >= 40, "{files} corpus files");
    }

    #[test]
    fn agrees_with_tree_sitter_python_and_rust() {
        check(
            Language::Python,
            "import pymongo\ndef f(db):\n    for x in xs:\n        db.c.update_one({'a': x}, {'$inc': {'n': 1}})\n",
        );
        check(
            Language::Rust,
            "fn f(c: &Collection<Doc>) { c.find(doc! { \"a\": 1 }).skip(10); let v = vec![doc!{}]; }",
        );
    }
}

#[cfg(test)]
mod dir_check {
    /// Compares the one-pass flattener with the cursor on every source file under
    /// `MONGOLINT_FLAT_CHECK_DIR` (not run by default: `cargo test --release -- --ignored`).
    #[test]
    #[ignore]
    fn flattener_agrees_with_cursor_on_a_directory() {
        let Ok(dir) = std::env::var("MONGOLINT_FLAT_CHECK_DIR") else {
            return;
        };
        let mut files = 0;
        let mut nodes_seen = 0;
        let mut deep = 0;
        for entry in ignore::WalkBuilder::new(&dir).build() {
            let path = entry.unwrap().into_path();
            let Some(lang) = super::super::language_for(&path) else {
                continue;
            };
            let Ok(src) = std::fs::read_to_string(&path) else {
                continue;
            };
            super::super::use_tables_of(lang);
            let mut p = tree_sitter::Parser::new();
            p.set_language(&super::super::grammar(lang)).unwrap();
            let tree = p.parse(&src, None).unwrap();
            let root = tree.root_node();
            let keep_under = match lang {
                crate::ir::Language::Rust => root.language().id_for_node_kind("token_tree", true),
                _ => super::NO_KIND,
            };
            for nodes in [super::Nodes::All, super::Nodes::Sparse { keep_under }] {
                let a = super::walked(root, nodes);
                let Some(b) = super::flattened(root, nodes) else {
                    // Nested deeper than flatten.c's MAX_DEPTH: `entries` walks it with the cursor.
                    eprintln!("deeper than flatten.c goes: {}", path.display());
                    deep += 1;
                    continue;
                };
                assert_eq!(a.len(), b.len(), "{}", path.display());
                if nodes == super::Nodes::All {
                    nodes_seen += a.len();
                }
                for (x, y) in a.iter().zip(&b) {
                    let (rx, ry) = (x.node.into_raw(), y.node.into_raw());
                    assert!(
                        rx.id == ry.id
                            && rx.context == ry.context
                            && rx.tree == ry.tree
                            && x.parent == y.parent
                            && x.end == y.end
                            && x.field == y.field
                            && x.kind == y.kind,
                        "{}",
                        path.display()
                    );
                }
            }
            files += 1;
        }
        eprintln!("{files} files, {nodes_seen} nodes agree ({deep} trees too deep for flatten.c)");
    }
}
