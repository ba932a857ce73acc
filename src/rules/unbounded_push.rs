use super::{Rule, RuleContext, RuleMeta};
use crate::diagnostic::{Finding, Severity};

pub struct UnboundedPush;

static META: RuleMeta = RuleMeta {
    id: "unbounded-push",
    name: "UnboundedPush",
    summary: "Array grows without bound: $push/$addToSet without $slice",
    default_severity: Severity::Warning,
    precision: "high",
    tags: &["mongodb", "schema-design", "performance"],
    doc: include_str!("../../rules/unbounded-push.md"),
};

impl Rule for UnboundedPush {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, _ctx: &RuleContext, _out: &mut Vec<Finding>) {}
}
