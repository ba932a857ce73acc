//! Our SARIF read by two more real clients: check-jsonschema against the official SARIF 2.1.0
//! JSON schema (vendored as tests/data/sarif-schema-2.1.0.json, see tests/data/README.md), and
//! sarif-tools, which must read every result back with its rule, level, path and line.
//! Both are installed by `scripts/install-test-tools.sh` at pinned versions.

mod common;
mod tools;

use common::{edge_case_analysis, render_to_string, sample_analysis};
use mongolint::report::Format;
use serde_json::Value;
use std::path::Path;
use tools::*;

const SCHEMA: &str = "tests/data/sarif-schema-2.1.0.json";

/// SARIF from the binary: the corpus, and a small repository with suppression diagnostics, run
/// from a subfolder.
fn binary_sarif(dir: &Path) -> Vec<(String, String)> {
    let corpus = dir.join("corpus.sarif");
    let o = mongolint(
        &repo_root(),
        &[
            "check",
            "corpus",
            "--format",
            "sarif",
            "--output",
            corpus.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", output_text(&o));

    let suppressions = workflow_repo_sarif(dir);
    vec![
        (
            "corpus".to_string(),
            std::fs::read_to_string(corpus).unwrap(),
        ),
        ("suppressions".to_string(), suppressions),
    ]
}

fn all_logs(dir: &Path) -> Vec<(String, String)> {
    let mut logs = vec![
        (
            "sample".to_string(),
            render_to_string(&sample_analysis(), Format::Sarif),
        ),
        (
            "edge".to_string(),
            render_to_string(&edge_case_analysis(), Format::Sarif),
        ),
    ];
    logs.extend(binary_sarif(dir));
    logs
}

#[test]
fn sarif_validates_against_the_official_schema_with_check_jsonschema() {
    let Some(tool) = python_tool("check-jsonschema") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let schema = repo_root().join(SCHEMA);
    let schema = schema.to_str().unwrap();

    // The canary: a log the schema forbids (a 0 line number, an unknown property) must fail,
    // or the harness proves nothing.
    let mut broken: Value =
        serde_json::from_str(&render_to_string(&sample_analysis(), Format::Sarif)).unwrap();
    broken["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] =
        0.into();
    broken["runs"][0]["results"][0]["notAProperty"] = true.into();
    let canary = dir.path().join("canary.sarif");
    std::fs::write(&canary, broken.to_string()).unwrap();
    let o = run_tool(
        &tool,
        dir.path(),
        &["--schemafile", schema, canary.to_str().unwrap()],
    );
    assert!(
        !o.status.success(),
        "the schema check accepted a broken log:\n{}",
        output_text(&o)
    );

    for (name, sarif) in all_logs(dir.path()) {
        let path = dir.path().join(format!("{name}.sarif"));
        std::fs::write(&path, &sarif).unwrap();
        let o = run_tool(
            &tool,
            dir.path(),
            &["--schemafile", schema, path.to_str().unwrap()],
        );
        assert!(
            o.status.success(),
            "{name}: check-jsonschema rejected our SARIF:\n{}\n\n{sarif}",
            output_text(&o)
        );
    }
}

/// `sarif csv` rows: (level, rule, path, line).
fn csv_rows(csv: &str) -> Vec<(String, String, String, String)> {
    // RFC 4180 records: a quoted field may hold commas, doubled quotes and line breaks.
    let mut records: Vec<Vec<String>> = Vec::new();
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = csv.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            '"' => quoted = !quoted,
            ',' if !quoted => fields.push(std::mem::take(&mut field)),
            '\r' if !quoted => {}
            '\n' if !quoted => {
                fields.push(std::mem::take(&mut field));
                records.push(std::mem::take(&mut fields));
            }
            c => field.push(c),
        }
    }
    if !field.is_empty() || !fields.is_empty() {
        fields.push(field);
        records.push(fields);
    }
    let mut rows: Vec<_> = records
        .into_iter()
        .skip(1)
        .map(|f| {
            // Tool, Severity, Code, Description, Location, Line
            assert_eq!(f.len(), 6, "{f:?}");
            (f[1].clone(), f[2].clone(), f[4].clone(), f[5].clone())
        })
        .collect();
    rows.sort();
    rows
}

#[test]
fn sarif_tools_read_every_result() {
    let Some(tool) = python_tool("sarif") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for (name, sarif) in binary_sarif(dir.path()) {
        let path = dir.path().join(format!("{name}.sarif"));
        std::fs::write(&path, &sarif).unwrap();
        let log: Value = serde_json::from_str(&sarif).unwrap();
        let results = log["runs"][0]["results"].as_array().unwrap();

        let csv_path = dir.path().join(format!("{name}.csv"));
        let o = run_tool(
            &tool,
            dir.path(),
            &[
                "csv",
                path.to_str().unwrap(),
                "--output",
                csv_path.to_str().unwrap(),
            ],
        );
        assert!(
            o.status.success(),
            "{name}: sarif csv failed:\n{}",
            output_text(&o)
        );
        let rows = csv_rows(&std::fs::read_to_string(&csv_path).unwrap());
        let mut expected: Vec<_> = results
            .iter()
            .map(|r| {
                let loc = &r["locations"][0]["physicalLocation"];
                (
                    r["level"].as_str().unwrap().to_string(),
                    r["ruleId"].as_str().unwrap().to_string(),
                    loc["artifactLocation"]["uri"].as_str().unwrap().to_string(),
                    loc["region"]["startLine"].to_string(),
                )
            })
            .collect();
        expected.sort();
        assert_eq!(rows, expected, "{name}: sarif-tools read different results");

        // `summary` counts per level, and `--check warning` fails on warnings.
        let o = run_tool(&tool, dir.path(), &["summary", path.to_str().unwrap()]);
        assert!(o.status.success(), "{}", output_text(&o));
        let summary = output_text(&o);
        let warnings = results.iter().filter(|r| r["level"] == "warning").count();
        assert!(
            summary.contains(&format!("warning: {warnings}")),
            "{summary}"
        );
        let o = run_tool(
            &tool,
            dir.path(),
            &["--check", "warning", "summary", path.to_str().unwrap()],
        );
        assert!(
            !o.status.success(),
            "{name}: --check warning passed:\n{}",
            output_text(&o)
        );
    }
}
