//! Every input the fuzzers (fuzz/, `bash scripts/fuzz.sh`) found, replayed through the same entry
//! points as the fuzz targets; plus a short deterministic smoke pass: a few thousand mutated slices
//! of corpus/ through each frontend. The real libFuzzer runs are not part of the test suite.
//!
//! tests/data/fuzz/<target>-<what>: `<target>` is the fuzz target that found it.

use mongolint::analysis::check_source;
use mongolint::rules::Settings;
use std::path::Path;
use std::time::{Duration, Instant};

/// The file name each language target analyses its input as (the same as fuzz/fuzz_targets/).
const TARGETS: &[(&str, &str)] = &[
    ("fuzz_javascript", "app.js"),
    ("fuzz_typescript", "app.tsx"),
    ("fuzz_python", "app.py"),
    ("fuzz_rust", "app.rs"),
    ("fuzz_doc_macro", "f.rs"),
];

/// The `fuzz_doc_macro` target's wrapper: the input as the body of `doc!`, `bson!` and a pipeline.
fn doc_macro_source(body: &str) -> String {
    format!(
        "fn f(c: Collection<D>, n: u64) {{\n    c.update_one(doc! {{ \"_id\": 1 }}, doc! {{ {body} }});\n    c.aggregate(vec![doc! {{ {body} }}, bson!({body})]);\n    c.find(doc! {{ {body} }}).skip(n);\n}}\n"
    )
}

/// Runs one input the way `target` does; returns whether the frontend accepted it.
fn replay(target: &str, data: &[u8]) -> bool {
    let text = String::from_utf8_lossy(data);
    let settings = Settings::default();
    let (name, src) = match target {
        "fuzz_doc_macro" => ("f.rs", doc_macro_source(&text)),
        t => (
            TARGETS
                .iter()
                .find(|(n, _)| *n == t)
                .unwrap_or_else(|| panic!("unknown fuzz target {t}"))
                .1,
            text.into_owned(),
        ),
    };
    check_source(name, &src, &settings).is_ok()
}

#[test]
fn every_fuzz_finding_is_fixed() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fuzz");
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    assert!(!entries.is_empty());
    for path in entries {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let target = TARGETS
            .iter()
            .map(|(t, _)| *t)
            .find(|t| name.starts_with(&format!("{t}-")))
            .unwrap_or_else(|| panic!("{name}: name it <target>-<what>"));
        let data = std::fs::read(&path).unwrap();
        let start = Instant::now();
        replay(target, &data);
        // Generous for a debug build on a loaded machine; the fuzzer's own limit is 30 s (release).
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{name}: took {:?}",
            start.elapsed()
        );
    }
}

#[test]
fn runaway_error_recovery_is_cut_off_deterministically() {
    // Found by fuzz_typescript: tree-sitter's TSX error recovery spent minutes on 3.7 KB.
    let data = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/fuzz/fuzz_typescript-timeout-tsx-error-recovery"),
    )
    .unwrap();
    let text = String::from_utf8_lossy(&data);
    let err = check_source("app.tsx", &text, &Settings::default()).unwrap_err();
    assert!(err.contains("parser gave up"), "{err}");
    // The same text as TypeScript (not TSX) parses normally and keeps its findings.
    let (_, findings) = check_source("app.ts", &text, &Settings::default()).unwrap();
    assert!(!findings.is_empty());
}

/// xorshift64: deterministic "random" mutations, the same on every run.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Tokens that stress the frontends: brackets, quotes, escapes, driver words, macro syntax.
const DICTIONARY: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    "(",
    ")",
    "\"",
    "'",
    "`",
    "${",
    "\\",
    "\n",
    "\r\n",
    "\u{feff}",
    ",",
    ":",
    ";",
    ".",
    "=",
    "=>",
    "$push",
    "$slice",
    "$lookup",
    "$inc",
    "$match",
    "$skip",
    "doc!",
    "bson!",
    "vec![",
    "format!(",
    "r#\"",
    "#",
    "f\"",
    "lambda",
    "async ",
    "await ",
    ".skip(",
    ".find(",
    "updateOne(",
    "update_one(",
    "collection(",
    "db.",
    "self.",
    "::<",
    "<T>",
    "...",
    "?.",
    "\0",
    "é",
    "😀",
    "\u{2028}",
];

fn mutate(rng: &mut Rng, seed: &[u8]) -> Vec<u8> {
    // A random slice of up to 3 KB, then a handful of edits.
    let len = seed.len().min(1 + rng.below(3000));
    let start = rng.below(seed.len() - len + 1);
    let mut v = seed[start..start + len].to_vec();
    for _ in 0..1 + rng.below(8) {
        let at = rng.below(v.len() + 1);
        match rng.below(6) {
            0 => {
                let tok = DICTIONARY[rng.below(DICTIONARY.len())].as_bytes();
                v.splice(at..at, tok.iter().copied());
            }
            1 if at < v.len() => {
                let end = (at + rng.below(64)).min(v.len());
                v.drain(at..end);
            }
            2 if at < v.len() => v[at] = rng.next() as u8,
            3 => {
                // Repeat a chunk (deep nesting, long lists).
                let end = (at + 1 + rng.below(8)).min(v.len());
                let chunk = v[at.min(end)..end].to_vec();
                let times = 1 + rng.below(200);
                for _ in 0..times {
                    v.splice(at..at, chunk.iter().copied());
                }
            }
            4 => v.truncate(at),
            _ => {
                let open = ["{", "[", "(", "doc! {", "vec!["][rng.below(5)];
                let n = 1 + rng.below(300);
                v.splice(at..at, open.repeat(n).bytes());
            }
        }
    }
    v
}

fn corpus_files(exts: &[&str]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut stack = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus")];
    while let Some(d) = stack.pop() {
        let mut entries: Vec<_> = std::fs::read_dir(&d)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                stack.push(p);
            } else if p
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| exts.contains(&e))
            {
                out.push(std::fs::read(&p).unwrap());
            }
        }
    }
    assert!(!out.is_empty(), "corpus files for {exts:?}");
    out
}

/// Mutated inputs per target: bounded by count, not wall clock.
const SMOKE_INPUTS: usize = 1000;

fn smoke(target: &str, exts: &[&str], seed: u64) {
    let seeds = corpus_files(exts);
    let mut rng = Rng(seed);
    for _ in 0..SMOKE_INPUTS {
        let s = &seeds[rng.below(seeds.len())];
        let input = mutate(&mut rng, s);
        replay(target, &input);
    }
}

#[test]
fn smoke_javascript() {
    smoke(
        "fuzz_javascript",
        &["js", "mjs", "cjs", "jsx"],
        0x1234_5678_9abc_def1,
    );
}

#[test]
fn smoke_typescript() {
    smoke("fuzz_typescript", &["ts", "tsx"], 0x2234_5678_9abc_def1);
}

#[test]
fn smoke_python() {
    smoke("fuzz_python", &["py"], 0x3234_5678_9abc_def1);
}

#[test]
fn smoke_rust() {
    smoke("fuzz_rust", &["rs"], 0x4234_5678_9abc_def1);
}

#[test]
fn smoke_doc_macro() {
    // Bodies cut from the Rust corpus (which is full of doc! bodies), mutated.
    smoke("fuzz_doc_macro", &["rs"], 0x5234_5678_9abc_def1);
}
