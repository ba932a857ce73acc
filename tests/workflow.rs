//! End to end, with the binary, in throwaway git repositories: paths relative to the repository
//! root from any folder, `--format github|concise|json`, configuration files and flags, inline
//! suppressions, baselines, `rules --format json` and `explain`.

mod tools;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;
use tools::{git, mongolint, write};

/// One unbounded `$push` on line 2, column 57 to 62.
const PUSH_JS: &str = "async function addComment(db, id, c) {\n  await db.collection(\"posts\").updateOne({ _id: id }, { $push: { comments: c } });\n}\n";

/// Three findings: unbounded-push (2), counter-inc (3), skip-paging (4).
const POSTS_JS: &str = "async function handler(db, id, c, page) {\n  await db.collection(\"posts\").updateOne({ _id: id }, { $push: { comments: c } });\n  await db.collection(\"posts\").updateOne({ _id: id }, { $inc: { views: 1 } });\n  return db.collection(\"posts\").find({}).skip(page * 20).limit(20).toArray();\n}\n";

/// A lookup chain of 2 `$lookup` stages.
const LOOKUPS_JS: &str = "async function report(db) {\n  return db.collection(\"orders\").aggregate([\n    { $lookup: { from: \"users\", localField: \"u\", foreignField: \"_id\", as: \"user\" } },\n    { $lookup: { from: \"items\", localField: \"i\", foreignField: \"_id\", as: \"items\" } },\n  ]).toArray();\n}\n";

