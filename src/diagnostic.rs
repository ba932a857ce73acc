//! Findings as rules produce them and reporters consume them.

use crate::ir::Span;
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// SARIF `note`.
    Info,
    /// SARIF `warning`.
    Warning,
    /// SARIF `error`.
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
    pub fn sarif_level(self) -> &'static str {
        match self {
            Severity::Info => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// Index of a file in the analysis' file table (`Analysis::files`).
pub type FileId = usize;

/// Another code site that contributes to a finding.
#[derive(Clone, Debug, Serialize)]
pub struct Related {
    pub file: FileId,
    pub span: Span,
    pub message: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct Finding {
    pub rule: &'static str,
    pub severity: Severity,
    pub file: FileId,
    pub span: Span,
    pub message: String,
    pub help: String,
    pub related: Vec<Related>,
}
