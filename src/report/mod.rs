//! One module per output format, all rendering the same sorted `Analysis`.
//!
//! Every reporter is a pure function of the `Analysis` (and the options): no clock, no
//! environment, no hash-map iteration order, so the bytes are the same on every run.

pub mod collections;
mod concise;
pub(crate) mod fingerprint;
mod github;
mod json;
mod line_hash;
pub(crate) mod locate;
mod rule_doc;
mod sarif;
mod text;
mod uri;

use crate::analysis::Analysis;

/// An output format of `mongolint check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Human diagnostics with source snippets (miette).
    Text,
    /// SARIF 2.1.0, for GitHub code scanning and other SARIF consumers.
    Sarif,
    /// mongolint's own stable JSON schema (docs/json-output.md).
    Json,
    /// One line per finding: `path:line:col: severity[rule-id] message`.
    Concise,
    /// GitHub Actions workflow commands (`::warning file=…,line=…::message`): annotations on
    /// the pull request's diff.
    Github,
}

#[derive(Clone, Debug, Default)]
pub struct ReportOptions {
    /// Use ANSI colors in the text format. Ignored by the machine-readable formats.
    pub color: bool,
    /// Threads that may write the JSON report's findings (0 or 1: the calling thread alone).
    /// The bytes are the same for any number.
    pub threads: usize,
}

/// Writes `analysis` to `out` in `format`.
pub fn render(
    analysis: &Analysis,
    format: Format,
    opts: &ReportOptions,
    out: &mut Vec<u8>,
) -> std::io::Result<()> {
    match format {
        Format::Text => text::render(analysis, opts, out),
        Format::Sarif => sarif::render(analysis, out),
        Format::Json => json::write(analysis, opts.threads, out),
        Format::Concise => concise::render(analysis, out),
        Format::Github => github::render(analysis, out),
    }
}

/// Writes the report to `out`. The JSON report is written as it is rendered, in runs (see
/// `json::write`); the others are rendered whole, then written.
pub fn write(
    analysis: &Analysis,
    format: Format,
    opts: &ReportOptions,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    if format == Format::Json {
        return json::write(analysis, opts.threads, out);
    }
    let mut buf = Vec::new();
    render(analysis, format, opts, &mut buf)?;
    out.write_all(&buf)
}

/// The home page, also the base of rule help links.
const HOMEPAGE: &str = env!("CARGO_PKG_HOMEPAGE");
const VERSION: &str = env!("CARGO_PKG_VERSION");

/// `n` in decimal (`n.to_string()`), written at the end of `buf`, without the formatter: the
/// JSON writer's numbers and the fingerprints' occurrence indexes.
pub(crate) fn decimal(mut n: usize, buf: &mut [u8; 20]) -> &[u8] {
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            return &buf[at..];
        }
    }
}

/// Where a rule's documentation page is published.
pub(crate) fn rule_help_uri(rule_id: &str) -> String {
    if crate::suppress::diagnostics()
        .iter()
        .any(|m| m.id == rule_id)
    {
        return format!("{HOMEPAGE}/blob/main/docs/diagnostics/{rule_id}.md");
    }
    format!("{HOMEPAGE}/blob/main/rules/{rule_id}.md")
}
