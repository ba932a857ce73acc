use super::{collection_label, operations, Rule, RuleContext, RuleMeta};
use crate::diagnostic::{Finding, Severity};
use crate::ir::{Field, OpKind, Operation, Value, ValueKind};

pub struct CounterInc;

static META: RuleMeta = RuleMeta {
    id: "counter-inc",
    name: "CounterInc",
    summary: "Per-event counter: $inc by a small literal on one hot document",
    default_severity: Severity::Info,
    precision: "medium",
    tags: &["mongodb", "schema-design", "write-contention"],
    doc: include_str!("../../rules/counter-inc.md"),
};

/// The largest increment still treated as "per event" rather than a batch total.
const SMALL_STEP: f64 = 10.0;

fn counter_inc_diagnostic(
    file: usize,
    op: &Operation,
    operator: &Field,
    counters: &[(&str, f64)],
    key: &str,
) -> Finding {
    let list = counters
        .iter()
        .map(|(f, n)| format!("`{f}` by {n}"))
        .collect::<Vec<_>>()
        .join(", ");
    Finding {
        rule: META.id,
        severity: META.default_severity,
        file,
        span: operator.key_span,
        message: format!(
            "per-event counter on {}: `$inc` of {list} on the one document matched by `{key}`; every event rewrites the same hot document (write contention, oplog churn)",
            collection_label(op)
        ),
        help: "use the approximation pattern (increment by N with probability 1/N), a bucketed or sharded counter (several documents, summed on read), or compute the count periodically from the events".to_string(),
        related: Vec::new(),
    }
}

/// A filter on a time bucket (`{host_id, period, timestamp: bucket}`) selects a bucketed counter:
/// one document per period, which is the pattern the help recommends, not one hot document.
fn time_bucketed(filter: &Value) -> bool {
    filter.fields().iter().any(|f| {
        crate::lang::naming::for_each_word(&f.key, |w| {
            matches!(
                w,
                "bucket"
                    | "period"
                    | "timestamp"
                    | "hour"
                    | "minute"
                    | "day"
                    | "date"
                    | "week"
                    | "month"
            )
        })
    })
}

/// The equality key that selects one document: `_id` first, else any field compared by equality.
fn equality_key(filter: &Value) -> Option<&str> {
    let eq: Vec<&str> = filter
        .fields()
        .iter()
        .filter(|f| !f.key.starts_with('$') && f.key != "...")
        .filter(|f| match &f.value.kind {
            ValueKind::Document(inner) => inner.iter().all(|x| x.key == "$eq"),
            _ => true,
        })
        .map(|f| f.key.as_str())
        .collect();
    eq.iter()
        .copied()
        .find(|k| *k == "_id")
        .or_else(|| eq.first().copied())
}

/// `$inc: {version: 1}` versions a document that the same update rewrites anyway (optimistic
/// locking, revision numbers): not a counter.
fn is_version_field(key: &str) -> bool {
    let last = key
        .rsplit('.')
        .next()
        .unwrap_or(key)
        .trim_start_matches('_');
    matches!(
        last.to_ascii_lowercase().as_str(),
        "v" | "version" | "rev" | "revision" | "lockversion" | "generation" | "etag" | "seqno"
    )
}

impl Rule for CounterInc {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &RuleContext, out: &mut Vec<Finding>) {
        for (file, op) in operations(ctx) {
            if !matches!(op.kind, OpKind::UpdateOne | OpKind::FindOneAndUpdate)
                || op.context.periodic
            {
                continue;
            }
            let (Some(update), Some(filter)) = (&op.update, &op.filter) else {
                continue;
            };
            // A bucket's own count, incremented together with the `$push` into the bucket.
            if update.get("$push").is_some() || update.get("$addToSet").is_some() {
                continue;
            }
            let Some(key) = equality_key(filter) else {
                continue;
            };
            if time_bucketed(filter) {
                continue;
            }
            for operator in update.fields().iter().filter(|f| f.key == "$inc") {
                let counters: Vec<(&str, f64)> = operator
                    .value
                    .fields()
                    .iter()
                    .filter(|f| !is_version_field(&f.key))
                    .filter_map(|f| match f.value.kind {
                        ValueKind::Number(n) if n != 0.0 && n.abs() <= SMALL_STEP => {
                            Some((f.key.as_str(), n))
                        }
                        _ => None,
                    })
                    .collect();
                if !counters.is_empty() {
                    out.push(counter_inc_diagnostic(file, op, operator, &counters, key));
                }
            }
        }
    }
}
