//! A hand-built `Analysis` shared by the reporter tests: two files (one with a non-ASCII path
//! that contains a space and non-ASCII text before a finding), three findings of three
//! severities, related locations in the same and in another file, and a file error.

#![allow(dead_code)]

use mongolint::analysis::{Analysis, FileError, SourceFile};
use mongolint::diagnostic::{Finding, Related, Severity};
use mongolint::ir::{FileIr, Language, Span};
use mongolint::report::{render, Format, ReportOptions};
use std::path::PathBuf;
use std::sync::Arc;

pub const PIPELINE_JS: &str = "\
const pipeline = [
  { $lookup: { from: \"users\", localField: \"author\", foreignField: \"_id\", as: \"author\" } },
  { $lookup: { from: \"tags\", localField: \"tags\", foreignField: \"_id\", as: \"tags\" } },
];
await db.collection(\"posts\").aggregate(pipeline).toArray();
";

pub const POST_SERVICE_JS: &str = "\
// Service des modèles 😀
const é = \"😀\"; await posts.updateOne({ _id: id }, { $push: { comments: c } });
await posts.updateOne({ _id: id }, { $inc: { views: 1 } });
";

pub const NON_ASCII_PATH: &str = "src/modèles/post service.js";

/// Span of the `nth` (0-based) occurrence of `needle` in `text`.
pub fn span_of(text: &str, needle: &str, nth: usize) -> Span {
    let start = text
        .match_indices(needle)
        .nth(nth)
        .unwrap_or_else(|| panic!("{needle:?} #{nth} not in text"))
        .0;
    Span::new(start, start + needle.len())
}

fn file(path: &str, text: &str) -> SourceFile {
    SourceFile {
        display_path: path.to_string(),
        path: PathBuf::from(path),
        language: Language::JavaScript,
        text: Some(Arc::from(text)),
        ir: FileIr::default(),
    }
}

pub fn sample_analysis() -> Analysis {
    let findings = vec![
        Finding {
            rule: "lookup-chain",
            severity: Severity::Warning,
            file: 0,
            span: span_of(PIPELINE_JS, "aggregate", 0),
            message: "Pipeline on `posts` joins 2 collections with $lookup (users, tags)".into(),
            help: "Embed the data read together, or copy the few fields you display (extended reference pattern)".into(),
            related: vec![
                Related {
                    file: 0,
                    span: span_of(PIPELINE_JS, "$lookup", 0),
                    message: "$lookup from users".into(),
                },
                Related {
                    file: 0,
                    span: span_of(PIPELINE_JS, "$lookup", 1),
                    message: "$lookup from tags".into(),
                },
                Related {
                    file: 1,
                    span: span_of(POST_SERVICE_JS, "posts", 0),
                    message: "posts is also updated here".into(),
                },
            ],
        },
        Finding {
            rule: "unbounded-push",
            severity: Severity::Warning,
            file: 1,
            span: span_of(POST_SERVICE_JS, "$push", 0),
            message: "$push to `comments` on `posts` has no $slice: the array grows without bound".into(),
            help: "Cap the array with $each + $slice, or move comments to their own collection".into(),
            related: vec![],
        },
        Finding {
            rule: "counter-inc",
            severity: Severity::Info,
            file: 1,
            span: span_of(POST_SERVICE_JS, "$inc", 0),
            message: "$inc of `views` by 1 on one `posts` document per event".into(),
            help: "Use the approximation pattern or a bucketed counter".into(),
            related: vec![],
        },
    ];
    Analysis {
        files: vec![
            file("src/a.js", PIPELINE_JS),
            file(NON_ASCII_PATH, POST_SERVICE_JS),
        ],
        findings,
        errors: vec![FileError {
            display_path: "src/broken file.py".into(),
            message: "stream did not contain valid UTF-8".into(),
        }],
        files_scanned: 12,
        files_parsed: 3,
        model: Default::default(),
    }
}

pub fn render_to_string(analysis: &Analysis, format: Format) -> String {
    let mut out = Vec::new();
    render(
        analysis,
        format,
        // More threads than most tests have files: the JSON findings written in parallel.
        &ReportOptions {
            color: false,
            threads: 4,
        },
        &mut out,
    )
    .expect("render");
    String::from_utf8(out).expect("UTF-8 output")
}

/// Awkward shapes: a zero-length span at the end of a file without a final newline, a span
/// past the end, a finding in a file whose text was not kept, a rule id not in the registry,
/// CRLF line endings, and no file errors.
pub fn edge_case_analysis() -> Analysis {
    let crlf = "db.c.find().skip(n)\r\n.limit(10)";
    let end = crlf.len();
    let mut no_text = file("src/z.py", "");
    no_text.text = None;
    Analysis {
        files: vec![file("lib/crlf.js", crlf), no_text],
        findings: vec![
            Finding {
                rule: "skip-paging",
                severity: Severity::Warning,
                file: 0,
                span: span_of(crlf, "limit", 0),
                message: "m".into(),
                help: String::new(),
                related: vec![Related {
                    file: 0,
                    span: Span::new(end, end),
                    message: "end of file".into(),
                }],
            },
            Finding {
                rule: "skip-paging",
                severity: Severity::Error,
                file: 0,
                span: Span::new(end, end + 40),
                message: "past the end".into(),
                help: "h".into(),
                related: vec![],
            },
            Finding {
                rule: "not-a-rule",
                severity: Severity::Info,
                file: 1,
                span: Span::new(3, 9),
                message: "no text kept".into(),
                help: "h".into(),
                related: vec![],
            },
        ],
        errors: vec![],
        files_scanned: 1,
        files_parsed: 1,
        model: Default::default(),
    }
}
