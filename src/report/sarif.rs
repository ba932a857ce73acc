//! SARIF 2.1.0, as GitHub code scanning ingests it: every rule of the catalogue with its
//! descriptions and help, relative percent-encoded URIs under `%SRCROOT%`, 1-based regions in
//! UTF-16 code units, and stable partial fingerprints.

use super::fingerprint::{fingerprints, FINGERPRINT_KEY};
use super::line_hash::line_hashes;
use super::locate::Locator;
use super::rule_doc::{full_description, markdown_to_text};
use super::uri::{absolute_file_uri, relative_uri};
use super::{rule_help_uri, HOMEPAGE, VERSION};
use crate::analysis::Analysis;
use crate::diagnostic::{FileId, Severity};
use crate::ir::Span;
use crate::rules::{self, RuleMeta};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::Write;

const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";
const SRCROOT: &str = "%SRCROOT%";
/// GitHub's own line fingerprint, computed as its upload action would (see `line_hash`).
const PRIMARY_LOCATION_LINE_HASH: &str = "primaryLocationLineHash";

#[derive(Serialize)]
struct Log<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: Vec<Run<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Run<'a> {
    tool: Tool,
    automation_details: AutomationDetails,
    original_uri_base_ids: BTreeMap<&'static str, UriBase>,
    column_kind: &'static str,
    invocations: Vec<Invocation<'a>>,
    results: Vec<SarifResult<'a>>,
}

#[derive(Serialize)]
struct Tool {
    driver: Driver,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver {
    name: &'static str,
    version: &'static str,
    semantic_version: &'static str,
    information_uri: &'static str,
    rules: Vec<ReportingDescriptor>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ReportingDescriptor {
    id: &'static str,
    name: &'static str,
    short_description: Message<'static>,
    full_description: Message<'static>,
    help: MultiformatMessage,
    help_uri: String,
    default_configuration: Configuration,
    properties: RuleProperties,
}

#[derive(Serialize)]
struct Message<'a> {
    text: std::borrow::Cow<'a, str>,
}

impl<'a> Message<'a> {
    fn new(text: impl Into<std::borrow::Cow<'a, str>>) -> Self {
        Message { text: text.into() }
    }
}

#[derive(Serialize)]
struct MultiformatMessage {
    text: String,
    markdown: &'static str,
}

#[derive(Serialize)]
struct Configuration {
    level: &'static str,
}

#[derive(Serialize)]
struct RuleProperties {
    tags: &'static [&'static str],
    precision: &'static str,
    #[serde(rename = "problem.severity")]
    problem_severity: &'static str,
}

#[derive(Serialize)]
struct AutomationDetails {
    id: &'static str,
}

#[derive(Serialize)]
struct UriBase {
    description: Message<'static>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Invocation<'a> {
    execution_successful: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tool_execution_notifications: Vec<Notification<'a>>,
}

#[derive(Serialize)]
struct Notification<'a> {
    level: &'static str,
    message: Message<'a>,
    locations: Vec<Location<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult<'a> {
    rule_id: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    rule_index: Option<usize>,
    level: &'static str,
    message: Message<'a>,
    locations: Vec<Location<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related_locations: Vec<Location<'a>>,
    partial_fingerprints: BTreeMap<&'static str, String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Location<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<usize>,
    physical_location: PhysicalLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<Message<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    region: Option<Region>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactLocation {
    uri: String,
    /// `None` for an absolute `file` URI (a path given absolute on the command line).
    #[serde(skip_serializing_if = "Option::is_none")]
    uri_base_id: Option<&'static str>,
}

/// A text region: lines and UTF-16 columns; or, when the file's text was not kept (so lines
/// cannot be counted), the byte range, which is still an exact SARIF region (§3.30.2).
#[derive(Serialize)]
#[serde(untagged)]
enum Region {
    #[serde(rename_all = "camelCase")]
    Text {
        start_line: usize,
        start_column: usize,
        end_line: usize,
        end_column: usize,
    },
    #[serde(rename_all = "camelCase")]
    Bytes { byte_offset: u32, byte_length: u32 },
}

fn problem_severity(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "recommendation",
    }
}

fn reporting_descriptor(meta: &'static RuleMeta) -> ReportingDescriptor {
    ReportingDescriptor {
        id: meta.id,
        name: meta.name,
        short_description: Message::new(meta.summary),
        full_description: Message::new(full_description(meta)),
        help: MultiformatMessage {
            text: markdown_to_text(meta.doc),
            markdown: meta.doc,
        },
        help_uri: rule_help_uri(meta.id),
        default_configuration: Configuration {
            level: meta.default_severity.sarif_level(),
        },
        properties: RuleProperties {
            tags: meta.tags,
            precision: meta.precision,
            problem_severity: problem_severity(meta.default_severity),
        },
    }
}

