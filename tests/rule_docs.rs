//! Keeps the rule registry and the documentation pages in rules/ in step: one page per rule, the
//! page on disk is the text the binary embeds, and every page has the fixed sections.

use mongolint::rules::{all, RuleMeta};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const SECTIONS: &[&str] = &[
    "What it does",
    "Why is this bad?",
    "Incorrect",
    "Correct",
    "When not to use it",
    "Options",
    "References",
];

fn rules_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("rules")
}

fn metas() -> Vec<&'static RuleMeta> {
    all().iter().map(|r| r.meta()).collect()
}

fn page(id: &str) -> String {
    let p = rules_dir().join(format!("{id}.md"));
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// `## ` headings outside fenced code blocks.
fn sections(text: &str) -> Vec<String> {
    let mut in_fence = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if !in_fence {
            if let Some(h) = line.strip_prefix("## ") {
                out.push(h.trim_end().to_string());
            }
        }
    }
    assert!(!in_fence, "unclosed code fence");
    out
}

#[test]
fn every_rule_has_a_page_equal_to_its_embedded_doc() {
    let metas = metas();
    assert!(!metas.is_empty());
    for m in metas {
        assert_eq!(
            page(m.id),
            m.doc,
            "rules/{}.md differs from the doc the binary embeds",
            m.id
        );
    }
}

#[test]
fn every_page_has_the_title_and_the_fixed_sections_in_order() {
    for m in metas() {
        let text = page(m.id);
        assert_eq!(
            text.lines().next(),
            Some(format!("# {}", m.id).as_str()),
            "rules/{}.md title",
            m.id
        );
        assert_eq!(
            sections(&text),
            SECTIONS,
            "rules/{}.md must have exactly these `## ` sections, in order",
            m.id
        );
        for (i, name) in SECTIONS.iter().enumerate() {
            let start = text.find(&format!("\n## {name}\n")).unwrap() + name.len() + 5;
            let end = SECTIONS
                .get(i + 1)
                .map(|next| text.find(&format!("\n## {next}\n")).unwrap())
                .unwrap_or(text.len());
            assert!(
                !text[start..end].trim().is_empty(),
                "rules/{}.md: section `{name}` is empty",
                m.id
            );
        }
    }
}

#[test]
fn every_page_belongs_to_a_registered_rule() {
    let ids: BTreeSet<&str> = metas().iter().map(|m| m.id).collect();
    let mut pages = Vec::new();
    for entry in std::fs::read_dir(rules_dir()).unwrap() {
        let p = entry.unwrap().path();
        if p.extension().is_some_and(|e| e == "md") {
            pages.push(p.file_stem().unwrap().to_string_lossy().into_owned());
        }
    }
    assert!(!pages.is_empty());
    for stem in &pages {
        assert!(
            ids.contains(stem.as_str()),
            "rules/{stem}.md has no registered rule"
        );
    }
    assert_eq!(pages.len(), ids.len(), "one page per rule");
}

#[test]
fn rule_ids_are_unique_kebab_case_with_a_summary() {
    let mut seen = BTreeSet::new();
    for m in metas() {
        assert!(seen.insert(m.id), "duplicate rule id {}", m.id);
        assert!(
            !m.id.is_empty()
                && m.id
                    .split('-')
                    .all(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase())),
            "`{}` is not kebab-case",
            m.id
        );
        assert!(!m.summary.trim().is_empty(), "{} has no summary", m.id);
        assert!(mongolint::rules::find(m.id).is_some());
    }
}
