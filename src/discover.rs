//! Discovery and per-file work: walk the paths in parallel (honouring .gitignore), skip what cannot
//! matter with a byte-level prefilter, then parse and extract each remaining file on the walker's thread.

use crate::analysis::{FileError, Options, SourceFile};
use crate::ir::Language;
use crate::lang::{self, FileContext};
use aho_corasick::AhoCorasick;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

pub const DEFAULT_MAX_FILE_SIZE: u64 = 4 * 1024 * 1024;

/// Folders that hold dependencies, build output or vendored code: skipped unless `--no-ignore`.
const EXCLUDED_DIRS: &[&str] = &[
    "node_modules",
    "bower_components",
    "jspm_packages",
    "vendor",
    "third_party",
    "dist",
    "build",
    "out",
    ".next",
    ".nuxt",
    ".output",
    ".svelte-kit",
    "coverage",
    "target",
    "__pycache__",
    ".venv",
    "venv",
    "site-packages",
    ".tox",
];

pub struct Discovered {
    pub files: Vec<SourceFile>,
    pub errors: Vec<FileError>,
    pub scanned: usize,
    pub parsed: usize,
}

#[derive(Default)]
struct Shared {
    files: Vec<SourceFile>,
    errors: Vec<FileError>,
    scanned: usize,
    parsed: usize,
}

/// The prefilter automaton for a language, built once per process from the extractors' vocabulary.
fn prefilter(lang: Language) -> &'static AhoCorasick {
    static JS: OnceLock<AhoCorasick> = OnceLock::new();
    static PY: OnceLock<AhoCorasick> = OnceLock::new();
    static RS: OnceLock<AhoCorasick> = OnceLock::new();
    let cell = match lang {
        Language::JavaScript | Language::TypeScript | Language::Tsx => &JS,
        Language::Python => &PY,
        Language::Rust => &RS,
    };
    cell.get_or_init(|| {
        AhoCorasick::builder()
            .ascii_case_insensitive(false)
            .build(lang::vocabulary::prefilter_words(lang))
            .expect("the prefilter vocabulary is a valid automaton")
    })
}

/// Whether a file's bytes contain any word of the driver vocabulary.
pub fn may_matter(lang: Language, bytes: &[u8]) -> bool {
    prefilter(lang).is_match(bytes)
}

/// Path shown to users: relative to `base` (the repository root) when below it, `/`-separated.
pub fn display_path(path: &Path, base: &Path) -> String {
    crate::workspace::relative_display(path, base)
}

/// Test folders: their driver calls exercise the code rather than define how it accesses data.
const TEST_DIRS: &[&str] = &[
    "test",
    "tests",
    "__tests__",
    "__mocks__",
    "spec",
    "specs",
    "e2e",
    "cypress",
];

/// Test files by name: `x.test.js`, `x.spec.ts`, `test_x.py`, `x_test.py`, `conftest.py`.
fn is_test_file(name: &str) -> bool {
    let stem = name.split('.').next().unwrap_or(name);
    name.contains(".test.")
        || name.contains(".spec.")
        || name.contains(".e2e.")
        || (name.ends_with(".py")
            && (stem.starts_with("test_") || stem.ends_with("_test") || stem == "conftest"))
}

fn is_minified_name(name: &str) -> bool {
    name.ends_with(".min.js")
        || name.ends_with(".min.mjs")
        || name.contains(".bundle.")
        || name.ends_with("-min.js")
}

/// A bundle or minified file: long lines throughout.
fn looks_minified(bytes: &[u8]) -> bool {
    if bytes.len() < 20_000 {
        return false;
    }
    let lines = bytes.iter().filter(|b| **b == b'\n').count() + 1;
    bytes.len() / lines > 500
}

