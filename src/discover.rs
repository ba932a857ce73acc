//! Discovery and per-file work: walk the paths in parallel (honouring .gitignore), skip what cannot
//! matter with a byte-level prefilter, then parse and extract each remaining file on the walker's thread.

use crate::analysis::{FileError, Options, SourceFile};
use crate::ir::Language;
use crate::lang::vocabulary::WordContext;
use crate::lang::{self, FileContext};
use aho_corasick::AhoCorasick;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
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
}

/// The prefilter of a language: one automaton over the extractors' vocabulary, and for each word
/// the context its match must stand in.
struct Prefilter {
    automaton: AhoCorasick,
    contexts: Vec<WordContext>,
}

/// The prefilter for a language, built once per process from the extractors' vocabulary.
fn prefilter(lang: Language) -> &'static Prefilter {
    static JS: OnceLock<Prefilter> = OnceLock::new();
    static PY: OnceLock<Prefilter> = OnceLock::new();
    static RS: OnceLock<Prefilter> = OnceLock::new();
    let cell = match lang {
        Language::JavaScript | Language::TypeScript | Language::Tsx => &JS,
        Language::Python => &PY,
        Language::Rust => &RS,
    };
    cell.get_or_init(|| {
        let words = lang::vocabulary::prefilter_words(lang);
        let automaton = AhoCorasick::builder()
            .ascii_case_insensitive(false)
            .build(words.iter().map(|w| w.word))
            .expect("the prefilter vocabulary is a valid automaton");
        Prefilter {
            automaton,
            contexts: words.iter().map(|w| w.context).collect(),
        }
    })
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

/// The first byte at or after `at` that is not ASCII whitespace.
fn next_non_space(bytes: &[u8], at: usize) -> Option<(usize, u8)> {
    bytes[at.min(bytes.len())..]
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .map(|i| (at + i, bytes[at + i]))
}

/// Whether the match `bytes[start..end]` of a word stands where its context requires.
fn stands_in_context(context: WordContext, bytes: &[u8], start: usize, end: usize) -> bool {
    let left_ok = start == 0 || !is_ident_byte(bytes[start - 1]);
    let right_ok = end == bytes.len() || !is_ident_byte(bytes[end]);
    match context {
        WordContext::Anywhere => true,
        WordContext::IdentifierStart => left_ok,
        WordContext::Identifier => left_ok && right_ok,
        WordContext::Call => {
            // A module path segment (`'../models/User'`): a Mongoose app's models folder.
            let path_segment = start > 0 && bytes[start - 1] == b'/';
            let called = || match next_non_space(bytes, end) {
                Some((_, b'(' | b'<')) => true,
                Some((at, b':')) => bytes[at..].starts_with(b"::<"),
                _ => false,
            };
            path_segment || (left_ok && right_ok && called())
        }
        WordContext::Skip => {
            if !(left_ok && right_ok) {
                return false;
            }
            // `.skip(12)`: a literal count (an iterator, or a literal skip) does not count.
            let Some((open, b'(')) = next_non_space(bytes, end) else {
                return true;
            };
            let Some((digits, first)) = next_non_space(bytes, open + 1) else {
                return true;
            };
            if !first.is_ascii_digit() {
                return true;
            }
            let after = bytes[digits..]
                .iter()
                .position(|b| !b.is_ascii_digit())
                .map_or(bytes.len(), |i| digits + i);
            !matches!(next_non_space(bytes, after), Some((_, b')')))
        }
        WordContext::DbAttribute => {
            if !left_ok || in_python_import(bytes, start) {
                return false;
            }
            let name_len = bytes[end..]
                .iter()
                .position(|b| !is_ident_byte(*b))
                .unwrap_or(bytes.len() - end);
            if name_len == 0 {
                return false;
            }
            // `db.orders.find(..)`, `helpers.add(db.users, ..)`, and `x.db.find(..)` where `db` is a
            // collection; not `db.getObject(..)`, a method of a database wrapper.
            let called = matches!(next_non_space(bytes, end + name_len), Some((_, b'(')));
            !called || is_operation_name(&bytes[end..end + name_len])
        }
    }
}