fn code(o: &Output) -> i32 {
    o.status.code().expect("exited normally")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("UTF-8 stdout")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A temporary git repository (canonical path).
fn repo() -> (tempfile::TempDir, PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().canonicalize().unwrap();
    git(&root, &["init", "-q"]);
    (t, root)
}

/// `(rule, path:line)` of every concise line, in order.
fn concise(dir: &Path, extra: &[&str]) -> (i32, Vec<(String, String)>, String) {
    let mut args = vec!["check", "--format", "concise"];
    args.extend_from_slice(extra);
    let o = mongolint(dir, &args);
    let out = stdout(&o);
    let items = out
        .lines()
        .map(|l| {
            let (loc, rest) = l.split_once(": ").expect("path:line:col: rest");
            let rule = rest[rest.find('[').unwrap() + 1..rest.find(']').unwrap()].to_string();
            let mut parts = loc.rsplitn(3, ':');
            let _col = parts.next();
            let line = parts.next().unwrap();
            let path = parts.next().unwrap();
            (rule, format!("{path}:{line}"))
        })
        .collect();
    (code(&o), items, format!("{out}{}", stderr(&o)))
}

fn pairs(v: &[(&str, &str)]) -> Vec<(String, String)> {
    v.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// paths
// ---------------------------------------------------------------------------------------------

#[test]
fn paths_are_relative_to_the_repository_root_from_any_folder_in_every_format() {
    let (_t, root) = repo();
    write(&root, "services/api/src/app.js", PUSH_JS);
    let from = [
        (root.clone(), "services"),
        (root.join("services"), "."),
        (root.join("services/api/src"), "."),
        (root.join("services/api/src"), "app.js"),
        (root.join("services/api/src"), "../src/./app.js"),
    ];
    for (dir, arg) in &from {
        let (status, items, out) = concise(dir, &[arg]);
        assert_eq!(status, 1, "{out}");
        assert_eq!(
            items,
            pairs(&[("unbounded-push", "services/api/src/app.js:2")]),
            "from {} with `{arg}`",
            dir.display()
        );
    }
    let sub = root.join("services/api");
    let json: Value =
        serde_json::from_str(&stdout(&mongolint(&sub, &["check", "--format", "json"]))).unwrap();
    assert_eq!(json["findings"][0]["path"], "services/api/src/app.js");
    let sarif: Value =
        serde_json::from_str(&stdout(&mongolint(&sub, &["check", "--format", "sarif"]))).unwrap();
    let location = &sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"];
    assert_eq!(
        location["artifactLocation"]["uri"],
        "services/api/src/app.js"
    );
    assert_eq!(location["artifactLocation"]["uriBaseId"], "%SRCROOT%");
    let github = stdout(&mongolint(&sub, &["check", "--format", "github"]));
    assert!(github.contains("file=services/api/src/app.js,"), "{github}");
    let text = stdout(&mongolint(&sub, &["check"]));
    assert!(text.contains("services/api/src/app.js:2:57"), "{text}");
    // A missing path is named relative to the root too.
    let o = mongolint(&sub, &["check", "--format", "concise", "nope.js"]);
    assert_eq!(code(&o), 2);
    assert!(
        stdout(&o).contains("services/api/nope.js"),
        "{}",
        stdout(&o)
    );
}

// ---------------------------------------------------------------------------------------------
// output formats for CI and editors
// ---------------------------------------------------------------------------------------------

#[test]
fn github_format_is_escaped_workflow_commands_with_full_positions() {
    let (_t, root) = repo();
    write(&root, "src/app.js", PUSH_JS);
    write(&root, "src/a,b:c%.js", PUSH_JS);
    write(&root, "src/stats.js", POSTS_JS);
    let o = mongolint(&root, &["check", "--format", "github"]);
    assert_eq!(code(&o), 1);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    let push = lines
        .iter()
        .find(|l| l.contains("file=src/app.js,"))
        .unwrap();
    assert!(
        push.starts_with(
            "::warning file=src/app.js,line=2,col=57,endLine=2,endColumn=62,title=mongolint (unbounded-push)::`$push` appends to array `comments`"
        ),
        "{push}"
    );
    // The help is a second line of the annotation: the newline is escaped, not printed.
    assert!(push.contains("%0Ahelp: "), "{push}");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("file=src/a%2Cb%3Ac%25.js,line=2,")),
        "`,`, `:` and `%` escaped in properties:\n{out}"
    );
    let inc = lines.iter().find(|l| l.contains("counter-inc")).unwrap();
    assert!(
        inc.starts_with("::notice file=src/stats.js,line=3,"),
        "info is a notice: {inc}"
    );
    // Every line is one well-formed command.
    for l in &lines {
        let (head, message) = l.split_once("::").unwrap().1.split_once("::").unwrap();
        assert!(!message.contains('\n') && !message.contains('\r'));
        let (command, props) = head.split_once(' ').unwrap();
        assert!(["error", "warning", "notice"].contains(&command), "{l}");
        for prop in props.split(',') {
            let (key, _) = prop.split_once('=').unwrap();
            assert!(
                ["file", "line", "col", "endLine", "endColumn", "title"].contains(&key),
                "{l}"
            );
        }
    }
}

#[test]
fn concise_lines_match_an_editor_problem_matcher_and_errorformat() {
    let (_t, root) = repo();
    write(&root, "src/stats.js", POSTS_JS);
    let o = mongolint(&root, &["check", "--format", "concise"]);
    let out = stdout(&o);
    // The VS Code problem matcher in docs/configuration.md: ^(.+):(\d+):(\d+): (error|warning|info)\[([a-z-]+)\] (.*)$
    // and reviewdog's `-efm="%f:%l:%c: %m"`: path, line, column, then the message.
    let mut seen = Vec::new();
    for l in out.lines() {
        let (path, rest) = l.split_once(':').unwrap();
        let (line, rest) = rest.split_once(':').unwrap();
        let (col, rest) = rest.split_once(": ").unwrap();
        let (severity, rest) = rest.split_once('[').unwrap();
        let (rule, message) = rest.split_once("] ").unwrap();
        assert_eq!(path, "src/stats.js");
        assert!(
            line.parse::<u32>().is_ok() && col.parse::<u32>().is_ok(),
            "{l}"
        );
        assert!(["error", "warning", "info"].contains(&severity), "{l}");
        assert!(!message.is_empty());
        seen.push((rule.to_string(), line.to_string()));
    }
    assert_eq!(
        seen,
        pairs(&[
            ("unbounded-push", "2"),
            ("counter-inc", "3"),
            ("skip-paging", "4")
        ])
    );
}