/// A display path under `%SRCROOT%`; one that is absolute (`mongolint check /srv/app`) as an
/// absolute `file` URI, since a relative reference must not begin with a slash (SARIF1004).
fn artifact_location(path: &str) -> ArtifactLocation {
    match absolute_file_uri(path) {
        Some(uri) => ArtifactLocation {
            uri,
            uri_base_id: None,
        },
        None => ArtifactLocation {
            uri: relative_uri(path),
            uri_base_id: Some(SRCROOT),
        },
    }
}

fn physical_location(locator: &Locator, file: FileId, span: Span) -> PhysicalLocation {
    PhysicalLocation {
        artifact_location: artifact_location(locator.path(file)),
        region: Some(match locator.range(file, span) {
            Some(r) => Region::Text {
                start_line: r.start.line,
                start_column: r.start.column,
                end_line: r.end.line,
                end_column: r.end.column,
            },
            None => Region::Bytes {
                byte_offset: span.start,
                byte_length: span.end.saturating_sub(span.start),
            },
        }),
    }
}

pub(super) fn render(analysis: &Analysis, out: &mut Vec<u8>) -> std::io::Result<()> {
    // The rules, then the diagnostics about suppression comments, so every result has its
    // reporting descriptor (and code scanning its help).
    let catalogue: Vec<&'static RuleMeta> = rules::all()
        .iter()
        .map(|r| r.meta())
        .chain(crate::suppress::diagnostics())
        .collect();
    let locator = Locator::new(analysis);
    let fingerprints = fingerprints(analysis, &locator);
    let mut line_hash_cache: BTreeMap<FileId, Vec<String>> = BTreeMap::new();
    let mut line_hash = |file: FileId, span: Span| -> Option<String> {
        let line = locator.range(file, span)?.start.line;
        let text = locator.text(file)?;
        let hashes = line_hash_cache
            .entry(file)
            .or_insert_with(|| line_hashes(text));
        hashes.get(line - 1).cloned()
    };

    let results = analysis
        .findings
        .iter()
        .zip(fingerprints)
        .map(|(finding, fingerprint)| SarifResult {
            rule_id: finding.rule,
            rule_index: catalogue.iter().position(|m| m.id == finding.rule),
            level: finding.severity.sarif_level(),
            message: Message::new(finding.message.as_str()),
            locations: vec![Location {
                id: None,
                physical_location: physical_location(&locator, finding.file, finding.span),
                message: None,
            }],
            related_locations: finding
                .related
                .iter()
                .enumerate()
                .map(|(i, related)| Location {
                    id: Some(i + 1),
                    physical_location: physical_location(&locator, related.file, related.span),
                    message: Some(Message::new(related.message.as_str())),
                })
                .collect(),
            partial_fingerprints: {
                let mut map = BTreeMap::from([(FINGERPRINT_KEY, fingerprint)]);
                if let Some(hash) = line_hash(finding.file, finding.span) {
                    map.insert(PRIMARY_LOCATION_LINE_HASH, hash);
                }
                map
            },
        })
        .collect();

    let notifications = analysis
        .errors
        .iter()
        .map(|error| Notification {
            level: "error",
            message: Message::new(format!(
                "Could not analyse {}: {}",
                error.display_path, error.message
            )),
            locations: vec![Location {
                id: None,
                physical_location: PhysicalLocation {
                    artifact_location: artifact_location(&error.display_path),
                    region: None,
                },
                message: None,
            }],
        })
        .collect();

    let log = Log {
        schema: SCHEMA,
        version: "2.1.0",
        runs: vec![Run {
            tool: Tool {
                driver: Driver {
                    name: "mongolint",
                    version: VERSION,
                    semantic_version: VERSION,
                    information_uri: HOMEPAGE,
                    rules: catalogue.iter().map(|m| reporting_descriptor(m)).collect(),
                },
            },
            automation_details: AutomationDetails { id: "mongolint/" },
            original_uri_base_ids: BTreeMap::from([(
                SRCROOT,
                UriBase {
                    description: Message::new("The repository root"),
                },
            )]),
            column_kind: "utf16CodeUnits",
            invocations: vec![Invocation {
                execution_successful: analysis.errors.is_empty(),
                tool_execution_notifications: notifications,
            }],
            results,
        }],
    };
    // Into the `Vec` itself, not through `dyn Write`: serde_json writes token by token.
    serde_json::to_writer_pretty(&mut *out, &log)?;
    writeln!(out)
}
