//! Where the repository is: the folder every reported path is relative to, whatever folder
//! mongolint runs from. GitHub code scanning resolves SARIF URIs against the repository root,
//! reviewdog and editors' problem matchers against the workspace root, and a baseline must not
//! depend on where it was written from.

use std::path::{Component, Path, PathBuf};

/// The repository root above `start` (the nearest folder that holds a `.git` folder or file;
/// a file for worktrees and submodules), or `start` itself when it is in no repository.
pub fn repository_root(start: &Path) -> PathBuf {
    start
        .ancestors()
        .find(|dir| dir.join(".git").exists())
        .unwrap_or(start)
        .to_path_buf()
}

/// The base of display paths for a run from `cwd` on `paths`: the repository root, widened to
/// the common ancestor of every path the user gave as a relative path (`../other`), so a relative
/// request never turns into an absolute path of the user's machine in a report. A path given as
/// absolute outside the base is shown as given; one that holds the base (a run from a folder
/// inside the tree it checks, with no repository root between) becomes the base, so the paths,
/// and what they say (a `scripts/` folder, a Python package's dotted name), are those of a run
/// from the top of that tree.
pub fn display_base(cwd: &Path, paths: &[PathBuf]) -> PathBuf {
    let mut base = repository_root(cwd);
    for p in paths {
        let abs = absolute(p, cwd);
        if p.is_relative() {
            while !abs.starts_with(&base) {
                match base.parent() {
                    Some(parent) => base = parent.to_path_buf(),
                    None => break,
                }
            }
        } else if base.starts_with(&abs) {
            base = abs;
        }
    }
    base
}

/// `path` made absolute against `cwd` and normalised lexically (`.` dropped, `..` applied), without
/// touching the file system, so symbolic links keep the name the user gave them.
pub fn absolute(path: &Path, cwd: &Path) -> PathBuf {
    let joined = if path.is_absolute() {
        path.to_path_buf()
    } else {
        cwd.join(path)
    };
    let mut out = PathBuf::new();
    for c in joined.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push(c);
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// `path` relative to `base` with `/` separators when it is below `base`; otherwise the path as
/// it is (absolute), so that nothing is ever shown relative to the wrong folder.
pub fn relative_display(path: &Path, base: &Path) -> String {
    let rel = path.strip_prefix(base).unwrap_or(path);
    let mut parts: Vec<String> = Vec::new();
    for c in rel.components() {
        match c {
            Component::CurDir => {}
            Component::RootDir => parts.push(String::new()),
            Component::Prefix(p) => parts.push(p.as_os_str().to_string_lossy().into_owned()),
            other => parts.push(other.as_os_str().to_string_lossy().into_owned()),
        }
    }
    let s = parts.join("/");
    if s.is_empty() {
        ".".to_string()
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absolute_normalises_lexically() {
        let cwd = Path::new("/repo/sub");
        assert_eq!(absolute(Path::new("."), cwd), PathBuf::from("/repo/sub"));
        assert_eq!(
            absolute(Path::new("./a/../b/c.js"), cwd),
            PathBuf::from("/repo/sub/b/c.js")
        );
        assert_eq!(absolute(Path::new("../x"), cwd), PathBuf::from("/repo/x"));
        assert_eq!(absolute(Path::new("/abs/y"), cwd), PathBuf::from("/abs/y"));
    }

    #[test]
    fn display_is_relative_to_the_base_or_absolute() {
        let base = Path::new("/repo");
        assert_eq!(
            relative_display(Path::new("/repo/sub/a.js"), base),
            "sub/a.js"
        );
        assert_eq!(relative_display(Path::new("/repo"), base), ".");
        assert_eq!(
            relative_display(Path::new("/elsewhere/a.js"), base),
            "/elsewhere/a.js"
        );
    }

    #[test]
    fn repository_root_is_the_nearest_folder_with_git() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("a/b")).unwrap();
        assert_eq!(repository_root(&root.join("a/b")), root.join("a/b"));
        std::fs::write(root.join("a/.git"), "gitdir: elsewhere\n").unwrap();
        assert_eq!(repository_root(&root.join("a/b")), root.join("a"));
    }

    #[test]
    fn relative_paths_outside_the_root_widen_the_base() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("app/.git")).unwrap();
        let cwd = root.join("app");
        assert_eq!(display_base(&cwd, &[PathBuf::from(".")]), cwd);
        assert_eq!(display_base(&cwd, &[PathBuf::from("../lib")]), root);
        // An absolute path is shown as given: it does not move the base.
        assert_eq!(display_base(&cwd, &[root.join("lib")]), cwd);
        // Unless it holds the base: a run from inside the tree it checks (mist.api's
        // `src/mist/api`, no repository) shows paths from the top of that tree.
        let tree = root.join("tree");
        std::fs::create_dir_all(tree.join("src/pkg")).unwrap();
        assert_eq!(
            display_base(&tree.join("src/pkg"), std::slice::from_ref(&tree)),
            tree
        );
        assert_eq!(
            display_base(&tree.join("src/pkg"), &[PathBuf::from(".")]),
            tree.join("src/pkg")
        );
    }
}
