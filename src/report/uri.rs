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

/// The `file` URI of an absolute display path (`/srv/app/a.js` → `file:///srv/app/a.js`,
/// `C:\app\a.js` → `file:///C:/app/a.js`), percent-encoded as [`relative_uri`] does; `None`
/// for a relative one.
pub(crate) fn absolute_file_uri(path: &str) -> Option<String> {
    let b = path.as_bytes();
    if b.first() == Some(&b'/') {
        return Some(format!("file://{}", relative_uri(path)));
    }
    let drive = b.len() >= 3 && b[0].is_ascii_alphabetic() && b[1] == b':';
    if drive && matches!(b[2], b'\\' | b'/') {
        return Some(format!(
            "file:///{}:{}",
            &path[..1],
            relative_uri(&path[2..])
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absolute_paths_are_file_uris() {
        assert_eq!(
            absolute_file_uri("/srv/my app/a.js").as_deref(),
            Some("file:///srv/my%20app/a.js")
        );
        assert_eq!(
            absolute_file_uri(r"C:\app\a.js").as_deref(),
            Some("file:///C:/app/a.js")
        );
        assert_eq!(absolute_file_uri("src/a.js"), None);
        assert_eq!(absolute_file_uri("a:b/c"), None);
    }

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
