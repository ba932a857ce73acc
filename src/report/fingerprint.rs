//! Stable finding fingerprints, so a consumer (GitHub code scanning, a baseline file) can tell
//! that a finding is the same one as in an earlier run even when lines above it moved.
//!
//! Key: rule id, file path, the primary line's text with whitespace normalized, and the
//! occurrence index among findings with that same triple (two identical lines in one file stay
//! distinct). Hashed with FNV-1a 64, which is fixed forever, unlike std's randomized hasher.

use super::locate::Locator;
use crate::analysis::Analysis;
use std::collections::HashMap;

/// The name of the fingerprint in SARIF `partialFingerprints`. Bump the version whenever the
/// key or the hash changes, so consumers do not compare fingerprints of different kinds.
pub(crate) const FINGERPRINT_KEY: &str = "mongolint/v1";

/// One fingerprint per finding, in the order of `analysis.findings`.
pub(crate) fn fingerprints(analysis: &Analysis, locator: &Locator) -> Vec<String> {
    let mut seen: HashMap<(&str, usize, String), u32> = HashMap::new();
    analysis
        .findings
        .iter()
        .map(|finding| {
            let line = locator
                .range(finding.file, finding.span)
                .and_then(|r| locator.line_text(finding.file, r.start.line))
                .map(normalize_line)
                .unwrap_or_default();
            let path = locator.path(finding.file);
            let occurrence = seen
                .entry((finding.rule, finding.file, line.clone()))
                .or_insert(0);
            let index = *occurrence;
            *occurrence += 1;

            let mut hash = Fnv1a64::new();
            for part in [finding.rule, path, &line, &index.to_string()] {
                hash.write(part.as_bytes());
                // A separator that cannot occur in the parts keeps ("ab","c") apart from ("a","bc").
                hash.write(&[0]);
            }
            format!("{:016x}", hash.finish())
        })
        .collect()
}

/// Collapses runs of whitespace and trims, so re-indentation does not change the fingerprint.
pub(crate) fn normalize_line(line: &str) -> String {
    line.split_whitespace().collect::<Vec<_>>().join(" ")
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
    }
}
