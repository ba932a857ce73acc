use std::collections::HashMap;

use super::{collection_label, operations, value_text, Rule, RuleContext, RuleMeta};
use crate::diagnostic::{Finding, Related, Severity};
use crate::ir::{OpKind, Operation, Span, Value, ValueKind};

pub struct SkipPaging;

static META: RuleMeta = RuleMeta {
    id: "skip-paging",
    name: "SkipPaging",
    summary: "Offset paging with a computed skip: page N costs O(N)",
    default_severity: Severity::Warning,
    precision: "high",
    tags: &["mongodb", "performance", "pagination"],
    doc: include_str!("../../rules/skip-paging.md"),
};

/// A skip, or a page number a paginating library turns into one (the `page` modifier:
/// mongoose-paginate's `{ page }`, flask-mongoengine's `qs.paginate(page, per_page)` and
/// `Pagination(qs, page, per_page)`).
fn skip_paging_diagnostic(
    file: usize,
    op: &Operation,
    span: Span,
    amount: &Value,
    by_page: bool,
) -> Finding {
    let amount = if by_page {
        format!(
            "page `{}`, turned into a skip of (page - 1) × the page size",
            value_text(amount)
        )
    } else {
        format!("`{}`", value_text(amount))
    };
    Finding {
        rule: META.id,
        severity: META.default_severity,
        file,
        span,
        message: format!(
            "offset paging on {}: skips a variable number of documents ({amount}), and the server still reads and discards every skipped one, so deep pages cost O(offset)",
            collection_label(op),
        ),
        help: "page by range instead (keyset paging): remember the last sort key and query `{_id: {$gt: lastId}}` with the same `sort` and a `limit`, on an indexed sort key".to_string(),
        related: Vec::new(),
    }
}

/// A literal number, a name spelled like a constant (`PAGE_OFFSET`), or a configuration value
/// (`settings.vpn.log_lines`, `config.SKIP`) is not computed paging.
fn is_constant(v: &Value) -> bool {
    match &v.kind {
        ValueKind::Number(_) | ValueKind::Null | ValueKind::String(_) | ValueKind::Bool(_) => true,
        ValueKind::Unknown(u)
            if u.is_name
                && matches!(
                    u.text.split('.').next().unwrap_or(""),
                    "settings" | "config" | "conf" | "cfg" | "CONFIG" | "SETTINGS"
                )
                && u.text.contains('.') =>
        {
            true
        }
        ValueKind::Unknown(u) => {
            u.is_name
                && !u.text.contains('.')
                && u.text
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
                && u.text.chars().any(|c| c.is_ascii_uppercase())
        }
        _ => false,
    }
}

fn skip_stages<'a>(
    stages: &'a [Value],
    out: &mut Vec<(Span, &'a Value)>,
    grouped: bool,
    depth: usize,
) {
    if depth > 8 {
        return;
    }
    // A `$skip` after a `$limit` skips among the documents the limit kept: it reads no more
    // than the limit, whatever it skips (Reaction's look-behind page, `$limit: n + 1` then
    // `$skip: skip - 1`).
    let mut limited = false;
    // A `$skip` after a `$group` (or `$bucket`, `$bucketAuto`, `$sortByCount`) skips among the
    // groups: the stage has read every document it is given before the first group comes out,
    // whatever the page, so the skip is no scan of its own (GROWI's tag counts, `$group`,
    // `$sort`, `$skip`). Computing the groups on every request is the cost there.
    let mut grouped = grouped;
    for stage in stages {
        for f in stage.fields() {
            match f.key.as_str() {
                "$limit" => limited = true,
                "$group" | "$bucket" | "$bucketAuto" | "$sortByCount" => grouped = true,
                "$skip" if !limited && !grouped => out.push((f.key_span, &f.value)),
                "$facet" => {
                    for sub in f.value.fields() {
                        skip_stages(sub.value.items(), out, grouped || limited, depth + 1);
                    }
                }
                "$lookup" | "$unionWith" => {
                    if let Some(p) = f.value.get("pipeline") {
                        skip_stages(p.value.items(), out, false, depth + 1);
                    }
                }
                _ => {}
            }
        }
    }
}

impl Rule for SkipPaging {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &RuleContext, out: &mut Vec<Finding>) {
        // One finding per paging: the same skip on the same collection, written again in one
        // function (one branch per sort order or driver version), is reported at its first
        // occurrence with the others as related locations.
        let mut first: HashMap<(usize, String, String, String), usize> = HashMap::new();
        let mut report =
            |file: usize, op: &'_ Operation, span: Span, amount: &Value, page: bool| {
                let Some(function) = op.context.function.as_deref() else {
                    out.push(skip_paging_diagnostic(file, op, span, amount, page));
                    return;
                };
                let key = (
                    file,
                    function.to_string(),
                    collection_label(op),
                    value_text(amount),
                );
                match first.get(&key) {
                    Some(&i) => out[i].related.push(Related {
                        file,
                        span,
                        message: "the same paging, written again in this function".to_string(),
                    }),
                    None => {
                        first.insert(key, out.len());
                        out.push(skip_paging_diagnostic(file, op, span, amount, page));
                    }
                }
            };
        for (file, op) in operations(ctx) {
            // A count given a skip (`count_documents(q, skip=n)`, pymongo's old
            // `cursor.count(with_limit_and_skip=True)` rebuilt on it: girder) counts what a page
            // would hold; the paging is the read that skips.
            if op.kind == OpKind::Count {
                continue;
            }
            for m in &op.modifiers {
                if m.name != "skip" && m.name != "page" {
                    continue;
                }
                if let Some(amount) = m.args.first() {
                    if !is_constant(amount) {
                        report(file, op, m.span, amount, m.name == "page");
                    }
                }
            }
            if let Some(stages) = &op.pipeline {
                let mut skips = Vec::new();
                skip_stages(stages, &mut skips, false, 0);
                for (span, amount) in skips {
                    if !is_constant(amount) {
                        report(file, op, span, amount, false);
                    }
                }
            }
        }
    }
}
