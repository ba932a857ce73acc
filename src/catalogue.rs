//! The catalogue as users see it: `mongolint rules` and `mongolint explain RULE`, from the same
//! metadata as SARIF's `tool.driver.rules`.

use crate::rules::RuleMeta;
use serde::Serialize;

/// A rule of the catalogue, or one of the diagnostics about suppression comments.
pub fn find_meta(id: &str) -> Option<&'static RuleMeta> {
    crate::rules::find(id).map(|r| r.meta()).or_else(|| {
        crate::suppress::diagnostics()
            .into_iter()
            .find(|m| m.id == id)
    })
}

/// One rule in `mongolint rules --format json` (documented in docs/json-output.md).
#[derive(Serialize)]
struct RuleEntry {
    id: &'static str,
    name: &'static str,
    summary: &'static str,
    default_severity: &'static str,
    precision: &'static str,
    tags: &'static [&'static str],
    help_uri: String,
}

/// Prints the catalogue: a table, or a JSON array. Returns the exit status.
pub fn list_rules(json: bool) -> i32 {
    let metas = crate::rules::all().iter().map(|r| r.meta());
    if json {
        let entries: Vec<RuleEntry> = metas
            .map(|m| RuleEntry {
                id: m.id,
                name: m.name,
                summary: m.summary,
                default_severity: m.default_severity.as_str(),
                precision: m.precision,
                tags: m.tags,
                help_uri: crate::report::rule_help_uri(m.id),
            })
            .collect();
        match serde_json::to_string_pretty(&entries) {
            Ok(s) => println!("{s}"),
            Err(_) => return 2,
        }
    } else {
        for m in metas {
            println!(
                "{:<26} {:<8} {}",
                m.id,
                m.default_severity.as_str(),
                m.summary
            );
        }
    }
    0
}
