//! The pipeline: discover → prefilter → parse → extract → rules. Produces an `Analysis`
//! that every reporter renders.

use crate::diagnostic::Finding;
use crate::ir::{FileIr, Language};
use std::path::PathBuf;
use std::sync::Arc;

/// A file that was analysed (or attempted).
pub struct SourceFile {
    /// Path as shown to users and in SARIF: relative to the root, with `/` separators.
    pub display_path: String,
    /// Path on disk.
    pub path: PathBuf,
    pub language: Language,
    /// The text, kept only for files that produced IR (driver files).
    pub text: Option<Arc<str>>,
    pub ir: FileIr,
}

/// A file or path that could not be analysed, and why.
#[derive(Clone, Debug)]
pub struct FileError {
    pub display_path: String,
    pub message: String,
}

pub struct Analysis {
    /// Files with IR, sorted by `display_path`. `Finding::file` indexes into this.
    pub files: Vec<SourceFile>,
    /// Sorted by file, then span start, then rule id.
    pub findings: Vec<Finding>,
    /// Sorted by path.
    pub errors: Vec<FileError>,
    /// How many files were discovered, and how many survived the prefilter and were parsed.
    pub files_scanned: usize,
    pub files_parsed: usize,
}
