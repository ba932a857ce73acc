//! Adversarial inputs through the `mongolint` binary: one bad file may never panic the run, hang it,
//! overflow a stack, or make another file's findings disappear. Every input is generated at test
//! time in a temporary folder. Each case asserts that the run finishes (generous timeout), the exit
//! status (2 when a file could not be analysed), that the bad file is named in every format (text:
//! a warning line; SARIF: a tool execution notification; JSON: `errors`), and that the findings of
//! a good file next to it are complete.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A good driver file with two findings: an unbounded `$push` (line 2, column 57) and offset paging
/// (line 4). Its findings must survive whatever sits next to it.
const GOOD_JS: &str = "async function addComment(db, id, c) {\n  await db.collection(\"posts\").updateOne({ _id: id }, { $push: { comments: c } });\n  const page = Number(c.page);\n  return db.collection(\"posts\").find({}).skip((page - 1) * 20).limit(20).toArray();\n}\n";
const GOOD_FINDINGS: &[&str] = &[
    "good.js:2:57: warning[unbounded-push]",
    "good.js:4:",
    "warning[skip-paging]",
];

/// Generous: the slowest machine, a debug build, and two engineers sharing two cores.
const TIMEOUT: Duration = Duration::from_secs(240);

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
    elapsed: Duration,
}

fn temp() -> (tempfile::TempDir, PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().canonicalize().unwrap();
    (t, root)
}

fn write(root: &Path, rel: &str, content: impl AsRef<[u8]>) -> PathBuf {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(&p, content).unwrap();
    p
}

fn bin(dir: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_mongolint"));
    c.env("NO_COLOR", "1").current_dir(dir).args(args);
    c
}

/// Runs the command to completion, killing it (and failing the test) after `TIMEOUT`. Output goes
/// through files, so a large report cannot dead-lock on a full pipe.
fn run_cmd(mut cmd: Command, what: &str) -> Run {
    let out = tempfile::tempfile().unwrap();
    let err = tempfile::tempfile().unwrap();
    let start = Instant::now();
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(out.try_clone().unwrap())
        .stderr(err.try_clone().unwrap())
        .spawn()
        .expect("the mongolint binary runs");
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still running after {TIMEOUT:?} (hang?)");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let elapsed = start.elapsed();
    let read = |mut f: std::fs::File| {
        use std::io::{Read, Seek};
        let mut s = Vec::new();
        f.seek(std::io::SeekFrom::Start(0)).unwrap();
        f.read_to_end(&mut s).unwrap();
        String::from_utf8(s).expect("output is UTF-8")
    };
    let (stdout, stderr) = (read(out), read(err));
    let code = match status.code() {
        Some(c) => c,
        None => panic!(
            "{what}: killed by a signal (stack overflow? abort?): {status:?}\nstderr:\n{stderr}"
        ),
    };
    assert!(
        !stderr.contains("panicked") && !stderr.contains("overflow"),
        "{what}: stderr:\n{stderr}"
    );
    Run {
        code,
        stdout,
        stderr,
        elapsed,
    }
}

fn run(dir: &Path, args: &[&str]) -> Run {
    run_cmd(bin(dir, args), &args.join(" "))
}

fn json(r: &Run) -> Value {
    serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("not JSON ({e}):\n{}", r.stdout))
}

/// Checks one folder in every format: exit status `code`, the good file's findings complete, and each
/// of `bad` (display paths) reported as a file that could not be analysed, in every format.
fn check_all_formats(root: &Path, extra: &[&str], code: i32, bad: &[&str]) {
    let with = |format: &str| {
        let mut a = vec!["check", "--format", format];
        a.extend_from_slice(extra);
        run(root, &a)
    };
    let ctx = |r: &Run| format!("stdout:\n{}\nstderr:\n{}", r.stdout, r.stderr);

    let concise = with("concise");
    assert_eq!(concise.code, code, "concise exit status; {}", ctx(&concise));
    for f in GOOD_FINDINGS {
        assert!(
            concise.stdout.contains(f),
            "missing `{f}`; {}",
            ctx(&concise)
        );
    }
    let text = with("text");
    assert_eq!(text.code, code, "text exit status; {}", ctx(&text));
    assert!(text.stdout.contains("unbounded-push") && text.stdout.contains("skip-paging"));
    let sarif_run = with("sarif");
    assert_eq!(sarif_run.code, code, "sarif exit status");
    let sarif = json(&sarif_run);
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let good: Vec<&str> = results
        .iter()
        .filter(|r| {
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                .as_str()
                .is_some_and(|u| u.ends_with("good.js"))
        })
        .map(|r| r["ruleId"].as_str().unwrap())
        .collect();
    assert_eq!(
        good,
        ["unbounded-push", "skip-paging"],
        "{}",
        sarif_run.stdout
    );
    let no_notes = Vec::new();
    let notes = sarif["runs"][0]["invocations"][0]["toolExecutionNotifications"]
        .as_array()
        .unwrap_or(&no_notes);
    let json_run = with("json");
    assert_eq!(json_run.code, code, "json exit status");
    let report = json(&json_run);
    let errors = report["errors"].as_array().unwrap();
    assert_eq!(errors.len(), bad.len(), "json errors: {errors:?}");
    assert_eq!(notes.len(), bad.len(), "sarif notifications: {notes:?}");
    assert_eq!(
        sarif["runs"][0]["invocations"][0]["executionSuccessful"],
        Value::Bool(bad.is_empty())
    );
    for b in bad {
        assert!(
            text.stdout
                .lines()
                .any(|l| l.starts_with("warning: could not analyse") && l.contains(b)),
            "text names {b}; {}",
            ctx(&text)
        );
        assert!(
            errors.iter().any(|e| e["path"].as_str() == Some(b)),
            "json names {b}: {errors:?}"
        );
        assert!(
            notes
                .iter()
                .any(|n| n["message"]["text"].as_str().unwrap().contains(b)),
            "sarif names {b}: {notes:?}"
        );
    }
}

