//! mongolint's own JSON output. The schema is documented in docs/json-output.md and is stable:
//! fields may be added within `version` 1, never removed or changed in meaning.

use super::fingerprint::fingerprints_of;
use super::locate::{Locator, Range};
use super::VERSION;
use crate::analysis::Analysis;
use crate::diagnostic::{FileId, Severity};
use crate::ir::Span;
use serde::Serialize;

/// The schema version of this output; bumped only for incompatible changes.
const SCHEMA_VERSION: u32 = 1;

#[derive(Serialize)]
struct Report<'a> {
    version: u32,
    tool: Tool,
    findings: Vec<Finding<'a>>,
    errors: Vec<FileError<'a>>,
    summary: Summary,
}

#[derive(Serialize)]
struct Tool {
    name: &'static str,
    version: &'static str,
}

#[derive(Serialize)]
struct Finding<'a> {
    rule: &'a str,
    severity: Severity,
    path: &'a str,
    start: Option<Position>,
    end: Option<Position>,
    message: &'a str,
    help: &'a str,
    related: Vec<Related<'a>>,
    fingerprint: String,
}

#[derive(Serialize)]
struct Related<'a> {
    path: &'a str,
    start: Option<Position>,
    end: Option<Position>,
    message: &'a str,
}

#[derive(Serialize, Clone, Copy)]
struct Position {
    line: usize,
    column: usize,
}

#[derive(Serialize)]
struct FileError<'a> {
    path: &'a str,
    message: &'a str,
}

#[derive(Serialize)]
struct Summary {
    files_scanned: usize,
    files_parsed: usize,
    findings: usize,
    by_severity: BySeverity,
    file_errors: usize,
}

#[derive(Serialize)]
struct BySeverity {
    error: usize,
    warning: usize,
    info: usize,
}

fn positions(locator: &Locator, file: FileId, span: Span) -> (Option<Position>, Option<Position>) {
    match locator.range(file, span) {
        Some(Range { start, end }) => (
            Some(Position {
                line: start.line,
                column: start.column,
            }),
            Some(Position {
                line: end.line,
                column: end.column,
            }),
        ),
        None => (None, None),
    }
}

/// Writes the report to `out`: the head, the findings in runs of whole files rendered on up to
/// `threads` threads and written in order as each is ready (the report is never held whole in
/// memory, and writing overlaps rendering), the tail. The bytes do not depend on `threads`.
pub(super) fn write(
    analysis: &Analysis,
    threads: usize,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let (head, tail) = head_and_tail(analysis);
    out.write_all(&head)?;
    let runs = file_runs(&analysis.findings, RUN_FINDINGS);
    let locator = Locator::new(analysis);
    crate::parallel::for_each_in_order(
        &runs,
        threads,
        |run| render_run(analysis, &locator, run.clone()),
        |buf| out.write_all(&buf),
    )?;
    out.write_all(&tail)
}

/// About how many findings a run holds (about 250 KB of JSON): small enough that little waits in
/// memory, large enough that handing runs over costs nothing.
const RUN_FINDINGS: usize = 256;

/// The findings `run` of the report, as they sit inside its findings array. A finding's
/// fingerprint counts the findings of its file before it, so a run holds whole files.
fn render_run(analysis: &Analysis, locator: &Locator, run: std::ops::Range<usize>) -> Vec<u8> {
    let found = &analysis.findings[run.clone()];
    let mut buf = Vec::with_capacity(found.len() * 1024);
    let mut w = Pretty {
        out: &mut buf,
        depth: 2,
        first: true,
    };
    for (i, (f, fingerprint)) in found
        .iter()
        .zip(fingerprints_of(found, locator))
        .enumerate()
    {
        let (start, end) = positions(locator, f.file, f.span);
        let finding = Finding {
            rule: f.rule,
            severity: f.severity,
            path: locator.path(f.file),
            start,
            end,
            message: &f.message,
            help: &f.help,
            related: f
                .related
                .iter()
                .map(|r| {
                    let (start, end) = positions(locator, r.file, r.span);
                    Related {
                        path: locator.path(r.file),
                        start,
                        end,
                        message: &r.message,
                    }
                })
                .collect(),
            fingerprint,
        };
        write_finding(&mut w, run.start + i, &finding);
    }
    buf
}

