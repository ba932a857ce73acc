//! The examples in the documentation work: the GitHub workflow is a valid workflow (check-jsonschema's
//! bundled GitHub workflow schema), the pre-commit manifest and the README's pre-commit
//! configuration pass pre-commit's own validators, and every `toml` configuration example loads.

mod tools;

use std::path::Path;
use tools::*;

/// The fenced code blocks of `lang` in a Markdown file.
fn code_blocks(markdown: &str, lang: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in markdown.lines() {
        match (&mut current, line.trim_start().strip_prefix("```")) {
            (None, Some(info)) if info.trim() == lang => current = Some(String::new()),
            (Some(_), Some(_)) => blocks.push(current.take().unwrap()),
            (Some(block), None) => {
                block.push_str(line);
                block.push('\n');
            }
            _ => {}
        }
    }
    blocks
}

fn doc(path: &str) -> String {
    std::fs::read_to_string(repo_root().join(path)).unwrap()
}

#[test]
fn the_code_scanning_workflow_is_a_valid_github_workflow() {
    let Some(tool) = python_tool("check-jsonschema") else {
        return;
    };
    let blocks = code_blocks(&doc("docs/github-code-scanning.md"), "yaml");
    let workflow = blocks
        .iter()
        .find(|b| b.contains("github/codeql-action/upload-sarif"))
        .expect("a workflow that uploads with upload-sarif");
    for needle in [
        "security-events: write",
        "mongolint check --format sarif --output mongolint.sarif",
        "sarif_file: mongolint.sarif",
        "cargo install --locked",
    ] {
        assert!(workflow.contains(needle), "{needle}");
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mongolint.yml");
    std::fs::write(&path, workflow).unwrap();
    let o = run_tool(
        &tool,
        dir.path(),
        &[
            "--builtin-schema",
            "vendor.github-workflows",
            path.to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{}\n{workflow}", output_text(&o));

    // The canary: a job without `runs-on` is not a valid workflow.
    std::fs::write(&path, workflow.replace("runs-on: ubuntu-latest", "")).unwrap();
    let o = run_tool(
        &tool,
        dir.path(),
        &[
            "--builtin-schema",
            "vendor.github-workflows",
            path.to_str().unwrap(),
        ],
    );
    assert!(
        !o.status.success(),
        "the schema check accepted a broken workflow"
    );
}

#[test]
fn the_hook_manifest_and_the_readme_config_pass_pre_commits_validators() {
    let Some(pre_commit) = python_tool("pre-commit") else {
        return;
    };
    let o = run_tool(
        &pre_commit,
        &repo_root(),
        &["validate-manifest", ".pre-commit-hooks.yaml"],
    );
    assert!(o.status.success(), "{}", output_text(&o));
    let readme = doc("README.md");
    let config = code_blocks(&readme, "yaml")
        .into_iter()
        .find(|b| b.contains("id: mongolint"))
        .expect("a .pre-commit-config.yaml example in the README");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(".pre-commit-config.yaml");
    std::fs::write(&path, &config).unwrap();
    let o = run_tool(
        &pre_commit,
        dir.path(),
        &["validate-config", path.to_str().unwrap()],
    );
    assert!(o.status.success(), "{}\n{config}", output_text(&o));
}

#[test]
fn every_toml_example_is_a_valid_configuration() {
    let mut count = 0;
    for file in ["README.md", "docs/configuration.md"] {
        for (i, block) in code_blocks(&doc(file), "toml").into_iter().enumerate() {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("mongolint.toml");
            std::fs::write(&path, &block).unwrap();
            mongolint::config::load(Some(&path), dir.path(), &Default::default())
                .unwrap_or_else(|e| panic!("{file}, toml example {}: {e}\n{block}", i + 1));
            count += 1;
        }
    }
    assert!(count >= 2);
    // And the binary accepts it end to end.
    let dir = tempfile::tempdir().unwrap();
    let example = &code_blocks(&doc("docs/configuration.md"), "toml")[0];
    write(dir.path(), "mongolint.toml", example);
    write(
        dir.path(),
        "src/app.js",
        "db.collection(\"a\").find({}).skip(n);\n",
    );
    let o = mongolint(Path::new(dir.path()), &["check", "--format", "concise"]);
    assert_eq!(o.status.code(), Some(1), "{}", output_text(&o));
    assert!(
        output_text(&o).contains("error[skip-paging]"),
        "{}",
        output_text(&o)
    );
}
