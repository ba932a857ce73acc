//! Human diagnostics: miette's graphical report with the source snippet of each finding.

use super::locate::Locator;
use super::ReportOptions;
use crate::analysis::Analysis;
use crate::diagnostic::{Finding, Severity};
use crate::source::LineIndex;
use miette::{
    Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteError,
    MietteSpanContents, SourceCode, SourceSpan, SpanContents,
};
use std::fmt::{self, Write as _};
use std::io::Write;

/// Fixed, so the output never depends on the terminal it is printed to.
const WIDTH: usize = 100;

pub(super) fn render(
    analysis: &Analysis,
    opts: &ReportOptions,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let theme = if opts.color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme.clone())
        .with_width(WIDTH)
        .with_wrap_lines(false)
        .with_links(false)
        .with_urls(false)
        .without_syntax_highlighting()
        .with_context_lines(1);
    let locator = Locator::new(analysis);

    for finding in &analysis.findings {
        let rendered =
            render_finding(&handler, &theme, &locator, finding).map_err(std::io::Error::other)?;
        out.write_all(rendered.as_bytes())?;
        writeln!(out)?;
    }
    for error in &analysis.errors {
        writeln!(
            out,
            "warning: could not analyse {}: {}",
            error.display_path, error.message
        )?;
    }
    writeln!(out, "{}", summary(analysis))
}

fn render_finding(
    handler: &GraphicalReportHandler,
    theme: &GraphicalTheme,
    locator: &Locator,
    finding: &Finding,
) -> Result<String, fmt::Error> {
    let path = locator.path(finding.file);
    let source = locator
        .index(finding.file)
        .map(|(text, index)| SnippetSource {
            name: path,
            text,
            index,
        });
    let mut labels = Vec::new();
    let mut notes = Vec::new();
    if let Some(source) = &source {
        labels.push(LabeledSpan::new_primary_with_span(
            Some(short_reason(finding.rule)),
            source.clamp(finding.span.start, finding.span.end),
        ));
    } else {
        notes.push(format!("at: {path}"));
    }
    for related in &finding.related {
        match &source {
            Some(source) if related.file == finding.file => {
                labels.push(LabeledSpan::new_with_span(
                    Some(related.message.clone()),
                    source.clamp(related.span.start, related.span.end),
                ))
            }
            _ => notes.push(match locator.range(related.file, related.span) {
                Some(r) => format!(
                    "note: {}:{}:{}: {}",
                    locator.path(related.file),
                    r.start.line,
                    r.start.column,
                    related.message
                ),
                None => format!("note: {}: {}", locator.path(related.file), related.message),
            }),
        }
    }

    let diagnostic = FindingDiagnostic {
        finding,
        source: source.as_ref(),
        labels,
    };
    let mut rendered = String::new();
    handler.render_report(&mut rendered, &diagnostic)?;
    // Notes and help are written here rather than by miette, so that notes (related locations
    // miette cannot show) come before the help, as in rustc.
    for note in notes {
        writeln!(rendered, "  {note}")?;
    }
    if !finding.help.is_empty() {
        let mut lines = finding.help.lines();
        let first = lines.next().unwrap_or_default();
        writeln!(rendered, "  {} {first}", theme.styles.help.style("help:"))?;
        for line in lines {
            writeln!(rendered, "        {line}")?;
        }
    }
    Ok(rendered)
}

/// The underline's label: the rule summary up to its first colon ("Array grows without bound").
fn short_reason(rule_id: &str) -> String {
    match crate::catalogue::find_meta(rule_id) {
        Some(meta) => {
            let summary = meta.summary;
            summary
                .split(':')
                .next()
                .unwrap_or(summary)
                .trim()
                .to_string()
        }
        None => rule_id.to_string(),
    }
}

fn summary(analysis: &Analysis) -> String {
    let files = plural(analysis.files_scanned, "file", "files");
    if analysis.findings.is_empty() {
        return format!("No findings in {files}.");
    }
    let count = |s: Severity| analysis.findings.iter().filter(|f| f.severity == s).count();
    let mut parts = Vec::new();
    let errors = count(Severity::Error);
    let warnings = count(Severity::Warning);
    let infos = count(Severity::Info);
    if errors > 0 {
        parts.push(plural(errors, "error", "errors"));
    }
    if warnings > 0 {
        parts.push(plural(warnings, "warning", "warnings"));
    }
    if infos > 0 {
        parts.push(format!("{infos} info"));
    }
    format!(
        "Found {} ({}) in {files}.",
        plural(analysis.findings.len(), "finding", "findings"),
        parts.join(", ")
    )
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

struct FindingDiagnostic<'a> {
    finding: &'a Finding,
    source: Option<&'a SnippetSource<'a>>,
    labels: Vec<LabeledSpan>,
}

impl fmt::Display for FindingDiagnostic<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let finding = self.finding;
        write!(
            f,
            "{}[{}]: {}",
            finding.severity.as_str(),
            finding.rule,
            finding.message
        )
    }
}

impl fmt::Debug for FindingDiagnostic<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for FindingDiagnostic<'_> {}

impl Diagnostic for FindingDiagnostic<'_> {
    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.finding.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
            Severity::Info => miette::Severity::Advice,
        })
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.source.map(|s| s as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        if self.labels.is_empty() {
            return None;
        }
        Some(Box::new(self.labels.iter().cloned()))
    }
}

/// A file's text for miette, named by its display path. miette counts the column in its
/// `[path:line:col]` header in bytes; this reports the same 1-based UTF-16 column as the
/// SARIF and JSON outputs (and as editors do), so the three formats agree.
struct SnippetSource<'a> {
    name: &'a str,
    text: &'a str,
    index: &'a LineIndex,
}

impl SnippetSource<'_> {
    /// A span miette can read: inside the text, on char boundaries.
    fn clamp(&self, start: u32, end: u32) -> SourceSpan {
        let floor = |mut i: usize| {
            i = i.min(self.text.len());
            while !self.text.is_char_boundary(i) {
                i -= 1;
            }
            i
        };
        let start = floor(start as usize);
        let end = floor(end as usize).max(start);
        SourceSpan::new(start.into(), end - start)
    }
}

impl SourceCode for SnippetSource<'_> {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let contents = self
            .text
            .read_span(span, context_lines_before, context_lines_after)?;
        let (line, column) = if context_lines_before == 0 {
            // The read that gives the header its line and column starts at the span itself.
            let position = self.index.position(self.text, span.offset() as u32);
            (position.line - 1, position.column - 1)
        } else {
            (contents.line(), contents.column())
        };
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.to_string(),
            contents.data(),
            *contents.span(),
            line,
            column,
            contents.line_count(),
        )))
    }
}