/// The report up to the opening bracket of its findings, and after the last finding.
fn head_and_tail(analysis: &Analysis) -> (Vec<u8>, Vec<u8>) {
    let count = |s: Severity| analysis.findings.iter().filter(|f| f.severity == s).count();
    let report = Report {
        version: SCHEMA_VERSION,
        tool: Tool {
            name: "mongolint",
            version: VERSION,
        },
        findings: Vec::new(),
        errors: analysis
            .errors
            .iter()
            .map(|e| FileError {
                path: &e.display_path,
                message: &e.message,
            })
            .collect(),
        summary: Summary {
            files_scanned: analysis.files_scanned,
            files_parsed: analysis.files_parsed,
            findings: analysis.findings.len(),
            by_severity: BySeverity {
                error: count(Severity::Error),
                warning: count(Severity::Warning),
                info: count(Severity::Info),
            },
            file_errors: analysis.errors.len(),
        },
    };
    let mut head = Vec::new();
    write_head(
        &mut Pretty {
            out: &mut head,
            depth: 0,
            first: true,
        },
        &report,
    );
    let mut tail = Vec::new();
    // Inside the findings array, as the last finding leaves the writer.
    write_tail(
        &mut Pretty {
            out: &mut tail,
            depth: 2,
            first: false,
        },
        &report,
        !analysis.findings.is_empty(),
    );
    tail.push(b'\n');
    (head, tail)
}

/// The findings cut into runs of about `target` findings, each ending at the end of a file's
/// findings (the findings are sorted by file).
fn file_runs(
    findings: &[crate::diagnostic::Finding],
    target: usize,
) -> Vec<std::ops::Range<usize>> {
    let target = target.max(1);
    let mut runs = Vec::new();
    let mut start = 0;
    while start < findings.len() {
        let mut end = (start + target).min(findings.len());
        while end < findings.len() && findings[end].file == findings[end - 1].file {
            end += 1;
        }
        runs.push(start..end);
        start = end;
    }
    runs
}

/// Writes `report` as `serde_json::to_writer_pretty` would, byte for byte (the tests compare
/// the two), without serde: serde_json escapes strings a byte at a time through a table and
/// calls the formatter for every token, which made rendering 3% of a run on the synthetic
/// repository of bench/ (1,432 findings, 1.2 MB of JSON).
#[cfg(test)]
fn write_report(report: &Report<'_>, out: &mut Vec<u8>) {
    let mut w = Pretty {
        out,
        depth: 0,
        first: true,
    };
    write_head(&mut w, report);
    for (i, f) in report.findings.iter().enumerate() {
        write_finding(&mut w, i, f);
    }
    write_tail(&mut w, report, !report.findings.is_empty());
}

/// The report up to the opening bracket of its findings.
fn write_head(w: &mut Pretty<'_>, report: &Report<'_>) {
    w.begin(b'{');
    w.key("version");
    w.number(report.version as usize);
    w.key("tool");
    w.begin(b'{');
    w.key("name");
    w.string(report.tool.name);
    w.key("version");
    w.string(report.tool.version);
    w.end(b'}', true);
    w.key("findings");
    w.begin(b'[');
}

/// The `i`th finding of the report's findings array.
fn write_finding(w: &mut Pretty<'_>, i: usize, f: &Finding<'_>) {
    w.item(i);
    w.begin(b'{');
    w.key("rule");
    w.string(f.rule);
    w.key("severity");
    w.string(f.severity.as_str());
    w.key("path");
    w.string(f.path);
    w.key("start");
    w.position(f.start);
    w.key("end");
    w.position(f.end);
    w.key("message");
    w.string(f.message);
    w.key("help");
    w.string(f.help);
    w.key("related");
    w.begin(b'[');
    for (j, r) in f.related.iter().enumerate() {
        w.item(j);
        w.begin(b'{');
        w.key("path");
        w.string(r.path);
        w.key("start");
        w.position(r.start);
        w.key("end");
        w.position(r.end);
        w.key("message");
        w.string(r.message);
        w.end(b'}', true);
    }
    w.end(b']', !f.related.is_empty());
    w.key("fingerprint");
    w.string(&f.fingerprint);
    w.end(b'}', true);
}

/// The report from the closing bracket of its findings (`any`: whether there are any).
fn write_tail(w: &mut Pretty<'_>, report: &Report<'_>, any: bool) {
    w.end(b']', any);
    w.key("errors");
    w.begin(b'[');
    for (i, e) in report.errors.iter().enumerate() {
        w.item(i);
        w.begin(b'{');
        w.key("path");
        w.string(e.path);
        w.key("message");
        w.string(e.message);
        w.end(b'}', true);
    }
    w.end(b']', !report.errors.is_empty());
    let s = &report.summary;
    w.key("summary");
    w.begin(b'{');
    for (key, n) in [
        ("files_scanned", s.files_scanned),
        ("files_parsed", s.files_parsed),
        ("findings", s.findings),
    ] {
        w.key(key);
        w.number(n);
    }
    w.key("by_severity");
    w.begin(b'{');
    for (key, n) in [
        ("error", s.by_severity.error),
        ("warning", s.by_severity.warning),
        ("info", s.by_severity.info),
    ] {
        w.key(key);
        w.number(n);
    }
    w.end(b'}', true);
    w.key("file_errors");
    w.number(s.file_errors);
    w.end(b'}', true);
    w.end(b'}', true);
}

