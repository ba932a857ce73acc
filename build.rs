//! Compiles `src/lang/flatten.c`, the one-pass tree flattener (see src/lang/flat.rs), against the
//! private headers of the tree-sitter crate this build links.

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-changed=src/lang/flatten.c");
    // The tree-sitter crate (`links = "tree-sitter"`) exports its include folder; its private
    // headers are in the sibling `src`.
    let include = PathBuf::from(
        std::env::var("DEP_TREE_SITTER_INCLUDE")
            .expect("the tree-sitter crate exports DEP_TREE_SITTER_INCLUDE"),
    );
    let private = include
        .parent()
        .expect("tree-sitter's include folder has a parent")
        .join("src");
    cc::Build::new()
        .file("src/lang/flatten.c")
        .include(&include)
        .include(&private)
        .flag_if_supported("-std=c11")
        .flag_if_supported("-fvisibility=hidden")
        .define("_POSIX_C_SOURCE", "200112L")
        .define("_DEFAULT_SOURCE", None)
        .warnings(true)
        .compile("mongolint_flatten");
}
