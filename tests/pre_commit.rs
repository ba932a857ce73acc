//! The pre-commit hook (`.pre-commit-hooks.yaml`), run by the real `pre-commit try-repo` against a
//! throwaway git repository with a bad and a good file: the hook fails on the bad file, names the
//! finding, and passes on the good one.
//!
//! pre-commit builds mongolint from a git copy of this checkout with `cargo install` (the hook's
//! `language: rust`). To keep that quick and offline, the build uses the local registry cache
//! (CARGO_NET_OFFLINE), an unoptimised release profile, and a target folder kept under target/ so later
//! runs reuse it.

mod tools;

use std::path::Path;
use std::process::Command;
use tools::*;

const BAD_JS: &str = "async function addComment(db, id, c) {\n  await db.collection(\"posts\").updateOne({ _id: id }, { $push: { comments: c } });\n}\n";
const GOOD_JS: &str =
    "async function load(db, id) {\n  return db.collection(\"posts\").findOne({ _id: id });\n}\n";

/// A git repository holding this checkout's files as they are now (tracked and new, not ignored).
fn hook_repository(dir: &Path) {
    let root = repo_root();
    let o = Command::new("git")
        .current_dir(&root)
        .args([
            "ls-files",
            "-z",
            "--cached",
            "--others",
            "--exclude-standard",
        ])
        .output()
        .expect("git ls-files");
    assert!(o.status.success(), "{}", output_text(&o));
    for rel in String::from_utf8(o.stdout).unwrap().split('\0') {
        let src = root.join(rel);
        if rel.is_empty() || !src.is_file() {
            continue; // deleted in the work tree
        }
        let dst = dir.join(rel);
        std::fs::create_dir_all(dst.parent().unwrap()).unwrap();
        std::fs::copy(&src, &dst).unwrap();
    }
    git(dir, &["init", "-q"]);
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "mongolint under test"]);
}

fn try_repo(
    pre_commit: &Path,
    project: &Path,
    hook_repo: &Path,
    home: &Path,
    files: &[&str],
) -> (i32, String) {
    let mut args = vec![
        "try-repo",
        hook_repo.to_str().unwrap(),
        "mongolint",
        "--verbose",
        "--color",
        "never",
    ];
    if files.is_empty() {
        args.push("--all-files");
    } else {
        args.push("--files");
        args.extend_from_slice(files);
    }
    let o = Command::new(pre_commit)
        .current_dir(project)
        .args(&args)
        .env("PRE_COMMIT_HOME", home)
        // The build of the hook: offline from the local registry cache, a target folder that
        // survives between runs, and an unoptimised build (this profile is for tests, not for users).
        .env("CARGO_NET_OFFLINE", "true")
        .env(
            "CARGO_TARGET_DIR",
            repo_root().join("target/pre-commit-hook"),
        )
        .env("CARGO_PROFILE_RELEASE_LTO", "false")
        .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "256")
        .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "0")
        .env("CARGO_PROFILE_RELEASE_DEBUG", "false")
        .env("NO_COLOR", "1")
        .output()
        .expect("pre-commit runs");
    (o.status.code().unwrap_or(-1), output_text(&o))
}

#[test]
fn pre_commit_try_repo_fails_on_the_bad_file_and_passes_on_the_good_one() {
    let Some(pre_commit) = python_tool("pre-commit") else {
        return;
    };
    let version = run_tool(&pre_commit, &repo_root(), &["--version"]);
    assert_eq!(
        output_text(&version).trim(),
        format!("pre-commit {}", pinned("PRE_COMMIT_VERSION")),
        "the pinned pre-commit"
    );
    let t = tempfile::tempdir().unwrap();
    let hook_repo = t.path().join("mongolint");
    let project = t.path().join("project");
    let home = t.path().join("pre-commit-home");
    hook_repository(&hook_repo);

    write(&project, "src/bad.js", BAD_JS);
    write(&project, "src/good.js", GOOD_JS);
    write(&project, "README.md", "not analysed\n");
    git(&project, &["init", "-q"]);
    git(&project, &["add", "-A"]);

    let (code, out) = try_repo(&pre_commit, &project, &hook_repo, &home, &["src/bad.js"]);
    assert_eq!(code, 1, "the hook fails on the bad file:\n{out}");
    assert!(out.contains("mongolint") && out.contains("Failed"), "{out}");
    assert!(
        out.contains("warning[unbounded-push]"),
        "names the rule:\n{out}"
    );
    assert!(
        out.contains("src/bad.js:2:"),
        "names the file and line:\n{out}"
    );

    let (code, out) = try_repo(&pre_commit, &project, &hook_repo, &home, &["src/good.js"]);
    assert_eq!(code, 0, "the hook passes on the good file:\n{out}");
    assert!(out.contains("Passed"), "{out}");

    // A file of no language mongolint reads is not passed to it.
    let (code, out) = try_repo(&pre_commit, &project, &hook_repo, &home, &["README.md"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("(no files to check)Skipped"), "{out}");

    // The whole repository: fails, and reports only the bad file.
    let (code, out) = try_repo(&pre_commit, &project, &hook_repo, &home, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("src/bad.js") && !out.contains("src/good.js:"),
        "{out}"
    );
}
