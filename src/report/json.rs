//! mongolint's own JSON output. The schema is documented in docs/json-output.md and is stable:
//! fields may be added within `version` 1, never removed or changed in meaning.

use super::fingerprint::fingerprints;
use super::locate::{Locator, Range};
use super::VERSION;
use crate::analysis::Analysis;
use crate::diagnostic::{FileId, Severity};
use crate::ir::Span;
use serde::Serialize;
use std::io::Write;

/// The schema version of this output; bumped only for incompatible changes.
const SCHEMA_VERSION: u32 = 1;

#[derive(Serialize)]
struct Report<'a> {
    version: u32,
    tool: Tool,
    findings: Vec<Finding<'a>>,
    errors: Vec<FileError<'a>>,
    summary: Summary,
}

#[derive(Serialize)]
struct Tool {
    name: &'static str,
    version: &'static str,
}

#[derive(Serialize)]
struct Finding<'a> {
    rule: &'a str,
    severity: Severity,
    path: &'a str,
    start: Option<Position>,
    end: Option<Position>,
    message: &'a str,
    help: &'a str,
    related: Vec<Related<'a>>,
    fingerprint: String,
}

#[derive(Serialize)]
struct Related<'a> {
    path: &'a str,
    start: Option<Position>,
    end: Option<Position>,
    message: &'a str,
}

#[derive(Serialize, Clone, Copy)]
struct Position {
    line: usize,
    column: usize,
}

#[derive(Serialize)]
struct FileError<'a> {
    path: &'a str,
    message: &'a str,
}

#[derive(Serialize)]
struct Summary {
    files_scanned: usize,
    files_parsed: usize,
    findings: usize,
    by_severity: BySeverity,
    file_errors: usize,
}

#[derive(Serialize)]
struct BySeverity {
    error: usize,
    warning: usize,
    info: usize,
}

fn positions(locator: &Locator, file: FileId, span: Span) -> (Option<Position>, Option<Position>) {
    match locator.range(file, span) {
        Some(Range { start, end }) => (
            Some(Position {
                line: start.line,
                column: start.column,
            }),
            Some(Position {
                line: end.line,
                column: end.column,
            }),
        ),
        None => (None, None),
    }
}

pub(super) fn render(analysis: &Analysis, out: &mut Vec<u8>) -> std::io::Result<()> {
    let locator = Locator::new(analysis);
    let fingerprints = fingerprints(analysis, &locator);
    let findings = analysis
        .findings
        .iter()
        .zip(fingerprints)
        .map(|(f, fingerprint)| {
            let (start, end) = positions(&locator, f.file, f.span);
            Finding {
                rule: f.rule,
                severity: f.severity,
                path: locator.path(f.file),
                start,
                end,
                message: &f.message,
                help: &f.help,
                related: f
                    .related
                    .iter()
                    .map(|r| {
                        let (start, end) = positions(&locator, r.file, r.span);
                        Related {
                            path: locator.path(r.file),
                            start,
                            end,
                            message: &r.message,
                        }
                    })
                    .collect(),
                fingerprint,
            }
        })
        .collect();
    let count = |s: Severity| analysis.findings.iter().filter(|f| f.severity == s).count();
    let report = Report {
        version: SCHEMA_VERSION,
        tool: Tool {
            name: "mongolint",
            version: VERSION,
        },
        findings,
        errors: analysis
            .errors
            .iter()
            .map(|e| FileError {
                path: &e.display_path,
                message: &e.message,
            })
            .collect(),
        summary: Summary {
            files_scanned: analysis.files_scanned,
            files_parsed: analysis.files_parsed,
            findings: analysis.findings.len(),
            by_severity: BySeverity {
                error: count(Severity::Error),
                warning: count(Severity::Warning),
                info: count(Severity::Info),
            },
            file_errors: analysis.errors.len(),
        },
    };
    // Into the `Vec` itself, not through `dyn Write`: serde_json writes token by token.
    serde_json::to_writer_pretty(&mut *out, &report)?;
    writeln!(out)
}