fn good(root: &Path) {
    write(root, "src/good.js", GOOD_JS);
}

/// A tiny deterministic generator (xorshift), so "random" inputs are the same on every run.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

// ---------------------------------------------------------------------------------------------
// big inputs
// ---------------------------------------------------------------------------------------------

/// A webpack-style bundle on one line: `n` modules, each with a driver call.
fn minified_bundle(bytes: usize) -> String {
    let mut s = String::with_capacity(bytes + 1000);
    s.push_str("!function(e){var t={};");
    let mut i = 0;
    while s.len() < bytes {
        s.push_str(&format!(
            "t[{i}]=function(e,t,n){{var r=n(1),o=r.db(\"shop\").collection(\"c{i}\");e.exports={{a:async function(e,t){{return o.findOne({{_id:e,v:t+{i}}})}},b:function(e){{return[1,2,3].map(function(x){{return x*e}}).filter(Boolean)}}}}}};"
        ));
        i += 1;
    }
    s.push_str("t.z=function(db,id,c){return db.collection(\"posts\").updateOne({_id:id},{$push:{comments:c}})};}();");
    s
}

#[test]
fn ten_megabyte_minified_bundle() {
    let (_t, root) = temp();
    good(&root);
    let bundle = minified_bundle(10 * 1024 * 1024);
    write(&root, "public/app.js", &bundle);

    // Default size limit (4 MiB): skipped with a clear note, everything else analysed.
    check_all_formats(&root, &[], 2, &["public/app.js"]);
    let r = run(&root, &["check"]);
    assert!(
        r.stdout.contains("over the size limit") && r.stdout.contains("--max-file-size"),
        "{}",
        r.stdout
    );

    // Under the size limit but minified: skipped silently by default (a bundle is build output).
    let r = run(
        &root,
        &[
            "check",
            "--format",
            "concise",
            "--max-file-size",
            "20000000",
        ],
    );
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(!r.stdout.contains("public/app.js"), "{}", r.stdout);

    // --no-ignore: actually parsed, in reasonable time, and its finding is there.
    let r = run(
        &root,
        &[
            "check",
            "--format",
            "concise",
            "--no-ignore",
            "--max-file-size",
            "20000000",
        ],
    );
    eprintln!("10 MB minified bundle parsed in {:?}", r.elapsed);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("public/app.js:1:") && r.stdout.contains("unbounded-push"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("src/good.js:2:57"), "{}", r.stdout);
}

/// 200,000 lines of plausible driver code (many bindings of the same names, many scopes), with a
/// finding at the very end.
fn long_js(lines: usize) -> String {
    let mut s = String::new();
    let mut i = 0;
    while s.lines().count() < 8 {
        s.push_str("const { MongoClient } = require(\"mongodb\");\nconst db = new MongoClient(url).db(\"shop\");\n");
    }
    let mut n = 2;
    while n + 8 < lines {
        s.push_str(&format!(
            "async function h{i}(req, res) {{\n  const coll = db.collection(\"orders\");\n  const items = [req.a, req.b].filter(Boolean).map((x) => x + {i});\n  const doc = await coll.findOne({{ _id: req.id, n: {i} }});\n  await coll.updateOne({{ _id: req.id }}, {{ $set: {{ total: items.length }} }});\n  res.json(doc);\n}}\n"
        ));
        n += 7;
        i += 1;
    }
    s.push_str("async function last(db, id, c) {\n  await db.collection(\"posts\").updateOne({ _id: id }, { $push: { comments: c } });\n}\n");
    s
}

fn long_py(lines: usize) -> String {
    let mut s = String::from("from pymongo import MongoClient\n\ndb = MongoClient()[\"shop\"]\n");
    let mut n = 3;
    let mut i = 0;
    while n + 8 < lines {
        s.push_str(&format!(
            "\n\ndef h{i}(req):\n    coll = db[\"orders\"]\n    items = [x + {i} for x in (req.a, req.b) if x]\n    doc = coll.find_one({{\"_id\": req.id, \"n\": {i}}})\n    coll.update_one({{\"_id\": req.id}}, {{\"$set\": {{\"total\": len(items)}}}})\n    return doc\n"
        ));
        n += 8;
        i += 1;
    }
    s.push_str("\n\ndef last(db, id, c):\n    db.posts.update_one({\"_id\": id}, {\"$push\": {\"comments\": c}})\n");
    s
}

