//! Parent links for a parsed tree, computed in one walk. tree-sitter's `Node::parent()` re-descends
//! from the root and scans every child list on the way (cost: the sizes of all sibling lists above
//! the node), so calling it for each call or function of a file with thousands of top-level
//! statements made the frontends quadratic.

use std::collections::HashMap;
use tree_sitter::Node;

pub(crate) struct Parents<'t> {
    map: HashMap<usize, Node<'t>>,
}

impl<'t> Parents<'t> {
    pub(crate) fn new(root: Node<'t>) -> Self {
        let mut map = HashMap::with_capacity(root.descendant_count());
        let mut stack: Vec<Node<'t>> = Vec::new();
        super::walk(root, |n, enter| {
            if enter {
                if let Some(p) = stack.last() {
                    map.insert(n.id(), *p);
                }
                stack.push(n);
            } else {
                stack.pop();
            }
        });
        Parents { map }
    }

    /// The parent of `n` (a node of the tree this was built from).
    pub(crate) fn of(&self, n: Node<'t>) -> Option<Node<'t>> {
        self.map.get(&n.id()).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_tree_sitter() {
        let mut p = tree_sitter::Parser::new();
        p.set_language(&tree_sitter_javascript::LANGUAGE.into())
            .unwrap();
        let src = "const a = db.collection('x').find({ a: [1, (2)] }).skip(n); function f(x) { return x?.y; } {{ ] ";
        let tree = p.parse(src, None).unwrap();
        let parents = Parents::new(tree.root_node());
        let mut count = 0;
        super::super::walk(tree.root_node(), |n, enter| {
            if enter {
                assert_eq!(
                    parents.of(n).map(|p| p.id()),
                    n.parent().map(|p| p.id()),
                    "{n:?}"
                );
                count += 1;
            }
        });
        assert!(count > 40);
    }
}
