use super::{collection_label, operations, Rule, RuleContext, RuleMeta};
use crate::diagnostic::{Finding, Related, Severity};
use crate::ir::{Operation, Span, Value, ValueKind};

pub struct LookupChain;

static META: RuleMeta = RuleMeta {
    id: "lookup-chain",
    name: "LookupChain",
    summary: "Aggregation joins through several $lookup stages (or several populate calls)",
    default_severity: Severity::Warning,
    precision: "high",
    tags: &["mongodb", "schema-design", "performance", "joins"],
    doc: include_str!("../../rules/lookup-chain.md"),
};

/// One join: where it is written and what it joins, as the message shows it (`` `users` ``,
/// ``named by `usersCollection` ``).
struct Join {
    span: Span,
    target: String,
}

fn lookup_chain_diagnostic(
    file: usize,
    op: &Operation,
    joins: &[Join],
    max: usize,
    populate: bool,
) -> Finding {
    let targets = joins
        .iter()
        .map(|j| j.target.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    let primary = &joins[max];
    let related = joins
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != max)
        .map(|(i, j)| Related {
            file,
            span: j.span,
            message: format!("join {} of {}: {}", i + 1, joins.len(), j.target),
        })
        .collect();
    let coll = collection_label(op);
    let message = if populate {
        format!(
            "query on {coll} populates {} paths ({targets}): each `populate` is another round trip, an application-side join",
            joins.len()
        )
    } else {
        format!(
            "pipeline on {coll} chains {} `$lookup` joins ({targets})",
            joins.len()
        )
    };
    Finding {
        rule: META.id,
        severity: META.default_severity,
        file,
        span: primary.span,
        message,
        // (`populate` queries each referenced collection by `_id`, always indexed.)
        help: if populate {
            "embed the data that is read together, or copy the few fields you display into this document (extended reference pattern), so that one query returns them".to_string()
        } else {
            "embed the data that is read together, or copy the few fields you display into this document (extended reference pattern); make sure every `foreignField` is indexed".to_string()
        },
        related,
    }
}

fn collect_lookups(stages: &[Value], out: &mut Vec<Join>, depth: usize) {
    if depth > 8 {
        return;
    }
    for stage in stages {
        for f in stage.fields() {
            match f.key.as_str() {
                "$lookup" | "$graphLookup" => {
                    let target = match f.value.get("from").map(|x| &x.value.kind) {
                        Some(ValueKind::String(s)) => format!("`{s}`"),
                        Some(ValueKind::Unknown(u)) => from_expression(&u.text),
                        _ => "`?`".to_string(),
                    };
                    out.push(Join {
                        span: f.key_span,
                        target,
                    });
                    if let Some(p) = f.value.get("pipeline") {
                        collect_lookups(p.value.items(), out, depth + 1);
                    }
                }
                "$facet" => {
                    for sub in f.value.fields() {
                        collect_lookups(sub.value.items(), out, depth + 1);
                    }
                }
                "$unionWith" => {
                    if let Some(p) = f.value.get("pipeline") {
                        collect_lookups(p.value.items(), out, depth + 1);
                    }
                }
                _ => {}
            }
        }
    }
}

/// How a join's `from` written as an expression is shown: a Mongoose model's collection name
/// (`models.Reply.collection.name`) as the model's collection, a variable or a member
/// (`from: actionsCollection`) by its name, anything else as `?`.
fn from_expression(text: &str) -> String {
    let model = text
        .strip_suffix(".collection.name")
        .or_else(|| text.strip_suffix(".collection.collectionName"));
    if let Some(model) = model {
        let model = crate::lang::naming::last_part(model, b'.');
        return format!("the collection of model `{model}`");
    }
    let simple = !text.is_empty()
        && text.len() <= 40
        && text
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '$' | '.'));
    if simple {
        format!("named by `{text}`")
    } else {
        "`?`".to_string()
    }
}