pub fn analyse_files(opts: &Options) -> Discovered {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    // Paths are shown relative to the repository root whatever folder we run from, so the walk
    // starts from absolute paths.
    let base = crate::workspace::display_base(&cwd, &opts.paths);
    let shared = Arc::new(Mutex::new(Shared::default()));
    let mut roots = Vec::new();
    for p in &opts.paths {
        let p = &crate::workspace::absolute(p, &cwd);
        if std::fs::symlink_metadata(p).is_err() {
            shared.lock().unwrap().errors.push(FileError {
                display_path: display_path(p, &base),
                message: "no such file or directory".to_string(),
            });
        } else {
            roots.push(p.clone());
        }
    }
    if roots.is_empty() {
        let s = Arc::try_unwrap(shared).ok().unwrap().into_inner().unwrap();
        return Discovered {
            files: s.files,
            errors: s.errors,
            scanned: 0,
            parsed: 0,
        };
    }
    let mut builder = ignore::WalkBuilder::new(&roots[0]);
    for r in &roots[1..] {
        builder.add(r);
    }
    let threads = if opts.threads == 0 {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    } else {
        opts.threads
    };
    builder.threads(threads).follow_links(false);
    let exclude = opts.exclude.clone();
    if opts.no_ignore {
        builder
            .standard_filters(false)
            .hidden(true)
            .filter_entry(move |e| !exclude.matches(e.path()));
    } else {
        let include_tests = opts.include_tests;
        builder.require_git(false).filter_entry(move |e| {
            // Configured excludes hold even for paths named on the command line (pre-commit
            // passes every changed file).
            if exclude.matches(e.path()) {
                return false;
            }
            if e.depth() == 0 {
                return true;
            }
            let is_dir = e.file_type().is_some_and(|t| t.is_dir());
            let name = e.file_name().to_string_lossy();
            if is_dir {
                !EXCLUDED_DIRS.contains(&name.as_ref())
                    && (include_tests || !TEST_DIRS.contains(&name.as_ref()))
            } else {
                !is_minified_name(&name) && (include_tests || !is_test_file(&name))
            }
        });
    }
    let no_ignore = opts.no_ignore;
    let max_size = opts.max_file_size;
    builder.build_parallel().run(|| {
        let shared = Arc::clone(&shared);
        let base = base.clone();
        Box::new(move |entry| {
            match entry {
                Ok(e) => {
                    if e.file_type().is_some_and(|t| t.is_file()) {
                        if let Some(lang) = lang::language_for(e.path()) {
                            let out = analyse_one(e.path(), lang, &base, no_ignore, max_size);
                            let mut s = shared.lock().unwrap();
                            s.scanned += 1;
                            match out {
                                Outcome::Skipped => {}
                                Outcome::Parsed(f) => {
                                    s.parsed += 1;
                                    if let Some(f) = f {
                                        s.files.push(f);
                                    }
                                }
                                Outcome::Failed(err) => s.errors.push(err),
                            }
                        }
                    }
                }
                Err(err) => {
                    let (path, message) = walk_error(&err, &base);
                    shared.lock().unwrap().errors.push(FileError {
                        display_path: path,
                        message,
                    });
                }
            }
            ignore::WalkState::Continue
        })
    });
    let s = Arc::try_unwrap(shared).ok().unwrap().into_inner().unwrap();
    Discovered {
        files: s.files,
        errors: s.errors,
        scanned: s.scanned,
        parsed: s.parsed,
    }
}

fn walk_error(err: &ignore::Error, cwd: &Path) -> (String, String) {
    match err {
        ignore::Error::WithPath { path, err } => (display_path(path, cwd), err.to_string()),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            walk_error(err, cwd)
        }
        ignore::Error::Loop { child, .. } => {
            (display_path(child, cwd), "symbolic link loop".to_string())
        }
        other => (".".to_string(), other.to_string()),
    }
}

enum Outcome {
    /// Not parsed: nothing of the driver vocabulary in it, or a minified bundle.
    Skipped,
    /// Parsed; `Some` when it produced IR worth keeping.
    Parsed(Option<SourceFile>),
    Failed(FileError),
}

fn analyse_one(path: &Path, lang: Language, cwd: &Path, no_ignore: bool, max_size: u64) -> Outcome {
    let shown = display_path(path, cwd);
    let fail = |message: String| {
        Outcome::Failed(FileError {
            display_path: shown.clone(),
            message,
        })
    };
    let size = match std::fs::metadata(path) {
        Ok(m) => m.len(),
        Err(e) => return fail(format!("cannot read file: {e}")),
    };
    if size > max_size {
        return fail(format!(
            "skipped: {size} bytes is over the size limit of {max_size} bytes (raise it with --max-file-size)"
        ));
    }
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => return fail(format!("cannot read file: {e}")),
    };
    if !may_matter(lang, &bytes) {
        return Outcome::Skipped;
    }
    if !no_ignore && looks_minified(&bytes) {
        return Outcome::Skipped;
    }
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            return fail(format!(
                "not valid UTF-8 (first invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            ))
        }
    };
    let ctx = FileContext {
        display_path: &shown,
    };
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        lang::extract(lang, &text, &ctx)
    }));
    match result {
        Ok(Ok(ir)) => {
            if ir.operations.is_empty() && ir.collections.is_empty() && ir.exports.is_empty() {
                return Outcome::Parsed(None);
            }
            Outcome::Parsed(Some(SourceFile {
                display_path: shown,
                path: path.to_path_buf(),
                language: lang,
                text: Some(Arc::from(text)),
                ir,
            }))
        }
        Ok(Err(e)) => fail(e.0),
        Err(_) => fail("internal error while analysing this file (please report it)".to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_deleted_after_the_walk_listed_it_is_reported() {
        // The walker hands over a path; by the time it is read the file is gone (deterministic
        // stand-in for a file deleted during the walk).
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("gone.js");
        std::fs::write(&path, "db.collection('x').updateOne({}, {$push: {a: 1}})").unwrap();
        std::fs::remove_file(&path).unwrap();
        match analyse_one(&path, Language::JavaScript, dir.path(), false, u64::MAX) {
            Outcome::Failed(e) => {
                assert_eq!(e.display_path, "gone.js");
                assert!(e.message.starts_with("cannot read file"), "{}", e.message);
            }
            _ => panic!("a vanished file is an error"),
        }
    }
}
