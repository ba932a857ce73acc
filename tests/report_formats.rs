//! Every output format rendered from the same hand-built `Analysis`: positions, encodings,
//! cross-references, determinism, and a snapshot of each format.

mod common;

use common::*;
use mongolint::report::{render, Format, ReportOptions};
use mongolint::rules;
use serde_json::Value;

fn sarif() -> Value {
    serde_json::from_str(&render_to_string(&sample_analysis(), Format::Sarif)).unwrap()
}

fn json() -> Value {
    serde_json::from_str(&render_to_string(&sample_analysis(), Format::Json)).unwrap()
}

/// The 1-based UTF-16 column of the first `needle` on its line, computed independently.
fn utf16_column(text: &str, needle: &str) -> usize {
    let at = text.find(needle).unwrap();
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    text[line_start..at].encode_utf16().count() + 1
}

#[test]
fn every_format_is_byte_identical_across_renders() {
    for format in [Format::Text, Format::Sarif, Format::Json] {
        let first = render_to_string(&sample_analysis(), format);
        let second = render_to_string(&sample_analysis(), format);
        assert_eq!(first, second, "{format:?}");
    }
}

#[test]
fn text_shows_location_underline_related_notes_and_help() {
    let text = render_to_string(&sample_analysis(), Format::Text);
    let push_col = utf16_column(POST_SERVICE_JS, "$push");
    assert_eq!(push_col, 54, "the emoji counts as two UTF-16 code units");

    assert!(text.contains("warning[unbounded-push]: $push to `comments` on `posts`"));
    assert!(
        text.contains(&format!("[{NON_ASCII_PATH}:2:{push_col}]")),
        "{text}"
    );
    assert!(text.contains("[src/a.js:5:30]"), "{text}");
    // The underline of `$push` (5 characters) with its label.
    assert!(text.contains("──┬──"), "{text}");
    assert!(text.contains("╰── Array grows without bound"), "{text}");
    // Related locations: same file as labels, other file as a note.
    assert!(text.contains("╰── $lookup from users"), "{text}");
    assert!(text.contains("╰── $lookup from tags"), "{text}");
    assert!(text.contains(&format!(
        "  note: {NON_ASCII_PATH}:2:23: posts is also updated here\n  help: Embed the data"
    )));
    assert!(text.contains("  help: Cap the array with $each + $slice"));
    assert!(text.contains("info[counter-inc]"));
    assert!(text.ends_with(
        "warning: could not analyse src/broken file.py: stream did not contain valid UTF-8\n\
         Found 3 findings (2 warnings, 1 info) in 12 files.\n"
    ));
    assert!(!text.contains('\u{1b}'), "no ANSI escapes without color");
}

#[test]
fn text_uses_ansi_colors_only_when_asked() {
    let mut out = Vec::new();
    render(
        &sample_analysis(),
        Format::Text,
        &ReportOptions {
            color: true,
            threads: 1,
        },
        &mut out,
    )
    .unwrap();
    assert!(String::from_utf8(out).unwrap().contains("\u{1b}["));
}

#[test]
fn text_summary_without_findings() {
    let mut analysis = sample_analysis();
    analysis.findings.clear();
    analysis.errors.clear();
    analysis.files_scanned = 1;
    assert_eq!(
        render_to_string(&analysis, Format::Text),
        "No findings in 1 file.\n"
    );
}

#[test]
fn sarif_header_tool_and_run_properties() {
    let log = sarif();
    assert_eq!(
        log["$schema"],
        "https://json.schemastore.org/sarif-2.1.0.json"
    );
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    let driver = &run["tool"]["driver"];
    assert_eq!(driver["name"], "mongolint");
    assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(driver["semanticVersion"], env!("CARGO_PKG_VERSION"));
    assert_eq!(driver["informationUri"], env!("CARGO_PKG_HOMEPAGE"));
    assert_eq!(run["columnKind"], "utf16CodeUnits");
    assert_eq!(run["automationDetails"]["id"], "mongolint/");
    assert!(run["originalUriBaseIds"]["%SRCROOT%"]["uri"].is_null());
    assert!(run["originalUriBaseIds"]["%SRCROOT%"]["description"]["text"].is_string());
}

