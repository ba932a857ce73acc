//! The prefilter must never skip a file in which a frontend finds something: it decides which files
//! are parsed, and several of its rules restate what the frontends read (a `db` that the file
//! declares, Python's database names, mongoengine models). This audit extracts every corpus file
//! whatever the prefilter says — and each file again with one line at a time removed, which makes
//! the prefilter's evidence and the frontends' findings come apart in many more ways — and checks
//! that a file with an operation or a collection reference is parsed on its own (`Verdict::Parse`),
//! or deferred (`Verdict::Defer`) only when it holds no operation of its own and can matter only
//! through what it exports.

use mongolint::discover::{verdict, Verdict};
use mongolint::ir::Evidence;
use mongolint::lang::{self, FileContext};
use std::path::Path;

fn corpus_files() -> Vec<(std::path::PathBuf, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut out = Vec::new();
    for entry in ignore::WalkBuilder::new(&root).build() {
        let path = entry.unwrap().into_path();
        if lang::language_for(&path).is_some() {
            let text = std::fs::read_to_string(&path).unwrap();
            out.push((path, text));
        }
    }
    out.sort();
    out
}

/// `None` when the prefilter's verdict is consistent with what the frontend extracts from `text`.
fn problem(path: &Path, text: &str) -> Option<String> {
    let lang = lang::language_for(path)?;
    let ir = lang::extract(
        lang,
        text,
        &FileContext {
            display_path: "audit",
        },
    )
    .ok()?;
    // A class whose base is in another module declares its `meta` indexes once the linker finds
    // it a document: operations of the file all the same.
    let operations = ir
        .operations
        .iter()
        .filter(|o| o.evidence != Evidence::None)
        .count()
        + ir.classes.iter().map(|c| c.operations.len()).sum::<usize>();
    let matters = operations > 0 || !ir.collections.is_empty();
    match verdict(lang, text.as_bytes()) {
        Verdict::Parse => None,
        Verdict::Defer if operations == 0 => None,
        v => matters.then(|| {
            format!(
                "{v:?}, but the frontend finds {operations} operation(s) and {} collection reference(s)",
                ir.collections.len()
            )
        }),
    }
}

#[test]
fn every_corpus_file_with_driver_calls_passes_the_prefilter() {
    let files = corpus_files();
    assert!(files.len() >= 40, "{} corpus files", files.len());
    let mut with_calls = 0;
    for (path, text) in &files {
        if let Some(p) = problem(path, text) {
            panic!("{}: {p}", path.display());
        }
        if verdict(lang::language_for(path).unwrap(), text.as_bytes()) == Verdict::Parse {
            with_calls += 1;
        }
    }
    assert!(with_calls >= 40, "{with_calls} corpus files parsed");
}

#[test]
fn no_line_removed_from_a_corpus_file_makes_the_prefilter_skip_a_driver_call() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for (path, text) in corpus_files() {
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        for skip in 0..lines.len() {
            let variant: String = lines
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != skip)
                .map(|(_, l)| *l)
                .collect();
            if let Some(p) = problem(&path, &variant) {
                failures.push(format!("{} without line {}: {p}", path.display(), skip + 1));
            }
            checked += 1;
        }
    }
    assert!(checked > 1000, "{checked} variants");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
