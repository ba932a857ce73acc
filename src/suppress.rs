//! Inline suppressions: `// mongolint-ignore[rule-id]: reason` (JavaScript, TypeScript, Rust) and
//! `# mongolint-ignore[rule-id]: reason` (Python).
//!
//! A suppression on a line of code silences the named rules' findings that start on that line; one
//! on a line of its own silences those on the next line (several such comments may be stacked
//! above one line). Several rules may be named, separated by commas.
//!
//! Suppressions are checked: one that gives no reason, names an unknown rule or is malformed is
//! reported as `invalid-suppression` (a reason-less suppression still silences its finding, so the
//! user sees one problem, not two); with `--report-unused-suppressions`, one that silences nothing
//! is reported as `unused-suppression`. These two are diagnostics about the comments, not rules of
//! the catalogue: they cannot be selected, ignored or suppressed, and they are listed in SARIF's
//! `tool.driver.rules` so that code scanning can show their help.

use crate::analysis::Analysis;
use crate::config::Config;
use crate::diagnostic::{FileId, Finding, Severity};
use crate::ir::{Language, Span};
use crate::rules::{self, RuleMeta};
use crate::source::LineIndex;

const DIRECTIVE: &str = "mongolint-ignore";

pub static INVALID_SUPPRESSION: RuleMeta = RuleMeta {
    id: "invalid-suppression",
    name: "InvalidSuppression",
    summary: "Invalid suppression: a mongolint-ignore comment without a reason, for an unknown rule, or malformed",
    default_severity: Severity::Warning,
    precision: "very-high",
    tags: &["mongolint", "suppression"],
    doc: include_str!("../docs/diagnostics/invalid-suppression.md"),
};

pub static UNUSED_SUPPRESSION: RuleMeta = RuleMeta {
    id: "unused-suppression",
    name: "UnusedSuppression",
    summary: "Unused suppression: a mongolint-ignore comment that silences no finding (--report-unused-suppressions)",
    default_severity: Severity::Warning,
    precision: "very-high",
    tags: &["mongolint", "suppression"],
    doc: include_str!("../docs/diagnostics/unused-suppression.md"),
};

/// The diagnostics about suppression comments, in the order SARIF lists them after the rules.
pub fn diagnostics() -> [&'static RuleMeta; 2] {
    [&INVALID_SUPPRESSION, &UNUSED_SUPPRESSION]
}

/// One `mongolint-ignore` comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suppression {
    /// 1-based line the comment is on.
    pub line: usize,
    /// 1-based line whose findings it silences.
    pub target_line: usize,
    /// The directive's span, from `mongolint-ignore` to the end of the comment.
    pub span: Span,
    /// Rule ids as written, with their spans.
    pub rules: Vec<(String, Span)>,
    /// The reason after `:`, trimmed; `None` when absent or empty.
    pub reason: Option<String>,
    /// Why the comment is not a well-formed suppression, if it is not.
    pub malformed: Option<String>,
}

fn comment_markers(lang: Language) -> &'static [&'static str] {
    match lang {
        Language::Python => &["#"],
        Language::JavaScript | Language::TypeScript | Language::Tsx | Language::Rust => {
            &["//", "/*"]
        }
    }
}

/// Every suppression comment in `text`.
pub fn parse(text: &str, lang: Language) -> Vec<Suppression> {
    let markers = comment_markers(lang);
    let mut found: Vec<(Suppression, bool)> = Vec::new();
    let mut offset = 0usize;
    for (i, raw_line) in text.split_inclusive('\n').enumerate() {
        let line_start = offset;
        offset += raw_line.len();
        let line = raw_line.trim_end_matches(['\n', '\r']);
        let Some(at) = line.find(DIRECTIVE) else {
            continue;
        };
        let before = line[..at].trim_end();
        let Some(marker) = markers.iter().find(|m| before.ends_with(*m)) else {
            continue;
        };
        // `///` and `//!` doc comments, `##`: the marker is the run of marker characters.
        let code = before[..before.len() - marker.len()]
            .trim_end_matches(['/', '#', '!'])
            .trim();
        let own_line = code.is_empty();
        let is_block = *marker == "/*";
        let mut s = parse_directive(line, at, line_start, is_block);
        s.line = i + 1;
        s.target_line = i + 1;
        found.push((s, own_line));
    }
    // An own-line suppression applies to the next line that is not itself one.
    let lines: Vec<usize> = found
        .iter()
        .filter(|(_, own)| *own)
        .map(|(s, _)| s.line)
        .collect();
    for (s, own) in &mut found {
        if *own {
            let mut target = s.line + 1;
            while lines.contains(&target) {
                target += 1;
            }
            s.target_line = target;
        }
    }
    found.into_iter().map(|(s, _)| s).collect()
}

