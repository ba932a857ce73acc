use super::{Rule, RuleContext, RuleMeta};
use crate::diagnostic::{Finding, Severity};

pub struct LookupChain;

static META: RuleMeta = RuleMeta {
    id: "lookup-chain",
    name: "LookupChain",
    summary: "Aggregation joins through several $lookup stages (or several populate calls)",
    default_severity: Severity::Warning,
    precision: "high",
    tags: &["mongodb", "schema-design", "performance"],
    doc: include_str!("../../rules/lookup-chain.md"),
};

impl Rule for LookupChain {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, _ctx: &RuleContext, _out: &mut Vec<Finding>) {}
}