fn long_rs(lines: usize) -> String {
    let mut s = String::from("use mongodb::{bson::doc, Collection, Database};\n");
    let mut n = 1;
    let mut i = 0;
    while n + 8 < lines {
        s.push_str(&format!(
            "\nasync fn h{i}(db: &Database, id: i64) -> mongodb::error::Result<()> {{\n    let coll = db.collection::<Order>(\"orders\");\n    let items: Vec<i64> = vec![1, 2, {i}].into_iter().filter(|x| *x > 0).collect();\n    coll.find_one(doc! {{ \"_id\": id, \"n\": {i} }}).await?;\n    coll.update_one(doc! {{ \"_id\": id }}, doc! {{ \"$set\": {{ \"total\": items.len() as i64 }} }}).await?;\n    Ok(())\n}}\n"
        ));
        n += 8;
        i += 1;
    }
    s.push_str("\nasync fn last(c: &Collection<Post>, id: i64, x: i64) {\n    c.update_one(doc! { \"_id\": id }, doc! { \"$push\": { \"comments\": x } }).await;\n}\n");
    s
}

#[test]
fn two_hundred_thousand_line_files() {
    let (_t, root) = temp();
    good(&root);
    write(&root, "src/long.js", long_js(200_000));
    write(&root, "src/long.py", long_py(200_000));
    write(&root, "src/long.rs", long_rs(200_000));
    for (name, text) in [
        ("long.js", long_js(200_000)),
        ("long.py", long_py(200_000)),
        ("long.rs", long_rs(200_000)),
    ] {
        assert!(
            text.lines().count() >= 199_990,
            "{name}: {} lines",
            text.lines().count()
        );
    }
    let r = run(
        &root,
        &[
            "check",
            "--format",
            "concise",
            "--max-file-size",
            "100000000",
            "--threads",
            "2",
        ],
    );
    eprintln!("three 200k-line files analysed in {:?}", r.elapsed);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    for f in [
        "src/long.js:",
        "src/long.py:",
        "src/long.rs:",
        "src/good.js:2:57",
    ] {
        assert!(
            r.stdout
                .lines()
                .any(|l| l.starts_with(f) && l.contains("unbounded-push")),
            "missing {f}:\n{}",
            r.stdout
        );
    }
}

// ---------------------------------------------------------------------------------------------
// deep nesting: no stack overflow (that aborts; catch_unwind cannot catch it)
// ---------------------------------------------------------------------------------------------

const DEEP: usize = 10_000;

fn nest(open: &str, close: &str, inner: &str, depth: usize) -> String {
    let mut s = String::with_capacity((open.len() + close.len()) * depth + inner.len());
    for _ in 0..depth {
        s.push_str(open);
    }
    s.push_str(inner);
    for _ in 0..depth {
        s.push_str(close);
    }
    s
}

#[test]
fn ten_thousand_deep_nesting() {
    let (_t, root) = temp();
    good(&root);
    let arr = nest("[", "]", "1", DEEP);
    let obj = nest("{a:", "}", "1", DEEP);
    let qobj = nest("{\"a\": ", "}", "1", DEEP);
    let parens = nest("(", ")", "x", DEEP);
    let calls = nest("f(", ")", "x", DEEP);
    let chain: String = (0..DEEP).map(|i| format!(".m{i}()")).collect();
    let sum: String = (0..DEEP).map(|i| format!(" + {i}")).collect();
    let rust_vec = nest("vec![", "]", "1", DEEP);
    let rust_block = nest("{ ", " }", "1", DEEP);
    let py_indent: String = (0..200)
        .map(|i| format!("{}if x:\n", "    ".repeat(i)))
        .collect::<String>()
        + &"    ".repeat(200)
        + "db.posts.update_one({}, {\"$push\": {\"a\": 1}})\n";

    write(
        &root,
        "deep/arr.js",
        format!("const x = {arr};\ndb.collection(\"a\").insertOne({{ v: {arr} }});\n"),
    );
    write(
        &root,
        "deep/obj.js",
        format!("const x = {obj};\ndb.collection(\"a\").updateOne({obj}, {{ $push: {obj} }});\n"),
    );
    write(
        &root,
        "deep/parens.ts",
        format!("const c = {parens};\nawait db.collection(\"a\").find({parens}).skip({parens});\n"),
    );
    write(
        &root,
        "deep/calls.js",
        format!("db.collection(\"a\").updateOne({{}}, {{ $push: {{ a: {calls} }} }});\n"),
    );
    write(&root, "deep/chain.js", format!("db.collection(\"a\").find({{}}){chain};\nconst q = db.collection(\"a\"){chain}.skip(n);\n"));
    write(
        &root,
        "deep/sum.js",
        format!("db.collection(\"a\" {sum}).updateOne({{}}, {{ $inc: {{ n: 1 {sum} }} }});\n"),
    );
    write(&root, "deep/arr.py", format!("x = {arr}\ndb.a.insert_one({{\"v\": {arr}}})\ndb.a.update_one({qobj}, {{\"$push\": {qobj}}})\n"));
    write(
        &root,
        "deep/parens.py",
        format!("db.a.find({parens}).skip({parens})\ncoll = db[{parens}]\n"),
    );
    write(&root, "deep/indent.py", &py_indent);
    write(&root, "deep/doc.rs", format!("fn f(c: Collection<D>) {{\n    c.update_one(doc! {{}}, doc! {{ \"$push\": {qobj} }});\n    c.aggregate(vec![doc! {{ \"$match\": {qobj} }}]);\n    c.insert_one({rust_vec});\n}}\n"));
    write(&root, "deep/block.rs", format!("fn f(c: Collection<D>) {{ let x = {rust_block}; c.find(doc! {{}}).skip({parens}); }}\n"));
    write(&root, "deep/arr.rs", format!("fn f(db: &Database) {{ let c = db.collection::<D>(\"a\"); c.insert_one(bson!({arr})); let y = {arr}; }}\n"));

    for threads in ["1", "2"] {
        let r = run(
            &root,
            &["check", "--format", "concise", "--threads", threads],
        );
        assert!(r.code == 1, "exit {}:\n{}{}", r.code, r.stdout, r.stderr);
        for f in GOOD_FINDINGS {
            assert!(r.stdout.contains(f), "missing {f}:\n{}", r.stdout);
        }
        assert!(!r.stdout.contains("error[io]"), "{}", r.stdout);
        // the driver calls next to the deep values are still found
        assert!(
            r.stdout.contains("deep/indent.py:201:") && r.stdout.contains("unbounded-push"),
            "{}",
            r.stdout
        );
    }
    check_all_formats(&root, &[], 1, &[]);
}