/// Parses the directive starting at byte `at` of `line` (which starts at `line_start` in the file).
fn parse_directive(line: &str, at: usize, line_start: usize, is_block: bool) -> Suppression {
    let mut end = line.len();
    if is_block {
        if let Some(close) = line[at..].find("*/") {
            end = at + close;
        }
    }
    let body_end = line[..end].trim_end().len().max(at + DIRECTIVE.len());
    let abs = |i: usize| (line_start + i) as u32;
    let mut s = Suppression {
        line: 0,
        target_line: 0,
        span: Span::new(abs(at) as usize, abs(body_end) as usize),
        rules: Vec::new(),
        reason: None,
        malformed: None,
    };
    let after = at + DIRECTIVE.len();
    let rest = &line[after..end];
    let Some(list) = rest.strip_prefix('[') else {
        s.malformed = Some(format!(
            "`{}` must name the rule(s) it silences: `{DIRECTIVE}[rule-id]: reason`",
            line[at..body_end].trim()
        ));
        return s;
    };
    let Some(close) = list.find(']') else {
        s.malformed = Some(format!("unclosed `[` in `{}`", line[at..body_end].trim()));
        return s;
    };
    let list_start = after + 1;
    let mut pos = 0;
    for part in list[..close].split(',') {
        let lead = part.len() - part.trim_start().len();
        let id = part.trim();
        if !id.is_empty() {
            let start = list_start + pos + lead;
            s.rules.push((
                id.to_string(),
                Span::new(abs(start) as usize, abs(start + id.len()) as usize),
            ));
        }
        pos += part.len() + 1;
    }
    if s.rules.is_empty() {
        s.malformed = Some(format!("`{DIRECTIVE}[]` names no rule"));
    }
    let tail = list[close + 1..].trim_start();
    if let Some(reason) = tail.strip_prefix(':') {
        let reason = reason.trim();
        if !reason.is_empty() {
            s.reason = Some(reason.to_string());
        }
    } else if !tail.is_empty() && s.malformed.is_none() {
        s.malformed = Some(format!(
            "expected `: reason` after `]`, found `{}`",
            tail.trim_end()
        ));
    }
    s
}

fn diagnostic(
    meta: &'static RuleMeta,
    file: FileId,
    span: Span,
    message: String,
    help: &str,
) -> Finding {
    Finding {
        rule: meta.id,
        severity: meta.default_severity,
        file,
        span,
        message,
        help: help.to_string(),
        related: Vec::new(),
    }
}

/// Removes the findings that suppressions silence and adds the diagnostics about the suppression
/// comments themselves. Returns how many findings were silenced. Findings stay sorted.
pub fn apply(analysis: &mut Analysis, config: &Config) -> usize {
    let mut silenced = 0;
    let mut extra = Vec::new();
    let mut by_file: Vec<Vec<usize>> = vec![Vec::new(); analysis.files.len()];
    for (i, f) in analysis.findings.iter().enumerate() {
        if let Some(v) = by_file.get_mut(f.file) {
            v.push(i);
        }
    }
    let mut remove = vec![false; analysis.findings.len()];
    for (file_id, file) in analysis.files.iter().enumerate() {
        let Some(text) = file.text.as_deref() else {
            continue;
        };
        if !text.contains(DIRECTIVE) {
            continue;
        }
        let suppressions = parse(text, file.language);
        if suppressions.is_empty() {
            continue;
        }
        let index = LineIndex::new(text);
        for s in &suppressions {
            let mut used = vec![false; s.rules.len()];
            for &fi in &by_file[file_id] {
                let f = &analysis.findings[fi];
                if index.position(text, f.span.start).line != s.target_line {
                    continue;
                }
                if let Some(k) = s.rules.iter().position(|(id, _)| id == f.rule) {
                    used[k] = true;
                    if !remove[fi] {
                        remove[fi] = true;
                        silenced += 1;
                    }
                }
            }
            if let Some(why) = &s.malformed {
                extra.push(diagnostic(
                    &INVALID_SUPPRESSION,
                    file_id,
                    s.span,
                    format!("malformed suppression: {why}"),
                    "write `mongolint-ignore[rule-id]: reason`, on the flagged line or on its own line just above it",
                ));
                continue;
            }
            for (k, (id, span)) in s.rules.iter().enumerate() {
                if rules::find(id).is_none() {
                    extra.push(diagnostic(
                        &INVALID_SUPPRESSION,
                        file_id,
                        *span,
                        format!("suppression names an unknown rule `{id}`"),
                        "use a rule id from `mongolint rules`",
                    ));
                } else if config.report_unused_suppressions
                    && !used[k]
                    && config.is_active(id, &file.path)
                {
                    extra.push(diagnostic(
                        &UNUSED_SUPPRESSION,
                        file_id,
                        *span,
                        format!(
                            "unused suppression: no `{id}` finding on line {}",
                            s.target_line
                        ),
                        "remove the suppression, or move it to the line the finding starts on (or the line just above)",
                    ));
                }
            }
            if s.reason.is_none() {
                let ids: Vec<&str> = s.rules.iter().map(|(id, _)| id.as_str()).collect();
                extra.push(diagnostic(
                    &INVALID_SUPPRESSION,
                    file_id,
                    s.span,
                    format!("suppression of `{}` gives no reason", ids.join(", ")),
                    &format!(
                        "say why the finding does not apply: `mongolint-ignore[{}]: reason`",
                        ids.join(", ")
                    ),
                ));
            }
        }
    }
    let mut keep = remove.iter().map(|r| !r);
    analysis.findings.retain(|_| keep.next().unwrap_or(true));
    analysis.findings.extend(extra);
    sort_findings(&mut analysis.findings);
    silenced
}

