//! `primaryLocationLineHash`, computed exactly as GitHub's `codeql-action/upload-sarif` computes it
//! when a SARIF file lacks one, so that alerts keep their identity whether the hash came from us or
//! from the upload action.
//!
//! The recipe (github/codeql-action, src/fingerprints.ts): a rolling polynomial hash (base 37,
//! wrapping signed 64-bit arithmetic) over a window of the next 100 UTF-16 code units counted from
//! the start of each line, skipping spaces and tabs, with `\r\n` and `\r` read as `\n`, the end of
//! the file as the code unit 65535 and then zeros. Each line's value is the hash in lowercase hex
//! (no padding), `:`, and how many lines of the file so far had that same hash (from 1).

const BLOCK_SIZE: usize = 100;
const MOD: i64 = 37;
const EOF: u16 = 65535;

/// The hash of every line of `text`: element `i` is line `i + 1`'s.
pub(crate) fn line_hashes(text: &str) -> Vec<String> {
    let first_mod = (0..BLOCK_SIZE).fold(1i64, |m, _| m.wrapping_mul(MOD));
    let mut h = Hasher {
        window: [0; BLOCK_SIZE],
        line_numbers: [0; BLOCK_SIZE],
        hash: 0,
        first_mod,
        index: 0,
        line_number: 0,
        line_start: true,
        prev_cr: false,
        counts: std::collections::HashMap::new(),
        out: Vec::new(),
    };
    for unit in text.encode_utf16() {
        h.process(unit);
    }
    h.process(EOF);
    for _ in 0..BLOCK_SIZE {
        if h.line_numbers[h.index] != 0 {
            h.output();
        }
        h.update(0);
    }
    h.out
}

struct Hasher {
    window: [u16; BLOCK_SIZE],
    /// The 1-based line that starts at this window slot, or 0.
    line_numbers: [usize; BLOCK_SIZE],
    hash: i64,
    first_mod: i64,
    index: usize,
    line_number: usize,
    line_start: bool,
    prev_cr: bool,
    counts: std::collections::HashMap<u64, usize>,
    out: Vec<String>,
}

impl Hasher {
    fn output(&mut self) {
        let value = self.hash as u64;
        let count = self.counts.entry(value).or_insert(0);
        *count += 1;
        let line = self.line_numbers[self.index];
        // Lines come out in order, one each.
        debug_assert_eq!(line, self.out.len() + 1);
        self.out.push(format!("{value:x}:{count}"));
        self.line_numbers[self.index] = 0;
    }

    fn update(&mut self, current: u16) {
        let begin = self.window[self.index];
        self.window[self.index] = current;
        self.hash = MOD
            .wrapping_mul(self.hash)
            .wrapping_add(i64::from(current))
            .wrapping_sub(self.first_mod.wrapping_mul(i64::from(begin)));
        self.index = (self.index + 1) % BLOCK_SIZE;
    }

    fn process(&mut self, mut current: u16) {
        const TAB: u16 = b'\t' as u16;
        const SPACE: u16 = b' ' as u16;
        const LF: u16 = b'\n' as u16;
        const CR: u16 = b'\r' as u16;
        if current == SPACE || current == TAB || (self.prev_cr && current == LF) {
            self.prev_cr = false;
            return;
        }
        if current == CR {
            current = LF;
            self.prev_cr = true;
        } else {
            self.prev_cr = false;
        }
        if self.line_numbers[self.index] != 0 {
            self.output();
        }
        if self.line_start {
            self.line_start = false;
            self.line_number += 1;
            self.line_numbers[self.index] = self.line_number;
        }
        if current == LF {
            self.line_start = true;
        }
        self.update(current);
    }
}

#[cfg(test)]
mod tests {
    use super::line_hashes;

    // Expected values from the upload action's own test suite (src/fingerprints.test.ts).
    #[test]
    fn matches_the_upload_action_on_its_test_vectors() {
        assert_eq!(line_hashes(""), vec!["c129715d7a2bc9a3:1"]);
        assert_eq!(
            line_hashes(" a\nb\n  \t\tc\n d"),
            vec![
                "271789c17abda88f:1",
                "54703d4cd895b18:1",
                "180aee12dab6264:1",
                "a23a3dc5e078b07b:1"
            ]
        );
        assert_eq!(
            line_hashes(" hello; \t\nworld!!!\n\n\n  \t\tGreetings\n End"),
            vec![
                "8b7cf3e952e7aeb2:1",
                "b1ae1287ec4718d9:1",
                "bff680108adb0fcc:1",
                "c6805c5e1288b612:1",
                "b86d3392aea1be30:1",
                "e6ceba753e1a442:1",
            ]
        );
        let expected = vec![
            "e9496ae3ebfced30:1",
            "fb7c023a8b9ccb3f:1",
            "ce8ba1a563dcdaca:1",
            "e20e36e16fcb0cc8:1",
            "b3edc88f2938467e:1",
            "c8e28b0b4002a3a0:1",
            "c129715d7a2bc9a3:1",
        ];
        for text in [
            " hello; \t\nworld!!!\n\n\n  \t\tGreetings\n End\n",
            " hello; \t\nworld!!!\r\r\r  \t\tGreetings\r End\r",
            " hello; \t\r\nworld!!!\r\n\r\n\r\n  \t\tGreetings\r\n End\r\n",
            " hello; \t\nworld!!!\r\n\n\r  \t\tGreetings\r End\r\n",
        ] {
            assert_eq!(line_hashes(text), expected, "{text:?}");
        }
        assert_eq!(
            line_hashes(&"Lorem ipsum dolor sit amet.\n".repeat(10)),
            vec![
                "a7f2ff13bc495cf2:1",
                "a7f2ff13bc495cf2:2",
                "a7f2ff13bc495cf2:3",
                "a7f2ff13bc495cf2:4",
                "a7f2ff13bc495cf2:5",
                "a7f2ff13bc495cf2:6",
                "a7f2ff1481e87703:1",
                "a9cf91f7bbf1862b:1",
                "55ec222b86bcae53:1",
                "cc97dc7b1d7d8f7b:1",
                "c129715d7a2bc9a3:1"
            ]
        );
    }

    #[test]
    fn non_ascii_text_hashes_utf16_code_units() {
        // One hash per line whatever the characters; an emoji is two code units.
        assert_eq!(line_hashes("é😀\nx").len(), 2);
    }
}