/// Whether the line holding `at` is a Python import (`from app.models.db.action import X`): a
/// module path, never a collection.
fn in_python_import(bytes: &[u8], at: usize) -> bool {
    let line_start = bytes[..at]
        .iter()
        .rposition(|b| *b == b'\n')
        .map_or(0, |i| i + 1);
    let line = bytes[line_start..at].trim_ascii_start();
    line.starts_with(b"from ") || line.starts_with(b"import ")
}

/// Whether `name` is a collection method of any frontend (`find`, `aggregate`, `update_one`).
fn is_operation_name(name: &[u8]) -> bool {
    let Ok(name) = std::str::from_utf8(name) else {
        return false;
    };
    lang::vocabulary::js_operation(name).is_some()
        || lang::vocabulary::py_operation(name).is_some()
        || lang::vocabulary::RUST_OPERATIONS
            .iter()
            .any(|m| m.name == name)
}

/// Whether a file's bytes contain a word of the driver vocabulary, standing in its context.
pub fn may_matter(lang: Language, bytes: &[u8]) -> bool {
    let p = prefilter(lang);
    p.automaton.find_overlapping_iter(bytes).any(|m| {
        stands_in_context(
            p.contexts[m.pattern().as_usize()],
            bytes,
            m.start(),
            m.end(),
        )
    })
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

/// The walker of a run: the roots, the thread count and the default exclusions (`.gitignore`,
/// dependency and build folders, tests, minified bundles). Public so that the benchmark's floor
/// program (bench/floor) walks exactly the same files. `roots` must not be empty.
pub fn walk_builder(roots: &[PathBuf], opts: &Options) -> ignore::WalkBuilder {
    let mut builder = ignore::WalkBuilder::new(&roots[0]);
    for r in &roots[1..] {
        builder.add(r);
    }
    builder.threads(worker_threads(opts)).follow_links(false);
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
    builder
}

/// Worker threads: `opts.threads`, or one per CPU when it is 0.
pub fn worker_threads(opts: &Options) -> usize {
    if opts.threads == 0 {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    } else {
        opts.threads
    }
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
    let builder = walk_builder(&roots, opts);
    let no_ignore = opts.no_ignore;
    let max_size = opts.max_file_size;
    let scanned = AtomicUsize::new(0);
    let parsed = AtomicUsize::new(0);
    builder.build_parallel().run(|| {
        let shared = Arc::clone(&shared);
        let (scanned, parsed) = (&scanned, &parsed);
        let base = base.clone();
        Box::new(move |entry| {
            match entry {
                Ok(e) => {
                    if e.file_type().is_some_and(|t| t.is_file()) {
                        if let Some(lang) = lang::language_for(e.path()) {
                            scanned.fetch_add(1, Ordering::Relaxed);
                            // The lock is taken only for the few files that produce something.
                            match analyse_one(e.path(), lang, &base, no_ignore, max_size) {
                                Outcome::Skipped => {}
                                Outcome::Parsed(f) => {
                                    parsed.fetch_add(1, Ordering::Relaxed);
                                    if let Some(f) = f {
                                        shared.lock().unwrap().files.push(f);
                                    }
                                }
                                Outcome::Failed(err) => shared.lock().unwrap().errors.push(err),
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
        scanned: scanned.into_inner(),
        parsed: parsed.into_inner(),
    }
}

fn walk_error(err: &ignore::Error, base: &Path) -> (String, String) {
    match err {
        ignore::Error::WithPath { path, err } => (display_path(path, base), err.to_string()),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            walk_error(err, base)
        }
        ignore::Error::Loop { child, .. } => {
            (display_path(child, base), "symbolic link loop".to_string())
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

thread_local! {
    /// Each worker reads files into one buffer, reused while files are skipped: most files are.
    static READ_BUF: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Reads `path` into `buf` (cleared first) with one open and one fstat, unless it is over `max_size`.
fn read_into(path: &Path, buf: &mut Vec<u8>, max_size: u64) -> Result<(), String> {
    let mut file = std::fs::File::open(path).map_err(|e| format!("cannot read file: {e}"))?;
    let size = file
        .metadata()
        .map_err(|e| format!("cannot read file: {e}"))?
        .len();
    if size > max_size {
        return Err(format!(
            "skipped: {size} bytes is over the size limit of {max_size} bytes (raise it with --max-file-size)"
        ));
    }
    buf.clear();
    buf.reserve(size as usize + 1);
    std::io::Read::read_to_end(&mut file, buf).map_err(|e| format!("cannot read file: {e}"))?;
    Ok(())
}

fn analyse_one(
    path: &Path,
    lang: Language,
    base: &Path,
    no_ignore: bool,
    max_size: u64,
) -> Outcome {
    let fail = |message: String| {
        Outcome::Failed(FileError {
            display_path: display_path(path, base),
            message,
        })
    };
    // The bytes of a file that may matter leave the reused buffer without a copy.
    let read = READ_BUF.with(|cell| {
        let mut buf = cell.borrow_mut();
        read_into(path, &mut buf, max_size)?;
        if !may_matter(lang, &buf) || (!no_ignore && looks_minified(&buf)) {
            return Ok(None);
        }
        Ok(Some(std::mem::take(&mut *buf)))
    });
    let bytes = match read {
        Ok(Some(bytes)) => bytes,
        Ok(None) => return Outcome::Skipped,
        Err(message) => return fail(message),
    };
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            return fail(format!(
                "not valid UTF-8 (first invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            ))
        }
    };
    let shown = display_path(path, base);
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

    fn matters(lang: Language, text: &str) -> bool {
        may_matter(lang, text.as_bytes())
    }

    #[test]
    fn prefilter_words_count_only_in_context() {
        let js = Language::JavaScript;
        assert!(matters(js, "const users = db.collection('users');"));
        assert!(matters(
            js,
            "export default mongoose.model<IUser>('User', schema);"
        ));
        assert!(matters(js, "db.orders.find({})"));
        assert!(matters(js, "db.orders\n  .find({})"));
        assert!(matters(js, "q.skip(page * size)"));
        assert!(matters(js, "coll.find(q, { skip: offset })"));
        assert!(matters(js, "import { MongoClient } from 'mongodb';"));
        assert!(matters(js, "x.$push"));
        assert!(matters(js, "import { Story } from '../models/story';"));
        assert!(!matters(
            js,
            "import { Story } from 'coral/server/graph/storyModel';"
        ));
        assert!(!matters(
            js,
            "this.model.get('name'); const collections = [];"
        ));
        assert!(!matters(js, "const model = { name: 1 }; model.name"));
        assert!(matters(
            js,
            "await addIndexes(db.users, [{ key: { email: 1 } }]);"
        ));
        assert!(matters(
            js,
            "const docs = await self.apos.doc.db.find({ type });"
        ));
        assert!(!matters(js, "db.getObject('key'); mydb.users.find()"));
        assert!(!matters(js, "const skipped = shouldSkip(x); list.skip(1);"));
        assert!(!matters(js, "function groupBy(collection, fn) {}"));

        let py = Language::Python;
        assert!(matters(py, "from pymongo import MongoClient"));
        assert!(matters(
            py,
            "Post.objects(id=pid).update_one(push__comments=c)"
        ));
        assert!(matters(py, "self.db.orders.find_one({})"));
        assert!(matters(py, "db[name].insert_one({})"));
        assert!(!matters(py, "Item.objects.filter(dataset__id=1)"));
        assert!(!matters(
            py,
            "from st2common.models import db\nreturn db.db_teardown()"
        ));
        assert!(!matters(
            py,
            "from st2common.models.db.action import ActionDB"
        ));

        let rs = Language::Rust;
        assert!(matters(rs, "let c = db.collection::<Order>(\"orders\");"));
        assert!(matters(rs, "coll.find(doc! {}).skip(n)"));
        assert!(!matters(rs, "for line in input.lines().skip(1) {}"));
        assert!(!matters(rs, "let collection = vec![];"));
    }
}
