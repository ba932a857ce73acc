//! The report is byte-identical whatever the thread count and from one run to the next, for every
//! output format, on the realistic code in corpus/.

use std::path::Path;
use std::process::Command;

const FORMATS: &[&str] = &["text", "json", "sarif", "concise"];

/// Runs `mongolint check corpus --format <format> --threads <threads>` from the repository root.
fn report(format: &str, threads: usize) -> (i32, Vec<u8>) {
    let o = Command::new(env!("CARGO_BIN_EXE_mongolint"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .args(["check", "corpus", "--format", format, "--threads"])
        .arg(threads.to_string())
        .output()
        .expect("the mongolint binary runs");
    assert!(
        o.stderr.is_empty(),
        "{format} --threads {threads}: stderr: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    (o.status.code().expect("exited normally"), o.stdout)
}

#[test]
fn output_is_byte_identical_across_thread_counts_and_runs() {
    assert!(Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpus")
        .is_dir());
    for format in FORMATS {
        let (code, reference) = report(format, 1);
        assert_eq!(code, 1, "{format}: the corpus has findings");
        assert!(
            reference.len() > 100,
            "{format}: the report is not empty: {:?}",
            String::from_utf8_lossy(&reference)
        );
        for threads in [1, 4] {
            for run in 0..2 {
                let (c, out) = report(format, threads);
                assert_eq!(
                    c, code,
                    "{format} --threads {threads} run {run}: exit status"
                );
                assert!(
                    out == reference,
                    "{format} --threads {threads} run {run} differs from --threads 1:\n--- threads 1\n{}\n--- threads {threads}\n{}",
                    String::from_utf8_lossy(&reference),
                    String::from_utf8_lossy(&out)
                );
            }
        }
    }
}

#[test]
fn corpus_report_has_findings_of_every_rule() {
    // Guards the test above against comparing trivial reports.
    let (_, out) = report("concise", 4);
    let out = String::from_utf8(out).unwrap();
    for rule in mongolint::rules::all() {
        let id = rule.meta().id;
        assert!(
            out.contains(&format!("[{id}]")),
            "no `{id}` finding in the corpus report:\n{out}"
        );
    }
}