// ---------------------------------------------------------------------------------------------
// configuration
// ---------------------------------------------------------------------------------------------

#[test]
fn config_file_is_found_from_the_working_folder_upward_and_applied() {
    let (_t, root) = repo();
    write(&root, "app/src/stats.js", POSTS_JS);
    write(&root, "app/src/report.js", LOOKUPS_JS);
    write(&root, "app/scripts/backfill.js", POSTS_JS);
    write(&root, "app/legacy/stats.js", POSTS_JS);
    write(&root, "app/generated/client.js", POSTS_JS);
    write(
        &root,
        "app/mongolint.toml",
        "ignore = [\"counter-inc\"]\nextend-exclude = [\"generated\"]\n\n[rules.skip-paging]\nseverity = \"error\"\n\n[per-file-ignores]\n\"legacy/**\" = [\"skip-paging\", \"unbounded-push\"]\n",
    );
    let (status, items, out) = concise(&root.join("app/src"), &[".."]);
    assert_eq!(status, 1, "{out}");
    assert_eq!(
        items,
        pairs(&[
            ("lookup-chain", "app/src/report.js:4"),
            ("unbounded-push", "app/src/stats.js:2"),
            ("skip-paging", "app/src/stats.js:4"),
        ]),
        "{out}"
    );
    assert!(
        out.contains("app/src/stats.js:4:42: error[skip-paging]"),
        "{out}"
    );

    // Options: two lookups are within a threshold of 2.
    write(
        &root,
        "app/mongolint.toml",
        "select = [\"lookup-chain\"]\n[rules.lookup-chain]\nmax-lookups = 2\n",
    );
    let (status, items, out) = concise(&root.join("app"), &[]);
    assert_eq!((status, items), (0, vec![]), "{out}");

    // From a folder above the configuration, it is not found.
    let (_, items, _) = concise(&root, &[]);
    // Defaults: every file, every rule (counter-inc, unbounded-push and skip-paging stay quiet
    // in a batch script by design: it has no finding).
    assert_eq!(items.len(), 10, "{items:?}");
    assert!(
        items.iter().all(|(_, at)| !at.starts_with("app/scripts/")),
        "{items:?}"
    );
}

