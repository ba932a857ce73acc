//! Runs mongolint over corpus/ and checks every finding against the inline expectations:
//! `// expect: rule-id` (or `# expect: ...`) on the line where the finding's primary span starts.
//! Any finding on a line without a matching expectation, and any expectation without a finding, fails.

use mongolint::analysis::{run, Options};
use mongolint::source::LineIndex;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

type Key = (String, usize, String);

fn corpus_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            corpus_files(&p, out);
        } else if mongolint::lang::language_for(&p).is_some() {
            out.push(p);
        }
    }
}

/// The application folders: `corpus/<app>`, and `corpus/python/<app>`.
fn applications() -> Vec<PathBuf> {
    let mut apps = Vec::new();
    for group in ["corpus", "corpus/python"] {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(group)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_dir() && !p.ends_with("python"))
            .collect();
        entries.sort();
        apps.extend(entries);
    }
    apps
}

/// Parses `expect:` comments into a multiset of (path, line, rule).
fn expectations() -> BTreeMap<Key, usize> {
    let mut files = Vec::new();
    corpus_files(Path::new("corpus"), &mut files);
    let mut want = BTreeMap::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let shown = f.to_string_lossy().replace('\\', "/");
        for (i, line) in text.lines().enumerate() {
            let Some(pos) = line.find("expect:") else {
                continue;
            };
            let before = &line[..pos];
            if !(before.trim_end().ends_with("//") || before.trim_end().ends_with('#')) {
                continue;
            }
            for id in line[pos + "expect:".len()..].split(',') {
                let id = id.split_whitespace().next().unwrap_or("").to_string();
                if id.is_empty() {
                    continue;
                }
                assert!(
                    mongolint::rules::find(&id).is_some(),
                    "{shown}:{}: unknown rule `{id}` in expectation",
                    i + 1
                );
                *want.entry((shown.clone(), i + 1, id)).or_insert(0) += 1;
            }
        }
    }
    want
}

#[test]
fn corpus_findings_match_inline_expectations() {
    let want = expectations();
    assert!(want.len() >= 20, "the corpus should carry expectations");
    let mut got: BTreeMap<Key, usize> = BTreeMap::new();
    let mut messages: BTreeMap<Key, String> = BTreeMap::new();
    // Each application is its own repository: the access model (indexes, cross-file names) must
    // not mix one application's collections with another's.
    for app in applications() {
        let analysis = run(&Options {
            paths: vec![app],
            threads: 2,
            ..Options::default()
        });
        assert!(analysis.errors.is_empty(), "errors: {:?}", analysis.errors);
        for f in &analysis.findings {
            let file = &analysis.files[f.file];
            let text = file.text.as_deref().unwrap();
            let line = LineIndex::new(text).position(text, f.span.start).line;
            let key = (file.display_path.clone(), line, f.rule.to_string());
            *got.entry(key.clone()).or_insert(0) += 1;
            messages.insert(key, f.message.clone());
        }
    }
    let mut problems = Vec::new();
    for (k, n) in &want {
        let g = got.get(k).copied().unwrap_or(0);
        if g < *n {
            problems.push(format!(
                "missing    {}:{}: {} (expected {n}, got {g})",
                k.0, k.1, k.2
            ));
        }
    }
    for (k, n) in &got {
        let w = want.get(k).copied().unwrap_or(0);
        if *n > w {
            problems.push(format!(
                "unexpected {}:{}: {} (expected {w}, got {n}): {}",
                k.0, k.1, k.2, messages[k]
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "corpus mismatches:\n{}",
        problems.join("\n")
    );
}
