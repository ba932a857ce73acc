//! Stable finding fingerprints, so a consumer (GitHub code scanning, a baseline file) can tell
//! that a finding is the same one as in an earlier run even when lines above it moved.
//!
//! Key: rule id, file path, the primary line's text with whitespace normalized, and the
//! occurrence index among findings with that same triple (two identical lines in one file stay
//! distinct). Hashed with FNV-1a 64, which is fixed forever, unlike std's randomized hasher.

use super::locate::Locator;
use crate::analysis::Analysis;
use crate::diagnostic::Finding;
use crate::lang::HashMap;

/// The name of the fingerprint in SARIF `partialFingerprints`. Bump the version whenever the
/// key or the hash changes, so consumers do not compare fingerprints of different kinds.
pub(crate) const FINGERPRINT_KEY: &str = "mongolint/v1";

/// One fingerprint per finding, in the order of `analysis.findings`.
pub(crate) fn fingerprints(analysis: &Analysis, locator: &Locator) -> Vec<String> {
    fingerprints_of(&analysis.findings, locator)
}

/// The fingerprints of `findings`, which must hold every finding of their files (the occurrence
/// index counts the findings of a file before each).
pub(crate) fn fingerprints_of(findings: &[Finding], locator: &Locator) -> Vec<String> {
    let mut seen: HashMap<(&str, usize, String), u32> =
        HashMap::with_capacity_and_hasher(findings.len(), Default::default());
    findings
        .iter()
        .map(|finding| {
            let mut line = String::new();
            if let Some(text) = locator.start_line_text(finding.file, finding.span) {
                normalize_into(text, &mut line);
            }
            let path = locator.path(finding.file);
            let mut hash = Fnv1a64::new();
            // A separator that cannot occur in the parts keeps ("ab","c") apart from ("a","bc").
            for part in [finding.rule, path, &line] {
                hash.write(part.as_bytes());
                hash.write(&[0]);
            }
            let occurrence = seen.entry((finding.rule, finding.file, line)).or_insert(0);
            let index = *occurrence;
            *occurrence += 1;
            hash.write(super::decimal(index as usize, &mut [0; 20]));
            hash.write(&[0]);
            hex16(hash.finish())
        })
        .collect()
}

/// `format!("{:016x}", n)`.
pub(crate) fn hex16(n: u64) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut digits = [0u8; 16];
    for (i, d) in digits.iter_mut().enumerate() {
        *d = HEX[(n >> (60 - 4 * i)) as usize & 0xF];
    }
    std::str::from_utf8(&digits)
        .expect("hex digits")
        .to_string()
}

/// Collapses runs of whitespace and trims, so re-indentation does not change the fingerprint.
pub(crate) fn normalize_line(line: &str) -> String {
    let mut out = String::new();
    normalize_into(line, &mut out);
    out
}

/// `normalize_line` into `out`: the words of `line` (`str::split_whitespace`) joined by one space.
fn normalize_into(line: &str, out: &mut String) {
    out.reserve(line.len());
    if !line.is_ascii() {
        for word in line.split_whitespace() {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(word);
        }
        return;
    }
    // The ASCII characters `char::is_whitespace` accepts: space and \t \n \x0B \x0C \r (not
    // `u8::is_ascii_whitespace`, which leaves out \x0B).
    let space = |b: u8| b == b' ' || (b'\t'..=b'\r').contains(&b);
    let trimmed = line.trim_matches(|c: char| c.is_ascii() && space(c as u8));
    let bytes = trimmed.as_bytes();
    // Most lines are words between single spaces once their indentation is trimmed. (The fold
    // has no early exit, so that it compiles to vector instructions.)
    let control_space = bytes
        .iter()
        .fold(false, |any, &b| any | (b'\t'..=b'\r').contains(&b));
    // (Two spaces looked for pair by pair: a line is short, and `memmem` sets up a searcher.)
    if !control_space && !bytes.windows(2).any(|w| w == b"  ") {
        out.push_str(trimmed);
        return;
    }
    let mut at = 0;
    while at < bytes.len() {
        while at < bytes.len() && space(bytes[at]) {
            at += 1;
        }
        let start = at;
        while at < bytes.len() && !space(bytes[at]) {
            at += 1;
        }
        if start < at {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(&trimmed[start..at]);
        }
    }
}

/// FNV-1a, 64-bit (http://www.isthe.com/chongo/tech/comp/fnv/).
pub(crate) struct Fnv1a64(u64);

impl Fnv1a64 {
    const OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;

    pub fn new() -> Self {
        Fnv1a64(Self::OFFSET_BASIS)
    }

    pub fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(Self::PRIME);
        }
    }

    pub fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a64_matches_reference_vectors() {
        let hash = |s: &str| {
            let mut h = Fnv1a64::new();
            h.write(s.as_bytes());
            h.finish()
        };
        assert_eq!(hash(""), 0xcbf29ce484222325);
        assert_eq!(hash("a"), 0xaf63dc4c8601ec8c);
        assert_eq!(hash("foobar"), 0x85944171f73967e8);
    }

    #[test]
    fn whitespace_is_normalized() {
        assert_eq!(normalize_line("  a\t b  c "), "a b c");
        assert_eq!(normalize_line(" \u{a0}x\u{3000}y "), "x y");
        assert_eq!(normalize_line("   "), "");
        assert_eq!(normalize_line("one"), "one");
        assert_eq!(normalize_line("\x0Ba\x0C\r\n b\x0B"), "a b");
    }

    #[test]
    fn the_ascii_path_normalizes_as_split_whitespace() {
        // Every ASCII byte between words, at the ends and doubled.
        for b in 0u8..0x80 {
            let c = char::from(b);
            for line in [format!("x{c}y"), format!("{c}x{c}{c}y{c}"), format!("{c}")] {
                let expected = line.split_whitespace().collect::<Vec<_>>().join(" ");
                assert_eq!(normalize_line(&line), expected, "byte {b:#x}");
            }
        }
    }

    #[test]
    fn hex_and_decimal_match_format() {
        for n in [0u64, 1, 0xf, 0xdead_beef, u64::MAX, 0x0123_4567_89ab_cdef] {
            assert_eq!(hex16(n), format!("{n:016x}"));
        }
        for n in [0usize, 7, 10, 99, 100, 12345, u32::MAX as usize, usize::MAX] {
            assert_eq!(
                super::super::decimal(n, &mut [0; 20]),
                n.to_string().as_bytes()
            );
        }
    }
}
