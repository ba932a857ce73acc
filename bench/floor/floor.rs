//! The floor: the least work any tree-sitter analyzer of these files must do. It walks the tree
//! with mongolint's own walker settings (`discover::walk_builder`: .gitignore, excluded folders,
//! tests, minified names), reads every source file, and tree-sitter-parses exactly the files that
//! contain driver calls — with one parser per language per thread, reused. No prefilter, no
//! extraction, no rules, no report.
//!
//! "Contain driver calls" is decided by mongolint itself, once, before timing:
//! `floor list-drivers PATHS` prints the files in which mongolint finds at least one operation
//! (with evidence) or one collection reference.
//!
//! ```text
//! floor list-drivers PATHS...                      # the driver files, one path per line
//! floor list-files PATHS...                        # every file mongolint scans, one per line
//! floor list-extra PATHS...                        # files the prefilter lets through beyond the
//!                                                  # driver files: bytes, verdict, path, words
//! floor run --drivers LIST [--threads N] PATHS...  # the timed floor
//! floor run --walk --drivers LIST PATHS...         # the floor, also reading every node of each tree
//! floor run --extract --drivers LIST PATHS...      # the floor, also running mongolint's frontend on
//!                                                  # each parsed file (the flat tree and the passes
//!                                                  # that extract the IR, which is then dropped)
//! floor run --grouped ...                          # any of the runs above, parsing as mongolint
//!                                                  # does since session 44: after the walk, a
//!                                                  # language at a time, in a per-thread arena
//! ```
//! The last two split mongolint's time beyond the floor into stages: `--walk` adds what reading
//! every node costs, `--extract` what mongolint's frontends cost (their flattening included); what
//! mongolint takes beyond `--extract` is its prefilter, the files it parses beyond the driver files,
//! keeping the IR, and linking, the model, the rules and the report.
//! Built as a Cargo example so that it shares mongolint's dependency versions and release profile:
//! `cargo build --release --example floor`.

use mongolint::analysis::{self, Options};
use mongolint::ir::Language;
use std::cell::RefCell;
use std::collections::HashSet;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