/// Whether a populated path (its target, `` `room` ``, `` `room.owner` ``) is, or is under, a field
/// that the operation's filter sets equal to one value (`{ room: options.room }`, `{ room: { $eq:
/// id } }`; not `$in`, nor an array written out).
fn fixed_by_filter(op: &Operation, target: &str) -> bool {
    let path = target.trim_matches('`');
    let Some(filter) = &op.filter else {
        return false;
    };
    filter.fields().iter().any(|f| {
        let under = path
            .strip_prefix(f.key.as_str())
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'));
        under
            && match &f.value.kind {
                ValueKind::Array(_) => false,
                ValueKind::Document(fields) => {
                    matches!(fields.as_slice(), [only] if only.key == "$eq")
                        || fields.iter().all(|x| !x.key.starts_with('$'))
                }
                _ => true,
            }
    })
}

/// Populate paths in one `populate(..)` argument: `"a b"`, `["a", "b"]`, `{path, populate: {...}}`;
/// nothing for an argument the frontend could not evaluate. A nested populate's paths are named
/// under their parent's (`target.attachment`, `activities.user`).
fn collect_populates(arg: &Value, out: &mut Vec<Join>, depth: usize, under: &str) {
    if depth > 8 {
        return;
    }
    let full = |p: &str| {
        if under.is_empty() {
            p.to_string()
        } else {
            format!("{under}.{p}")
        }
    };
    let target = |p: &str| format!("`{}`", full(p));
    match &arg.kind {
        ValueKind::String(s) => {
            // Each path of `'user members group'` at its own words, where the literal is its
            // text between two quotes (nothing escaped in it).
            let exact = arg.span.end as usize - arg.span.start as usize == s.len() + 2;
            for p in s.split_whitespace() {
                let span = if exact {
                    let at =
                        arg.span.start as usize + 1 + (p.as_ptr() as usize - s.as_ptr() as usize);
                    Span::new(at, at + p.len())
                } else {
                    arg.span
                };
                out.push(Join {
                    span,
                    target: target(p),
                });
            }
        }
        ValueKind::Array(items) => {
            for i in items {
                collect_populates(i, out, depth + 1, under);
            }
        }
        ValueKind::Document(_) => {
            let path = arg
                .get("path")
                .and_then(|p| p.value.as_str())
                .unwrap_or("?");
            for p in path.split_whitespace() {
                out.push(Join {
                    span: arg.span,
                    target: target(p),
                });
            }
            if let Some(nested) = arg.get("populate") {
                let before = out.len();
                collect_populates(&nested.value, out, depth + 1, &full(path.trim()));
                // A nested populate is reported at its `populate` key.
                if let Some(first) = out.get_mut(before) {
                    first.span = nested.key_span;
                }
            }
        }
        // A name the frontend could not resolve (a parameter: `populate(populate)` with
        // `populate = []` by default, `opts.populate`) may name no path at all: not counted, as
        // nothing here says it joins. A constant bound in the code is resolved to its value above.
        _ => {}
    }
}

impl Rule for LookupChain {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &RuleContext, out: &mut Vec<Finding>) {
        let max = ctx.settings.lookup_chain_max;
        for (file, op) in operations(ctx) {
            // Maintenance scripts (`scripts/`: a report or a fix run by hand), off the request
            // path: their joins cost nothing a schema change would save. (A migration's report
            // is still judged: it is part of the application's history of its schema.)
            if ctx.model.offline_files.contains(&file) {
                continue;
            }
            if let Some(stages) = &op.pipeline {
                let mut joins = Vec::new();
                collect_lookups(stages, &mut joins, 0);
                if joins.len() > max {
                    out.push(lookup_chain_diagnostic(file, op, &joins, max, false));
                }
            }
            let mut joins = Vec::new();
            for m in op.modifiers.iter().filter(|m| m.name == "populate") {
                let before = joins.len();
                // `populate(path, select)`: only the first argument names paths.
                if let Some(a) = m.args.first() {
                    collect_populates(a, &mut joins, 0, "");
                }
                // The first path of a `.populate(..)` call is reported at the method name.
                if let Some(first) = joins.get_mut(before) {
                    first.span =
                        Span::new(m.span.start as usize, m.span.start as usize + m.name.len());
                }
            }
            // A path the filter fixes to one value (`Message.find({ room }).populate('room')`)
            // joins the one document every result shares: one look-up, whatever the results,
            // and so do the paths populated under it.
            joins.retain(|j| !fixed_by_filter(op, &j.target));
            if joins.len() > max {
                out.push(lookup_chain_diagnostic(file, op, &joins, max, true));
            }
        }
    }
}