#[test]
fn sarif_lists_every_rule_with_help_in_catalogue_order() {
    let log = sarif();
    let descriptors = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap();
    // The rules, then the two diagnostics about suppression comments.
    assert_eq!(descriptors.len(), rules::all().len() + 2);
    let suppression_ids: Vec<&Value> = descriptors[rules::all().len()..]
        .iter()
        .map(|d| &d["id"])
        .collect();
    assert_eq!(
        suppression_ids,
        ["invalid-suppression", "unused-suppression"]
    );
    for d in &descriptors[rules::all().len()..] {
        let id = d["id"].as_str().unwrap();
        assert!(d["help"]["markdown"]
            .as_str()
            .unwrap()
            .starts_with(&format!("# {id}\n")));
        assert!(d["helpUri"]
            .as_str()
            .unwrap()
            .ends_with(&format!("/docs/diagnostics/{id}.md")));
        assert!(!d["fullDescription"]["text"].as_str().unwrap().is_empty());
    }
    for (descriptor, rule) in descriptors.iter().zip(rules::all()) {
        let meta = rule.meta();
        assert_eq!(descriptor["id"], meta.id);
        assert_eq!(descriptor["name"], meta.name);
        assert_eq!(descriptor["shortDescription"]["text"], meta.summary);
        assert!(!descriptor["fullDescription"]["text"]
            .as_str()
            .unwrap()
            .is_empty());
        assert_eq!(descriptor["help"]["markdown"], meta.doc);
        assert!(!descriptor["help"]["text"].as_str().unwrap().is_empty());
        assert_eq!(
            descriptor["helpUri"],
            format!(
                "{}/blob/main/rules/{}.md",
                env!("CARGO_PKG_HOMEPAGE"),
                meta.id
            )
        );
        assert_eq!(
            descriptor["defaultConfiguration"]["level"],
            meta.default_severity.sarif_level()
        );
        assert_eq!(descriptor["properties"]["precision"], meta.precision);
        assert_eq!(
            descriptor["properties"]["tags"].as_array().unwrap().len(),
            meta.tags.len()
        );
        assert!(descriptor["properties"]["problem.severity"].is_string());
    }
}

#[test]
fn sarif_rule_index_points_at_the_result_rule() {
    let log = sarif();
    let run = &log["runs"][0];
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 3);
    for result in results {
        let index = result["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(
            run["tool"]["driver"]["rules"][index]["id"],
            result["ruleId"]
        );
        let position = rules::all()
            .iter()
            .position(|r| r.meta().id == result["ruleId"])
            .unwrap();
        assert_eq!(index, position);
    }
}

#[test]
fn sarif_regions_are_one_based_utf16_with_encoded_relative_uris() {
    let log = sarif();
    let results = log["runs"][0]["results"].as_array().unwrap();
    let push = results
        .iter()
        .find(|r| r["ruleId"] == "unbounded-push")
        .unwrap();
    assert_eq!(push["level"], "warning");
    let location = &push["locations"][0]["physicalLocation"];
    assert_eq!(
        location["artifactLocation"]["uri"],
        "src/mod%C3%A8les/post%20service.js"
    );
    assert_eq!(location["artifactLocation"]["uriBaseId"], "%SRCROOT%");
    let column = utf16_column(POST_SERVICE_JS, "$push");
    assert_eq!(
        location["region"],
        serde_json::json!({
            "startLine": 2, "startColumn": column, "endLine": 2, "endColumn": column + 5
        })
    );

    let first_line = results
        .iter()
        .find(|r| r["ruleId"] == "lookup-chain")
        .unwrap();
    let related = first_line["relatedLocations"].as_array().unwrap();
    assert_eq!(related.len(), 3);
    let ids: Vec<_> = related.iter().map(|r| r["id"].as_u64().unwrap()).collect();
    assert_eq!(ids, [1, 2, 3]);
    assert_eq!(related[0]["message"]["text"], "$lookup from users");
    assert_eq!(
        related[0]["physicalLocation"]["region"],
        serde_json::json!({"startLine": 2, "startColumn": 5, "endLine": 2, "endColumn": 12})
    );
    assert_eq!(
        related[2]["physicalLocation"]["artifactLocation"]["uri"],
        "src/mod%C3%A8les/post%20service.js"
    );

    let inc = results
        .iter()
        .find(|r| r["ruleId"] == "counter-inc")
        .unwrap();
    assert_eq!(inc["level"], "note");
    assert!(inc.get("relatedLocations").is_none());
}

#[test]
fn sarif_has_no_absolute_paths() {
    let text = render_to_string(&sample_analysis(), Format::Sarif);
    assert!(!text.contains("file:"));
    assert!(!text.contains(env!("CARGO_MANIFEST_DIR")));
}