thread_local! {
    static PARSERS: RefCell<Vec<(Language, tree_sitter::Parser)>> = const { RefCell::new(Vec::new()) };
    static BUF: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// What `run` does with each driver file beyond reading it.
#[derive(Clone, Copy, PartialEq)]
enum Stage {
    /// Parse it (the floor).
    Parse,
    /// Parse it and read every node of its tree (`--walk`).
    Walk,
    /// Run mongolint's frontend on it: parse, flatten, extract the IR (`--extract`).
    Extract,
}

/// Runs `stage` on `text` (a file of `path` in `lang`); returns a number drawn from the result
/// (the root's child count, `read_every_node`'s sum, the IR's operation count) so that the work
/// cannot be optimised away.
fn process(lang: Language, path: &std::path::Path, text: &[u8], stage: Stage) -> usize {
    if stage == Stage::Extract {
        // mongolint reads files as UTF-8 and skips the others; so does this stage.
        let Ok(text) = std::str::from_utf8(text) else {
            return 0;
        };
        let display = path.to_string_lossy();
        let ctx = mongolint::lang::FileContext {
            display_path: &display,
        };
        return mongolint::lang::extract(lang, text, &ctx).map_or(0, |ir| ir.operations.len() + 1);
    }
    parse(lang, text, stage == Stage::Walk)
}

/// Parses `text` with this thread's parser for `lang` (and, with `walk`, reads the whole tree);
/// returns the root's child count (or `read_every_node`'s sum) so that the work cannot be optimised away.
fn parse(lang: Language, text: &[u8], walk: bool) -> usize {
    if mongolint::lang::arena::installed() {
        // As `lang::extract`: a parser of its own in the file's arena scope, forgotten with the tree.
        let _scope = mongolint::lang::arena::Scope::open();
        let mut parser = mongolint::lang::arena::Owned::new(tree_sitter::Parser::new());
        parser
            .set_language(&mongolint::lang::grammar(lang))
            .expect("grammar loads");
        return match parser
            .parse(text, None)
            .map(mongolint::lang::arena::Owned::new)
        {
            Some(t) if walk => mongolint::lang::read_every_node(t.root_node()),
            Some(t) => t.root_node().child_count(),
            None => 0,
        };
    }
    PARSERS.with(|cell| {
        let mut parsers = cell.borrow_mut();
        let idx = match parsers.iter().position(|(l, _)| *l == lang) {
            Some(i) => i,
            None => {
                let mut p = tree_sitter::Parser::new();
                p.set_language(&mongolint::lang::grammar(lang))
                    .expect("grammar loads");
                parsers.push((lang, p));
                parsers.len() - 1
            }
        };
        let parser = &mut parsers[idx].1;
        parser.reset();
        match parser.parse(text, None) {
            Some(t) if walk => mongolint::lang::read_every_node(t.root_node()),
            Some(t) => t.root_node().child_count(),
            None => 0,
        }
    })
}

/// Every file mongolint scans (its walker, a frontend's extension), sorted.
fn scanned_files(opts: &Options) -> Vec<PathBuf> {
    let files = std::sync::Mutex::new(Vec::new());
    mongolint::discover::walk_builder(&opts.paths, opts)
        .build_parallel()
        .run(|| {
            Box::new(|entry| {
                if let Ok(e) = entry {
                    if e.file_type().is_some_and(|t| t.is_file())
                        && mongolint::lang::language_for(e.path()).is_some()
                    {
                        files.lock().unwrap().push(e.into_path());
                    }
                }
                ignore::WalkState::Continue
            })
        });
    let mut files = files.into_inner().unwrap();
    files.sort();
    files
}

struct Args {
    command: String,
    drivers: Option<PathBuf>,
    threads: usize,
    /// `run --walk` or `run --extract`.
    stage: Stage,
    /// `run --grouped`: the driver files are parsed after the walk, sorted by language and path,
    /// each with a parser of its own in tree-sitter's per-thread arena (`lang::arena`), as
    /// mongolint's `discover::parse_ready` and `lang::extract` do.
    grouped: bool,
    paths: Vec<PathBuf>,
}

fn parse_args() -> Args {
    let mut it = std::env::args().skip(1);
    let command = it.next().unwrap_or_default();
    let mut args = Args {
        command,
        drivers: None,
        threads: 0,
        stage: Stage::Parse,
        grouped: false,
        paths: Vec::new(),
    };
    while let Some(a) = it.next() {
        match a.as_str() {
            "--drivers" => args.drivers = it.next().map(PathBuf::from),
            "--walk" => args.stage = Stage::Walk,
            "--extract" => args.stage = Stage::Extract,
            "--grouped" => args.grouped = true,
            "--threads" => {
                args.threads = it.next().and_then(|n| n.parse().ok()).expect("--threads N")
            }
            _ => args.paths.push(PathBuf::from(a)),
        }
    }
    if args.paths.is_empty() {
        args.paths.push(PathBuf::from("."));
    }
    args
}

// The same allocator as mongolint's binary (src/main.rs), for Rust and for tree-sitter.
#[global_allocator]
static GLOBAL: mongolint::allocator::MiMalloc = mongolint::allocator::MiMalloc;

fn main() {
    let args = parse_args();
    // SAFETY: as in src/main.rs: once, before any tree-sitter object exists.
    unsafe {
        if args.grouped {
            mongolint::lang::arena::install();
        } else {
            mongolint::lang::use_mimalloc_for_tree_sitter();
        }
    }
    let opts = Options {
        paths: args.paths.clone(),
        threads: args.threads,
        ..Options::default()
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    match args.command.as_str() {
        "list-drivers" => {
            let a = analysis::run(&opts);
            for f in &a.files {
                if !f.ir.operations.is_empty() || !f.ir.collections.is_empty() {
                    writeln!(out, "{}", f.path.display()).unwrap();
                }
            }
        }
        "list-extra" => {
            let a = analysis::run(&opts);
            // The analysis walks from absolute paths, the walk below from the paths as given
            // (`.`): compare them canonical.
            let canonical = |p: &std::path::Path| std::fs::canonicalize(p).unwrap_or(p.into());
            let drivers: HashSet<PathBuf> = a
                .files
                .iter()
                .filter(|f| !f.ir.operations.is_empty() || !f.ir.collections.is_empty())
                .map(|f| canonical(&f.path))
                .collect();
            for path in scanned_files(&opts) {
                if drivers.contains(&canonical(&path)) {
                    continue;
                }
                let Some(lang) = mongolint::lang::language_for(&path) else {
                    continue;
                };
                let bytes = std::fs::read(&path).unwrap_or_default();
                // A minified or bundled build: skipped before the prefilter reads it.
                if mongolint::discover::looks_built(lang, &bytes) {
                    continue;
                }
                let verdict = mongolint::discover::verdict(lang, &bytes);
                if verdict == mongolint::discover::Verdict::Skip {
                    continue;
                }
                let words: Vec<String> = mongolint::discover::matched_words(lang, &bytes)
                    .into_iter()
                    .map(|(w, role)| format!("{w}:{role:?}"))
                    .collect();
                writeln!(
                    out,
                    "{}\t{verdict:?}\t{}\t{}",
                    bytes.len(),
                    path.display(),
                    words.join(",")
                )
                .unwrap();
            }
        }
        "list-files" => {
            for f in scanned_files(&opts) {
                writeln!(out, "{}", f.display()).unwrap();
            }
        }
        "run" => {
            let list = args.drivers.expect("run needs --drivers LIST");
            let text = std::fs::read_to_string(&list).expect("cannot read the driver list");
            let drivers: HashSet<PathBuf> = text.lines().map(PathBuf::from).collect();
            let read = AtomicUsize::new(0);
            let bytes = AtomicUsize::new(0);
            let parsed = AtomicUsize::new(0);
            let nodes = AtomicUsize::new(0);
            // With `--grouped`: the driver files read, parsed after the walk.
            let held = std::sync::Mutex::new(Vec::new());
            mongolint::discover::walk_builder(&opts.paths, &opts)
                .build_parallel()
                .run(|| {
                    Box::new(|entry| {
                        let Ok(e) = entry else {
                            return ignore::WalkState::Continue;
                        };
                        if !e.file_type().is_some_and(|t| t.is_file()) {
                            return ignore::WalkState::Continue;
                        }
                        let Some(lang) = mongolint::lang::language_for(e.path()) else {
                            return ignore::WalkState::Continue;
                        };
                        BUF.with(|b| {
                            let mut buf = b.borrow_mut();
                            if let Some(n) = read_least(e.path(), &mut buf) {
                                read.fetch_add(1, Ordering::Relaxed);
                                bytes.fetch_add(n, Ordering::Relaxed);
                                if args.grouped && drivers.contains(e.path()) {
                                    let text = buf[..n].to_vec();
                                    held.lock().unwrap().push((lang, e.into_path(), text));
                                } else if drivers.contains(e.path()) {
                                    parsed.fetch_add(1, Ordering::Relaxed);
                                    nodes.fetch_add(
                                        process(lang, e.path(), &buf[..n], args.stage),
                                        Ordering::Relaxed,
                                    );
                                }
                            }
                        });
                        ignore::WalkState::Continue
                    })
                });
            let mut held = held.into_inner().unwrap();
            held.sort_unstable_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
            let next = AtomicUsize::new(0);
            std::thread::scope(|scope| {
                for _ in 0..mongolint::discover::worker_threads(&opts).min(held.len()) {
                    scope.spawn(|| {
                        while let Some((lang, path, text)) =
                            held.get(next.fetch_add(1, Ordering::Relaxed))
                        {
                            parsed.fetch_add(1, Ordering::Relaxed);
                            nodes.fetch_add(
                                process(*lang, path, text, args.stage),
                                Ordering::Relaxed,
                            );
                        }
                    });
                }
            });
            writeln!(
                out,
                "read {} files ({} bytes), parsed {} driver files (checksum {})",
                read.into_inner(),
                bytes.into_inner(),
                parsed.into_inner(),
                nodes.into_inner()
            )
            .unwrap();
        }
        _ => {
            eprintln!(
                "usage: floor list-drivers|list-files|list-extra|run [--drivers LIST] [--threads N] [--walk|--extract] PATHS..."
            );
            std::process::exit(2);
        }
    }
}

/// Reads `path` with the fewest system calls (open, read until it returns 0, close: no `fstat`,
/// no `lseek`, which `read_to_end` adds for a `File`) into `buf`, a per-thread buffer kept at the
/// length it has grown to, so that nothing is zeroed or allocated again; the number of bytes read.
fn read_least(path: &std::path::Path, buf: &mut Vec<u8>) -> Option<usize> {
    let mut f = std::fs::File::open(path).ok()?;
    let mut filled = 0;
    loop {
        if filled == buf.len() {
            buf.resize((buf.len() * 2).max(64 * 1024), 0);
        }
        match f.read(&mut buf[filled..]) {
            Ok(0) => return Some(filled),
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
}
