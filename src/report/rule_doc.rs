//! Help text derived from a rule's documentation page (`rules/<id>.md`), the single source of
//! rule help: SARIF `fullDescription` and `help` come from here.

use crate::rules::RuleMeta;

/// The first paragraph of the page's "What it does" section as plain text, or the rule summary
/// when the page has no such section yet.
pub(crate) fn full_description(meta: &RuleMeta) -> String {
    let mut lines = meta.doc.lines();
    let found = lines.by_ref().any(|line| {
        heading(line).is_some_and(|title| title.trim().eq_ignore_ascii_case("what it does"))
    });
    if found {
        let paragraph: Vec<&str> = lines
            .skip_while(|l| l.trim().is_empty())
            .take_while(|l| !l.trim().is_empty() && heading(l).is_none())
            .map(str::trim)
            .collect();
        if !paragraph.is_empty() {
            return inline_to_text(&paragraph.join(" "));
        }
    }
    meta.summary.to_string()
}

/// A plain-text rendering of a Markdown page: no heading marks, fences, emphasis or backticks;
/// code blocks indented by four spaces; links as `text (url)`.
pub(crate) fn markdown_to_text(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len());
    let mut in_fence = false;
    for line in markdown.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            out.push_str("    ");
            out.push_str(line);
        } else if let Some(title) = heading(line) {
            out.push_str(&inline_to_text(title.trim()));
        } else {
            out.push_str(&inline_to_text(line));
        }
        out.push('\n');
    }
    // Collapse the blank lines left where fences were, and trailing ones.
    let mut text = String::with_capacity(out.len());
    let mut blank_run = 0;
    for line in out.lines() {
        if line.trim().is_empty() {
            blank_run += 1;
            continue;
        }
        if !text.is_empty() && blank_run > 0 {
            text.push('\n');
        }
        blank_run = 0;
        text.push_str(line.trim_end());
        text.push('\n');
    }
    text
}

/// The title of an ATX heading line (`## Title`), if it is one.
fn heading(line: &str) -> Option<&str> {
    let rest = line.trim_start().strip_prefix('#')?;
    let rest = rest.trim_start_matches('#');
    if rest.is_empty() || rest.starts_with(' ') {
        Some(rest.trim_end_matches(['#', ' ']))
    } else {
        None
    }
}

/// Inline Markdown to text: drops backticks and emphasis marks, renders links as `text (url)`.
fn inline_to_text(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(c) = rest.chars().next() {
        // Code spans are copied verbatim (their content may contain `*` or `_`).
        if c == '`' {
            let ticks = rest.len() - rest.trim_start_matches('`').len();
            let fence = &rest[..ticks];
            if let Some(end) = rest[ticks..].find(fence) {
                out.push_str(rest[ticks..ticks + end].trim());
                rest = &rest[ticks + end + ticks..];
                continue;
            }
        }
        if c == '[' || (c == '!' && rest[1..].starts_with('[')) {
            let open = if c == '!' { 1 } else { 0 };
            if let Some((text, url, len)) = link(&rest[open..]) {
                out.push_str(&inline_to_text(text));
                if !url.is_empty() && url != text {
                    out.push_str(" (");
                    out.push_str(url);
                    out.push(')');
                }
                rest = &rest[open + len..];
                continue;
            }
        }
        if rest.starts_with("**") || rest.starts_with("__") {
            rest = &rest[2..];
            continue;
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// `[text](url)` at the start of `s`: the text, the url and the length consumed.
fn link(s: &str) -> Option<(&str, &str, usize)> {
    let close = s.find("](")?;
    let text = &s[1..close];
    let url_len = s[close + 2..].find(')')?;
    let url = &s[close + 2..close + 2 + url_len];
    Some((text, url, close + 2 + url_len + 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Severity;

    fn meta(doc: &'static str) -> RuleMeta {
        RuleMeta {
            id: "x",
            name: "X",
            summary: "The summary",
            default_severity: Severity::Warning,
            precision: "high",
            tags: &[],
            doc,
        }
    }

    #[test]
    fn full_description_is_first_paragraph_of_what_it_does() {
        let m = meta(
            "# x\n\n## What it does\n\nFlags `$push`\nwithout **a bound**.\n\nMore.\n\n## Why\n",
        );
        assert_eq!(full_description(&m), "Flags $push without a bound.");
        assert_eq!(full_description(&meta("# x\n\n(todo)\n")), "The summary");
    }

    #[test]
    fn markdown_becomes_plain_text() {
        let md = "# x\n\n## Incorrect\n\n```js\ncoll.updateOne(q, {$push: {a: 1}})\n```\n\nSee [the docs](https://example.com/a_b) and `a*b`.\n";
        assert_eq!(
            markdown_to_text(md),
            "x\n\nIncorrect\n\n    coll.updateOne(q, {$push: {a: 1}})\n\nSee the docs (https://example.com/a_b) and a*b.\n"
        );
    }
}
