//! Language frontends: each parses one file with tree-sitter and lowers its driver calls into the IR.

pub mod javascript;
pub mod naming;
pub mod python;
pub mod rust;
pub mod vocabulary;

use crate::ir::{FileIr, Language};
use std::cell::RefCell;
use std::path::Path;

/// The language of a file, from its name.
pub fn language_for(path: &Path) -> Option<Language> {
    let ext = path.extension()?.to_str()?;
    Some(match ext {
        "js" | "mjs" | "cjs" | "jsx" => Language::JavaScript,
        "ts" | "mts" | "cts" => Language::TypeScript,
        "tsx" => Language::Tsx,
        "py" => Language::Python,
        "rs" => Language::Rust,
        _ => return None,
    })
}

fn grammar(lang: Language) -> tree_sitter::Language {
    match lang {
        Language::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
        Language::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
        Language::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
        Language::Python => tree_sitter_python::LANGUAGE.into(),
        Language::Rust => tree_sitter_rust::LANGUAGE.into(),
    }
}

thread_local! {
    /// One parser per language per worker thread, reused across files.
    static PARSERS: RefCell<Vec<(Language, tree_sitter::Parser)>> = const { RefCell::new(Vec::new()) };
}

/// Why a file could not be analysed.
#[derive(Debug)]
pub struct ParseFailure(pub String);

/// What a frontend needs to know about the file besides its text.
pub struct FileContext<'a> {
    /// Path relative to the analysis root, with `/` separators.
    pub display_path: &'a str,
}

/// Parses `text` and extracts its IR.
pub fn extract(lang: Language, text: &str, ctx: &FileContext) -> Result<FileIr, ParseFailure> {
    let tree = PARSERS.with(|cell| {
        let mut parsers = cell.borrow_mut();
        let idx = match parsers.iter().position(|(l, _)| *l == lang) {
            Some(i) => i,
            None => {
                let mut p = tree_sitter::Parser::new();
                p.set_language(&grammar(lang))
                    .map_err(|e| ParseFailure(format!("cannot load grammar: {e}")))?;
                parsers.push((lang, p));
                parsers.len() - 1
            }
        };
        let parser = &mut parsers[idx].1;
        parser.reset();
        parser
            .parse(text, None)
            .ok_or_else(|| ParseFailure("the parser gave up on this file".to_string()))
    })?;
    match lang {
        Language::JavaScript | Language::TypeScript | Language::Tsx => {
            Ok(javascript::extract(&tree, text, ctx))
        }
        Language::Python => Ok(python::extract(&tree, text, ctx)),
        Language::Rust => Ok(rust::extract(&tree, text, ctx)),
    }
}

/// Walks the tree depth-first without recursion, calling `visit(node, true)` on entering a node
/// and `visit(node, false)` on leaving it. Shared by the frontends.
pub(crate) fn walk<'t>(
    root: tree_sitter::Node<'t>,
    mut visit: impl FnMut(tree_sitter::Node<'t>, bool),
) {
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        visit(node, true);
        if cursor.goto_first_child() {
            continue;
        }
        visit(node, false);
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return;
            }
            visit(cursor.node(), false);
        }
    }
}

/// A loop's iterable (`OpContext::loop_over`): its span and its text on one line, at most 80 characters.
pub(crate) fn loop_over(t: &str, span: crate::ir::Span) -> crate::ir::LoopOver {
    let one_line: String = t.split_whitespace().collect::<Vec<_>>().join(" ");
    let text = if one_line.chars().count() > 80 {
        let cut: String = one_line.chars().take(77).collect();
        format!("{cut}...")
    } else {
        one_line
    };
    crate::ir::LoopOver { text, span }
}