// ---------------------------------------------------------------------------------------------
// bytes and encodings
// ---------------------------------------------------------------------------------------------

/// Helpers whose returned pipelines spread one another: three mutually recursive ones, and thirty
/// each spreading every later one (2^29 paths if followed without bound). The run finishes, each
/// file's `$skip` stage is still found, once, and the good file's findings stand.
#[test]
fn recursive_and_fanned_out_pipeline_helpers() {
    let (_t, root) = temp();
    good(&root);
    write(
        &root,
        "src/rec.js",
        "function p(n) { return [...p(n - 1), ...q(n), ...r(n), { $skip: n }]; }\n\
         function q(n) { return [...p(n), ...q(n + 1), ...r(n), { $match: { n } }]; }\n\
         function r(n) { return [...p(n), ...q(n), ...r(n), { $sort: { a: 1 } }]; }\n\
         async function f(db, n) { return db.collection(\"x\").aggregate(p(n)).toArray(); }\n",
    );
    write(
        &root,
        "src/rec.py",
        "def p(n):\n    return [*p(n - 1), *q(n), {\"$skip\": n}]\n\
         def q(n):\n    return [*p(n), *q(n + 1), {\"$match\": {\"n\": n}}]\n\
         def f(db, n):\n    return db.items.aggregate(p(n))\n",
    );
    let mut fan = String::new();
    for i in 0..30 {
        let spread: String = (i + 1..30).map(|j| format!("...h{j}(n), ")).collect();
        fan.push_str(&format!(
            "function h{i}(n) {{ return [{spread}{{ $skip: n + {i} }}]; }}\n"
        ));
    }
    fan.push_str(
        "async function g(db, n) { return db.collection(\"y\").aggregate(h0(n)).toArray(); }\n",
    );
    write(&root, "src/fan.js", fan);
    let r = run(&root, &["check", "--format", "concise"]);
    assert_eq!(r.code, 1, "{}\n{}", r.stdout, r.stderr);
    for l in GOOD_FINDINGS.iter().chain(&[
        "src/rec.js:1:58: warning[skip-paging]",
        "src/rec.py:2:32: warning[skip-paging]",
        "src/fan.js:1:",
    ]) {
        assert!(r.stdout.contains(l), "missing {l}:\n{}", r.stdout);
    }
    let count = |file: &str| r.stdout.lines().filter(|l| l.starts_with(file)).count();
    assert_eq!(
        (count("src/rec.js"), count("src/rec.py")),
        (1, 1),
        "{}",
        r.stdout
    );
}

/// Constants that spread the one before twice, forty times over: lowering them in full would build
/// 2^39 values. A file lowers at most a number of values linear in its size (`lang::lower_fuel`),
/// so the run finishes in both languages and the good file's findings stand.
#[test]
fn exponential_spreads_of_constants() {
    let (_t, root) = temp();
    good(&root);
    let mut js = String::from("const a0 = [{ $skip: x }];\n");
    let mut py = String::from("a0 = [{\"$skip\": x}]\n");
    for i in 1..40 {
        js.push_str(&format!("const a{i} = [...a{p}, ...a{p}];\n", p = i - 1));
        py.push_str(&format!("a{i} = [*a{p}, *a{p}]\n", p = i - 1));
    }
    js.push_str("async function f(db) { return db.collection(\"x\").aggregate(a39).toArray(); }\n");
    py.push_str("def f(db):\n    return db.items.aggregate(a39)\n");
    write(&root, "src/spread.js", js);
    write(&root, "src/spread.py", py);
    let r = run(&root, &["check", "--format", "concise"]);
    assert_eq!(r.code, 1, "{}\n{}", r.stdout, r.stderr);
    for l in GOOD_FINDINGS {
        assert!(r.stdout.contains(l), "missing {l}:\n{}", r.stdout);
    }
}

