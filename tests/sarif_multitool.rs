//! Validates our SARIF with the Microsoft SARIF Multitool, with the SARIF spec rules and the
//! GitHub Advanced Security ingestion rules ("Sarif;Ghas"): zero errors and zero warnings.
//!
//! The tool is installed by `scripts/install-test-tools.sh` (pinned version) into `.tools/node`.
//! Without it this test fails, unless MONGOLINT_SKIP_EXTERNAL=1 is set.

mod common;
mod tools;

use common::{edge_case_analysis, render_to_string, sample_analysis};
use mongolint::report::Format;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const INSTALL_SCRIPT: &str = "scripts/install-test-tools.sh";

/// Disables SARIF2006 (UrisShouldBeReachable), which fetches every URI in the log over HTTP:
/// a test must not depend on the network.
const VALIDATOR_CONFIG: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<Properties>
  <Properties Key="SARIF2006.UrisShouldBeReachable.Options">
    <Property Key="RuleEnabled" Value="Disabled" Type="Driver.RuleEnabledState" />
  </Properties>
</Properties>
"#;

fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The version the install script pins (the single place it is written down).
fn pinned_version() -> String {
    let script = std::fs::read_to_string(repo_root().join(INSTALL_SCRIPT)).expect("install script");
    script
        .lines()
        .find_map(|l| l.strip_prefix("SARIF_MULTITOOL_VERSION="))
        .expect("SARIF_MULTITOOL_VERSION in the install script")
        .trim_matches('"')
        .to_string()
}

/// The native validator binary. The npm `.bin/sarif-multitool` wrapper re-runs it through a
/// shell without quoting, which splits `--rule-kind "Sarif;Ghas"` at the `;` (running only the
/// Sarif rules and exiting 0), so the platform package's binary is called directly.
fn multitool() -> Option<PathBuf> {
    let (platform, exe) = match std::env::consts::OS {
        "linux" => ("linux", "Sarif.Multitool"),
        "macos" => ("darwin", "Sarif.Multitool"),
        "windows" => ("win32", "Sarif.Multitool.exe"),
        _ => return None,
    };
    let package = repo_root()
        .join(".tools/node/node_modules/@microsoft")
        .join(format!("sarif-multitool-{platform}"));
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(package.join("package.json")).ok()?).ok()?;
    let pinned = pinned_version();
    assert_eq!(
        manifest["version"].as_str(),
        Some(pinned.as_str()),
        "installed sarif-multitool is not the pinned {pinned}: run {INSTALL_SCRIPT}"
    );
    let binary = package.join(exe);
    binary.exists().then_some(binary)
}

/// What the validator reported: (level, rule id, message) per result, and its console output
/// (which has the readable messages).
struct Validation {
    findings: Vec<(String, String, String)>,
    console: String,
}

impl Validation {
    fn assert_clean(&self, sarif: &str) {
        for (level, rule, message) in &self.findings {
            eprintln!("{level} {rule}: {message}");
        }
        let serious: Vec<_> = self
            .findings
            .iter()
            .filter(|(level, _, _)| level == "error" || level == "warning")
            .collect();
        assert!(
            serious.is_empty(),
            "sarif-multitool reported {} error(s)/warning(s):\n{serious:#?}\n\n{}\n\nSARIF:\n{sarif}",
            serious.len(),
            self.console
        );
    }
}

/// Runs the validator on `sarif`.
fn validate(tool: &Path, dir: &Path, name: &str, sarif: &str) -> Validation {
    let input = dir.join(format!("{name}.sarif"));
    let output = dir.join(format!("{name}.validation.sarif"));
    let config = dir.join("validator-config.xml");
    std::fs::write(&input, sarif).unwrap();
    std::fs::write(&config, VALIDATOR_CONFIG).unwrap();
    let run = Command::new(tool)
        .arg("validate")
        .arg(&input)
        .args(["--rule-kind", "Sarif;Ghas"])
        .args(["--level", "Error;Warning;Note"])
        .arg("--config")
        .arg(&config)
        .args(["--log", "ForceOverwrite"])
        .arg("--output")
        .arg(&output)
        // The self-contained .NET binary otherwise needs ICU installed.
        .env("DOTNET_SYSTEM_GLOBALIZATION_INVARIANT", "1")
        .output()
        .expect("run sarif-multitool");
    let console = format!(
        "{}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(
        run.status.success() && output.exists(),
        "sarif-multitool failed ({}):\n{console}",
        run.status
    );
    let log: Value = serde_json::from_str(&std::fs::read_to_string(&output).unwrap())
        .expect("validator output is JSON");
    let mut findings = Vec::new();
    for run in log["runs"].as_array().expect("runs") {
        for result in run["results"].as_array().into_iter().flatten() {
            // SARIF's default level is "warning" (§3.27.10); the validator omits it then.
            let level = result["level"].as_str().unwrap_or("warning").to_string();
            let rule = result["ruleId"].as_str().unwrap_or("?").to_string();
            let location = result["locations"][0]["physicalLocation"]["region"]["startLine"]
                .as_u64()
                .map(|l| format!(" (line {l})"))
                .unwrap_or_default();
            let message = match result["message"]["arguments"].as_array() {
                Some(args) => format!("{}: {args:?}{location}", result["message"]["id"]),
                None => format!("{}{location}", result["message"]["text"]),
            };
            findings.push((level, rule, message));
        }
    }
    Validation { findings, console }
}

