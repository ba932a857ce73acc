//! Baselines, for adopting mongolint on an existing code base: `--write-baseline FILE` records
//! today's findings; `--baseline FILE` then reports only findings that are not in it.
//!
//! A finding is recorded by its fingerprint (`mongolint/v1`: rule, path, the text of its first line
//! with whitespace collapsed, and its occurrence among identical ones), which holds when lines are
//! added or removed above it or the line is re-indented. A finding whose fingerprint is not in the
//! baseline still matches an unused entry with the same rule and the same line text (`context`),
//! so code moved to another file, or a renamed file, does not turn old findings into new ones.
//! Each entry matches at most one finding. The file format is documented in docs/configuration.md.

use crate::analysis::Analysis;
use crate::report::fingerprint::{fingerprints, normalize_line, Fnv1a64};
use crate::report::locate::Locator;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::Path;

/// The version of the file format.
const FORMAT_VERSION: u32 = 1;

#[derive(Serialize, Deserialize, Debug)]
pub struct Baseline {
    /// Format version: 1.
    pub version: u32,
    /// The fingerprint recipe the entries use (`mongolint/v1`).
    pub fingerprint: String,
    pub findings: Vec<Entry>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub rule: String,
    pub path: String,
    /// Where the finding was when the baseline was written (for readers; not used to match).
    #[serde(default)]
    pub line: Option<usize>,
    pub fingerprint: String,
    /// Hash of the rule and the finding's line text, whatever the file.
    pub context: String,
    /// The finding's message when the baseline was written (for readers; not used to match).
    #[serde(default)]
    pub message: String,
}

fn context_hash(rule: &str, line: &str) -> String {
    let mut h = Fnv1a64::new();
    h.write(rule.as_bytes());
    h.write(&[0]);
    h.write(line.as_bytes());
    crate::report::fingerprint::hex16(h.finish())
}

/// The baseline entries of the analysis' findings, in report order.
pub fn entries(analysis: &Analysis) -> Vec<Entry> {
    let locator = Locator::new(analysis);
    let fps = fingerprints(analysis, &locator);
    analysis
        .findings
        .iter()
        .zip(fps)
        .map(|(f, fingerprint)| {
            let range = locator.range(f.file, f.span);
            let line_text = locator
                .start_line_text(f.file, f.span)
                .map(normalize_line)
                .unwrap_or_default();
            Entry {
                rule: f.rule.to_string(),
                path: locator.path(f.file).to_string(),
                line: range.map(|r| r.start.line),
                fingerprint,
                context: context_hash(f.rule, &line_text),
                message: f.message.clone(),
            }
        })
        .collect()
}

/// Writes the baseline of `analysis` to `path`; returns the number of entries.
pub fn write(path: &Path, analysis: &Analysis) -> Result<usize, String> {
    let baseline = Baseline {
        version: FORMAT_VERSION,
        fingerprint: crate::report::fingerprint::FINGERPRINT_KEY.to_string(),
        findings: entries(analysis),
    };
    let mut text = serde_json::to_string_pretty(&baseline).map_err(|e| e.to_string())?;
    text.push('\n');
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(baseline.findings.len())
}

/// Reads a baseline file.
pub fn load(path: &Path) -> Result<Baseline, String> {
    let shown = path.display();
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("cannot read baseline {shown}: {e}"))?;
    let baseline: Baseline = serde_json::from_str(&text)
        .map_err(|e| format!("{shown}: not a mongolint baseline: {e}"))?;
    if baseline.version != FORMAT_VERSION {
        return Err(format!(
            "{shown}: baseline format version {} is not supported (expected {FORMAT_VERSION})",
            baseline.version
        ));
    }
    if baseline.fingerprint != crate::report::fingerprint::FINGERPRINT_KEY {
        return Err(format!(
            "{shown}: baseline uses fingerprints `{}`, this mongolint computes `{}`: write it again with --write-baseline",
            baseline.fingerprint,
            crate::report::fingerprint::FINGERPRINT_KEY
        ));
    }
    Ok(baseline)
}

/// Removes the findings the baseline already records; returns how many were removed.
pub fn filter(analysis: &mut Analysis, baseline: &Baseline) -> usize {
    let current = entries(analysis);
    let mut matched = vec![false; current.len()];
    let mut unused = vec![true; baseline.findings.len()];

    // Pass 1: same fingerprint (same rule, path and line text).
    let mut by_fingerprint: HashMap<(&str, &str), Vec<usize>> = HashMap::new();
    for (i, e) in baseline.findings.iter().enumerate().rev() {
        by_fingerprint
            .entry((&e.rule, &e.fingerprint))
            .or_default()
            .push(i);
    }
    for (k, e) in current.iter().enumerate() {
        if let Some(i) = by_fingerprint
            .get_mut(&(e.rule.as_str(), e.fingerprint.as_str()))
            .and_then(Vec::pop)
        {
            matched[k] = true;
            unused[i] = false;
        }
    }
    // Pass 2: same rule and line text in another place (moved code, renamed files).
    let mut by_context: HashMap<(&str, &str), Vec<usize>> = HashMap::new();
    for (i, e) in baseline.findings.iter().enumerate().rev() {
        if unused[i] {
            by_context.entry((&e.rule, &e.context)).or_default().push(i);
        }
    }
    for (k, e) in current.iter().enumerate() {
        if matched[k] {
            continue;
        }
        if let Some(i) = by_context
            .get_mut(&(e.rule.as_str(), e.context.as_str()))
            .and_then(Vec::pop)
        {
            matched[k] = true;
            unused[i] = false;
        }
    }
    let mut keep = matched.iter().map(|m| !m);
    analysis.findings.retain(|_| keep.next().unwrap_or(true));
    matched.iter().filter(|m| **m).count()
}