/// Struct fields that lead to each other: eight structs each with a field `db`, each built from
/// the next one's (`S0 { db: x.db.clone() }`). Following every declaration of `db` at every step
/// would take 8^10 steps for one receiver; one question takes a bounded number of steps
/// (`rust::CLASSIFY_STEPS`), so the run finishes and the good file's findings stand.
#[test]
fn fields_that_lead_to_each_other() {
    let (_t, root) = temp();
    good(&root);
    let mut rs = String::from("use mongodb::{bson::doc, Database};\n");
    for i in 0..8 {
        rs.push_str(&format!("struct S{i} {{ db: Wrapper }}\n"));
        rs.push_str(&format!(
            "fn make{i}(x: &S{n}) -> S{i} {{ S{i} {{ db: x.db.clone() }} }}\n",
            n = (i + 1) % 8
        ));
    }
    rs.push_str("async fn run(a: &S0) { a.db.find_one(doc! { \"a\": 1 }).await; }\n");
    write(&root, "src/fields.rs", rs);
    let r = run(&root, &["check", "--format", "concise"]);
    assert_eq!(r.code, 1, "{}\n{}", r.stdout, r.stderr);
    for l in GOOD_FINDINGS {
        assert!(r.stdout.contains(l), "missing {l}:\n{}", r.stdout);
    }
}

#[test]
fn invalid_utf8_is_reported_and_the_rest_analysed() {
    let (_t, root) = temp();
    good(&root);
    let mut bad = b"await db.collection(\"x\").updateOne({}, { $push: { a: 1 } }); // caf".to_vec();
    bad.extend_from_slice(&[0xE9, 0xFF, 0xFE, b'\n']);
    write(&root, "src/latin1.js", bad);
    check_all_formats(&root, &[], 2, &["src/latin1.js"]);
    let r = run(&root, &["check"]);
    assert!(r.stdout.contains("not valid UTF-8"), "{}", r.stdout);
}

#[test]
fn binary_file_with_a_js_name() {
    let (_t, root) = temp();
    good(&root);
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    // Random bytes with driver words sprinkled in, so the prefilter lets it through.
    let mut bin: Vec<u8> = (0..200_000).map(|_| rng.next() as u8).collect();
    for (i, w) in [&b"updateOne"[..], b"collection", b"$push", b"aggregate"]
        .iter()
        .enumerate()
    {
        let at = 1000 + i * 40_000;
        bin[at..at + w.len()].copy_from_slice(w);
    }
    write(&root, "src/image.js", &bin);
    // A binary that happens to be valid UTF-8 (NULs and control characters): parsed, no crash.
    let nul: Vec<u8> = (0..100_000u32)
        .map(|i| match i % 7 {
            0 => 0u8,
            1 => 0x1b,
            _ => b"db.collection(\"x\").updateOne({$push:{a:1}})"[i as usize % 43],
        })
        .collect();
    write(&root, "src/nul.js", &nul);
    check_all_formats(&root, &[], 2, &["src/image.js"]);
}

#[test]
fn byte_order_mark_and_crlf() {
    let (_t, root) = temp();
    good(&root);
    write(
        &root,
        "src/bom.js",
        format!("\u{feff}{}", GOOD_JS.replace("good", "bom")),
    );
    write(&root, "src/crlf.js", GOOD_JS.replace('\n', "\r\n"));
    write(
        &root,
        "src/bomcrlf.py",
        "\u{feff}def f(db, id, c):\r\n    db.posts.update_one({\"_id\": id}, {\"$push\": {\"c\": c}})\r\n",
    );
    write(
        &root,
        "src/crlf.rs",
        "fn f(c: Collection<D>, x: i64) {\r\n    c.update_one(doc! { \"_id\": 1 },\r\n        doc! { \"$push\": { \"a\": x } });\r\n}\r\n",
    );
    // Old Mac line endings (CR only): analysed, findings still there.
    write(&root, "src/cr.js", GOOD_JS.replace('\n', "\r"));
    // A finding on the BOM's own line: same column as without the BOM.
    let line1 = "db.collection(\"x\").find({}).skip(n * 2);\n";
    write(&root, "src/line1.js", line1);
    write(&root, "src/line1bom.js", format!("\u{feff}{line1}"));
    check_all_formats(&root, &[], 1, &[]);
    let r = run(&root, &["check", "--format", "concise"]);
    // Line and column are the same as without the BOM / with LF endings.
    for l in [
        "src/bom.js:2:57: warning[unbounded-push]",
        "src/crlf.js:2:57: warning[unbounded-push]",
        "src/bomcrlf.py:2:39: warning[unbounded-push]",
        "src/crlf.rs:3:",
    ] {
        assert!(r.stdout.contains(l), "missing {l}:\n{}", r.stdout);
    }
    assert!(r.stdout.contains("src/crlf.js:4:"), "{}", r.stdout);
    assert!(r.stdout.contains("src/cr.js:"), "{}", r.stdout);
    let at = |name: &str| {
        r.stdout
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split(": ").next())
            .map(|p| p[name.len()..].to_string())
    };
    assert!(at("src/line1.js").is_some(), "{}", r.stdout);
    assert_eq!(at("src/line1.js"), at("src/line1bom.js"), "{}", r.stdout);
    assert!(
        !r.stdout.contains('\r'),
        "no carriage returns in the report"
    );
    // CRLF snippets carry no carriage return. (CR-only files are analysed, but their lines are
    // counted on LF only, like tree-sitter does: a known limitation.)
    let text = run(
        &root,
        &["check", "src/crlf.js", "src/bomcrlf.py", "src/crlf.rs"],
    );
    assert!(
        !text.stdout.contains('\r'),
        "no carriage returns in snippets"
    );
}

