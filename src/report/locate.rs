//! Turns (file, byte span) pairs into the line/column ranges every format prints.

use crate::analysis::Analysis;
use crate::diagnostic::FileId;
use crate::ir::Span;
use crate::source::{LineIndex, Position};
use std::sync::OnceLock;

/// A resolved source range: 1-based lines, 1-based UTF-16 columns, end exclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Range {
    pub start: Position,
    pub end: Position,
}

/// Line indexes for the analysed files, built on first use (most files have no finding); one
/// locator serves the threads that render a report's runs.
pub(crate) struct Locator<'a> {
    analysis: &'a Analysis,
    indexes: Vec<OnceLock<LineIndex>>,
}

impl<'a> Locator<'a> {
    pub fn new(analysis: &'a Analysis) -> Self {
        Locator {
            analysis,
            indexes: (0..analysis.files.len()).map(|_| OnceLock::new()).collect(),
        }
    }

    pub fn path(&self, file: FileId) -> &'a str {
        self.analysis
            .files
            .get(file)
            .map(|f| f.display_path.as_str())
            .unwrap_or("<unknown file>")
    }

    pub fn text(&self, file: FileId) -> Option<&'a str> {
        self.analysis.files.get(file)?.text.as_deref()
    }

    /// The file's text and line index, or `None` when the text was not kept.
    pub fn index(&self, file: FileId) -> Option<(&'a str, &LineIndex)> {
        let text = self.text(file)?;
        Some((
            text,
            self.indexes[file].get_or_init(|| LineIndex::new(text)),
        ))
    }

    /// The range of `span` in `file`, or `None` when the file's text was not kept.
    pub fn range(&self, file: FileId, span: Span) -> Option<Range> {
        let (text, index) = self.index(file)?;
        let start = index.position(text, span.start);
        let end = index.position(text, span.end.max(span.start));
        Some(Range { start, end })
    }

    /// The text, without its terminator, of the line where `span` starts (what a fingerprint
    /// and a baseline entry hash), or `None` when the file's text was not kept.
    pub fn start_line_text(&self, file: FileId, span: Span) -> Option<&'a str> {
        let (text, index) = self.index(file)?;
        let (start, end) = index.line_range(text, index.line(text, span.start));
        Some(&text[start..end])
    }
}
