use super::{Rule, RuleContext, RuleMeta};
use crate::diagnostic::{Finding, Severity};

pub struct DynamicCollectionName;

static META: RuleMeta = RuleMeta {
    id: "dynamic-collection-name",
    name: "DynamicCollectionName",
    summary: "Collection name built from a date or an entity id: one collection per partition",
    default_severity: Severity::Warning,
    precision: "high",
    tags: &["mongodb", "schema-design", "performance"],
    doc: include_str!("../../rules/dynamic-collection-name.md"),
};

impl Rule for DynamicCollectionName {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, _ctx: &RuleContext, _out: &mut Vec<Finding>) {}
}
