//! Source text positions: byte offsets to 1-based lines and columns.

/// Line starts of one file, for turning byte offsets into positions.
pub struct LineIndex {
    starts: Vec<u32>,
}

/// A 1-based position. `column` counts UTF-16 code units (SARIF's default `columnKind`,
/// and what editors and GitHub use); `byte_column` counts bytes from the line start (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub line: usize,
    pub column: usize,
    pub byte_column: usize,
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        // A byte order mark is not part of the first line's columns (nor of its snippet).
        let first = if text.starts_with('\u{feff}') { 3 } else { 0 };
        let mut starts = vec![first];
        starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i as u32 + 1));
        LineIndex { starts }
    }

    /// The 1-based line of byte `offset` in `text`: `position(text, offset).line`.
    pub fn line(&self, text: &str, offset: u32) -> usize {
        self.line0(text, offset).1 + 1
    }

    /// The clamped offset and the 0-based line it is on.
    fn line0(&self, text: &str, offset: u32) -> (u32, usize) {
        let offset = offset.min(text.len() as u32).max(self.starts[0]);
        let line0 = match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        (offset, line0)
    }

    /// Position of byte `offset` in `text` (the same text this index was built from).
    pub fn position(&self, text: &str, offset: u32) -> Position {
        let (offset, line0) = self.line0(text, offset);
        let start = self.starts[line0] as usize;
        let mut end = offset as usize;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let before = &text[start..end];
        let column = if before.is_ascii() {
            before.len()
        } else {
            before.encode_utf16().count()
        } + 1;
        Position {
            line: line0 + 1,
            column,
            byte_column: offset as usize - start + 1,
        }
    }

    /// Byte range of 1-based `line`, without its line terminator.
    pub fn line_range(&self, text: &str, line: usize) -> (usize, usize) {
        let start = self.starts[line - 1] as usize;
        let mut end = self
            .starts
            .get(line)
            .map(|s| *s as usize - 1)
            .unwrap_or(text.len());
        if end > start && text.as_bytes().get(end - 1) == Some(&b'\r') {
            end -= 1;
        }
        (start, end.max(start))
    }

    pub fn line_count(&self) -> usize {
        self.starts.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_one_based_and_count_utf16() {
        let text = "ab\nxé😀z\r\nq";
        let idx = LineIndex::new(text);
        assert_eq!(idx.position(text, 0).line, 1);
        assert_eq!(idx.position(text, 0).column, 1);
        let z = text.find('z').unwrap() as u32;
        let p = idx.position(text, z);
        assert_eq!((p.line, p.column), (2, 5)); // x, é, and the emoji's two code units
        assert_eq!(p.byte_column, 8);
        assert_eq!(idx.line_range(text, 2), (3, text.find('\r').unwrap()));
        assert_eq!(idx.position(text, text.len() as u32).line, 3);
    }

    #[test]
    fn a_byte_order_mark_takes_no_column() {
        let text = "\u{feff}db.x;\nq";
        let idx = LineIndex::new(text);
        let p = idx.position(text, 6);
        assert_eq!((p.line, p.column, p.byte_column), (1, 4, 4));
        assert_eq!(idx.position(text, 0).column, 1);
        assert_eq!(idx.line_range(text, 1), (3, 8));
    }
}
