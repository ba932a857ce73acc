//! One line per finding, `path:line:col: severity[rule-id] message`, for editors' problem matchers
//! and reviewdog's errorformat.

use crate::analysis::Analysis;
use crate::source::LineIndex;
use std::io::{self, Write};

pub fn render(analysis: &Analysis, out: &mut dyn Write) -> io::Result<()> {
    let mut index: Option<(usize, LineIndex)> = None;
    for f in &analysis.findings {
        let file = &analysis.files[f.file];
        let text = file.text.as_deref().unwrap_or("");
        if index.as_ref().map(|(i, _)| *i) != Some(f.file) {
            index = Some((f.file, LineIndex::new(text)));
        }
        let idx = &index.as_ref().unwrap().1;
        let p = idx.position(text, f.span.start);
        writeln!(
            out,
            "{}:{}:{}: {}[{}] {}",
            file.display_path,
            p.line,
            p.column,
            f.severity.as_str(),
            f.rule,
            f.message
        )?;
    }
    for e in &analysis.errors {
        writeln!(out, "{}:1:1: error[io] {}", e.display_path, e.message)?;
    }
    Ok(())
}