/// The order every reporter relies on (the same as `rules::run_all`'s).
pub fn sort_findings(findings: &mut [Finding]) {
    findings.sort_by(crate::rules::report_order);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str, lang: Language) -> Suppression {
        let v = parse(text, lang);
        assert_eq!(v.len(), 1, "{v:?}");
        v.into_iter().next().unwrap()
    }

    fn ids(s: &Suppression) -> Vec<&str> {
        s.rules.iter().map(|(id, _)| id.as_str()).collect()
    }

    #[test]
    fn trailing_comment_applies_to_its_line() {
        let text = "a();\ncoll.find().skip(n); // mongolint-ignore[skip-paging]: admin export, 3 pages at most\n";
        let s = one(text, Language::JavaScript);
        assert_eq!((s.line, s.target_line), (2, 2));
        assert_eq!(ids(&s), vec!["skip-paging"]);
        assert_eq!(s.reason.as_deref(), Some("admin export, 3 pages at most"));
        assert_eq!(s.malformed, None);
        let (id, span) = &s.rules[0];
        assert_eq!(&text[span.start as usize..span.end as usize], id);
    }

    #[test]
    fn own_line_comments_apply_to_the_next_line_and_stack() {
        let text = "# mongolint-ignore[counter-inc]: one per day\n    # mongolint-ignore[skip-paging, unbounded-push]: bounded elsewhere\ncoll.update_one(q, u)\n";
        let v = parse(text, Language::Python);
        assert_eq!(v.len(), 2);
        assert_eq!((v[0].line, v[0].target_line), (1, 3));
        assert_eq!((v[1].line, v[1].target_line), (2, 3));
        assert_eq!(ids(&v[1]), vec!["skip-paging", "unbounded-push"]);
    }

    #[test]
    fn rust_doc_comments_and_js_block_comments() {
        let s = one(
            "/// mongolint-ignore[counter-inc]: why\nx\n",
            Language::Rust,
        );
        assert_eq!(s.target_line, 2);
        let s = one(
            "f(); /* mongolint-ignore[skip-paging]: why */\n",
            Language::TypeScript,
        );
        assert_eq!(s.reason.as_deref(), Some("why"));
        assert_eq!(s.target_line, 1);
    }

    #[test]
    fn the_comment_marker_must_match_the_language() {
        assert!(parse(
            "x = 1 // mongolint-ignore[skip-paging]: r\n",
            Language::Python
        )
        .is_empty());
        assert!(parse(
            "x = 1 # mongolint-ignore[skip-paging]: r\n",
            Language::JavaScript
        )
        .is_empty());
        assert!(parse(
            "s = \"mongolint-ignore[skip-paging]: r\"\n",
            Language::JavaScript
        )
        .is_empty());
    }

    #[test]
    fn missing_reason_and_malformed_directives() {
        let s = one("x // mongolint-ignore[skip-paging]\n", Language::JavaScript);
        assert_eq!(s.reason, None);
        assert_eq!(s.malformed, None);
        let s = one(
            "x // mongolint-ignore[skip-paging]:   \n",
            Language::JavaScript,
        );
        assert_eq!(s.reason, None);
        let s = one("x // mongolint-ignore: whatever\n", Language::JavaScript);
        assert!(s.malformed.unwrap().contains("must name the rule"));
        let s = one("x // mongolint-ignore[skip-paging\n", Language::JavaScript);
        assert!(s.malformed.unwrap().contains("unclosed"));
        let s = one("x // mongolint-ignore[] : r\n", Language::JavaScript);
        assert!(s.malformed.unwrap().contains("names no rule"));
        let s = one(
            "x // mongolint-ignore[skip-paging] because\n",
            Language::JavaScript,
        );
        assert!(s.malformed.unwrap().contains("expected `: reason`"));
    }
}