#[test]
fn pyproject_tool_section_and_explicit_config_flag() {
    let (_t, root) = repo();
    write(&root, "src/stats.js", POSTS_JS);
    write(
        &root,
        "pyproject.toml",
        "[project]\nname = \"shop\"\n\n[tool.ruff]\nline-length = 100\n\n[tool.mongolint]\nselect = [\"counter-inc\"]\n",
    );
    let (_, items, out) = concise(&root.join("src"), &[]);
    assert_eq!(items, pairs(&[("counter-inc", "src/stats.js:3")]), "{out}");

    write(&root, "ci/strict.toml", "ignore = [\"counter-inc\"]\n");
    let (_, items, out) = concise(&root, &["--config", "ci/strict.toml"]);
    assert_eq!(
        items,
        pairs(&[
            ("unbounded-push", "src/stats.js:2"),
            ("skip-paging", "src/stats.js:4")
        ]),
        "{out}"
    );
    let o = mongolint(&root, &["check", "--config", "ci/missing.toml"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("ci/missing.toml"), "{}", stderr(&o));
}

#[test]
fn config_errors_name_the_file_and_the_key_and_exit_two() {
    let (_t, root) = repo();
    write(&root, "src/app.js", PUSH_JS);
    let cases = [
        (
            "mongolint.toml",
            "selct = [\"skip-paging\"]\n",
            "mongolint.toml:1:1: ",
            "unknown field `selct`",
        ),
        (
            "mongolint.toml",
            "ignore = [\"skip-pagin\"]\n",
            "mongolint.toml:1:11: ",
            "unknown rule id `skip-pagin` in `ignore`",
        ),
        (
            "mongolint.toml",
            "[rules.lookup-chain]\nmax-lookup = 2\n",
            "mongolint.toml:2:1: ",
            "unknown field `max-lookup`",
        ),
        (
            "mongolint.toml",
            "[per-file-ignores]\n\"a/**\" = [\"nope\"]\n",
            "mongolint.toml:2:11: ",
            "unknown rule id `nope`",
        ),
        (
            "pyproject.toml",
            "[tool.mongolint]\nexclude = [\"x\"]\n",
            "pyproject.toml:2:1: ",
            "unknown field `exclude`",
        ),
    ];
    for (name, text, position, what) in cases {
        let _ = std::fs::remove_file(root.join("mongolint.toml"));
        let _ = std::fs::remove_file(root.join("pyproject.toml"));
        write(&root, name, text);
        let o = mongolint(&root, &["check"]);
        assert_eq!(code(&o), 2, "{name}: {text}");
        let err = stderr(&o);
        let expected_file = root.join(name).display().to_string();
        assert!(
            err.contains(&format!("{expected_file}:{}", &position[name.len() + 1..])),
            "{err}"
        );
        assert!(err.contains(what), "{err}");
        assert!(stdout(&o).is_empty(), "no report on a configuration error");
    }
}

#[test]
fn cli_select_ignore_and_exit_zero() {
    let (_t, root) = repo();
    write(&root, "src/stats.js", POSTS_JS);
    write(&root, "mongolint.toml", "ignore = [\"skip-paging\"]\n");
    let (_, items, _) = concise(&root, &["--select", "skip-paging,counter-inc"]);
    assert_eq!(
        items,
        pairs(&[
            ("counter-inc", "src/stats.js:3"),
            ("skip-paging", "src/stats.js:4")
        ]),
        "--select replaces the file's selection"
    );
    let (_, items, _) = concise(&root, &["--ignore", "counter-inc"]);
    assert_eq!(items, pairs(&[("unbounded-push", "src/stats.js:2")]));
    let (status, items, _) = concise(&root, &["--exit-zero"]);
    assert_eq!((status, items.len()), (0, 2));
    let o = mongolint(&root, &["check", "--select", "skip-paging,bogus"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("unknown rule id `bogus` in `--select`"),
        "{}",
        stderr(&o)
    );
}

// ---------------------------------------------------------------------------------------------
// suppressions
// ---------------------------------------------------------------------------------------------

#[test]
fn inline_suppressions_in_every_language() {
    let (_t, root) = repo();
    write(
        &root,
        "src/posts.ts",
        "export async function handler(db: any, id: string, c: string, page: number) {\n  // mongolint-ignore[unbounded-push]: comments are capped by the moderation job\n  await db.collection(\"posts\").updateOne({ _id: id }, { $push: { comments: c } });\n  await db.collection(\"posts\").updateOne({ _id: id }, { $inc: { views: 1 } }); // mongolint-ignore[counter-inc, skip-paging]: views are sampled\n  return db.collection(\"posts\").find({}).skip(page * 20).limit(20).toArray();\n}\n",
    );
    write(
        &root,
        "app/posts.py",
        "def add(db, post_id, c):\n    # mongolint-ignore[unbounded-push]: at most 5 reviewers\n    db.posts.update_one({\"_id\": post_id}, {\"$push\": {\"reviewers\": c}})\n    db.posts.update_one({\"_id\": post_id}, {\"$push\": {\"tags\": c}})\n",
    );
    write(
        &root,
        "src/posts.rs",
        "use mongodb::{bson::doc, Collection};\nasync fn add(posts: &Collection<Post>, id: i32, c: String) {\n    posts.update_one(doc! { \"_id\": id }, doc! { \"$push\": { \"tags\": c } }).await.unwrap(); // mongolint-ignore[unbounded-push]: the API allows 10 tags\n    posts.update_one(doc! { \"_id\": id }, doc! { \"$push\": { \"more\": c } }).await.unwrap();\n}\n",
    );
    let (status, items, out) = concise(&root, &[]);
    assert_eq!(status, 1);
    assert_eq!(
        items,
        pairs(&[
            ("unbounded-push", "app/posts.py:4"),
            ("unbounded-push", "src/posts.rs:4"),
            ("skip-paging", "src/posts.ts:5"),
        ]),
        "only the unsuppressed findings:\n{out}"
    );
}

#[test]
fn suppressions_without_a_reason_or_for_unknown_rules_are_reported() {
    let (_t, root) = repo();
    write(
        &root,
        "src/stats.js",
        "async function handler(db, id, c, page) {\n  await db.collection(\"posts\").updateOne({ _id: id }, { $push: { comments: c } }); // mongolint-ignore[unbounded-push]\n  await db.collection(\"posts\").updateOne({ _id: id }, { $inc: { views: 1 } }); // mongolint-ignore[counter-incr]: typo\n  return db.collection(\"posts\").find({}).skip(page * 20).limit(20).toArray(); // mongolint-ignore: no rule named\n}\n",
    );
    let (status, items, out) = concise(&root, &[]);
    assert_eq!(status, 1);
    assert_eq!(
        items,
        pairs(&[
            ("invalid-suppression", "src/stats.js:2"),
            ("counter-inc", "src/stats.js:3"),
            ("invalid-suppression", "src/stats.js:3"),
            ("skip-paging", "src/stats.js:4"),
            ("invalid-suppression", "src/stats.js:4"),
        ]),
        "{out}"
    );
    assert!(
        out.contains("suppression of `unbounded-push` gives no reason"),
        "{out}"
    );
    assert!(out.contains("unknown rule `counter-incr`"), "{out}");
    assert!(out.contains("must name the rule(s)"), "{out}");
    // Not rules: they cannot be selected.
    let o = mongolint(&root, &["check", "--ignore", "invalid-suppression"]);
    assert_eq!(code(&o), 2);
}

#[test]
fn unused_suppressions_are_reported_on_request() {
    let (_t, root) = repo();
    write(
        &root,
        "src/app.js",
        "async function f(db, id, c) {\n  // mongolint-ignore[lookup-chain]: not a pipeline at all\n  await db.collection(\"posts\").updateOne({ _id: id }, { $push: { comments: c } }); // mongolint-ignore[unbounded-push]: capped elsewhere\n}\n",
    );
    let (status, items, _) = concise(&root, &[]);
    assert_eq!(
        (status, items),
        (0, vec![]),
        "unused ones are quiet by default"
    );
    let (status, items, out) = concise(&root, &["--report-unused-suppressions"]);
    assert_eq!(status, 1);
    assert_eq!(
        items,
        pairs(&[("unused-suppression", "src/app.js:2")]),
        "{out}"
    );
    assert!(out.contains("no `lookup-chain` finding on line 3"), "{out}");
    // The configuration can turn it on too; a rule that is switched off is not reported.
    write(
        &root,
        "mongolint.toml",
        "report-unused-suppressions = true\n",
    );
    let (_, items, _) = concise(&root, &[]);
    assert_eq!(items.len(), 1);
    let (_, items, _) = concise(&root, &["--ignore", "lookup-chain"]);
    assert_eq!(items, vec![]);
}

// ---------------------------------------------------------------------------------------------
// baseline
// ---------------------------------------------------------------------------------------------

#[test]
fn baseline_hides_known_findings_even_when_code_moves_and_reports_new_ones() {
    let (_t, root) = repo();
    write(&root, "src/stats.js", POSTS_JS);
    write(&root, "src/report.js", LOOKUPS_JS);
    let o = mongolint(
        &root.join("src"),
        &["check", "--write-baseline", "../.mongolint-baseline.json"],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).is_empty());
    assert!(stderr(&o).contains("wrote 4 findings"), "{}", stderr(&o));
    let baseline: Value = serde_json::from_str(
        &std::fs::read_to_string(root.join(".mongolint-baseline.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(baseline["version"], 1);
    assert_eq!(baseline["fingerprint"], "mongolint/v1");
    let entry = &baseline["findings"][0];
    for key in ["rule", "path", "line", "fingerprint", "context", "message"] {
        assert!(!entry[key].is_null(), "{key} in {entry}");
    }
    assert_eq!(
        entry["path"], "src/report.js",
        "paths from the repository root"
    );

    let check = |extra: &[&str]| {
        let mut args = vec!["--baseline", ".mongolint-baseline.json"];
        args.extend_from_slice(extra);
        concise(&root, &args)
    };
    let (status, items, out) = check(&[]);
    assert_eq!((status, items), (0, vec![]), "{out}");
    assert!(out.contains("4 findings already in the baseline"), "{out}");

    // Lines added above, the code re-indented, a function moved to another file.
    let moved = format!(
        "// new header\n\nimport x from \"y\";\n\n{}",
        POSTS_JS.replace("\n  ", "\n      ")
    );
    write(&root, "src/stats.js", &moved);
    std::fs::rename(
        root.join("src/report.js"),
        root.join("src/reports/orders.js"),
    )
    .or_else(|_| {
        std::fs::create_dir_all(root.join("src/reports"))?;
        std::fs::rename(
            root.join("src/report.js"),
            root.join("src/reports/orders.js"),
        )
    })
    .unwrap();
    let (status, items, out) = check(&[]);
    assert_eq!(
        (status, items),
        (0, vec![]),
        "moved code is not new:\n{out}"
    );

    // A new finding, even a copy of a baselined line, is reported; the old ones stay hidden.
    write(&root, "src/more.js", PUSH_JS);
    let mut stats = moved.clone();
    stats.push_str("async function again(db, id, c) {\n  await db.collection(\"posts\").updateOne({ _id: id }, { $push: { comments: c } });\n}\n");
    write(&root, "src/stats.js", &stats);
    let (status, items, out) = check(&[]);
    assert_eq!(status, 1, "{out}");
    assert_eq!(items.len(), 2, "{out}");
    assert!(
        items.iter().all(|(rule, _)| rule == "unbounded-push"),
        "{out}"
    );
    assert!(items.iter().any(|(_, at)| at == "src/more.js:2"), "{out}");

    // A bad baseline is an error.
    write(
        &root,
        "bad.json",
        "{\"version\": 7, \"fingerprint\": \"mongolint/v1\", \"findings\": []}",
    );
    let o = mongolint(&root, &["check", "--baseline", "bad.json"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("bad.json"), "{}", stderr(&o));
}

// ---------------------------------------------------------------------------------------------
// rules and explain
// ---------------------------------------------------------------------------------------------

#[test]
fn rules_json_lists_the_catalogue() {
    let o = mongolint(Path::new("."), &["rules", "--format", "json"]);
    assert_eq!(code(&o), 0);
    let rules: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let ids: Vec<&str> = rules
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    let expected: Vec<&str> = mongolint::rules::all()
        .iter()
        .map(|r| r.meta().id)
        .collect();
    assert_eq!(ids, expected);
    let first = &rules[0];
    for key in [
        "id",
        "name",
        "summary",
        "default_severity",
        "precision",
        "tags",
        "help_uri",
    ] {
        assert!(!first[key].is_null(), "{key}");
    }
    assert!(first["help_uri"]
        .as_str()
        .unwrap()
        .ends_with("/rules/unbounded-push.md"));
}

#[test]
fn explain_prints_suppression_diagnostic_pages_too() {
    for id in ["invalid-suppression", "unused-suppression"] {
        let o = mongolint(Path::new("."), &["explain", id]);
        assert_eq!(code(&o), 0);
        let page = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("docs/diagnostics/{id}.md")),
        )
        .unwrap();
        assert_eq!(stdout(&o), page);
    }
}