/// serde_json's `PrettyFormatter` (two spaces an indent level, `": "` after keys, `[]` for an
/// empty array) over a `Vec`.
struct Pretty<'o> {
    out: &'o mut Vec<u8>,
    depth: usize,
    /// Whether the object or array being written has a member yet.
    first: bool,
}

impl Pretty<'_> {
    fn newline(&mut self) {
        // A newline and two spaces for each level (the report nests five deep).
        const INDENT: &[u8; 17] = b"\n                ";
        match INDENT.get(..1 + 2 * self.depth) {
            Some(indent) => self.out.extend_from_slice(indent),
            None => {
                self.out.push(b'\n');
                for _ in 0..self.depth {
                    self.out.extend_from_slice(b"  ");
                }
            }
        }
    }

    fn begin(&mut self, open: u8) {
        self.out.push(open);
        self.depth += 1;
        self.first = true;
    }

    /// Closes an object or array; `any`: whether it has members.
    fn end(&mut self, close: u8, any: bool) {
        self.depth -= 1;
        if any {
            self.newline();
        }
        self.out.push(close);
        self.first = false;
    }

    fn separator(&mut self) {
        if !self.first {
            self.out.push(b',');
        }
        self.first = false;
        self.newline();
    }

    /// Starts the `i`th element of an array.
    fn item(&mut self, i: usize) {
        self.first = i == 0;
        self.separator();
    }

    fn number(&mut self, n: usize) {
        self.out.extend_from_slice(super::decimal(n, &mut [0; 20]));
    }

    fn position(&mut self, p: Option<Position>) {
        let Some(p) = p else {
            self.out.extend_from_slice(b"null");
            return;
        };
        self.begin(b'{');
        self.key("line");
        self.number(p.line);
        self.key("column");
        self.number(p.column);
        self.end(b'}', true);
    }

    /// A key: a static name that needs no escaping.
    fn key(&mut self, key: &'static str) {
        debug_assert!(!key.bytes().any(needs_escape_byte));
        self.separator();
        self.out.push(b'"');
        self.out.extend_from_slice(key.as_bytes());
        self.out.extend_from_slice(b"\": ");
    }

    /// A JSON string, escaped as serde_json escapes it: `"` and `\\` with a backslash, the
    /// control characters below 0x20 as `\b \t \n \f \r` or `\u00xx`, everything else as
    /// it is. The bytes to escape are found eight at a time.
    fn string(&mut self, s: &str) {
        let bytes = s.as_bytes();
        self.out.reserve(bytes.len() + 2);
        self.out.push(b'"');
        let mut start = 0;
        let mut at = 0;
        loop {
            let next = loop {
                if let Some(chunk) = bytes.get(at..at + 8) {
                    let mask =
                        escape_mask(u64::from_le_bytes(chunk.try_into().expect("eight bytes")));
                    if mask == 0 {
                        at += 8;
                        continue;
                    }
                    break Some(at + (mask.trailing_zeros() / 8) as usize);
                }
                break bytes[at..]
                    .iter()
                    .position(|&b| needs_escape_byte(b))
                    .map(|i| at + i);
            };
            let Some(i) = next else { break };
            self.out.extend_from_slice(&bytes[start..i]);
            let b = bytes[i];
            match b {
                b'"' => self.out.extend_from_slice(b"\\\""),
                b'\\' => self.out.extend_from_slice(b"\\\\"),
                0x08 => self.out.extend_from_slice(b"\\b"),
                0x09 => self.out.extend_from_slice(b"\\t"),
                0x0A => self.out.extend_from_slice(b"\\n"),
                0x0C => self.out.extend_from_slice(b"\\f"),
                0x0D => self.out.extend_from_slice(b"\\r"),
                _ => {
                    const HEX: &[u8; 16] = b"0123456789abcdef";
                    self.out.extend_from_slice(b"\\u00");
                    self.out.push(HEX[usize::from(b >> 4)]);
                    self.out.push(HEX[usize::from(b & 0xF)]);
                }
            }
            at = i + 1;
            start = at;
        }
        self.out.extend_from_slice(&bytes[start..]);
        self.out.push(b'"');
    }
}

fn needs_escape_byte(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\'
}