#[test]
fn sarif_passes_the_multitool_with_sarif_and_ghas_rules() {
    let Some(tool) = multitool() else {
        if std::env::var("MONGOLINT_SKIP_EXTERNAL").as_deref() == Ok("1") {
            eprintln!("skipped: sarif-multitool not installed and MONGOLINT_SKIP_EXTERNAL=1");
            return;
        }
        panic!(
            "sarif-multitool is not installed: run {INSTALL_SCRIPT} \
             (or set MONGOLINT_SKIP_EXTERNAL=1 to skip this test)"
        );
    };
    let dir = tempfile::tempdir().unwrap();

    // First prove the harness runs the GHAS rules at all: a log whose rule lacks `help`
    // must draw GH2012. Without this, a wrong flag would make everything pass silently.
    let sarif = render_to_string(&sample_analysis(), Format::Sarif);
    let mut broken: Value = serde_json::from_str(&sarif).unwrap();
    broken["runs"][0]["tool"]["driver"]["rules"][0]
        .as_object_mut()
        .unwrap()
        .remove("help");
    let canary = validate(&tool, dir.path(), "canary", &broken.to_string());
    assert!(
        canary
            .findings
            .iter()
            .any(|(level, rule, _)| level == "error" && rule == "GH2012"),
        "the validator did not flag a rule without help; is it running the Ghas rules?\n{}",
        canary.console
    );

    validate(&tool, dir.path(), "sample", &sarif).assert_clean(&sarif);

    let edge = render_to_string(&edge_case_analysis(), Format::Sarif);
    validate(&tool, dir.path(), "edge", &edge).assert_clean(&edge);

    // The real thing: the binary's SARIF for the whole corpus.
    let out = dir.path().join("corpus.sarif");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_mongolint"))
        .current_dir(repo_root())
        .args(["check", "corpus", "--format", "sarif", "--output"])
        .arg(&out)
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(1), "findings on the corpus exit with 1");
    let corpus = std::fs::read_to_string(&out).unwrap();
    let parsed: Value = serde_json::from_str(&corpus).unwrap();
    assert!(parsed["runs"][0]["results"].as_array().unwrap().len() >= 40);
    validate(&tool, dir.path(), "corpus", &corpus).assert_clean(&corpus);

    // Suppression diagnostics, a file that could not be read, paths from a subfolder.
    let repo = tools::workflow_repo_sarif(dir.path());
    validate(&tool, dir.path(), "workflow-repo", &repo).assert_clean(&repo);

    // A folder given by its absolute path: its locations are absolute `file` URIs, not
    // relative references that begin with a slash (SARIF1004), and a finding's related
    // location in another file (a look-up of another module, called per item) is one too.
    let app = dir.path().join("app");
    std::fs::create_dir_all(app.join("proxy")).unwrap();
    std::fs::write(
        app.join("proxy/user.js"),
        "var mongoose = require('mongoose');\nvar User = mongoose.model('User', new mongoose.Schema({ name: String }));\nexports.getUserById = function (id, cb) { User.findOne({ _id: id }, cb); };\n",
    )
    .unwrap();
    std::fs::write(
        app.join("proxy/post.js"),
        "var mongoose = require('mongoose');\nvar Post = mongoose.model('Post', new mongoose.Schema({ a: String }));\nvar UserProxy = require('./user');\nexports.list = function (q, cb) {\n  Post.find(q, function (err, posts) {\n    posts.forEach(function (p) { UserProxy.getUserById(p.author_id, function () {}); });\n  });\n};\n",
    )
    .unwrap();
    let out = dir.path().join("absolute.sarif");
    std::process::Command::new(env!("CARGO_BIN_EXE_mongolint"))
        .args(["check", "--format", "sarif", "--output"])
        .arg(&out)
        .arg(&app)
        .status()
        .unwrap();
    let absolute = std::fs::read_to_string(&out).unwrap();
    let parsed: Value = serde_json::from_str(&absolute).unwrap();
    let result = &parsed["runs"][0]["results"][0];
    let uri = |l: &Value| {
        l["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .map(String::from)
    };
    let at = uri(&result["locations"][0]).unwrap();
    assert!(
        at.starts_with("file:///") && at.ends_with("/app/proxy/post.js"),
        "{at}"
    );
    let related: Vec<String> = result["relatedLocations"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(uri)
        .collect();
    assert!(
        related.iter().any(|r| r.ends_with("/app/proxy/user.js")),
        "{related:?}"
    );
    validate(&tool, dir.path(), "absolute", &absolute).assert_clean(&absolute);
}
