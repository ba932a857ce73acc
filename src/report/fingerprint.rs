//! Stable finding fingerprints, so a consumer (GitHub code scanning, a baseline file) can tell
//! that a finding is the same one as in an earlier run even when lines above it moved.
//!
//! Key: rule id, file path, the primary line's text with whitespace normalized, and the
//! occurrence index among findings with that same triple (two identical lines in one file stay
//! distinct). Hashed with FNV-1a 64, which is fixed forever, unlike std's randomized hasher.

use super::locate::Locator;
use crate::analysis::Analysis;
use crate::lang::HashMap;

/// The name of the fingerprint in SARIF `partialFingerprints`. Bump the version whenever the
/// key or the hash changes, so consumers do not compare fingerprints of different kinds.
pub(crate) const FINGERPRINT_KEY: &str = "mongolint/v1";

/// One fingerprint per finding, in the order of `analysis.findings`.
pub(crate) fn fingerprints(analysis: &Analysis, locator: &Locator) -> Vec<String> {
    let mut seen: HashMap<(&str, usize, String), u32> =
        HashMap::with_capacity_and_hasher(analysis.findings.len(), Default::default());
    analysis
        .findings
        .iter()
        .map(|finding| {
            let mut line = String::new();
            if let Some(text) = locator
                .range(finding.file, finding.span)
                .and_then(|r| locator.line_text(finding.file, r.start.line))
            {
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
            hash.write(index.to_string().as_bytes());
            hash.write(&[0]);
            format!("{:016x}", hash.finish())
        })
        .collect()
}

/// Collapses runs of whitespace and trims, so re-indentation does not change the fingerprint.
pub(crate) fn normalize_line(line: &str) -> String {
    let mut out = String::new();
    normalize_into(line, &mut out);
    out
}

/// `normalize_line` into `out`.
fn normalize_into(line: &str, out: &mut String) {
    out.reserve(line.len());
    for word in line.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
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
    }
}