/// The bytes of `word` (little-endian) that are `"`, `\\` or below 0x20: the classic "has a
/// zero byte" and "has a byte less than n" word tricks. The mask can also mark bytes above a
/// marked one (a borrow carries upward), never below, so its lowest marked byte is the first
/// byte to escape and a zero mask means there is none.
fn escape_mask(word: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let zero_in = |x: u64| x.wrapping_sub(ONES) & !x & HIGHS;
    let below_space = word.wrapping_sub(ONES * 0x20) & !word & HIGHS;
    zero_in(word ^ (ONES * u64::from(b'"')))
        | zero_in(word ^ (ONES * u64::from(b'\\')))
        | below_space
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every byte below 0x80 and a few beyond, at every offset modulo 8, so that each lands in
    /// each lane of the eight-byte check.
    fn awkward_strings() -> Vec<String> {
        let mut out = vec![
            String::new(),
            "plain text that needs no escaping at all".to_string(),
            "quote \" backslash \\ newline \n tab \t cr \r bs \u{8} ff \u{c} nul \0 del \u{7f}"
                .to_string(),
            "é ü 中文 😀 \u{2028} \u{2029} `$push` {a: [1, 2]}".to_string(),
        ];
        for pad in 0..8 {
            let all: String = (0u8..0x80).map(char::from).collect();
            out.push(format!("{}{all}{}", "x".repeat(pad), "y".repeat(pad)));
        }
        out
    }

    #[test]
    fn writes_what_serde_json_writes() {
        let strings = awkward_strings();
        let at = |line, column| Some(Position { line, column });
        let findings: Vec<Finding> = strings
            .iter()
            .enumerate()
            .map(|(i, s)| Finding {
                rule: s,
                severity: [Severity::Info, Severity::Warning, Severity::Error][i % 3],
                path: s,
                start: if i % 4 == 0 { None } else { at(i, i * 7) },
                end: at(i + 1, 0),
                message: s,
                help: s,
                related: (0..i % 3)
                    .map(|j| Related {
                        path: s,
                        start: at(j, 1),
                        end: if j == 1 { None } else { at(j, 2) },
                        message: s,
                    })
                    .collect(),
                fingerprint: s.clone(),
            })
            .collect();
        for (findings, errors) in [
            (Vec::new(), Vec::new()),
            (
                findings,
                strings
                    .iter()
                    .map(|s| FileError {
                        path: s,
                        message: s,
                    })
                    .collect(),
            ),
        ] {
            let report = Report {
                version: SCHEMA_VERSION,
                tool: Tool {
                    name: "mongolint",
                    version: VERSION,
                },
                summary: Summary {
                    files_scanned: usize::MAX,
                    files_parsed: 0,
                    findings: findings.len(),
                    by_severity: BySeverity {
                        error: 10,
                        warning: 1_234_567,
                        info: 0,
                    },
                    file_errors: errors.len(),
                },
                findings,
                errors,
            };
            let mut ours = Vec::new();
            write_report(&report, &mut ours);
            let theirs = serde_json::to_vec_pretty(&report).unwrap();
            assert_eq!(
                String::from_utf8(ours).unwrap(),
                String::from_utf8(theirs).unwrap()
            );
        }
    }

    #[test]
    fn the_report_written_in_runs_is_the_report_rendered_at_once() {
        // 36 files of 24 findings: several runs of whole files, finished out of order.
        let dir = tempfile::tempdir().unwrap();
        for f in 0..36 {
            let calls: String = (0..24)
                .map(|i| format!("  await db.collection('c{f}').find({{}}).skip(page * {i});\n"))
                .collect();
            let text = format!("async function list{f}(db, page) {{\n{calls}}}\n");
            std::fs::write(dir.path().join(format!("m{f:02}.js")), text).unwrap();
        }
        let a = crate::analysis::run(&crate::analysis::Options {
            paths: vec![dir.path().to_path_buf()],
            threads: 1,
            ..Default::default()
        });
        assert_eq!(a.findings.len(), 36 * 24);
        assert!(file_runs(&a.findings, RUN_FINDINGS).len() >= 3);
        let (head, tail) = head_and_tail(&a);
        let whole = [
            head,
            render_run(&a, &Locator::new(&a), 0..a.findings.len()),
            tail,
        ]
        .concat();
        for threads in [1, 2, 4] {
            let mut out = Vec::new();
            write(&a, threads, &mut out).unwrap();
            assert!(out == whole, "{threads} threads");
        }
        let parsed: serde_json::Value = serde_json::from_slice(&whole).unwrap();
        assert_eq!(parsed["findings"].as_array().unwrap().len(), 36 * 24);
    }

    #[test]
    fn the_word_check_finds_the_first_byte_to_escape() {
        for s in awkward_strings() {
            for chunk in s.as_bytes().windows(8) {
                let word = u64::from_le_bytes(chunk.try_into().unwrap());
                let expected = chunk.iter().position(|&b| needs_escape_byte(b));
                let mask = escape_mask(word);
                let found = (mask != 0).then(|| (mask.trailing_zeros() / 8) as usize);
                assert_eq!(found, expected, "{chunk:?}");
            }
        }
    }
}
