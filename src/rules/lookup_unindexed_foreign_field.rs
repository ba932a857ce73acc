use super::{collection_label, Rule, RuleContext, RuleMeta};
use crate::diagnostic::{Finding, Related, Severity};
use crate::ir::Operation;
use crate::model::{CollectionAccess, Join, KeyKind};

pub struct LookupUnindexedForeignField;

static META: RuleMeta = RuleMeta {
    id: "lookup-unindexed-foreign-field",
    name: "LookupUnindexedForeignField",
    summary: "A $lookup whose foreignField no declared index of the joined collection starts with",
    default_severity: Severity::Warning,
    precision: "high",
    tags: &["mongodb", "indexes", "performance", "joins", "cross-file"],
    doc: include_str!("../../rules/lookup-unindexed-foreign-field.md"),
};

fn lookup_unindexed_diagnostic(
    file: usize,
    op: &Operation,
    join: &Join,
    foreign: &str,
    from: &CollectionAccess,
) -> Finding {
    let mut related: Vec<Related> = from
        .indexes
        .iter()
        .filter(|i| !i.dynamic)
        .take(5)
        .map(|i| Related {
            file: i.site.file,
            span: i.site.span,
            message: match special_on(i, foreign) {
                Some(kind) => format!(
                    "index {} on `{}` is a {kind} index, which serves no equality match on `{foreign}`",
                    i.keys_text(),
                    from.name
                ),
                None => format!(
                    "index {} on `{}` does not start with `{foreign}`",
                    i.keys_text(),
                    from.name
                ),
            },
        })
        .collect();
    if related.is_empty() {
        related.push(Related {
            file,
            span: join.stage_span,
            message: format!("no index on `{}` covers `{foreign}`", from.name),
        });
    }
    Finding {
        rule: META.id,
        severity: META.default_severity,
        file,
        span: join.foreign_span,
        message: format!(
            "`{}` on {} joins `{}` by `{foreign}`, but {}: every input document scans `{}`",
            join.stage,
            collection_label(op),
            from.name,
            match from.indexes.len() {
                1 => match special_on(&from.indexes[0], foreign) {
                    Some(kind) => format!(
                        "the only index declaration of `{}` in this repository that starts with `{foreign}` is a {kind} index, which serves no equality match",
                        from.name
                    ),
                    None => format!(
                        "the only index declaration of `{}` in this repository does not start with `{foreign}`",
                        from.name
                    ),
                },
                n => format!(
                    "none of the {n} index declarations of `{}` in this repository starts with `{foreign}`",
                    from.name
                ),
            },
            from.name,
        ),
        help: format!(
            "create an index on `{}` whose first key is `{foreign}` (e.g. `{{ {foreign}: 1 }}`), or join on `_id`",
            from.name
        ),
        related,
    }
}

/// The kind of `index` when it starts with `field` but is no B-tree on it (`{name: "text"}`,
/// `{loc: "2dsphere"}`): it then starts with the field and still cannot serve the join.
fn special_on(index: &crate::model::IndexDecl, field: &str) -> Option<&'static str> {
    index
        .keys
        .first()
        .filter(|k| k.field == field && k.kind.is_special())
        .map(|k| k.kind.as_str())
}

impl Rule for LookupUnindexedForeignField {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &RuleContext, out: &mut Vec<Finding>) {
        let model = ctx.model;
        let all = model
            .collections
            .values()
            .flat_map(|c| c.operations.iter())
            .chain(model.unresolved.iter())
            .chain(model.families.values().flat_map(|f| f.operations.iter()));
        for s in all {
            for join in &s.joins {
                if join.stage == "$unionWith" {
                    continue;
                }
                let (Some(from), Some(foreign)) = (&join.from, &join.foreign_field) else {
                    continue;
                };
                if foreign == "_id" || foreign.starts_with("_id.") {
                    continue;
                }
                // Only where the repository declares the joined collection's indexes.
                let Some(target) = model.collections.get(from) else {
                    continue;
                };
                let Some(possible) = model.possible_indexes(target) else {
                    continue;
                };
                let covered = target.indexes.iter().chain(possible).any(|i| {
                    !i.options.hidden
                        && i.keys.first().is_some_and(|k| {
                            (k.field == *foreign
                                && matches!(k.kind, KeyKind::Asc | KeyKind::Desc | KeyKind::Hashed))
                                || (k.kind == KeyKind::Wildcard)
                        })
                });
                if covered {
                    continue;
                }
                let op = &ctx.files[s.id.file].ir.operations[s.id.index];
                out.push(lookup_unindexed_diagnostic(
                    s.id.file, op, join, foreign, target,
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::Settings;

    fn findings(src: &str) -> Vec<(usize, String)> {
        let (_, f) = crate::analysis::check_source("report.js", src, &Settings::default()).unwrap();
        f.into_iter()
            .filter(|f| f.rule == "lookup-unindexed-foreign-field")
            .map(|f| (src[..f.span.start as usize].lines().count(), f.message))
            .collect()
    }

    #[test]
    fn flags_a_foreign_field_without_a_leading_index() {
        let got = findings(
            r#"const { MongoClient } = require("mongodb");
const db = client.db("shop");
await db.collection("shipments").createIndex({ carrier: 1, orderId: 1 });
await db.collection("orders").aggregate([
  { $lookup: { from: "shipments", localField: "_id",
      foreignField: "orderId", as: "shipments" } },
]);
"#,
        );
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0].0, 6);
        assert!(got[0].1.contains("`shipments` by `orderId`"));
    }

    #[test]
    fn a_text_index_on_the_foreign_field_is_said_to_serve_no_equality() {
        // acceleratedscience/bridge: `groups` has only `{name: "text"}`, and users join it by name.
        let src = r#"const { MongoClient } = require("mongodb");
const db = client.db("bridge");
await db.collection("groups").createIndex({ name: "text" });
await db.collection("users").aggregate([
  { $lookup: { from: "groups", localField: "groups", foreignField: "name", as: "g" } },
]);
"#;
        let (_, f) = crate::analysis::check_source("report.js", src, &Settings::default()).unwrap();
        let f: Vec<_> = f
            .into_iter()
            .filter(|f| f.rule == "lookup-unindexed-foreign-field")
            .collect();
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(
            f[0].message.contains("the only index declaration of `groups` in this repository that starts with `name` is a text index, which serves no equality match"),
            "{}", f[0].message
        );
        assert_eq!(
            f[0].related[0].message,
            "index {name: \"text\"} on `groups` is a text index, which serves no equality match on `name`"
        );
    }

    #[test]
    fn id_joins_indexed_joins_and_undeclared_collections_stay_quiet() {
        let got = findings(
            r#"const { MongoClient } = require("mongodb");
const db = client.db("shop");
await db.collection("shipments").createIndex({ orderId: 1, at: -1 });
await db.collection("orders").aggregate([
  { $lookup: { from: "shipments", localField: "_id", foreignField: "orderId", as: "s" } },
  { $lookup: { from: "shipments", localField: "shipmentId", foreignField: "_id", as: "t" } },
  { $lookup: { from: "customers", localField: "customerId", foreignField: "email", as: "c" } },
]);
"#,
        );
        assert!(got.is_empty(), "{got:?}");
    }
}
