//! Relative URI references for display paths (SARIF `artifactLocation.uri`).

/// Percent-encodes a relative display path (RFC 3986): `/` separates segments, unreserved
/// characters stay, every other byte of the UTF-8 encoding (spaces, non-ASCII, `:`, `%`, `#`,
/// `?`) becomes `%XX`. Encoding `:` also keeps a first segment such as `c:` from reading as a
/// scheme. Backslashes are taken as separators.
pub(crate) fn relative_uri(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for &b in path.as_bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(b as char)
            }
            b'\\' => out.push('/'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_spaces_non_ascii_and_reserved_characters() {
        assert_eq!(relative_uri("src/app.js"), "src/app.js");
        assert_eq!(
            relative_uri("src/modèles/post service.js"),
            "src/mod%C3%A8les/post%20service.js"
        );
        assert_eq!(relative_uri("a:b/c#d?e%f"), "a%3Ab/c%23d%3Fe%25f");
        assert_eq!(relative_uri(r"win\path.py"), "win/path.py");
    }
}