#[test]
fn sarif_reports_file_errors_as_failed_invocation_notifications() {
    let log = sarif();
    let invocation = &log["runs"][0]["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], false);
    let notes = invocation["toolExecutionNotifications"].as_array().unwrap();
    assert_eq!(notes.len(), 1);
    assert_eq!(notes[0]["level"], "error");
    assert!(notes[0]["message"]["text"]
        .as_str()
        .unwrap()
        .contains("stream did not contain valid UTF-8"));
    assert_eq!(
        notes[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "src/broken%20file.py"
    );

    let mut clean = sample_analysis();
    clean.errors.clear();
    let text = render_to_string(&clean, Format::Sarif);
    let log: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        log["runs"][0]["invocations"][0]["executionSuccessful"],
        true
    );
    assert!(log["runs"][0]["invocations"][0]
        .get("toolExecutionNotifications")
        .is_none());
}

#[test]
fn fingerprints_are_distinct_and_survive_lines_moving() {
    let fingerprints = |analysis| -> Vec<String> {
        let log: Value = serde_json::from_str(&render_to_string(&analysis, Format::Sarif)).unwrap();
        log["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                r["partialFingerprints"]["mongolint/v1"]
                    .as_str()
                    .unwrap()
                    .to_string()
            })
            .collect()
    };
    let before = fingerprints(sample_analysis());
    assert_eq!(before.len(), 3);
    assert!(before.iter().all(|f| f.len() == 16));
    let mut unique = before.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), 3);

    // Insert a line at the top of every file and re-indent: the fingerprints stay.
    let mut moved = sample_analysis();
    let prefix = "// a new first line\n  ";
    for file in &mut moved.files {
        let text = file.text.as_deref().unwrap();
        file.text = Some(format!("{prefix}{text}").into());
    }
    let shift = |s: &mut mongolint::ir::Span| {
        s.start += prefix.len() as u32;
        s.end += prefix.len() as u32;
    };
    for finding in &mut moved.findings {
        shift(&mut finding.span);
        for related in &mut finding.related {
            shift(&mut related.span);
        }
    }
    assert_eq!(fingerprints(moved), before);
}

#[test]
fn json_follows_the_documented_schema() {
    let report = json();
    assert_eq!(report["version"], 1);
    assert_eq!(report["tool"]["name"], "mongolint");
    let findings = report["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 3);
    let push = &findings[1];
    assert_eq!(push["rule"], "unbounded-push");
    assert_eq!(push["severity"], "warning");
    assert_eq!(push["path"], NON_ASCII_PATH);
    assert_eq!(push["start"], serde_json::json!({"line": 2, "column": 54}));
    assert_eq!(push["end"], serde_json::json!({"line": 2, "column": 59}));
    assert!(push["help"].as_str().unwrap().starts_with("Cap the array"));
    assert_eq!(push["related"], serde_json::json!([]));
    let related = &findings[0]["related"][2];
    assert_eq!(related["path"], NON_ASCII_PATH);
    assert_eq!(
        related["start"],
        serde_json::json!({"line": 2, "column": 23})
    );
    assert_eq!(related["message"], "posts is also updated here");

    // The same fingerprints as SARIF.
    let log = sarif();
    for (finding, result) in findings
        .iter()
        .zip(log["runs"][0]["results"].as_array().unwrap())
    {
        assert_eq!(
            finding["fingerprint"],
            result["partialFingerprints"]["mongolint/v1"]
        );
    }
    assert_eq!(
        report["errors"],
        serde_json::json!([{"path": "src/broken file.py", "message": "stream did not contain valid UTF-8"}])
    );
    assert_eq!(
        report["summary"],
        serde_json::json!({
            "files_scanned": 12,
            "files_parsed": 3,
            "findings": 3,
            "by_severity": {"error": 0, "warning": 2, "info": 1},
            "file_errors": 1
        })
    );
}

#[test]
fn unusual_spans_and_files_still_render() {
    let analysis = edge_case_analysis();
    let text = render_to_string(&analysis, Format::Text);
    assert!(text.contains("[lib/crlf.js:2:2]"), "{text}");
    assert!(text.contains("  at: src/z.py\n"), "{text}");
    let log: Value = serde_json::from_str(&render_to_string(&analysis, Format::Sarif)).unwrap();
    let results = log["runs"][0]["results"].as_array().unwrap();
    // A file without kept text still gets an exact (byte) region.
    assert_eq!(
        results[2]["locations"][0]["physicalLocation"]["region"],
        serde_json::json!({"byteOffset": 3, "byteLength": 6})
    );
    // A rule outside the registry has no index to point at.
    assert!(results[2].get("ruleIndex").is_none());
    let json: Value = serde_json::from_str(&render_to_string(&analysis, Format::Json)).unwrap();
    assert!(json["findings"][2]["start"].is_null());
}

#[test]
fn snapshots() {
    let analysis = sample_analysis();
    insta::assert_snapshot!("text", render_to_string(&analysis, Format::Text));
    // The rule descriptors come from the rule pages, which change on their own schedule; their
    // content is checked structurally above.
    let mut sarif: Value =
        serde_json::from_str(&render_to_string(&analysis, Format::Sarif)).unwrap();
    sarif["runs"][0]["tool"]["driver"]["rules"] = "<every rule of rules::all()>".into();
    insta::assert_snapshot!("sarif", serde_json::to_string_pretty(&sarif).unwrap());
    insta::assert_snapshot!("json", render_to_string(&analysis, Format::Json));
}
