use super::{Rule, RuleContext, RuleMeta};
use crate::diagnostic::{Finding, Related, Severity};
use crate::ir::{CollectionName, CollectionRef, HoleKind, NamePart};

pub struct DynamicCollectionName;

static META: RuleMeta = RuleMeta {
    id: "dynamic-collection-name",
    name: "DynamicCollectionName",
    summary: "Collection name built from a date or an entity id: one collection per partition",
    default_severity: Severity::Warning,
    precision: "high",
    tags: &["mongodb", "schema-design", "too-many-collections"],
    doc: include_str!("../../rules/dynamic-collection-name.md"),
};

fn dynamic_collection_name_diagnostic(
    file: usize,
    r: &CollectionRef,
    kind: HoleKind,
    hole: &str,
    hole_span: crate::ir::Span,
) -> Finding {
    let (what, help) = match kind {
        HoleKind::Date => (
            "per-date",
            "keep one collection with a date field and an index on it (a TTL index for expiry), or use a time series collection; bucket small events by period inside one collection",
        ),
        _ => (
            "per-entity",
            "keep one collection with the entity id as a field (first key of the indexes you query by); enforce isolation in queries, not by collection name",
        ),
    };
    let mut related = Vec::new();
    if !r.span.contains(hole_span) {
        related.push(Related {
            file,
            span: hole_span,
            message: format!("`{hole}` comes from here"),
        });
    }
    Finding {
        rule: META.id,
        severity: META.default_severity,
        file,
        span: r.span,
        message: format!(
            "{what} collection name `{}`: the hole `{hole}` creates one collection per {}; thousands of collections each carry their own indexes and files",
            r.name.display(),
            if kind == HoleKind::Date { "date" } else { "entity" },
        ),
        help: help.to_string(),
        related,
    }
}

impl Rule for DynamicCollectionName {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &RuleContext, out: &mut Vec<Finding>) {
        for f in &ctx.files {
            for r in &f.ir.collections {
                let CollectionName::Template { parts } = &r.name else {
                    continue;
                };
                let mut holes = parts.iter().filter_map(|p| match p {
                    NamePart::Hole { text, hole, span } => Some((text, *hole, *span)),
                    _ => None,
                });
                // Date holes first: a per-day-per-tenant name is reported as per-date.
                let date = holes.clone().find(|h| h.1 == HoleKind::Date);
                let chosen = date.or_else(|| holes.find(|h| h.1 == HoleKind::Entity));
                if let Some((text, kind, span)) = chosen {
                    out.push(dynamic_collection_name_diagnostic(
                        f.id, r, kind, text, span,
                    ));
                }
            }
        }
    }
}
