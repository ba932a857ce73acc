use super::{Rule, RuleContext, RuleMeta};
use crate::diagnostic::{Finding, Severity};

pub struct SkipPaging;

static META: RuleMeta = RuleMeta {
    id: "skip-paging",
    name: "SkipPaging",
    summary: "Offset paging with a computed skip: page N costs O(N)",
    default_severity: Severity::Warning,
    precision: "high",
    tags: &["mongodb", "schema-design", "performance"],
    doc: include_str!("../../rules/skip-paging.md"),
};

impl Rule for SkipPaging {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, _ctx: &RuleContext, _out: &mut Vec<Finding>) {}
}
