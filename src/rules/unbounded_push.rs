use super::{collection_label, operations, Rule, RuleContext, RuleMeta};
use crate::diagnostic::{Finding, Severity};
use crate::ir::{Field, Operation, Value, ValueKind};

pub struct UnboundedPush;

static META: RuleMeta = RuleMeta {
    id: "unbounded-push",
    name: "UnboundedPush",
    summary: "Array grows without bound: $push/$addToSet without $slice",
    default_severity: Severity::Warning,
    precision: "high",
    tags: &[
        "mongodb",
        "schema-design",
        "performance",
        "unbounded-arrays",
    ],
    doc: include_str!("../../rules/unbounded-push.md"),
};

fn unbounded_push_diagnostic(
    file: usize,
    op: &Operation,
    operator: &Field,
    fields: &[&str],
) -> Finding {
    let coll = collection_label(op);
    let list = fields
        .iter()
        .map(|f| format!("`{f}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let (severity, message) = if operator.key == "$addToSet" {
        (
            Severity::Info,
            format!(
                "`$addToSet` grows array {list} in {coll} with no bound other than the number of distinct values; documents keep growing toward the 16 MB limit"
            ),
        )
    } else {
        (
            Severity::Warning,
            format!(
                "`$push` appends to array {list} in {coll} with no bound: every update rewrites a larger document, which grows toward the 16 MB limit"
            ),
        )
    };
    Finding {
        rule: META.id,
        severity,
        file,
        span: operator.key_span,
        message,
        help: "cap the array with `$each` + `$slice` (e.g. `{$push: {field: {$each: [x], $slice: -100}}}`), move the items to their own collection that references this document, or use the bucket pattern".to_string(),
        related: Vec::new(),
    }
}

/// `{$push: {arr: {$each: [...], $slice: n}}}` keeps the array bounded.
fn is_sliced(v: &Value) -> bool {
    v.get("$each").is_some() && v.get("$slice").is_some()
}

/// Does the filter bound the array (bucket pattern or an explicit size check)?
fn filter_bounds(filter: Option<&Value>, update: &Value, array: &str) -> bool {
    let Some(filter) = filter else { return false };
    let incremented: Vec<&str> = update
        .get("$inc")
        .map(|f| f.value.fields().iter().map(|x| x.key.as_str()).collect())
        .unwrap_or_default();
    for f in filter.fields() {
        // `{arr: {$size: k}}`
        if f.key == array && f.value.get("$size").is_some() {
            return true;
        }
        // `{"arr.49": {$exists: false}}`
        if let Some(rest) = f.key.strip_prefix(array).and_then(|r| r.strip_prefix('.')) {
            if rest.chars().all(|c| c.is_ascii_digit()) && f.value.get("$exists").is_some() {
                return true;
            }
        }
        // `{$expr: {$lt: [{$size: "$arr"}, N]}}` (any comparison involving `$size`)
        if f.key == "$expr" && mentions_size(&f.value, 0) {
            return true;
        }
        // Bucket: `{count: {$lt: N}}` with `$inc: {count: 1}`
        if (f.value.get("$lt").is_some() || f.value.get("$lte").is_some())
            && incremented.contains(&f.key.as_str())
        {
            return true;
        }
        if f.key == "$and" {
            for clause in f.value.items() {
                if filter_bounds(Some(clause), update, array) {
                    return true;
                }
            }
        }
    }
    false
}

fn mentions_size(v: &Value, depth: usize) -> bool {
    if depth > 16 {
        return false;
    }
    match &v.kind {
        ValueKind::Document(fs) => fs
            .iter()
            .any(|f| f.key == "$size" || mentions_size(&f.value, depth + 1)),
        ValueKind::Array(xs) => xs.iter().any(|x| mentions_size(x, depth + 1)),
        _ => false,
    }
}

impl Rule for UnboundedPush {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &RuleContext, out: &mut Vec<Finding>) {
        for (file, op) in operations(ctx) {
            if !op.kind.is_update() {
                continue;
            }
            let Some(update) = op.update.as_ref() else {
                continue;
            };
            for operator in update.fields() {
                if operator.key != "$push" && operator.key != "$addToSet" {
                    continue;
                }
                let unbounded: Vec<&str> = operator
                    .value
                    .fields()
                    .iter()
                    // `...`: keys spread or filled in at run time, not an array name.
                    .filter(|f| f.key != "...")
                    .filter(|f| !(operator.key == "$push" && is_sliced(&f.value)))
                    .filter(|f| !filter_bounds(op.filter.as_ref(), update, &f.key))
                    .map(|f| f.key.as_str())
                    .collect();
                if !unbounded.is_empty() {
                    out.push(unbounded_push_diagnostic(file, op, operator, &unbounded));
                }
            }
        }
    }
}
