//! The external clients the test suite drives, installed at pinned versions by
//! `scripts/install-test-tools.sh`. A missing tool fails the test (so CI cannot pass by skipping),
//! unless MONGOLINT_SKIP_EXTERNAL=1 is set.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub const INSTALL_SCRIPT: &str = "scripts/install-test-tools.sh";

pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A pinned version from the install script, e.g. `pinned("PRE_COMMIT_VERSION")`.
pub fn pinned(variable: &str) -> String {
    let script =
        std::fs::read_to_string(repo_root().join(INSTALL_SCRIPT)).expect("the install script");
    script
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{variable}=")))
        .unwrap_or_else(|| panic!("{variable} in {INSTALL_SCRIPT}"))
        .trim_matches('"')
        .to_string()
}

/// The executable `name` of the Python tools' virtual environment, or `None` (after saying why)
/// when it is missing and MONGOLINT_SKIP_EXTERNAL=1; panics when it is missing otherwise.
pub fn python_tool(name: &str) -> Option<PathBuf> {
    let bin = if cfg!(windows) { "Scripts" } else { "bin" };
    let exe = if cfg!(windows) {
        format!("{name}.exe")
    } else {
        name.to_string()
    };
    let path = repo_root().join(".tools/py").join(bin).join(exe);
    if path.exists() {
        return Some(path);
    }
    if std::env::var("MONGOLINT_SKIP_EXTERNAL").as_deref() == Ok("1") {
        eprintln!("skipped: {name} is not installed and MONGOLINT_SKIP_EXTERNAL=1");
        return None;
    }
    panic!(
        "{name} is not installed ({} missing): run {INSTALL_SCRIPT} \
         (or set MONGOLINT_SKIP_EXTERNAL=1 to skip this test)",
        path.display()
    );
}

/// Runs `tool args…` in `dir` and returns its output.
pub fn run_tool(tool: &Path, dir: &Path, args: &[&str]) -> Output {
    Command::new(tool)
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", tool.display()))
}

pub fn output_text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Runs `git` in `dir`, failing the test on error.
pub fn git(dir: &Path, args: &[&str]) {
    let o = Command::new("git")
        .current_dir(dir)
        .args([
            "-c",
            "user.name=mongolint tests",
            "-c",
            "user.email=tests@mongolint.invalid",
        ])
        .args([
            "-c",
            "init.defaultBranch=main",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .output()
        .expect("git runs");
    assert!(
        o.status.success(),
        "git {args:?} failed:\n{}",
        output_text(&o)
    );
}

/// `mongolint <args>` run in `dir`.
pub fn mongolint(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mongolint"))
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .args(args)
        .output()
        .expect("the mongolint binary runs")
}

pub fn write(root: &Path, rel: &str, content: impl AsRef<[u8]>) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, content).unwrap();
}

/// SARIF from the binary for a small git repository, run from its subfolder `app/` with
/// `--report-unused-suppressions`: a finding with a reason-less suppression, a suppression of an
/// unknown rule, and a file that cannot be read as UTF-8 (a tool execution notification).
pub fn workflow_repo_sarif(dir: &Path) -> String {
    let repo = dir.join("repo");
    write(
        &repo,
        "app/src/posts.js",
        "async function f(db, id, c, n) {\n  await db.collection(\"posts\").updateOne({ _id: id }, { $push: { c } }); // mongolint-ignore[unbounded-push]\n  await db.collection(\"posts\").find({}).skip(n).toArray(); // mongolint-ignore[skip-pagin]: typo\n}\n",
    );
    write(
        &repo,
        "app/broken.py",
        b"import pymongo\n\xff\xfe\n".as_slice(),
    );
    git(&repo, &["init", "-q"]);
    let out = dir.join("workflow-repo.sarif");
    let o = mongolint(
        &repo.join("app"),
        &[
            "check",
            "--format",
            "sarif",
            "--report-unused-suppressions",
            "--output",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(
        o.status.code(),
        Some(2),
        "the broken file: {}",
        output_text(&o)
    );
    let sarif = std::fs::read_to_string(out).unwrap();
    for path in ["app/src/posts.js", "app/broken.py"] {
        assert!(
            sarif.contains(&format!("\"uri\": \"{path}\"")),
            "{path} relative to the repository root:\n{sarif}"
        );
    }
    for rule in ["invalid-suppression", "skip-paging"] {
        assert!(
            sarif.contains(&format!("\"ruleId\": \"{rule}\"")),
            "{rule}:\n{sarif}"
        );
    }
    sarif
}