#[test]
fn empty_and_whitespace_files() {
    let (_t, root) = temp();
    good(&root);
    write(&root, "src/empty.js", "");
    write(&root, "src/empty.py", "");
    write(&root, "src/empty.rs", "");
    write(&root, "src/space.ts", "\n\n   \n");
    write(&root, "src/only-bom.js", "\u{feff}");
    write(&root, "src/word.js", "collection");
    check_all_formats(&root, &[], 1, &[]);
}

#[test]
fn syntax_errors_around_valid_driver_calls() {
    let (_t, root) = temp();
    good(&root);
    write(
        &root,
        "src/broken.js",
        "function (( { ]]] <<<>>> @@@ class class\n\
         async function ok(db, id, c) {\n  await db.collection(\"posts\").updateOne({ _id: id }, { $push: { comments: c } });\n}\n\
         }}}} const = = = ;;; import from from\n\
         const p = Number(q.page); db.collection(\"posts\").find({}).skip(p * 10); )))\n\
         if (x { else } while",
    );
    write(
        &root,
        "src/broken.ts",
        "interface X { a: ; b: <<< }\ntype = ;\nexport async function g(db: Db, tenantId: string, c: string) {\n  await db.collection(\"events_\" + tenantId).insertOne({});\n}\nclass { ) \n",
    );
    write(
        &root,
        "src/broken.py",
        "def f(:\n    pass pass\nclass\n\ndef ok(db, id, c):\n    db.posts.update_one({\"_id\": id}, {\"$push\": {\"c\": c}})\n\n)))) lambda lambda ::\n",
    );
    write(
        &root,
        "src/broken.rs",
        "fn broken(a: i32 {\n    let x = ;\n    match { => }\n}\nfn ok(c: Collection<D>, x: i64) {\n    c.update_one(doc! { \"_id\": 1 }, doc! { \"$push\": { \"a\": x } });\n}\nstruct S { a: , b }\nimpl impl ]]\n",
    );
    let r = run(&root, &["check", "--format", "concise"]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    for l in [
        "src/broken.js:3:",
        "src/broken.js:6:",
        "src/broken.ts:4:",
        "src/broken.py:6:",
        "src/broken.rs:6:",
    ] {
        assert!(r.stdout.contains(l), "missing {l}:\n{}", r.stdout);
    }
    check_all_formats(&root, &[], 1, &[]);
}

// ---------------------------------------------------------------------------------------------
// the file system
// ---------------------------------------------------------------------------------------------

#[test]
fn symlink_loops() {
    let (_t, root) = temp();
    good(&root);
    std::os::unix::fs::symlink(".", root.join("src/self")).unwrap();
    std::os::unix::fs::symlink("../src", root.join("src/up")).unwrap();
    std::os::unix::fs::symlink("b.js", root.join("src/a.js")).unwrap();
    std::os::unix::fs::symlink("a.js", root.join("src/b.js")).unwrap();
    std::os::unix::fs::symlink("loop", root.join("loop")).unwrap();
    // Symbolic links are not followed inside the tree: no loop, no duplicate findings.
    check_all_formats(&root, &[], 1, &[]);
    let r = run(&root, &["check", "--format", "concise"]);
    assert_eq!(
        r.stdout.matches("unbounded-push").count(),
        1,
        "each finding once:\n{}",
        r.stdout
    );
    // A loop named on the command line is reported, the other path still analysed.
    check_all_formats(
        &root,
        &["src", "loop", "src/a.js"],
        2,
        &["loop", "src/a.js"],
    );
}

fn running_as_root() -> bool {
    // SAFETY: geteuid has no preconditions. Declared here to avoid a libc dependency.
    extern "C" {
        fn geteuid() -> u32;
    }
    unsafe { geteuid() == 0 }
}

/// As root, permission bits do not stop reads: run the binary as `nobody` instead (the kernel then
/// enforces them). Otherwise chmod is enough.
fn run_unprivileged(root: &Path, args: &[&str]) -> Run {
    let mut cmd = bin(root, args);
    if running_as_root() {
        use std::os::unix::process::CommandExt;
        cmd.uid(65534).gid(65534);
    }
    run_cmd(cmd, &args.join(" "))
}

#[test]
fn unreadable_file_and_folder() {
    use std::os::unix::fs::PermissionsExt;
    let (t, root) = temp();
    let set = |p: &Path, mode: u32| {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).unwrap()
    };
    // `nobody` must be able to reach the folder (tempfile makes it 0700).
    set(t.path(), 0o755);
    good(&root);
    write(
        &root,
        "src/secret.js",
        "db.collection(\"x\").updateOne({}, {$push: {a: 1}})",
    );
    write(
        &root,
        "private/inner.js",
        "db.collection(\"x\").updateOne({}, {$push: {a: 1}})",
    );
    for d in ["src", "private"] {
        set(&root.join(d), 0o755);
    }
    set(&root.join("src/good.js"), 0o644);
    set(&root.join("src/secret.js"), 0o000);
    set(&root.join("private"), 0o000);
    let r = run_unprivileged(&root, &["check", "--format", "json"]);
    let report = json(&r);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    let errors: Vec<String> = report["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            format!(
                "{}: {}",
                e["path"].as_str().unwrap(),
                e["message"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(
        errors[0].starts_with("private") && errors[0].contains("ermission denied"),
        "{errors:?}"
    );
    assert!(
        errors[1].starts_with("src/secret.js: cannot read file")
            && errors[1].contains("ermission denied"),
        "{errors:?}"
    );
    let rules: Vec<&str> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule"].as_str().unwrap())
        .collect();
    assert_eq!(rules, ["unbounded-push", "skip-paging"], "{}", r.stdout);
    let text = run_unprivileged(&root, &["check"]);
    assert_eq!(text.code, 2);
    assert!(
        text.stdout
            .contains("warning: could not analyse src/secret.js"),
        "{}",
        text.stdout
    );
    let sarif = run_unprivileged(&root, &["check", "--format", "sarif"]);
    assert_eq!(
        json(&sarif)["runs"][0]["invocations"][0]["toolExecutionNotifications"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    set(&root.join("private"), 0o755);
}

#[test]
fn special_files_never_block() {
    // A FIFO named like a source file would block a reader forever; a folder named like one is a
    // folder. Neither may hang the run or be mistaken for a source file.
    let (_t, root) = temp();
    good(&root);
    let fifo = root.join("src/pipe.js");
    let st = Command::new("mkfifo").arg(&fifo).status();
    if !st.is_ok_and(|s| s.success()) {
        eprintln!("skipping the FIFO: mkfifo is not available");
    }
    write(
        &root,
        "src/folder.js/inner.js",
        "db.collection(\"x\").find({}).skip(n * 2)",
    );
    let r = run(&root, &["check", "--format", "concise"]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("src/folder.js/inner.js:1:"),
        "{}",
        r.stdout
    );
    // Named on the command line too.
    let r = run(
        &root,
        &["check", "--format", "concise", "src/pipe.js", "src/good.js"],
    );
    assert!(r.code == 1 || r.code == 2, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("src/good.js:2:57"), "{}", r.stdout);
}

#[test]
fn nonexistent_path_on_the_command_line() {
    let (_t, root) = temp();
    good(&root);
    check_all_formats(
        &root,
        &["src", "no/such/dir", "gone.js"],
        2,
        &["gone.js", "no/such/dir"],
    );
}

#[test]
fn paths_with_spaces_and_non_ascii_names() {
    let (_t, root) = temp();
    write(&root, "my project/src dir/good.js", GOOD_JS);
    write(&root, "my project/модели/заказ 注文 😀.js", GOOD_JS);
    write(
        &root,
        "my project/bad name.js",
        [0xFFu8, b'$', b'p', b'u', b's', b'h'],
    );
    check_all_formats(&root, &[], 2, &["my project/bad name.js"]);
    let r = run(&root, &["check", "--format", "concise"]);
    assert!(
        r.stdout.contains("my project/модели/заказ 注文 😀.js:2:57"),
        "{}",
        r.stdout
    );
    let sarif = run(&root, &["check", "--format", "sarif", "my project"]);
    assert!(
        sarif
            .stdout
            .contains("my%20project/%D0%BC%D0%BE%D0%B4%D0%B5%D0%BB%D0%B8/"),
        "{}",
        sarif.stdout
    );
    // A file name that is not UTF-8 at all (legal on Linux).
    use std::os::unix::ffi::OsStrExt;
    let name = std::ffi::OsStr::from_bytes(b"my project/caf\xe9.js");
    std::fs::write(root.join(name), GOOD_JS).unwrap();
    let r = run(&root, &["check", "--format", "json"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stdout.contains("my project/caf\u{FFFD}.js"),
        "{}",
        r.stdout
    );
}

#[test]
fn files_deleted_during_the_walk() {
    // Deterministic part: a file that disappears between being listed and being read takes the
    // same path as a file named on the command line that is gone (covered above) and as the
    // per-file read failing, unit-tested in src/discover.rs. Here, the real race: a thread keeps
    // creating and deleting driver files while the binary walks the tree. Whatever the timing, the
    // run finishes, never crashes, names only churned files in its errors, and the good file's
    // findings are complete.
    let (_t, root) = temp();
    good(&root);
    for i in 0..200 {
        write(&root, &format!("churn/f{i}.js"), GOOD_JS);
    }
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let churn = {
        let stop = stop.clone();
        let dir = root.join("churn");
        std::thread::spawn(move || {
            let mut i = 0usize;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let p = dir.join(format!("f{}.js", i % 200));
                let _ = std::fs::remove_file(&p);
                let _ = std::fs::write(&p, GOOD_JS);
                if i.is_multiple_of(3) {
                    let _ = std::fs::remove_file(&p);
                }
                i += 1;
            }
        })
    };
    for _ in 0..10 {
        let r = run(&root, &["check", "--format", "json", "--threads", "2"]);
        let report = json(&r);
        assert!(r.code == 1 || r.code == 2, "{}{}", r.stdout, r.stderr);
        for e in report["errors"].as_array().unwrap() {
            assert!(e["path"].as_str().unwrap().starts_with("churn/"), "{e}");
        }
        let good: Vec<&str> = report["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["path"].as_str() == Some("src/good.js"))
            .map(|f| f["rule"].as_str().unwrap())
            .collect();
        assert_eq!(good, ["unbounded-push", "skip-paging"]);
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    churn.join().unwrap();
}

// ---------------------------------------------------------------------------------------------
// determinism and privacy
// ---------------------------------------------------------------------------------------------

/// A folder with some of everything: good files, errors of several kinds, deep and broken files.
fn mixed_tree(root: &Path) {
    good(root);
    for i in 0..40 {
        write(root, &format!("src/m{i}/svc.js"), GOOD_JS);
        write(
            root,
            &format!("src/m{i}/svc.py"),
            "def f(db, id, c):\n    db.posts.update_one({\"_id\": id}, {\"$push\": {\"c\": c}})\n",
        );
    }
    write(root, "src/latin1.js", [b'$', b'p', b'u', b's', b'h', 0xE9]);
    write(
        root,
        "src/deep.js",
        format!(
            "db.collection(\"a\").updateOne({{}}, {{ $push: {} }});",
            nest("{a:", "}", "1", 2000)
        ),
    );
    write(
        root,
        "src/broken.py",
        "def (:\n db.x.update_one({}, {\"$push\": {\"a\": 1}})\n",
    );
    write(
        root,
        "big.js",
        format!("// updateOne\n{}", "x".repeat(3000)),
    );
}

#[test]
fn byte_identical_across_threads_and_runs() {
    let (_t, root) = temp();
    mixed_tree(&root);
    for format in ["text", "json", "sarif", "concise"] {
        let args = |t: &'static str| {
            vec![
                "check",
                "--format",
                format,
                "--threads",
                t,
                "--max-file-size",
                "2000",
                ".",
            ]
        };
        let reference = run(&root, &args("1"));
        assert_eq!(reference.code, 2, "{}", reference.stdout);
        for t in ["1", "2", "8"] {
            for _ in 0..2 {
                let r = run(&root, &args(t));
                assert_eq!(r.code, reference.code);
                assert!(
                    r.stdout == reference.stdout,
                    "{format} --threads {t} differs:\n{}\n---\n{}",
                    reference.stdout,
                    r.stdout
                );
            }
        }
    }
}

#[test]
fn reports_never_embed_the_absolute_path_of_the_machine() {
    let (_t, root) = temp();
    mixed_tree(&root);
    let abs = root.to_str().unwrap().to_string();
    let cases: Vec<(PathBuf, Vec<String>)> = vec![
        (root.clone(), vec![]),
        (root.clone(), vec![".".into()]),
        (
            root.clone(),
            vec!["src".into(), "big.js".into(), "missing.js".into()],
        ),
        (root.clone(), vec![abs.clone()]),
        (root.join("src"), vec!["../src".into(), "../big.js".into()]),
    ];
    for (cwd, paths) in cases {
        for format in ["json", "sarif"] {
            let mut args: Vec<&str> = vec!["check", "--format", format, "--max-file-size", "2000"];
            args.extend(paths.iter().map(String::as_str));
            let r = run(&cwd, &args);
            assert!(r.code == 2, "{args:?}: {}", r.stdout);
            assert!(
                !r.stdout.contains(&abs),
                "{args:?} from {}: the report embeds {abs}:\n{}",
                cwd.display(),
                r.stdout
            );
            let v = json(&r);
            assert!(v.to_string().contains("good.js"));
        }
    }
}

#[test]
fn the_binary_cannot_open_sockets_or_run_programs() {
    // mongolint never executes, imports or evaluates analysed code and never opens a network
    // connection. Checked on the binary itself: it does not even import the libc entry points that
    // would allow it (Linux, where the binary links libc dynamically; needs `nm` from binutils).
    let bin = env!("CARGO_BIN_EXE_mongolint");
    let Ok(out) = Command::new("nm")
        .args(["-D", "--undefined-only", bin])
        .output()
    else {
        eprintln!("skipped: nm is not available");
        return;
    };
    if !out.status.success() {
        eprintln!("skipped: nm cannot read the binary");
        return;
    }
    let symbols = String::from_utf8_lossy(&out.stdout);
    let imported: Vec<&str> = symbols
        .lines()
        .filter_map(|l| l.split_whitespace().last())
        .map(|s| s.split('@').next().unwrap_or(s))
        .collect();
    assert!(imported.len() > 10, "{symbols}");
    for forbidden in [
        "socket",
        "connect",
        "getaddrinfo",
        "execve",
        "execvp",
        "posix_spawn",
        "posix_spawnp",
        "fork",
        "dlopen",
    ] {
        assert!(
            !imported.contains(&forbidden),
            "the binary imports {forbidden}"
        );
    }
}
